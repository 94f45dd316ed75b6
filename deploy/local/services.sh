#!/usr/bin/env bash
# Starts, checks and stops cairn's distributed services as separate processes on loopback,
# against the servers of start.sh:   deploy/local/services.sh start|stop|status
#   gms                 :${GMS_PORT:-8080}   REST, GraphQL, schema registry
#   mce-consumer        :10091              proposals -> MongoDB -> change logs
#   mae-consumer        :10093              change logs -> search and graph indices
#   timeseries-indexer  :10094              time-series change logs -> time-series indices
# The backends' coordinates come from the usual variables (KAFKA_BOOTSTRAP_SERVER, MONGODB_URI,
# ELASTICSEARCH_URL, KAFKA_TOPIC_PREFIX, ELASTICSEARCH_INDEX_PREFIX, MONGODB_DATABASE), which
# default to the local servers. gms runs with authentication on: its secrets (AUTH_SECRETS, lib.sh)
# come from the environment or are generated once into $CAIRN_RUN_DIR/services/auth.env (mode 600);
# `services.sh auth-header` prints the system client's Authorization header (for CAIRN_TEST_AUTH).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

REPO_DIR="$(cd "$CAIRN_LOCAL_DIR/../.." && pwd)"
SERVICES_DIR="$CAIRN_RUN_DIR/services"
GMS_PORT="${GMS_PORT:-8080}"
SERVICES=(mce-consumer mae-consumer timeseries-indexer gms)
AUTH_ENV_FILE="$SERVICES_DIR/auth.env"

random_secret() { head -c 48 /dev/urandom | base64 | tr -dc 'A-Za-z0-9'; }

# Exports each auth secret the environment does not give, from the file (made on first use).
load_auth_env() {
  if [[ ! -f "$AUTH_ENV_FILE" ]]; then
    mkdir -p "$SERVICES_DIR"
    (umask 077 && for name in "${AUTH_SECRETS[@]}"; do echo "$name=$(random_secret)"; done >"$AUTH_ENV_FILE")
  fi
  local name value
  while IFS='=' read -r name value; do
    [[ -n "${!name:-}" ]] || export "$name=$value"
  done <"$AUTH_ENV_FILE"
}

service_port() {
  case "$1" in
    gms) echo "$GMS_PORT" ;;
    mce-consumer) echo 10091 ;;
    mae-consumer) echo 10093 ;;
    timeseries-indexer) echo 10094 ;;
  esac
}

service_pid() {
  local pidfile="$SERVICES_DIR/$1.pid"
  [[ -f "$pidfile" ]] || return 1
  local pid
  pid="$(cat "$pidfile")"
  kill -0 "$pid" 2>/dev/null && echo "$pid"
}

healthy() { curl -fsS -o /dev/null --max-time 3 "http://127.0.0.1:$(service_port "$1")/health" 2>/dev/null; }

start_service() {
  local name="$1" port
  port="$(service_port "$name")"
  if service_pid "$name" >/dev/null; then
    log "$name already running"
    return 0
  fi
  mkdir -p "$SERVICES_DIR"
  : >"$SERVICES_DIR/$name.log"
  (
    cd "$REPO_DIR"
    [[ "$name" != gms ]] || load_auth_env
    PORT="$port" HOST=127.0.0.1 KAFKA_BOOTSTRAP_SERVER="${KAFKA_BOOTSTRAP_SERVER:-127.0.0.1:$KAFKA_PORT}" \
      MONGODB_URI="${MONGODB_URI:-mongodb://127.0.0.1:$MONGO_PORT}" ELASTICSEARCH_URL="${ELASTICSEARCH_URL:-http://127.0.0.1:$ES_PORT}" \
      exec node --single-threaded-gc libs/launcher/launch.cjs "services/$name/src/main.ts" >>"$SERVICES_DIR/$name.log" 2>&1
  ) &
  echo $! >"$SERVICES_DIR/$name.pid"
  local deadline=$((SECONDS + CAIRN_START_TIMEOUT))
  until healthy "$name"; do
    if ! service_pid "$name" >/dev/null || ((SECONDS > deadline)); then
      warn "$name did not become healthy; last lines of its log:"
      tail -n 30 "$SERVICES_DIR/$name.log" | sed 's/^/    /' >&2
      return 1
    fi
    sleep 0.5
  done
  log "$name healthy on :$port"
}

stop_service() {
  local name="$1" pid
  pid="$(service_pid "$name")" || {
    rm -f "$SERVICES_DIR/$name.pid"
    return 0
  }
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + CAIRN_STOP_TIMEOUT))
  while kill -0 "$pid" 2>/dev/null; do
    if ((SECONDS > deadline)); then
      kill -KILL "$pid" 2>/dev/null || true
      break
    fi
    sleep 0.2
  done
  rm -f "$SERVICES_DIR/$name.pid"
  log "$name stopped"
}

case "${1:-}" in
  start)
    for s in "${SERVICES[@]}"; do start_service "$s" || die "could not start $s"; done
    ;;
  stop)
    for s in gms timeseries-indexer mae-consumer mce-consumer; do stop_service "$s"; done
    ;;
  status)
    rc=0
    for s in "${SERVICES[@]}"; do
      if pid="$(service_pid "$s")" && healthy "$s"; then
        printf '%-20s running  pid %-8s :%s healthy\n' "$s" "$pid" "$(service_port "$s")"
      else
        printf '%-20s not healthy\n' "$s"
        rc=3
      fi
    done
    exit "$rc"
    ;;
  auth-header)
    load_auth_env
    printf 'Basic %s:%s\n' "${DATAHUB_SYSTEM_CLIENT_ID:-__datahub_system}" "$DATAHUB_SYSTEM_CLIENT_SECRET"
    ;;
  *) die "usage: $0 start|stop|status|auth-header" ;;
esac

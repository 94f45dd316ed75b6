# shellcheck shell=bash
# Shared functions for deploy/local/{provision,start,stop,status,smoke}.sh.
# Sourced, never executed. See deploy/local/README.md.
#
# Three real servers for local development and integration tests, all on
# loopback, all built from package registries into a cache outside the repo:
#   kafka          Apache Kafka (KRaft, broker+controller), jars from Maven
#   elasticsearch  Elasticsearch 7.10.2 in one JVM via the codelibs cluster runner
#   ferretdb       FerretDB 1.x (MongoDB wire protocol, SQLite backend), built with Go

set -euo pipefail

CAIRN_LOCAL_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# ------------------------------------------------------------ settings ----

_cairn_abspath() {
  case "$1" in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s/%s\n' "$PWD" "$1" ;;
  esac
}

CAIRN_CACHE="$(_cairn_abspath "${CAIRN_CACHE:-${HOME}/.cache/cairn}")"
CAIRN_RUN_DIR="$(_cairn_abspath "${CAIRN_RUN_DIR:-${CAIRN_CACHE}/run}")"
# Private Maven repository, so that provisioning neither depends on nor
# pollutes ~/.m2.
CAIRN_M2_REPO="$(_cairn_abspath "${CAIRN_M2_REPO:-${CAIRN_CACHE}/m2}")"

KAFKA_VERSION="${KAFKA_VERSION:-3.9.2}"
ES_RUNNER_VERSION="${ES_RUNNER_VERSION:-7.10.2.0}"
ES_VERSION="${ES_RUNNER_VERSION%.*}" # runner 7.10.2.0 embeds Elasticsearch 7.10.2
FERRETDB_VERSION="${FERRETDB_VERSION:-v1.24.2}"
FERRETDB_MODULE="github.com/FerretDB/FerretDB"

# The secrets gms needs with authentication on (services.sh generates them; the compose file
# requires them: deploy/docker/check-compose.sh).
AUTH_SECRETS=(DATAHUB_TOKEN_SERVICE_SIGNING_KEY DATAHUB_TOKEN_SERVICE_SALT DATAHUB_SYSTEM_CLIENT_SECRET AUTH_ROOT_PASSWORD)

# Everything listens on loopback only.
CAIRN_HOST="127.0.0.1"
KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
KAFKA_NUM_PARTITIONS="${KAFKA_NUM_PARTITIONS:-1}"
ES_PORT="${ES_PORT:-9200}"
ES_TRANSPORT_PORT="${ES_TRANSPORT_PORT:-9300}"
ES_CLUSTER_NAME="${ES_CLUSTER_NAME:-cairn-local}"
MONGO_PORT="${MONGO_PORT:-27017}"
# FerretDB's HTTP debug/metrics listener; "-" disables it.
FERRETDB_DEBUG_ADDR="${FERRETDB_DEBUG_ADDR:--}"

KAFKA_HEAP="${KAFKA_HEAP:-512m}"
ES_HEAP="${ES_HEAP:-1g}"

CAIRN_START_TIMEOUT="${CAIRN_START_TIMEOUT:-180}" # seconds until a server must be healthy
CAIRN_STOP_TIMEOUT="${CAIRN_STOP_TIMEOUT:-30}"    # seconds between SIGTERM and SIGKILL

CAIRN_COMPONENTS_ALL=(kafka elasticsearch ferretdb)
CAIRN_LOCK_FDS=() # lock file descriptors held by this process (see with_lock)

JAVA="${JAVA_HOME:+${JAVA_HOME}/bin/}java"
JAVAC="${JAVA_HOME:+${JAVA_HOME}/bin/}javac"

# ------------------------------------------------------------- logging ----

log() { printf '[cairn-local] %s\n' "$*" >&2; }
warn() { printf '[cairn-local] WARNING: %s\n' "$*" >&2; }
die() {
  printf '[cairn-local] ERROR: %s\n' "$*" >&2
  exit 1
}

# Runs "$@" with stdout+stderr appended to a log file; on failure prints the
# tail of that log and returns the command's status.
run_logged() {
  local logfile="$1"
  shift
  local rc=0
  printf '\n$ %s\n' "$*" >>"$logfile"
  "$@" >>"$logfile" 2>&1 || rc=$?
  if ((rc != 0)); then
    printf '[cairn-local] command failed (exit %d): %s\n' "$rc" "$*" >&2
    printf '[cairn-local] last lines of %s:\n' "$logfile" >&2
    tail -n 40 "$logfile" | sed 's/^/    /' >&2
  fi
  return "$rc"
}

now_s() { date +%s; }

# ---------------------------------------------------------- components ----

usage_components() {
  printf 'components: kafka | elasticsearch (es) | ferretdb (mongo) | all (default)\n'
}

# Resolves command-line words into the array COMPONENTS (deduplicated, in
# canonical order).
resolve_components() {
  local want=() arg c
  if (($# == 0)); then
    set -- all
  fi
  for arg in "$@"; do
    case "$arg" in
      all) want+=("${CAIRN_COMPONENTS_ALL[@]}") ;;
      kafka) want+=(kafka) ;;
      elasticsearch | es) want+=(elasticsearch) ;;
      ferretdb | mongo | mongodb) want+=(ferretdb) ;;
      -h | --help)
        usage_components
        exit 0
        ;;
      *) die "unknown component '$arg'; $(usage_components)" ;;
    esac
  done
  COMPONENTS=()
  for c in "${CAIRN_COMPONENTS_ALL[@]}"; do
    if [[ " ${want[*]} " == *" $c "* ]]; then
      COMPONENTS+=("$c")
    fi
  done
}

# For scripts that act on components one by one: with more than one
# component, runs the calling script once per component in a child process
# and exits with the overall result. A failure of one component then does
# not prevent the others, and `set -e` stays fully in force inside each run
# (it would be silently ignored inside a function called as `f || ...`).
# Returns (and lets the caller continue) when there is a single component.
# Usage: dispatch_components "$0" <verb for the summary>
dispatch_components() {
  local script="$1" verb="$2" c failed=()
  ((${#COMPONENTS[@]} > 1)) || return 0
  for c in "${COMPONENTS[@]}"; do
    "$BASH" "$script" "$c" || failed+=("$c")
  done
  if ((${#failed[@]} > 0)); then
    die "$verb failed for: ${failed[*]}"
  fi
  exit 0
}

# Directory holding the provisioned artifacts of a component.
component_home() {
  case "$1" in
    kafka) printf '%s/kafka/%s\n' "$CAIRN_CACHE" "$KAFKA_VERSION" ;;
    elasticsearch) printf '%s/elasticsearch/%s\n' "$CAIRN_CACHE" "$ES_RUNNER_VERSION" ;;
    ferretdb) printf '%s/ferretdb/%s\n' "$CAIRN_CACHE" "$FERRETDB_VERSION" ;;
    *) die "internal: unknown component $1" ;;
  esac
}

component_run_dir() { printf '%s/%s\n' "$CAIRN_RUN_DIR" "$1"; }
component_pid_file() { printf '%s/%s/%s.pid\n' "$CAIRN_RUN_DIR" "$1" "$1"; }
component_log_file() { printf '%s/%s/%s.log\n' "$CAIRN_RUN_DIR" "$1" "$1"; }

# All TCP ports a component binds.
component_ports() {
  case "$1" in
    kafka) printf '%s %s\n' "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT" ;;
    elasticsearch) printf '%s %s\n' "$ES_PORT" "$ES_TRANSPORT_PORT" ;;
    ferretdb) printf '%s\n' "$MONGO_PORT" ;;
  esac
}

component_url() {
  case "$1" in
    kafka) printf '%s:%s\n' "$CAIRN_HOST" "$KAFKA_PORT" ;;
    elasticsearch) printf 'http://%s:%s\n' "$CAIRN_HOST" "$ES_PORT" ;;
    ferretdb) printf 'mongodb://%s:%s/\n' "$CAIRN_HOST" "$MONGO_PORT" ;;
  esac
}

# ------------------------------------------------------------- prereqs ----

require_cmd() {
  local cmd
  for cmd in "$@"; do
    command -v "$cmd" >/dev/null 2>&1 || die "'$cmd' is required but not on PATH"
  done
}

require_java() {
  require_cmd "$JAVA"
  local v major
  v="$("$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')"
  major="${v#1.}"
  major="${major%%.*}"
  [[ "$major" =~ ^[0-9]+$ ]] || die "cannot determine the Java version of $JAVA"
  ((major >= 17)) || die "Java 17 or newer is required (found $v at $JAVA)"
}

component_prereqs() {
  case "$1" in
    kafka)
      require_java
      require_cmd mvn "$JAVAC"
      ;;
    elasticsearch)
      require_java
      require_cmd mvn "$JAVAC" curl
      ;;
    ferretdb) require_cmd go node ;;
  esac
}

# Prerequisites for running (not building) a component.
component_runtime_prereqs() {
  case "$1" in
    kafka) require_java ;;
    elasticsearch)
      require_java
      require_cmd curl
      ;;
    ferretdb) require_cmd node ;;
  esac
}

# ---------------------------------------------------------- provisioning ----

# A fingerprint of everything a component's build depends on. A provisioned
# component stores it; a different value means "rebuild".
component_fingerprint() {
  local c="$1"
  {
    printf 'component=%s\n' "$c"
    case "$c" in
      kafka)
        printf 'version=%s\n' "$KAFKA_VERSION"
        cat "$CAIRN_LOCAL_DIR/kafka/pom.xml" "$CAIRN_LOCAL_DIR/kafka/KafkaHealth.java"
        ;;
      elasticsearch)
        printf 'version=%s\n' "$ES_RUNNER_VERSION"
        cat "$CAIRN_LOCAL_DIR/elasticsearch/pom.xml" "$CAIRN_LOCAL_DIR/elasticsearch/EsRunner.java"
        ;;
      ferretdb)
        printf 'version=%s\n' "$FERRETDB_VERSION"
        cat "$CAIRN_LOCAL_DIR/ferretdb/sqlite-id-index.patch"
        ;;
    esac
  } | sha256sum | cut -d' ' -f1
}

is_provisioned() {
  local c="$1" home stamp
  home="$(component_home "$c")"
  stamp="$home/.provisioned"
  [[ -f "$stamp" ]] && [[ "$(cat "$stamp")" == "$(component_fingerprint "$c")" ]]
}

# Serializes an action across concurrent invocations of these scripts.
# Usage: with_lock <lock file> <what, for the waiting message> <function> [args...]
with_lock() {
  local lockfile="$1" what="$2" fd
  shift 2
  mkdir -p "$(dirname "$lockfile")"
  exec {fd}>"$lockfile"
  CAIRN_LOCK_FDS+=("$fd")
  if ! flock -n "$fd"; then
    log "$what: waiting for another run to finish (lock $lockfile)"
    flock "$fd"
  fi
  # Called plainly (not in an if/||/&& context) so that `set -e` keeps
  # working inside; on failure the process exits and the lock goes with it.
  "$@"
  exec {fd}>&-
  unset 'CAIRN_LOCK_FDS[-1]'
}

provision_component() {
  local c="$1"
  if is_provisioned "$c"; then
    log "$c: already provisioned in $(component_home "$c")"
    return 0
  fi
  component_prereqs "$c"
  with_lock "$CAIRN_CACHE/.provision-$c.lock" "$c" _provision_locked "$c"
}

_provision_locked() {
  local c="$1"
  # Another process may have finished the job while we waited for the lock.
  if is_provisioned "$c"; then
    log "$c: already provisioned in $(component_home "$c")"
    return 0
  fi
  local home staging logfile t0
  home="$(component_home "$c")"
  staging="$home.partial"
  logfile="$CAIRN_CACHE/logs/provision-$c.log"
  mkdir -p "$CAIRN_CACHE/logs" "$(dirname "$home")"
  rm -rf "$staging"
  mkdir -p "$staging"
  : >"$logfile"
  t0="$(now_s)"
  log "$c: provisioning into $home (log: $logfile)"
  "_provision_$c" "$staging" "$logfile"
  component_fingerprint "$c" >"$staging/.provisioned"
  rm -rf "$home"
  mv "$staging" "$home"
  log "$c: provisioned in $(($(now_s) - t0)) s"
}

# Resolves the runtime dependencies of a manifest pom into <dest>/lib.
_maven_copy_deps() {
  local pom_src="$1" dest="$2" logfile="$3"
  shift 3
  mkdir -p "$dest/build" "$CAIRN_M2_REPO"
  cp "$pom_src" "$dest/build/pom.xml"
  run_logged "$logfile" mvn -B -ntp \
    -Dmaven.repo.local="$CAIRN_M2_REPO" \
    -f "$dest/build/pom.xml" \
    "$@" \
    org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies \
    -DincludeScope=runtime \
    -DoutputDirectory="$dest/lib" ||
    die "Maven could not resolve the dependencies in $pom_src (see above)"
  rm -rf "$dest/build"
}

_provision_kafka() {
  local dest="$1" logfile="$2"
  log "kafka: resolving org.apache.kafka:kafka_2.13:$KAFKA_VERSION and runtime dependencies"
  _maven_copy_deps "$CAIRN_LOCAL_DIR/kafka/pom.xml" "$dest" "$logfile" -Dkafka.version="$KAFKA_VERSION"
  [[ -f "$dest/lib/kafka_2.13-$KAFKA_VERSION.jar" ]] || die "kafka: kafka_2.13-$KAFKA_VERSION.jar missing after resolution"
  log "kafka: compiling the health check"
  mkdir -p "$dest/classes"
  run_logged "$logfile" "$JAVAC" -nowarn -d "$dest/classes" -cp "$dest/lib/*" \
    "$CAIRN_LOCAL_DIR/kafka/KafkaHealth.java" || die "kafka: compiling KafkaHealth.java failed"
}

_provision_elasticsearch() {
  local dest="$1" logfile="$2"
  log "elasticsearch: resolving org.codelibs:elasticsearch-cluster-runner:$ES_RUNNER_VERSION (Elasticsearch $ES_VERSION + modules)"
  _maven_copy_deps "$CAIRN_LOCAL_DIR/elasticsearch/pom.xml" "$dest" "$logfile" -Des.runner.version="$ES_RUNNER_VERSION"
  local jar
  for jar in "elasticsearch-$ES_VERSION" "transport-netty4-$ES_VERSION" "reindex-$ES_VERSION" \
    "lang-painless-$ES_VERSION" "analysis-common-$ES_VERSION" "mapper-extras-$ES_VERSION"; do
    [[ -f "$dest/lib/$jar.jar" ]] || die "elasticsearch: $jar.jar missing after resolution"
  done
  log "elasticsearch: compiling the node launcher"
  mkdir -p "$dest/classes"
  run_logged "$logfile" "$JAVAC" -nowarn -d "$dest/classes" -cp "$dest/lib/*" \
    "$CAIRN_LOCAL_DIR/elasticsearch/EsRunner.java" || die "elasticsearch: compiling EsRunner.java failed"
}

# Environment for every go invocation: module and build caches inside the
# cairn cache, no workspace, no cgo (the SQLite driver is pure Go).
_go() {
  env GOMODCACHE="$CAIRN_CACHE/go/mod" \
    GOCACHE="$CAIRN_CACHE/go/build" \
    GOFLAGS="-mod=mod -buildvcs=false" \
    GOWORK=off \
    GOTOOLCHAIN="${GOTOOLCHAIN:-local}" \
    CGO_ENABLED=0 \
    go "$@"
}

_provision_ferretdb() {
  local dest="$1" logfile="$2" info moddir commit
  log "ferretdb: downloading module $FERRETDB_MODULE@$FERRETDB_VERSION"
  info="$dest/module.json"
  if ! _go mod download -json "$FERRETDB_MODULE@$FERRETDB_VERSION" >"$info" 2>>"$logfile"; then
    cat "$info" >>"$logfile"
    print_log_tail "$logfile" 20
    die "ferretdb: 'go mod download $FERRETDB_MODULE@$FERRETDB_VERSION' failed"
  fi
  moddir="$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p' "$info")"
  commit="$(sed -n 's/^[[:space:]]*"Hash": "\(.*\)",\{0,1\}$/\1/p' "$info")"
  [[ -n "$moddir" && -d "$moddir" ]] || die "ferretdb: module directory not found (see $info)"

  # The module cache is read-only and the module zip lacks the generated
  # build/version/*.txt files, so build from a writable copy.
  local src="$dest/src"
  cp -R "$moddir" "$src"
  chmod -R u+w "$src"
  printf '%s\n' "$FERRETDB_VERSION" >"$src/build/version/version.txt"
  if [[ -n "$commit" ]]; then
    printf '%s\n' "$commit" >"$src/build/version/commit.txt"
  fi
  # Lookups by _id use the table's _id index (see the patch's header); a version it does not fit fails here.
  (cd "$src" && run_logged "$logfile" git apply -p1 "$CAIRN_LOCAL_DIR/ferretdb/sqlite-id-index.patch") ||
    die "ferretdb: deploy/local/ferretdb/sqlite-id-index.patch does not apply to $FERRETDB_VERSION"

  log "ferretdb: building $FERRETDB_VERSION with $(go version | cut -d' ' -f3) (the first build takes a few minutes)"
  mkdir -p "$dest/bin"
  (cd "$src" && run_logged "$logfile" _go build -trimpath -o "$dest/bin/ferretdb" ./cmd/ferretdb) ||
    die "ferretdb: go build failed"
  run_logged "$logfile" "$dest/bin/ferretdb" --version || die "ferretdb: the built binary does not run"
  rm -rf "$src"
}

# ---------------------------------------------------------------- process ----

# True if the process exists and is not a zombie.
pid_alive() {
  local pid="$1" state
  kill -0 "$pid" 2>/dev/null || return 1
  state="$({ sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$pid/status"; } 2>/dev/null || true)"
  [[ "$state" != Z ]]
}

# Prints the PID of a running component, or returns 1. The PID file is only
# trusted when the process still carries the component's marker on its
# command line (protects against PID reuse after a crash or reboot).
component_pid() {
  local c="$1" pidfile pid
  pidfile="$(component_pid_file "$c")"
  [[ -f "$pidfile" ]] || return 1
  pid="$(cat "$pidfile" 2>/dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  pid_alive "$pid" || return 1
  local cmdline
  cmdline="$({ tr '\0' ' ' <"/proc/$pid/cmdline"; } 2>/dev/null || true)"
  case "$c" in
    ferretdb) [[ "$cmdline" == *"$(component_home ferretdb)/bin/ferretdb"* ]] || return 1 ;;
    *) [[ "$cmdline" == *"-Dcairn.local.component=$c "* ]] || return 1 ;;
  esac
  printf '%s\n' "$pid"
}

# True if something accepts TCP connections on 127.0.0.1:<port>.
port_open() {
  (exec 3<>"/dev/tcp/$CAIRN_HOST/$1") 2>/dev/null
}

# ---------------------------------------------------------------- health ----

kafka_classpath() {
  local home
  home="$(component_home kafka)"
  printf '%s/classes:%s/lib/*\n' "$home" "$home"
}

# Runs a Kafka command-line class with the tools logging config, killed
# after <seconds>. Usage: kafka_tool_timed <seconds> <main class> [args...]
kafka_tool_timed() {
  local seconds="$1"
  shift
  timeout "$seconds" "$JAVA" -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true \
    -Dlog4j.configuration="file:$CAIRN_LOCAL_DIR/kafka/log4j-tools.properties" \
    -cp "$(kafka_classpath)" "$@"
}

kafka_tool() { kafka_tool_timed 300 "$@"; }

# Reports a closed port on stderr (shown when a start times out).
require_port_open() {
  port_open "$1" || {
    printf 'nothing accepts connections on %s:%s\n' "$CAIRN_HOST" "$1" >&2
    return 1
  }
}

health_kafka() {
  require_port_open "$KAFKA_PORT" || return 1
  # KafkaHealth has its own request timeouts; this also bounds JVM startup.
  kafka_tool_timed 45 KafkaHealth "$CAIRN_HOST:$KAFKA_PORT" check
}

es_get() {
  curl -fsS --max-time 10 "http://$CAIRN_HOST:$ES_PORT$1"
}

health_elasticsearch() {
  require_port_open "$ES_PORT" || return 1
  local body status version
  body="$(es_get '/_cluster/health?timeout=5s')" || return 1
  status="$(printf '%s' "$body" | sed -n 's/.*"status":"\([a-z]*\)".*/\1/p')"
  if [[ "$status" != green && "$status" != yellow ]]; then
    printf 'cluster health is %s\n' "${status:-unknown}" >&2
    return 1
  fi
  version="$(es_get / 2>/dev/null | tr -d ' \n' | sed -n 's/.*"number":"\([^"]*\)".*/\1/p')"
  printf 'elasticsearch ok: version=%s cluster_status=%s\n' "${version:-?}" "$status"
}

health_ferretdb() {
  require_port_open "$MONGO_PORT" || return 1
  node "$CAIRN_LOCAL_DIR/tools/mongo-check.mjs" --host "$CAIRN_HOST" --port "$MONGO_PORT" ping
}

# Health check output goes to stdout; failures are quiet unless verbose=1.
component_healthy() {
  local c="$1" verbose="${2:-0}"
  if ((verbose)); then
    "health_$c"
  else
    "health_$c" 2>/dev/null
  fi
}

# ---------------------------------------------------------------- start ----

write_kafka_config() {
  local rd="$1"
  cat >"$rd/server.properties" <<EOF
# Generated by deploy/local/start.sh on every start; edits are overwritten.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@$CAIRN_HOST:$KAFKA_CONTROLLER_PORT
controller.listener.names=CONTROLLER
listeners=PLAINTEXT://$CAIRN_HOST:$KAFKA_PORT,CONTROLLER://$CAIRN_HOST:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://$CAIRN_HOST:$KAFKA_PORT
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$rd/data

# single node
num.partitions=$KAFKA_NUM_PARTITIONS
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=10
auto.create.topics.enable=true
delete.topic.enable=true
group.initial.rebalance.delay.ms=0
num.network.threads=2
num.io.threads=4
log.retention.hours=168
log.segment.bytes=104857600
EOF
}

launch_kafka() {
  local rd="$1" logfile="$2" home
  home="$(component_home kafka)"
  mkdir -p "$rd/data" "$rd/logs"
  write_kafka_config "$rd"
  if [[ ! -f "$rd/data/meta.properties" ]]; then
    local cluster_id
    cluster_id="$(kafka_tool kafka.tools.StorageTool random-uuid)" || die "kafka: could not generate a cluster id"
    log "kafka: formatting storage in $rd/data (cluster id $cluster_id)"
    run_logged "$logfile" kafka_tool kafka.tools.StorageTool format \
      -t "$cluster_id" -c "$rd/server.properties" --ignore-formatted ||
      die "kafka: formatting the storage directory failed"
  fi
  _spawn kafka "$logfile" "$JAVA" \
    "-Dcairn.local.component=kafka" \
    "-Xms$KAFKA_HEAP" "-Xmx$KAFKA_HEAP" \
    -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 \
    -Djava.awt.headless=true \
    "-Dkafka.logs.dir=$rd/logs" \
    "-Dlog4j.configuration=file:$CAIRN_LOCAL_DIR/kafka/log4j-server.properties" \
    -cp "$home/lib/*" \
    kafka.Kafka "$rd/server.properties"
}

launch_elasticsearch() {
  local rd="$1" logfile="$2" home
  home="$(component_home elasticsearch)"
  mkdir -p "$rd/home" "$rd/tmp"
  # JVM flags follow the jvm.options shipped with Elasticsearch 7.10.
  _spawn elasticsearch "$logfile" "$JAVA" \
    "-Dcairn.local.component=elasticsearch" \
    "-Xms$ES_HEAP" "-Xmx$ES_HEAP" \
    -XX:+UseG1GC -XX:G1ReservePercent=25 -XX:InitiatingHeapOccupancyPercent=30 \
    -Djava.awt.headless=true -Dfile.encoding=UTF-8 -Djna.nosys=true \
    -XX:-OmitStackTraceInFastThrow \
    -Dio.netty.noUnsafe=true -Dio.netty.noKeySetOptimization=true -Dio.netty.recycler.maxCapacityPerThread=0 \
    -Dio.netty.allocator.numDirectArenas=0 \
    -Dlog4j.shutdownHookEnabled=false -Dlog4j2.disable.jmx=true \
    -Djava.locale.providers=SPI,COMPAT \
    "-Djava.io.tmpdir=$rd/tmp" \
    -Des.distribution.flavor=default -Des.distribution.type=tar \
    "-Dcairn.es.basePath=$rd/home" \
    "-Dcairn.es.httpPort=$ES_PORT" \
    "-Dcairn.es.transportPort=$ES_TRANSPORT_PORT" \
    "-Dcairn.es.host=$CAIRN_HOST" \
    "-Dcairn.es.clusterName=$ES_CLUSTER_NAME" \
    -cp "$home/classes:$home/lib/*" \
    EsRunner
}

launch_ferretdb() {
  local rd="$1" logfile="$2" home
  home="$(component_home ferretdb)"
  mkdir -p "$rd/data" "$rd/state"
  _spawn ferretdb "$logfile" "$home/bin/ferretdb" \
    --handler=sqlite \
    "--sqlite-url=file:$rd/data/" \
    "--listen-addr=$CAIRN_HOST:$MONGO_PORT" \
    "--state-dir=$rd/state" \
    "--debug-addr=$FERRETDB_DEBUG_ADDR" \
    --telemetry=disable \
    --log-level=info
}

# Starts "$@" detached from this shell (own session, no stdin), appending
# its output to the log file, and records its PID.
_spawn() {
  local c="$1" logfile="$2"
  shift 2
  printf '\n===== %s: starting %s =====\n' "$(date -u '+%Y-%m-%dT%H:%M:%SZ')" "$c" >>"$logfile"
  printf '$ %s\n' "$*" >>"$logfile"
  (
    # The server must not inherit our lock file descriptors: it would hold
    # the locks for as long as it runs.
    local fd
    for fd in "${CAIRN_LOCK_FDS[@]}"; do
      exec {fd}>&-
    done
    exec setsid "$@" </dev/null >>"$logfile" 2>&1
  ) &
  printf '%s\n' "$!" >"$(component_pid_file "$c")"
}

# Prints the last lines of a log file, starting at byte offset <from> (so
# that only the output of the current start attempt is shown).
print_log_tail() {
  local logfile="$1" lines="${2:-60}" from="${3:-0}"
  if [[ -f "$logfile" ]]; then
    printf '[cairn-local] last lines (up to %d) of %s:\n' "$lines" "$logfile" >&2
    tail -c "+$((from + 1))" "$logfile" | tail -n "$lines" | cut -c1-400 | sed 's/^/    /' >&2
  fi
}

# Waits until the component is healthy. Fails early if its process exits.
# <log_offset>: size of the log file before this start attempt.
wait_healthy() {
  local c="$1" t0="$2" log_offset="${3:-0}" deadline out
  deadline=$((t0 + CAIRN_START_TIMEOUT))
  local pid
  pid="$(cat "$(component_pid_file "$c")")"
  while :; do
    # The PID file was just written by _spawn; check the bare process (its
    # command line may not show the exec'd server for a few milliseconds).
    if ! pid_alive "$pid"; then
      log "$c: the server process exited during startup"
      print_log_tail "$(component_log_file "$c")" 60 "$log_offset"
      return 1
    fi
    if out="$(component_healthy "$c")"; then
      log "$c: healthy after $(($(now_s) - t0)) s at $(component_url "$c") — $out"
      return 0
    fi
    if (($(now_s) >= deadline)); then
      log "$c: not healthy after ${CAIRN_START_TIMEOUT} s; last health check said:"
      component_healthy "$c" 1 2>&1 | sed 's/^/    /' >&2 || true
      print_log_tail "$(component_log_file "$c")" 60 "$log_offset"
      return 1
    fi
    sleep 1
  done
}

start_component() {
  with_lock "$CAIRN_RUN_DIR/.start-$1.lock" "$1" _start_locked "$1"
}

_start_locked() {
  local c="$1" pid t0 rd logfile port out
  rd="$(component_run_dir "$c")"
  logfile="$(component_log_file "$c")"
  mkdir -p "$rd"

  if pid="$(component_pid "$c")"; then
    if out="$(component_healthy "$c")"; then
      log "$c: already running (pid $pid) and healthy — $out"
      return 0
    fi
    log "$c: already running (pid $pid) but not healthy yet; waiting"
    wait_healthy "$c" "$(now_s)"
    return
  fi
  rm -f "$(component_pid_file "$c")"

  provision_component "$c"
  component_runtime_prereqs "$c"

  for port in $(component_ports "$c"); do
    if port_open "$port"; then
      die "$c: port $CAIRN_HOST:$port is already in use by another process (not started by these scripts); stop it or choose other ports (see deploy/local/README.md)"
    fi
  done

  local log_offset=0
  if [[ -f "$logfile" ]]; then
    log_offset="$(stat -c %s "$logfile")"
  fi
  t0="$(now_s)"
  log "$c: starting (log: $logfile)"
  "launch_$c" "$rd" "$logfile"
  if ! wait_healthy "$c" "$t0" "$log_offset"; then
    log "$c: startup failed; stopping the unhealthy process"
    stop_component "$c" >/dev/null 2>&1 || true
    return 1
  fi
}

# ---------------------------------------------------------------- stop ----

stop_component() {
  local c="$1" pid pidfile deadline
  pidfile="$(component_pid_file "$c")"
  if ! pid="$(component_pid "$c")"; then
    rm -f "$pidfile"
    log "$c: not running"
    return 0
  fi
  log "$c: stopping pid $pid (SIGTERM, SIGKILL after ${CAIRN_STOP_TIMEOUT} s)"
  kill -TERM "$pid" 2>/dev/null || true
  deadline=$(($(now_s) + CAIRN_STOP_TIMEOUT))
  while pid_alive "$pid"; do
    if (($(now_s) >= deadline)); then
      warn "$c: still running after ${CAIRN_STOP_TIMEOUT} s; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      sleep 1
      break
    fi
    sleep 0.5
  done
  if pid_alive "$pid"; then
    die "$c: pid $pid did not exit"
  fi
  rm -f "$pidfile"
  log "$c: stopped"
}

# ---------------------------------------------------------------- status ----

# Prints one status line; returns 0 only if running and healthy.
status_component() {
  local c="$1" pid out prov
  if is_provisioned "$c"; then prov="provisioned"; else prov="not provisioned"; fi
  if pid="$(component_pid "$c")"; then
    if out="$(component_healthy "$c")"; then
      printf '%-14s running  pid %-8s %-32s healthy: %s\n' "$c" "$pid" "$(component_url "$c")" "$out"
      return 0
    fi
    printf '%-14s running  pid %-8s %-32s NOT healthy (log: %s)\n' "$c" "$pid" "$(component_url "$c")" "$(component_log_file "$c")"
    return 1
  fi
  printf '%-14s stopped  %-12s %-32s (%s)\n' "$c" "" "$(component_url "$c")" "$prov"
  return 1
}

# ---------------------------------------------------------------- smoke ----

# Functional checks against a running server (beyond the health check).
smoke_kafka() { kafka_tool KafkaHealth "$CAIRN_HOST:$KAFKA_PORT" smoke; }
smoke_elasticsearch() {
  require_cmd node
  node "$CAIRN_LOCAL_DIR/tools/es-check.mjs" --url "$(component_url elasticsearch)" --expect-version "$ES_VERSION"
}
smoke_ferretdb() {
  require_cmd node
  node "$CAIRN_LOCAL_DIR/tools/mongo-check.mjs" --host "$CAIRN_HOST" --port "$MONGO_PORT" smoke
}

smoke_component() {
  local c="$1"
  component_pid "$c" >/dev/null || die "$c: not running (start it with deploy/local/start.sh $c)"
  log "$c: running smoke checks against $(component_url "$c")"
  "smoke_$c" || die "$c: smoke checks failed"
}

#!/usr/bin/env bash
# Checks docker-compose.yml without a Docker engine: builds compose-check/ (the Compose
# Specification's loader, from the Go module proxy, into the cairn cache) and loads the file
#   1. with placeholder secrets: it must resolve, and every build's Dockerfile must exist;
#   2. without them: it must refuse, naming each secret gms needs.
# Usage: deploy/docker/check-compose.sh [docker-compose.yml]
set -euo pipefail
# shellcheck source=../local/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../local/lib.sh"

DOCKER_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
compose_file="${1:-$DOCKER_DIR/../../docker-compose.yml}"
checker="$CAIRN_CACHE/compose-check/$(cat "$DOCKER_DIR"/compose-check/{go.mod,go.sum,main.go} | sha256sum | cut -c1-16)"

if [[ ! -x "$checker" ]]; then
  log "compose-check: building"
  mkdir -p "$(dirname "$checker")"
  (cd "$DOCKER_DIR/compose-check" && _go build -o "$checker" .)
fi

placeholders=()
unset_secrets=()
for name in "${AUTH_SECRETS[@]}"; do
  placeholders+=("$name=placeholder-secret-of-at-least-32-characters")
  unset_secrets+=(-u "$name")
done
resolved="$(env "${placeholders[@]}" "$checker" "$compose_file")" || die "compose-check: $compose_file does not load"
services="$(sed -n '/^services:/,/^[a-z]/s/^  \([a-z-]*\):$/\1/p' <<<"$resolved" | tr '\n' ' ')"
log "compose-check: $compose_file loads: $services"

refusal="$(env "${unset_secrets[@]}" "$checker" "$compose_file" 2>&1)" &&
  die "compose-check: $compose_file loads without gms's secrets"
for name in "${AUTH_SECRETS[@]}"; do
  grep -q "$name" <<<"$refusal" || die "compose-check: the refusal does not name $name: $refusal"
done
log "compose-check: without the secrets it refuses, naming each of them"

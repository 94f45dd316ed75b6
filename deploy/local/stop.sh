#!/usr/bin/env bash
# Stops the local servers started by start.sh: SIGTERM, then SIGKILL after
# CAIRN_STOP_TIMEOUT (default 30 s). Stopping a stopped server is a no-op.
# Data stays in CAIRN_RUN_DIR; delete that directory for a clean slate.
# Usage: deploy/local/stop.sh [kafka|elasticsearch|ferretdb|all]...
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

resolve_components "$@"
dispatch_components "${BASH_SOURCE[0]}" "stop"
stop_component "${COMPONENTS[0]}"

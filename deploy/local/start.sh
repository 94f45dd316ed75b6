#!/usr/bin/env bash
# Provisions (if needed) and starts the local servers in the background on
# loopback, then waits until each one is healthy (CAIRN_START_TIMEOUT,
# default 180 s). A server that is already running is left alone.
# Usage: deploy/local/start.sh [kafka|elasticsearch|ferretdb|all]...
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

resolve_components "$@"
dispatch_components "${BASH_SOURCE[0]}" "start"
start_component "${COMPONENTS[0]}"

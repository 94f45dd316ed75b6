#!/usr/bin/env bash
# Shows whether each local server is provisioned, running and healthy.
# Exit status: 0 if every requested server is running and healthy, 3 if not.
# Usage: deploy/local/status.sh [kafka|elasticsearch|ferretdb|all]...
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

resolve_components "$@"
printf 'cache: %s\nrun:   %s\n' "$CAIRN_CACHE" "$CAIRN_RUN_DIR"
rc=0
for c in "${COMPONENTS[@]}"; do
  status_component "$c" || rc=3
done
exit "$rc"

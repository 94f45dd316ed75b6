#!/usr/bin/env bash
# Functional checks against running local servers, beyond the health check:
#   kafka          create a topic, produce, consume through a group, delete
#   elasticsearch  version, painless, _update_by_query, _reindex,
#                  _delete_by_query?wait_for_completion=false + tasks API
#   ferretdb       ping, buildInfo, insert/find/update/delete/count
# Usage: deploy/local/smoke.sh [kafka|elasticsearch|ferretdb|all]...
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

resolve_components "$@"
dispatch_components "${BASH_SOURCE[0]}" "smoke checks"
smoke_component "${COMPONENTS[0]}"

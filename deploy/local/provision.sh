#!/usr/bin/env bash
# Downloads, caches and builds the local servers (nothing is started).
# Usage: deploy/local/provision.sh [kafka|elasticsearch|ferretdb|all]...
# A component that is already provisioned is skipped, so re-runs are fast.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

resolve_components "$@"
dispatch_components "${BASH_SOURCE[0]}" "provisioning"
provision_component "${COMPONENTS[0]}"

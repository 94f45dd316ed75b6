#!/usr/bin/env bash
# Installs the reference's Python client (acryl-datahub 0.10.4.x: CLI, REST emitter, graph client)
# into a cached virtualenv, for the compatibility tests. Idempotent.
set -euo pipefail
VENV="${CAIRN_PY_VENV:-${CAIRN_CACHE:-$HOME/.cache/cairn}/py/venv}"
VERSION="${DATAHUB_CLIENT_VERSION:-0.10.4.3}"
if [ -x "$VENV/bin/datahub" ] && "$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('acryl-datahub') != '$VERSION')"; then
  echo "acryl-datahub $VERSION already in $VENV"
  exit 0
fi
python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet --disable-pip-version-check "acryl-datahub==$VERSION"
echo "installed acryl-datahub $VERSION into $VENV"

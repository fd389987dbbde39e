# Sourced by the ci/*.sh scripts: creates (or reuses) the virtual environment $DYNG_VENV (default
# .venv) with the build and test requirements, then installs dyng from this checkout into it.
# shellcheck source=ci/find_python.sh
source "$(dirname "${BASH_SOURCE[0]}")/find_python.sh"

dyng_log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

dyng_setup_venv() {
  DYNG_VENV=${DYNG_VENV:-.venv}
  dyng_find_python
  if [ ! -x "$DYNG_VENV/bin/python" ] || ! dyng_python_ok "$DYNG_VENV/bin/python"; then
    dyng_log "creating $DYNG_VENV with $DYNG_PYTHON ($("$DYNG_PYTHON" --version))"
    rm -rf "$DYNG_VENV"
    "$DYNG_PYTHON" -m venv "$DYNG_VENV"
  fi
  PY="$DYNG_VENV/bin/python"
  export PY
  dyng_log "installing build and test requirements into $DYNG_VENV"
  "$PY" -m pip install -q --upgrade pip
  "$PY" -m pip install -q -r ci/requirements-dev.txt
  dyng_log "building and installing dyng from $(pwd) (C++ compile: a few minutes on 2 cores)"
  "$PY" -m pip install -q --no-build-isolation --no-deps .
}

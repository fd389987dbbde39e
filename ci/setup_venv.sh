# Sourced by the ci/*.sh scripts: creates (or reuses) the virtual environment $DYNG_VENV (default
# .venv) with a requirements file's packages (dyng_setup_venv [FILE]; default
# ci/requirements-dev.txt, the build and test requirements; the main job passes
# ci/requirements-main.txt, which the development file includes), then installs dyng from this
# checkout into it.
# shellcheck source=ci/find_python.sh
source "$(dirname "${BASH_SOURCE[0]}")/find_python.sh"

dyng_log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

dyng_setup_venv() {
  local requirements=${1:-ci/requirements-dev.txt}
  DYNG_VENV=${DYNG_VENV:-.venv}
  dyng_find_python
  if [ ! -x "$DYNG_VENV/bin/python" ] || ! dyng_python_ok "$DYNG_VENV/bin/python"; then
    dyng_log "creating $DYNG_VENV with $DYNG_PYTHON ($("$DYNG_PYTHON" --version))"
    rm -rf "$DYNG_VENV"
    "$DYNG_PYTHON" -m venv "$DYNG_VENV"
  fi
  PY="$DYNG_VENV/bin/python"
  export PY
  dyng_log "installing $requirements into $DYNG_VENV"
  "$PY" -m pip install -q --upgrade pip
  "$PY" -m pip install -q -r "$requirements"
  dyng_log "building and installing dyng from $(pwd) (the C++ core compiles in about a minute on 2 idle cores)"
  "$PY" -m pip install -q --no-build-isolation --no-deps .
}

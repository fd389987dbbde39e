#!/usr/bin/env bash
# The test command: builds libdyng's C++ suites (ctest -L cpu) and the Python package, then runs
# the Python suites (GPU tests skip where no GPU is visible). Usage: ci/test.sh [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/setup_venv.sh
dyng_setup_venv

bin="$(pwd)/$DYNG_VENV/bin"
dyng_log "configuring the C++ test build (preset dev)"
"$bin/cmake" --preset dev -DCMAKE_MAKE_PROGRAM="$bin/ninja" >/dev/null
dyng_log "building the C++ test build"
"$bin/cmake" --build --preset dev -j "$(nproc)"
dyng_log "running ctest -L cpu"
"$bin/ctest" --test-dir build/dev -L cpu --output-on-failure
dyng_log "running the Python suites"
"$PY" -m pytest tests/python tests/plugin tests/selection tests/packaging bench/tests -q "$@"
dyng_log "running NetworkX's own tests of the functions dyng dispatches (ci/nx_suite.sh)"
bash ci/nx_suite.sh "$PY"

#!/usr/bin/env bash
# The main job: sets up .venv with a suitable Python, builds and installs dyng, and runs the sssp
# benchmark (pass --quick for a short run). Usage: ci/main.sh [bench args...]
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/setup_venv.sh
dyng_setup_venv
dyng_log "running the sssp benchmark"
"$PY" -m bench sssp "$@"

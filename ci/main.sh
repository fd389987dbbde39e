#!/usr/bin/env bash
# The main job: sets up .venv with a suitable Python, builds and installs dyng, then runs dyng's
# demo (python -m dyng.demo, the same as `dyng demo`): seeded road, follower and payment graphs,
# batches of changes, every result updated per batch and checked against a fresh compute, a table
# of update vs recompute times, build/demo/demo.json and build/demo/demo.png. Exit status 1 when a
# check failed. Usage: ci/main.sh [demo flags...] (ci/main.sh --help lists them; the benchmarks
# are python -m bench, see bench/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/setup_venv.sh
dyng_setup_venv ci/requirements-main.txt
dyng_log "running the demo: $PY -m dyng.demo --out build/demo $*"
"$PY" -m dyng.demo --out build/demo "$@"

#!/usr/bin/env bash
# The built wheels on a GPU machine (run there from the repository root, with dist/ carried
# along): installs dyng's wheel with each plugin wheel into a fresh --target folder and checks
# that the plugin is chosen, reports its toolkit and architectures, sees the GPU and runs sssp on
# CUDA with the sequential result. Exits 0 only when cu12 and cu13 both pass.
#
#   ci/device_wheel_check.sh [DIST] [--plugins cu12,cu13] [--import-only]
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-python3}"
echo "[device_wheel_check] $("$python" --version 2>&1); $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo 'no nvidia-smi')" >&2
exec "$python" ci/wheelbuild/device_check.py "$@"

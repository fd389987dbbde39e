#!/usr/bin/env bash
# The GPU checks of the built wheels, run on a GPU machine from the repository root with dist/
# beside it (the lent H200 reaches no package index: the wheels are installed with --no-index
# into a --target folder; NumPy, pytest, hypothesis, CuPy and PyTorch come from that machine).
#
#   ci/gpu_suite.sh [PLUGIN]      PLUGIN: cu13 (default) or cu12
#
# 1. dyng + the plugin into a fresh target; `dyng config` with the GPU visible and hidden;
# 2. the pytest suites marked gpu (tests/python, tests/selection) on that install;
# 3. the whole Python suite on that install (host tests pin a host backend; see conftest);
# 4. a process that did GPU work and exits with live device objects returns 0.
set -uo pipefail
cd "$(dirname "$0")/.."
plugin="${1:-cu13}"
python="${PYTHON:-python3}"
target="$(mktemp -d)/site"
status=0
"$python" -m pip install -q --no-index --no-deps --disable-pip-version-check --target "$target" \
  dist/dyng-*.whl dist/dyng_"$plugin"-*.whl || exit 2
export PYTHONPATH="$target" HYPOTHESIS_PROFILE="${HYPOTHESIS_PROFILE:-ci}"
# pip --target writes no console scripts: the `dyng` command of the docs' blocks, as pip would.
mkdir -p "$target/../bin"
printf '#!/bin/sh\nexec "%s" -m dyng "$@"\n' "$(command -v "$python")" > "$target/../bin/dyng"
chmod +x "$target/../bin/dyng"
export PATH="$target/../bin:$PATH" DYNG_NO_PACKAGE_INDEX=1
echo "== dyng config ($plugin, GPU visible)"
"$python" -m dyng config || status=1
echo "== dyng config (CUDA_VISIBLE_DEVICES='')"
CUDA_VISIBLE_DEVICES="" "$python" -m dyng config 2>&1 | grep -E "native_module|selection|plugins|warning" || status=1
echo "== pytest -m gpu"
"$python" -m pytest -p no:cacheprovider -q -m gpu tests/python tests/selection || status=1
echo "== pytest (whole Python suite on the $plugin install)"
"$python" -m pytest -p no:cacheprovider -q -n 8 tests/python tests/selection tests/plugin || status=1
echo "== exit after GPU work"
"$python" -c "
import dyng
g = dyng.Graph.from_edges([0, 1], [1, 2], [1, 1], resources=dyng.Resources.cuda())
r = dyng.sssp.compute(g, 0)
print('space', g.space, r.space, r.distances.to_numpy().tolist())
" || status=1
echo "== gpu_suite $plugin: status $status"
exit $status

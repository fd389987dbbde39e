#!/usr/bin/env bash
# NetworkX's own tests of the functions dyng dispatches, with dyng as the backend every
# dispatched call tries first (NETWORKX_TEST_BACKEND=dyng) and NetworkX for what dyng refuses
# (NETWORKX_FALLBACK_TO_NX). It tests the dyng installed in the given interpreter, not this
# checkout, so it works from a clean clone once the wheel is installed:
#
#   ci/nx_suite.sh [VENV_OR_PYTHON] [PYTEST_ARGS...]    default: $PY, else python3
#
#   NX_SUITE_ALL=1      the whole NetworkX suite instead of the modules that test dyng's functions
#   NX_SUITE_WORKERS=N  pytest-xdist workers when it is installed (default 2; 0 for none)
#
# Prints how many tests ran and how many of them ran through dyng (a dyng function actually
# executed in the test: dyng.nx._suite_counts) with their outcomes. Exits 1 when a test that ran
# through dyng failed, 2 when the setup or pytest itself broke, else 0; tests that fail without
# dyng are listed (they fail without any backend too) but do not fail the step.
set -euo pipefail

target="${1:-${PY:-python3}}"
[ $# -gt 0 ] && shift
if [ -d "$target" ]; then
  python="$target/bin/python"
else
  python="$target"
fi
# The tests run from a temporary folder: a relative path (.venv-ci/bin/python) must not break.
case "$python" in
  */*) python="$(cd "$(dirname "$python")" && pwd)/$(basename "$python")" ;;
  *) python="$(command -v "$python")" ;;
esac

step() { echo "== nx_suite: $*"; }
fail() { echo "nx_suite: error: $*" >&2; exit 2; }

step "checking $python"
"$python" -c "import dyng, networkx, pytest" 2>/dev/null ||
  fail "$python cannot import dyng, networkx and pytest; install them there" \
       "(pip install 'dyng[nx]' pytest, or the wheel and networkx)"
"$python" -c "import networkx as nx, sys; sys.exit('dyng' not in nx.utils.backends.backends)" ||
  fail "NetworkX in $python does not see the dyng backend: the installed dyng has no" \
       "networkx.backends entry point; reinstall dyng from a wheel built with it"
"$python" -c "import dyng, networkx as nx; print('dyng', dyng.__version__, 'nx', nx.__version__)"

if [ "${NX_SUITE_ALL:-0}" = 1 ]; then
  modules=(networkx)
else
  # Where NetworkX tests the functions of dyng.nx.get_info()["functions"]; other tests that
  # reach them through NetworkX's own code are counted too when they run (NX_SUITE_ALL=1).
  modules=(networkx.algorithms.shortest_paths.tests
           networkx.algorithms.traversal.tests.test_bfs
           networkx.algorithms.tests.test_cluster
           networkx.algorithms.components.tests
           networkx.algorithms.link_analysis.tests.test_pagerank)
fi

workers=()
if [ "${NX_SUITE_WORKERS:-2}" != 0 ] && "$python" -c "import xdist" 2>/dev/null; then
  workers=(-n "${NX_SUITE_WORKERS:-2}")
fi

# Outside the checkout: `import dyng` must find the installed package, and pytest must not read
# this repository's configuration.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/counts"
cd "$work"

# Test ids relative to NetworkX's install folder: outside the rootdir pytest would drop the
# file from them, and tests of the same name in two modules would share an id.
site="$("$python" -c "import networkx, pathlib; print(pathlib.Path(networkx.__file__).parents[1])")"

step "pytest ${modules[*]} (NETWORKX_TEST_BACKEND=dyng, fallback to NetworkX)"
status=0
DYNG_NX_SUITE_COUNTS="$work/counts" NETWORKX_TEST_BACKEND=dyng NETWORKX_FALLBACK_TO_NX=True \
  "$python" -m pytest -p dyng.nx._suite_counts -p no:cacheprovider -q "${workers[@]}" \
  --rootdir "$site" --pyargs "${modules[@]}" "$@" || status=$?
if [ "$status" -gt 1 ]; then
  fail "pytest exited with status $status (not a test failure: collection or usage broke)"
fi

step "which tests ran through dyng"
"$python" -m dyng.nx._suite_counts "$work/counts"

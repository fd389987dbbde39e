#!/usr/bin/env bash
# One device call that checks a build and times it beside another, as a session's GPU calls do:
# wheel sets are installed side by side (no index there), the C++ GPU tests and `pytest -m gpu`
# run on the new set, then each bench command runs for the base and the new set in turn, ROUNDS
# times, so that every ratio comes from one machine and one call. Every step has a time limit and
# is skipped when less than half of it is left of BUDGET seconds, so that the call ends with its
# logs instead of being cut off. Everything goes to $OUT/compare.log (the device tool brings it
# back); traces of `kernel_trace.py` go to $OUT/traces.tgz. Exits 1 when a test failed (or was
# skipped for want of budget).
#
#   CARRY/dist-NAME/   the wheels of set NAME (dyng and dyng_cu13, as ci/build.py writes them)
#   CARRY/cpp/         C++ GPU test binaries to run (optional; built with the dev-cuda preset)
#   CARRY/peers/       wheels of peers the benches import (optional; networkit: `pip download
#                      networkit --no-deps --python-version 3.12 --platform manylinux_2_28_x86_64
#                      --only-binary=:all: -d CARRY/peers`), on every bench's PYTHONPATH
#
#   BUDGET=300 ROUNDS=2 bench/gpu/compare_wheels.sh CARRY BASE NEW [BENCH ...]
# SKIP_TESTS=1 leaves the tests out, for a second call on a set whose tests ran in an earlier one.
# BENCH: commands run from the repository root with PYTHONPATH set to the set's install, the
# peers, `.` and bench/gpu; default `first_call_stages.py --graphs rmat22 --others --plain`.
# NEW_ONLY: commands separated by ';' that run once, on NEW only, after the tests and before the
# rounds (a benchmark whose peers make a second run too long, `python -m bench components ...`).
set -uo pipefail
carry=$1 base=$2 new=$3
shift 3
benches=("$@")
[ ${#benches[@]} -gt 0 ] || benches=("bench/gpu/first_call_stages.py --graphs rmat22 --others --plain")
budget=${BUDGET:-300} rounds=${ROUNDS:-2} out=${OUT:-gpu-logs}
mkdir -p "$out"
log=$out/compare.log start=$(date +%s)
export PYTHONUNBUFFERED=1 HYPOTHESIS_PROFILE=${HYPOTHESIS_PROFILE:-ci}

# step LIMIT NAME COMMAND...: COMMAND under LIMIT seconds (less if the budget is short).
step() {
  local limit=$1 name=$2 elapsed left rc
  shift 2
  elapsed=$(($(date +%s) - start))
  left=$((budget - elapsed))
  if [ "$left" -lt $((limit / 2)) ]; then
    echo "SKIP $name ($left s of the budget left)" >>"$log"
    return 9
  fi
  [ "$limit" -gt "$left" ] && limit=$left
  echo "== $name (t=${elapsed}s, limit ${limit}s)" >>"$log"
  timeout "$limit" "$@" >>"$log" 2>&1
  rc=$?
  echo "-- rc=$rc $name t=$(($(date +%s) - start))s" >>"$log"
  return $rc
}

for set in "$base" "$new"; do
  python3 -m pip install -q --no-index --no-deps --target "/tmp/site-$set" "$carry/dist-$set"/*.whl \
    >>"$log" 2>&1 || echo "install of $set failed" >>"$log"
done
peers=/tmp/site-peers
if ls "$carry"/peers/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --target "$peers" "$carry"/peers/*.whl \
    >>"$log" 2>&1 || echo "install of the peers failed" >>"$log"
fi
path_of() { echo "/tmp/site-$1:$peers:.:bench/gpu"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >>"$log" 2>&1
failed=0
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  for test in "$carry"/cpp/*; do
    [ -x "$test" ] || continue
    step 60 "$(basename "$test")" "$test" || failed=1
  done
  step 150 "pytest -m gpu ($new)" env PYTHONPATH="$(path_of "$new")" \
    python3 -m pytest -p no:cacheprovider -q -x -m gpu tests/python tests/selection || failed=1
fi
IFS=';' read -r -a once <<<"${NEW_ONLY:-}"
for bench in "${once[@]}"; do
  [ -n "${bench// /}" ] || continue
  # shellcheck disable=SC2086  # a bench is a command line with its own arguments
  step 300 "$new (once): $bench" env PYTHONPATH="$(path_of "$new")" python3 $bench
done
for ((round = 1; round <= rounds; round++)); do
  for bench in "${benches[@]}"; do
    for set in "$base" "$new"; do
      # shellcheck disable=SC2086  # a bench is a command line with its own arguments
      step 120 "$set: $bench" env PYTHONPATH="$(path_of "$set")" python3 $bench
    done
  done
done
step 90 "kernel_trace ($new)" env PYTHONPATH="$(path_of "$new")" \
  python3 bench/gpu/kernel_trace.py --scale 22 --out "$out"
(cd "$out" && ls trace_*.json >/dev/null 2>&1 && tar czf traces.tgz trace_*.json && rm -f trace_*.json)
echo "total $(($(date +%s) - start)) s; tests $([ $failed -eq 0 ] && echo passed || echo FAILED)" >>"$log"
exit $failed

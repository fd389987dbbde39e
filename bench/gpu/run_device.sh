#!/usr/bin/env bash
# Runs the gpu tests and sssp_gpu_bench invocations of a CUDA build ($BIN, the build folder) on a
# GPU machine, one bench invocation per argument (each a quoted option string), every step under
# a time limit so that a hang costs one step, not the session. Logs go to $OUT (the device tool's folder) or ./gpu-logs. With
# PROFILE="rmat22 grid2048", Nsight Compute also profiles the first search and parent kernels of
# one default compute on each of those graphs (clocks left alone: --clock-control none).
#   bench/gpu/run_device.sh "--graphs rmat22 --sweep 'g=8,16 d=50,100'" "--graphs grid2048"
set -uo pipefail
bin=${BIN:-build/gpu}
failed=0
out=${OUT:-gpu-logs}
mkdir -p "$out"

echo "== device"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,memory.used \
  --format=csv 2>&1 | tee "$out/device.txt"

echo "== tests"
for t in ${TESTS:-test_backend_cuda_memory test_graph_device test_graph_device_apply test_graph_device_revert test_sssp_cuda test_sssp_cuda_update test_dynamic_bfs_cuda test_mosp_cuda test_cycle_count_cuda test_triangle_delta_cuda test_components_cuda test_pagerank_cuda}; do
  timeout 180 "$bin/tests/cpp/$t" >"$out/$t.log" 2>&1
  rc=$?
  echo "$t: exit $rc"
  [ "$rc" -eq 0 ] || failed=1
  grep -E "FAIL|tests,|differs|error" "$out/$t.log" | head -20
done

for graph in ${PROFILE:-}; do
  echo "== ncu $graph"
  ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  timeout 300 "$ncu" --clock-control none --kernel-name regex:"near_far|parents_kernel" \
    --launch-count 3 --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section WarpStateStats --section Occupancy --section SchedulerStats \
    "$bin/bench/gpu/sssp_gpu_bench" --graphs "$graph" --reps 0 >"$out/ncu_$graph.log" 2>&1
  echo "exit $?"
  grep -E "near_far|parents_kernel|Duration|Throughput|Stall|Achieved Occupancy|Hit Rate" \
    "$out/ncu_$graph.log" | head -40
done

step=0
for args in "$@"; do
  step=$((step + 1))
  echo "== bench $step: $args"
  eval "timeout ${BENCH_LIMIT:-200} $bin/bench/gpu/sssp_gpu_bench $args" >"$out/bench$step.log" 2>&1
  rc=$?
  echo "exit $rc"
  [ "$rc" -eq 0 ] || failed=1
  # Result rows, each once (they are printed as measured and again as a closing table).
  grep -E "^(graph|rmat|grid)" "$out/bench$step.log" | awk '!seen[$0]++'
  grep -m5 -E "mismatch|failed|error" "$out/bench$step.log" || true
done
exit "$failed"

# Where a CUDA sssp.update spends its time: R-MAT 22 as a device graph, batches of issue 14's
# recipe (issue14_batches.py), the update's median wall time beside the graph's apply alone, then
# the update's profile stages per call: host ms without waits, and host and device ms with a
# wait after each stage (dyng.profile(sync_stages=True, cuda_events=True)). Run from the
# repository root on a machine with a GPU:
#   PYTHONPATH=<dyng>:. python3 bench/gpu/update_stages.py [CHANGES ...]    (default 1000)
import sys
import time

import numpy as np

import dyng
from bench import generators
from issue14_batches import uniform_batch  # beside this script (sys.path[0])

REPEATS = 15
PROFILED = 10

changes = [int(a) for a in sys.argv[1:]] or [1000]
g0 = generators.by_name("rmat22", 1)
cuda = dyng.Resources.cuda()
graph = dyng.Graph.from_edges(g0.src, g0.dst, g0.weights, num_vertices=g0.num_vertices,
                              resources=cuda)
rng = np.random.default_rng(5)
print("dyng", dyng.__version__, "from", dyng.__file__)
print("n", g0.num_vertices, "m", len(g0.src))


def median_ms(call, k):
    times = []
    for _ in range(REPEATS):
        batch = uniform_batch(g0, rng, k)
        start = time.perf_counter()
        call(batch)
        times.append((time.perf_counter() - start) * 1e3)
    return np.median(times), min(times)


for k in changes:
    result = dyng.sssp.compute(graph, 0)
    for _ in range(3):  # warm-up: workspaces, the repair memory
        dyng.sssp.update(graph, uniform_batch(g0, rng, k), result)
    update = median_ms(lambda b: dyng.sssp.update(graph, b, result), k)
    apply = median_ms(graph.apply, k)
    print(f"{k} changes: sssp.update median {update[0]:.3f} ms (min {update[1]:.3f}), "
          f"Graph.apply alone median {apply[0]:.3f} ms (min {apply[1]:.3f})")
    result = dyng.sssp.compute(graph, 0)
    dyng.sssp.update(graph, uniform_batch(g0, rng, k), result)
    for options in ({}, {"sync_stages": True, "cuda_events": True}):
        with dyng.profile(cuda, **options) as profile:
            for _ in range(PROFILED):
                dyng.sssp.update(graph, uniform_batch(g0, rng, k), result)
        print(f"  stages per update, {'waiting after each' if options else 'no waits'}:")
        for stage in profile.stages:
            print(f"    {'  ' * stage.depth}{stage.name:34s} host {stage.host_ms / PROFILED:7.3f}"
                  f"  device {stage.device_ms / PROFILED:7.3f}")

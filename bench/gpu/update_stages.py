# Where an sssp.update spends its time: R-MAT 22 (--graph: another bench.generators graph, e.g.
# uniform22, road2048), batches of issue 14's recipe
# (issue14_batches.py), the update's median wall time beside the graph's apply alone and a fresh
# compute, then the update's and the compute's profile stages per call. On the device (default)
# the stages are timed twice: host ms without waits, then host and device ms with a wait after
# each stage (dyng.profile(sync_stages=True, cuda_events=True)). With --threads N the graph lives
# on the host and runs the OpenMP backend on N threads (host ms only). Run from the repository root:
#   PYTHONPATH=<dyng>:. python3 bench/gpu/update_stages.py [--graph G] [--threads N] [CHANGES ...]
#   (default: rmat22, 1000 changes)
import argparse
import time

import numpy as np
from issue14_batches import uniform_batch  # beside this script (sys.path[0])

import dyng
from bench import generators

REPEATS = 15
PROFILED = 10

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument(
    "--threads",
    type=int,
    default=0,
    help="run the OpenMP backend on this many threads instead of the device",
)
parser.add_argument("--graph", default="rmat22", help="a bench.generators name (default rmat22)")
parser.add_argument("changes", type=int, nargs="*", default=[1000])
args = parser.parse_args()
on_device = args.threads == 0
resources = dyng.Resources.cuda() if on_device else dyng.Resources.openmp(num_threads=args.threads)
g0 = generators.by_name(args.graph, 1)
graph = dyng.Graph.from_edges(
    g0.src, g0.dst, g0.weights, num_vertices=g0.num_vertices, resources=resources
)
rng = np.random.default_rng(5)
repeats, profiled = (REPEATS, PROFILED) if on_device else (7, 3)  # host updates take ~0.1 s
print("dyng", dyng.__version__, "from", dyng.__file__)
print(g0.name, "n", g0.num_vertices, "m", len(g0.src), "backend", resources)


def median_ms(call, k):
    times = []
    for _ in range(repeats):
        batch = uniform_batch(g0, rng, k) if k else None
        start = time.perf_counter()
        call(batch)
        times.append((time.perf_counter() - start) * 1e3)
    return np.median(times), min(times)


def print_stages(title, call, k):
    modes = ({}, {"sync_stages": True, "cuda_events": True}) if on_device else ({},)
    for options in modes:
        with dyng.profile(resources, **options) as profile:
            for _ in range(profiled):
                call(uniform_batch(g0, rng, k) if k else None)
        waits = "waiting after each" if options else "no waits"
        print(f"  {title} stages per call, {waits}:")
        for stage in profile.stages:
            print(
                f"    {'  ' * stage.depth}{stage.name:34s} host {stage.host_ms / profiled:8.3f}"
                f"  device {stage.device_ms / profiled:8.3f}"
            )


for k in args.changes:
    result = dyng.sssp.compute(graph, 0)
    for _ in range(3):  # warm-up: workspaces, the repair memory
        dyng.sssp.update(graph, uniform_batch(g0, rng, k), result)
    update = median_ms(lambda b: dyng.sssp.update(graph, b, result), k)
    apply = median_ms(graph.apply, k)
    compute = median_ms(lambda _: dyng.sssp.compute(graph, 0), 0)
    print(
        f"{k} changes: sssp.update median {update[0]:.3f} ms (min {update[1]:.3f}), "
        f"Graph.apply alone median {apply[0]:.3f} ms (min {apply[1]:.3f}), "
        f"sssp.compute median {compute[0]:.3f} ms (min {compute[1]:.3f}); "
        f"update / (apply + compute) = {update[0] / (apply[0] + compute[0]):.3f}"
    )
    result = dyng.sssp.compute(graph, 0)
    stats = dyng.sssp.update(graph, uniform_batch(g0, rng, k), result)
    print(f"  last update: {stats.method}, {stats.path}")
    print_stages("update", lambda b: dyng.sssp.update(graph, b, result), k)
    print_stages("compute", lambda _: dyng.sssp.compute(graph, 0), 0)

# What a user's loop does between two updates, and what the next update pays for it. A steady
# update is timed four ways on the same graph and result: right after the previous update
# ("plain"), after the result's answer was read to the host ("read": to_numpy()), after a
# compute of another result on the same graph ("compute", the checking pattern of
# pagerank_steps.py and components_steps.py), and after both ("both"). Each is the median of
# --updates calls, each timed to the end of its stream (Resources.synchronize()); the batches
# are issue 14's (half insertions, half deletions of existing edges), made before the clock
# starts; the growth of dyng's device pool over each way is printed. Two more ways ask where a first call's extra time comes from: "flushed" (the GPU's L2
# cache evicted by writing 256 MB with CuPy first, when CuPy is installed) and "idle" (the
# process sleeps 50 ms first, as a user's code between calls might). Two more tell a slow host
# from a slow device after a pause: "spin" (the host busy in Python for 10 ms, the GPU idle) and
# "busy" (the GPU busy for about 10 ms writing with CuPy, the host waiting for it). "evicted"
# writes 64 MB of host memory first, emptying the host's caches of dyng's code and data.
# --stages: one more update per way under the profiler, every stage waited for. --threads N runs
# the same on the host (1: the sequential backend, else OpenMP on N threads), where a pause can
# only cool the host, which tells how much of the GPU's figures a cold host explains.
# Run from the repository root on the GPU machine:
#   PYTHONPATH=<dyng>:.:bench/gpu python3 bench/gpu/update_after_read.py [--algos pagerank,weak,sssp]
import argparse
import statistics
import time

import numpy as np
from issue14_batches import uniform_batch

import dyng
from bench import generators

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--scale", type=int, default=22)
parser.add_argument("--changes", type=int, default=1000)
parser.add_argument("--updates", type=int, default=5)
parser.add_argument("--algos", default="pagerank,weak,sssp")
parser.add_argument("--stages", action="store_true")
parser.add_argument("--threads", type=int, default=0, help="the host backend on N threads")
args = parser.parse_args()
print("dyng", dyng.__version__, "from", dyng.__file__)

ALGOS = {
    "pagerank": (dyng.pagerank.compute, dyng.pagerank.update, "ranks"),
    "weak": (dyng.components.compute, dyng.components.update, "labels"),
    "sssp": (lambda g: dyng.sssp.compute(g, 0), dyng.sssp.update, "distances"),
}
if args.threads == 1:
    resources = dyng.Resources.sequential()
elif args.threads > 1:
    resources = dyng.Resources.openmp(num_threads=args.threads)
else:
    resources = dyng.Resources.cuda()
edges = generators.by_name(f"rmat{args.scale}", 1)
graph = dyng.Graph.from_edges(
    edges.src, edges.dst, edges.weights, num_vertices=edges.num_vertices, resources=resources
)
rng = np.random.default_rng(11)
flush_buffer = None
if not args.threads:
    try:
        import cupy

        flush_buffer = cupy.empty(1 << 25, dtype=cupy.float64)
    except ImportError:
        pass
host_buffer = np.zeros(1 << 23)  # 64 MB: more than the host's last-level cache
WAYS = ("plain", "read", "compute", "both", "idle", "spin", "evicted") + (
    ("flushed", "busy") if flush_buffer is not None else ()
)


def before_update(way, result, field, compute):
    """What the user's loop does before the timed update; returns a result to keep alive."""
    kept = None
    if way in ("read", "both"):
        getattr(result, field).to_numpy()
    if way in ("compute", "both"):
        kept = compute(graph)
    if way == "idle":
        time.sleep(0.05)
    if way == "spin":
        until = time.perf_counter() + 0.01
        while time.perf_counter() < until:
            pass
    if way == "evicted":
        np.add(host_buffer, 1.0, out=host_buffer)
    if way == "flushed":
        flush_buffer.fill(1.0)
        cupy.cuda.runtime.deviceSynchronize()
    if way == "busy":
        for _ in range(120):  # 120 writes of 256 MB: about 10 ms on an H100
            flush_buffer.fill(1.0)
        cupy.cuda.runtime.deviceSynchronize()
    return kept


def print_stages(update, result):
    batch = uniform_batch(edges, rng, args.changes)
    options = {} if args.threads else {"sync_stages": True, "cuda_events": True}
    with dyng.profile(resources, **options) as profile:
        update(graph, batch, result)
    for stage in profile.stages:
        print(
            f"      {'  ' * stage.depth}{stage.name:34s} host {stage.host_ms:8.3f}"
            f"  device {stage.device_ms:8.3f}"
        )


for name in args.algos.split(","):
    compute, update, field = ALGOS[name]
    result = compute(graph)
    for _ in range(2):  # the result's and the graph's first calls are not what is measured here
        update(graph, uniform_batch(edges, rng, args.changes), result)
    other = None
    for way in WAYS:
        times, reopened = [], []
        pool_before = resources.workspace_bytes
        for _ in range(args.updates):
            kept = before_update(way, result, field, compute)
            other = other if kept is None else kept
            batch = uniform_batch(edges, rng, args.changes)
            start = time.perf_counter()
            stats = update(graph, batch, result)
            resources.synchronize()
            times.append(1e3 * (time.perf_counter() - start))
            # stats.search_size of a weak update on CUDA: the vertices it reopened to re-link a
            # component whole (0 when its searches decided every deletion).
            reopened.append(getattr(stats, "search_size", 0) if name == "weak" else 0)
        print(
            f"  {name} update of {args.changes} after {way:8s}: median {statistics.median(times):.3f}"
            f" ms ({', '.join(f'{t:.3f}' for t in times)}); the pool grew"
            f" {(resources.workspace_bytes - pool_before) / 2**20:.0f} MiB"
            + (f"; search_size {reopened}" if any(reopened) else "")
        )
        if args.stages:
            kept = before_update(way, result, field, compute)
            other = other if kept is None else kept
            print_stages(update, result)
    other = None

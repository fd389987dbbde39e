# Graph.apply on R-MAT 22 (4,194,304 vertices, about 65 million edges), per profile stage, on each
# backend given: a thread count (1 is the sequential backend) or `cuda` (the device graph, stages
# timed with CUDA events after a wait for the stream at each stage's end). Default: 16, 8, 1. One
# warm-up batch, then 6 fresh batches of half uniform-random insertions and half deletions of
# existing edges on the same graph, for each batch size of --sizes (default 100000). The wall
# times are taken without the profiler, so its waits do not count; the stage table comes from
# separate profiled applies. Issue 14's OpenMP-16 bar is the 100k apply's median. Run from the
# repository root:
#   PYTHONPATH=<dyng>:. python3 bench/gpu/apply_stages.py [--sizes 1000,100000] [cuda|THREADS ...]
import argparse
import time

import numpy as np
from issue14_batches import uniform_batch  # beside this script (sys.path[0])

import dyng
from bench import generators

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("backends", nargs="*", default=["16", "8", "1"])
parser.add_argument("--sizes", default="100000", help="comma-separated batch sizes")
args = parser.parse_args()

g0 = generators.by_name("rmat22", 1)
rng = np.random.default_rng(5)


def batch(k):
    return uniform_batch(g0, rng, k)


def resources_of(name):
    if name == "cuda":
        return dyng.Resources.cuda()
    threads = int(name)
    return (
        dyng.Resources.openmp(num_threads=threads) if threads > 1 else dyng.Resources.sequential()
    )


def profiled(res):
    if res.backend == "cuda":
        return dyng.profile(res, sync_stages=True, cuda_events=True)
    return dyng.profile(res)


for name in args.backends:
    res = resources_of(name)
    g = dyng.Graph.from_edges(
        g0.src, g0.dst, g0.weights, num_vertices=g0.num_vertices, resources=res
    )
    for size in (int(x) for x in args.sizes.split(",")):
        t = time.perf_counter()
        g.apply(batch(size))
        first = 1e3 * (time.perf_counter() - t)
        ts = []
        for _rep in range(6):
            b = batch(size)
            t = time.perf_counter()
            g.apply(b)
            ts.append(1e3 * (time.perf_counter() - t))
        stages = {}
        for _rep in range(6):
            b = batch(size)
            with profiled(res) as prof:
                g.apply(b)
            for r in prof.stages:
                host, device = stages.setdefault(r.name, ([], []))
                host.append(r.host_ms)
                device.append(r.device_ms)
        print(
            f"{name}: apply {size} ms first {first:.2f}, then",
            " ".join(f"{x:.2f}" for x in ts),
            f"median {np.median(ts):.2f}",
        )
        for k, (host, device) in stages.items():
            print(
                f"    {k:28s} host median {np.median(host):7.3f}  device {np.median(device):7.3f}"
                f"  (calls/apply {len(host) / 6:.0f})"
            )
    del g

# Graph.apply of 100,000 changes on R-MAT 22 as a host graph (4,194,304 vertices, about 65
# million edges), per profile stage, on each thread count given (default 16, 8, 1; 1 is the
# sequential backend): one warm-up batch, then 6 fresh batches of half uniform-random insertions
# and half deletions of existing edges on the same graph. Issue 14's OpenMP-16 bar is the
# apply's median. Run from the repository root:
#   PYTHONPATH=<dyng>:. python3 bench/gpu/apply_stages.py [THREADS ...]
import sys
import time

import numpy as np
from issue14_batches import uniform_batch  # beside this script (sys.path[0])

import dyng
from bench import generators

g0 = generators.by_name("rmat22", 1)
rng = np.random.default_rng(5)


def batch(k):
    return uniform_batch(g0, rng, k)


for threads in [int(x) for x in sys.argv[1:]] or (16, 8, 1):
    res = dyng.Resources.openmp(num_threads=threads) if threads > 1 else dyng.Resources.sequential()
    g = dyng.Graph.from_edges(
        g0.src, g0.dst, g0.weights, num_vertices=g0.num_vertices, resources=res
    )
    g.apply(batch(100000))
    ts = []
    stages = {}
    for _rep in range(6):
        b = batch(100000)
        with dyng.profile(res) as prof:
            t = time.perf_counter()
            g.apply(b)
            ts.append(1e3 * (time.perf_counter() - t))
        for r in prof.stages:
            stages.setdefault(r.name, []).append(r.host_ms)
    print(
        f"threads {threads}: apply 100k ms",
        " ".join(f"{x:.1f}" for x in ts),
        f"median {np.median(ts):.2f}",
    )
    for k, v in sorted(stages.items()):
        print(f"    {k:28s} median {np.median(v):7.2f}  (calls/apply {len(v) / 6:.0f})")
    del g

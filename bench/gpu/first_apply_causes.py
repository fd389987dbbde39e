# What a fresh clone's first Graph.apply pays beyond the steady ones (issue 44, "no first-call
# tax"), asked by priming the clone before its first timed apply with one thing at a time:
#   none:     nothing (the tax as a user meets it);
#   empty:    an empty batch applied (the apply's host path and workspace run once, no rows);
#   one:      a one-change batch applied (the same, with a row composed and written);
#   compute:  sssp.compute from vertex 0 (every row read by the GPU);
#   idle:     a 50 ms sleep (the machine's clocks and caches after a pause).
# Each way: a fresh clone of R-MAT 22, the primer, then 1 + --steady applies of issue 14's batches
# of --changes, each timed to the end of its stream; --rounds clones per way; the first and the
# median of the steady ones. A primer that takes the first apply down to the steady ones names
# where the tax lives. Run from the repository root on the GPU machine:
#   PYTHONPATH=<dyng>:.:bench/gpu python3 bench/gpu/first_apply_causes.py [--scale 22]
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
parser.add_argument("--steady", type=int, default=4)
parser.add_argument("--rounds", type=int, default=3)
args = parser.parse_args()
print("dyng", dyng.__version__, "from", dyng.__file__)
resources = dyng.Resources.cuda()
edges = generators.by_name(f"rmat{args.scale}", 1)
base = dyng.Graph.from_edges(
    edges.src, edges.dst, edges.weights, num_vertices=edges.num_vertices, resources=resources
)
rng = np.random.default_rng(5)


def prime(way, graph):
    if way == "empty":
        graph.apply(dyng.EdgeBatch())
    elif way == "one":
        graph.apply(uniform_batch(edges, rng, 2))
    elif way == "compute":
        dyng.sssp.compute(graph, 0)
    elif way == "idle":
        time.sleep(0.05)
    resources.synchronize()


# A warm-up: every way's calls once, untimed, so that no way pays the process's first calls.
for way in ("empty", "one", "compute"):
    warm = base.clone()
    prime(way, warm)
    warm.apply(uniform_batch(edges, rng, args.changes))
    del warm
for way in ("none", "empty", "one", "compute", "idle"):
    firsts, steadies = [], []
    for _ in range(args.rounds):
        graph = base.clone()
        resources.synchronize()
        prime(way, graph)
        for k in range(1 + args.steady):
            batch = uniform_batch(edges, rng, args.changes)
            start = time.perf_counter()
            graph.apply(batch)
            resources.synchronize()
            ms = 1e3 * (time.perf_counter() - start)
            (firsts if k == 0 else steadies).append(ms)
        del graph
    print(
        f"  {way:8s}: first {statistics.median(firsts):.3f} ms ({', '.join(f'{t:.3f}' for t in firsts)}),"
        f" steady median {statistics.median(steadies):.3f} ms"
    )

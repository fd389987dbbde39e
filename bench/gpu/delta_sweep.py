# sssp.compute per bucket width, per graph class (issue 44: "adapts its bucket width to the graph
# at run time, so that no graph class regresses"): the median of --repeats computes from vertex 0
# with delta 0 (the pick: src/dyng/sssp/detail/bucket_width.hpp's rule) and with each width of
# --deltas, with the epochs and pushes each reported, so that a rule can be read off where the
# pick loses. Every width's distances are checked against the pick's. Run from the repository root:
#   PYTHONPATH=<dyng>:.:bench/gpu python3 bench/gpu/delta_sweep.py [--graphs uniform22,rmat22]
#     [--deltas 50,100,200,400,800,1600,3200,6400] [--threads N]
# Beside bench's names: uniform<s>d<k> (out-degree k) and rmat<s>e<k> (edge factor k), so that
# a rule is not read off one degree per class.
import argparse
import statistics
import time

import numpy as np

import dyng
from bench import generators

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--graphs", default="uniform22,rmat22,grid2048")
parser.add_argument("--deltas", default="25,50,100,200,400,800,1600,3200,6400,25600")
parser.add_argument("--repeats", type=int, default=3)
parser.add_argument("--threads", type=int, default=0, help="OpenMP on N threads, not the GPU")
args = parser.parse_args()
resources = (
    dyng.Resources.openmp(num_threads=args.threads) if args.threads else dyng.Resources.cuda()
)


def host(array):
    return np.asarray(array.to_numpy() if hasattr(array, "to_numpy") else array)


def edges_named(name):
    for kind, maker, mark in (
        ("uniform", generators.uniform, "d"),
        ("rmat", generators.rmat, "e"),
    ):
        scale, _, factor = name[len(kind) :].partition(mark)
        if name.startswith(kind) and factor.isdigit() and scale.isdigit():
            return maker(int(scale), int(factor), seed=1)
    return generators.by_name(name, 1)


def timed(graph, delta):
    result = dyng.sssp.compute(graph, 0, delta=delta)
    times = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        result = dyng.sssp.compute(graph, 0, delta=delta)
        times.append(1e3 * (time.perf_counter() - start))
    return statistics.median(times), result


for name in args.graphs.split(","):
    edges = edges_named(name)
    graph = dyng.Graph.from_edges(
        edges.src, edges.dst, edges.weights, num_vertices=edges.num_vertices, resources=resources
    )
    picked_ms, picked = timed(graph, 0)
    reference = host(picked.distances)
    reached = reference < dyng.sssp.INFINITE_DISTANCE
    print(
        f"{name}: m {graph.num_edges:,}, mean weight {np.mean(edges.weights):.1f}, "
        f"distance median {np.median(reference[reached]):.0f} max {reference[reached].max()}, "
        f"{reached.mean():.1%} reached, max out-degree {np.bincount(edges.src).max()}"
    )
    print(
        f"  delta pick: {picked_ms:8.2f} ms  epochs {picked.stats.epochs:6d}  "
        f"pushes {picked.stats.pushes:,}",
        flush=True,
    )
    for delta in (int(d) for d in args.deltas.split(",")):
        ms, result = timed(graph, delta)
        if not np.array_equal(host(result.distances), reference):
            raise SystemExit(f"delta_sweep.py: {name}, delta {delta}: distances differ")
        print(
            f"  delta {delta:6d}: {ms:8.2f} ms  epochs {result.stats.epochs:6d}  "
            f"pushes {result.stats.pushes:,}",
            flush=True,
        )
    graph = None

# Is it the layout or the graph? (issue 44: "the same grid computes in 20 ms fresh and 9-10 ms
# after one apply of 1,000 changes"). Per graph: sssp.compute on the freshly built graph; on the
# same graph after one Graph.apply of issue 14's batch; and on a graph built fresh from the
# applied graph's edges (the applied edges in a fresh layout). If the last two take the same
# time, the rows' placement does not matter and the batch's edges do: a uniform batch adds
# random long-range edges, which cut a grid's hop depth, and the search's rounds follow the hop
# depth. The hop depth of each shortest-path tree (the most edges on a path from the source) is
# printed beside the times, and the share of vertices whose distance the batch changed (what
# any exact update must rewrite). Run from the repository root:
#   PYTHONPATH=<dyng>:.:bench/gpu python3 bench/gpu/layout_or_graph.py [--graphs grid2048]
#     [--threads N]
import argparse
import statistics
import time

import numpy as np
from issue14_batches import uniform_batch  # beside this script (sys.path[0])

import dyng
from bench import generators

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--graphs", default="grid2048,road2048")
parser.add_argument("--changes", type=int, default=1000)
parser.add_argument("--repeats", type=int, default=3)
parser.add_argument("--threads", type=int, default=0, help="OpenMP on N threads, not the GPU")
args = parser.parse_args()
resources = (
    dyng.Resources.openmp(num_threads=args.threads) if args.threads else dyng.Resources.cuda()
)
rng = np.random.default_rng(5)


def host(array):
    return np.asarray(array.to_numpy() if hasattr(array, "to_numpy") else array)


def compute_ms(graph):
    """(median ms of --repeats computes after a first one, the last result)."""
    result = dyng.sssp.compute(graph, 0)
    times = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        result = dyng.sssp.compute(graph, 0)
        times.append(1e3 * (time.perf_counter() - start))
    return statistics.median(times), result


def hop_depth(result):
    """The most tree edges on a shortest path from the source (parents followed in distance
    order, so each parent's depth is known first)."""
    dist, parent = host(result.distances), host(result.parents).astype(np.int64)
    reached = np.flatnonzero(dist < np.iinfo(dist.dtype).max)
    order = reached[np.argsort(dist[reached], kind="stable")]
    depth = np.zeros(dist.size, np.int64)
    for v in order:  # a Python loop: fine for the 4M vertices of grid2048 (a few seconds)
        p = parent[v]
        if 0 <= p != v:
            depth[v] = depth[p] + 1
    return int(depth.max())


for name in args.graphs.split(","):
    edges = generators.by_name(name, 1)
    graph = dyng.Graph.from_edges(
        edges.src, edges.dst, edges.weights, num_vertices=edges.num_vertices, resources=resources
    )
    fresh_ms, fresh = compute_ms(graph)
    graph.apply(uniform_batch(edges, rng, args.changes))
    applied_ms, applied = compute_ms(graph)
    src, dst, weights = (host(a) for a in graph.edges()[:3])
    rebuilt = dyng.Graph.from_edges(
        src, dst, weights, num_vertices=graph.num_vertices, resources=resources
    )
    rebuilt_ms, again = compute_ms(rebuilt)
    same = np.array_equal(host(applied.distances), host(again.distances))
    changed = np.mean(host(fresh.distances) != host(applied.distances))
    print(
        f"{name}: compute fresh {fresh_ms:.2f} ms (hop depth {hop_depth(fresh)}); after one "
        f"apply of {args.changes:,} changes {applied_ms:.2f} ms (hop depth {hop_depth(applied)}); "
        f"those edges rebuilt in a fresh layout {rebuilt_ms:.2f} ms (same distances: {same}); "
        f"the batch changed {100 * changed:.1f}% of the distances",
        flush=True,
    )
    graph = rebuilt = None

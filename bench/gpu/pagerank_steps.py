# pagerank on the GPU beside its CPU peers, in one run: an R-MAT graph (bench's recipe, edge
# factor 16, directed, in-edges stored, unweighted) at tol 1e-6, compute on CUDA (the first call
# and the median of 5) beside dyng's OpenMP backend and, when installed, NetworKit's PageRank
# (its L1 norm and the same tolerance); then updates of mixed batches (half deletions of existing
# edges, half insertions of new ones: bench.changes, mode uniform, drawn from the first graph so
# that no two batches touch the same edge) of 1,000 and of 100,000 changes, the first after a
# compute and the median of the steady ones, beside a fresh compute; every update converged and
# within 2 * n * tol / (1 - alpha) in L1 of a fresh compute, and CUDA within that bound of the
# host. Prints the bars with each number.
# --huge N: instead, compute on a uniform graph of 2^N vertices with out-degree 16 (N = 26: 2^30
# edges), beside dyng's OpenMP compute of the same graph.
# Run from the repository root:
#   PYTHONPATH=<dyng>:. python3 bench/gpu/pagerank_steps.py [--scale 22] [--batches 10]
#   PYTHONPATH=<dyng>:. python3 bench/gpu/pagerank_steps.py --huge 26
import argparse

import numpy as np

import dyng
from bench import changes, generators
from bench.timing import median_ms
from bench.timing import timed_ms as timed

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--scale", type=int, default=22)
parser.add_argument("--tol", type=float, default=1e-6)
parser.add_argument("--batches", type=int, default=10)
parser.add_argument("--huge", type=int, default=0)
parser.add_argument(
    "--stages",
    action="store_true",
    help="also print the profile stages of one compute and one update (waiting "
    "after each stage, device times from CUDA events)",
)
args = parser.parse_args()
print("dyng", dyng.__version__, "from", dyng.__file__)
ALPHA = 0.85


def bar(name, value, limit, unit="ms"):
    verdict = "meets" if value <= limit else "MISSES"
    print(f"  bar {name}: {value:.3f} {unit} (<= {limit} {unit}): {verdict}")


def l1(a, b):
    return float(np.abs(a.ranks.to_numpy() - b.ranks.to_numpy()).sum())


def compute(graph):
    return dyng.pagerank.compute(graph, tol=args.tol)


def networkit_ms(g0):
    """NetworKit's PageRank of the same graph (L1 norm, same tolerance), or None."""
    try:
        import networkit as nk
    except ImportError:
        return None
    graph = nk.GraphFromCoo(
        (g0.src.astype(np.uint64), g0.dst.astype(np.uint64)), n=g0.num_vertices, directed=True
    )
    pr = nk.centrality.PageRank(graph, damp=ALPHA, tol=args.tol)
    norm = getattr(getattr(nk.centrality, "Norm", None), "L1_NORM", None)
    if norm is not None:  # NetworKit's default is the L2 norm; NetworkX's test is L1
        pr.norm = norm
    return timed(pr.run)[0]


def print_stages(graph, call, label):
    with dyng.profile(graph.resources, sync_stages=True, cuda_events=True) as profile:
        call()
    print(f"  {label} stages:")
    for stage in profile.stages:
        print(
            f"    {'  ' * stage.depth}{stage.name:34s} host {stage.host_ms:8.3f}"
            f"  device {stage.device_ms:8.3f}"
        )


def huge(exponent):
    n = 1 << exponent
    rng = np.random.default_rng(3)
    src = np.repeat(np.arange(n, dtype=np.int32), 16)
    dst = rng.integers(0, n, src.size, dtype=np.int32)
    build_ms, graph = timed(
        lambda: dyng.Graph.from_edges(src, dst, num_vertices=n, resources=dyng.Resources.cuda())
    )
    print(f"uniform 2^{exponent} vertices, {graph.num_edges} edges: build {build_ms:.0f} ms")
    first, r = timed(lambda: compute(graph))
    steady = median_ms(lambda: compute(graph), 3)
    print(
        f"  cuda compute first {first:.1f} ms, median of 3 {steady:.1f} ms, iterations "
        f"{r.iterations}, residual {r.residual:.3g}"
    )
    bar("2^30-edge compute", steady / 1e3, 1.5, "s")
    # At this n any iteration meets tol 1e-6 (n * tol > 2); a tolerance where the test bites:
    tight = args.tol * 1e-4
    ms, t = timed(lambda: dyng.pagerank.compute(graph, tol=tight))
    print(
        f"  cuda compute at tol {tight:g}: {ms:.1f} ms, iterations {t.iterations}, residual "
        f"{t.residual:.3g}"
    )
    graph = None  # free the device copy first (rebound, not `del`: the lambdas above name it)
    on_host = dyng.Graph.from_edges(src, dst, num_vertices=n, resources=dyng.Resources.openmp())
    host_ms, h = timed(lambda: compute(on_host))
    print(
        f"  openmp compute {host_ms:.0f} ms; cuda within the bound of it: "
        f"{l1(r, h) < 2 * n * args.tol / (1 - ALPHA)}"
    )


def batches_of(g0, size, count, rng):
    drawn = changes.make_changes(g0, size * count, "uniform", rng)
    half = size // 2
    return [
        dyng.EdgeBatch(
            insert=(
                drawn.insert_src[i * half : (i + 1) * half],
                drawn.insert_dst[i * half : (i + 1) * half],
            ),
            delete=(
                drawn.delete_src[i * half : (i + 1) * half],
                drawn.delete_dst[i * half : (i + 1) * half],
            ),
        )
        for i in range(count)
    ]


def run_updates(graph, size, batches):
    """Updates of `batches` on `graph`, each checked against a fresh compute; returns the
    steady median in ms."""
    result = compute(graph)
    limit = 2 * graph.num_vertices * args.tol / (1 - ALPHA)
    times, paths, methods, touched = [], [], [], []
    for i, batch in enumerate(batches):
        ms, stats = timed(lambda: dyng.pagerank.update(graph, batch, result))
        times.append(ms)
        paths.append(stats.path)
        methods.append(stats.method)
        touched.append(stats.vertices_touched)
        fresh = compute(graph)
        assert stats.converged, f"update {i} of {size} did not converge"
        assert l1(result, fresh) < limit, f"update {i} of {size} is outside the bound"
    if args.stages:
        # The last batch again, inverted (its insertions deleted, its deletions inserted back):
        # as many effective changes as a fresh batch. The batch itself again would find its
        # insertions present and its deletions gone, and profile a much smaller update.
        last = batches[-1]
        back = dyng.EdgeBatch(
            insert=(last.delete_src, last.delete_dst), delete=(last.insert_src, last.insert_dst)
        )
        print_stages(graph, lambda: dyng.pagerank.update(graph, back, result), f"update of {size}")
    recompute = median_ms(lambda: compute(graph))
    steady = float(np.median(times[1:]))
    print(
        f"  update of {size}: first {times[0]:.3f} ms, steady median {steady:.3f} ms (min "
        f"{min(times[1:]):.3f}); recompute {recompute:.3f} ms; steady/recompute "
        f"{steady / recompute:.3f}; median vertices touched {int(np.median(touched))}; paths "
        f"{sorted(set(paths))}; methods {sorted(set(methods))}; all converged, within the bound of a fresh compute"
    )
    return steady, recompute


def main():
    if args.huge:
        huge(args.huge)
        return
    g0 = generators.by_name(f"rmat{args.scale}", 1)
    n = g0.num_vertices
    print(f"rmat{args.scale}: n {n}, m {len(g0.src)}, tol {args.tol}")
    cuda, host = dyng.Resources.cuda(), dyng.Resources.openmp()
    graph = dyng.Graph.from_edges(g0.src, g0.dst, num_vertices=n, resources=cuda)
    on_host = dyng.Graph.from_edges(g0.src, g0.dst, num_vertices=n, resources=host)
    first, r = timed(lambda: compute(graph))
    steady = median_ms(lambda: compute(graph))
    host_ms, h = timed(lambda: compute(on_host))
    nk_ms = networkit_ms(g0)
    again = compute(graph)
    assert np.array_equal(r.ranks.to_numpy(), again.ranks.to_numpy()), "two computes differ"
    assert l1(r, h) < 2 * n * args.tol / (1 - ALPHA), "cuda is outside the bound of openmp"
    nk_text = f"; networkit {nk_ms:.1f} ms" if nk_ms is not None else "; networkit not installed"
    print(
        f"  compute: cuda first {first:.2f} ms, median {steady:.2f} ms; openmp {host_ms:.1f} ms"
        f"{nk_text}; iterations {r.iterations}; openmp/cuda {host_ms / steady:.1f}x; same bits "
        f"twice, within the bound of openmp"
    )
    bar("R-MAT compute", steady, 15.0)
    if args.stages:
        print_stages(graph, lambda: compute(graph), "compute")
    rng = np.random.default_rng(7)
    small = batches_of(g0, 1000, args.batches, rng)
    large = batches_of(g0, 100_000, max(3, args.batches // 3), rng)
    steady_small, _ = run_updates(graph, 1000, small)
    bar("update of 1,000", steady_small, 1.5)
    steady_large, recompute = run_updates(graph, 100_000, large)
    bar("update of 100,000 / recompute", steady_large / recompute, 0.5, "x")


main()

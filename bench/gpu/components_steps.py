# components on the GPU beside SciPy and the OpenMP backend, in one run: an R-MAT graph (bench's
# recipe, edge factor 16, directed, in-edges stored, unweighted), weak and strong compute (the
# first call and the median of 5), then updates of mixed batches (half deletions of existing
# edges, half insertions of new ones: bench.changes, mode uniform, all drawn from the first
# graph so that no two batches touch the same edge), the first after a compute and the median
# of the steady ones, beside Graph.apply alone (on a second copy of the graph, same batches) and
# a fresh compute; every update is checked against a fresh compute, bit for bit.
# --huge N: instead, weak compute of a uniform graph of 2^N vertices with out-degree 16.
# Run from the repository root:
#   PYTHONPATH=<dyng>:. python3 bench/gpu/components_steps.py [--scale 22] [--changes 1000]
#   PYTHONPATH=<dyng>:. python3 bench/gpu/components_steps.py --huge 26
import argparse

import numpy as np

import dyng
from bench import changes, generators
from bench.timing import median_ms
from bench.timing import timed_ms as timed

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--scale", type=int, default=22)
parser.add_argument("--changes", type=int, default=1000)
parser.add_argument("--batches", type=int, default=10)
parser.add_argument("--huge", type=int, default=0)
parser.add_argument(
    "--stages",
    action="store_true",
    help="also print the profile stages of one update per kind (waiting after "
    "each stage, device times from CUDA events)",
)
args = parser.parse_args()
print("dyng", dyng.__version__, "from", dyng.__file__)


def scipy_ms(g0, kind):
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    n = g0.num_vertices
    matrix = csr_matrix((np.ones(len(g0.src), np.int8), (g0.src, g0.dst)), shape=(n, n))
    ms, (count, _) = timed(lambda: connected_components(matrix, directed=True, connection=kind))
    return ms, count


def huge(exponent):
    n = 1 << exponent
    rng = np.random.default_rng(3)
    src = np.repeat(np.arange(n, dtype=np.int32), 16)
    dst = rng.integers(0, n, src.size, dtype=np.int32)
    build_ms, graph = timed(
        lambda: dyng.Graph.from_edges(src, dst, num_vertices=n, resources=dyng.Resources.cuda())
    )
    # The graph holds its own copy: drop the arrays before the computes. Rebinding, not `del`:
    # the lambda above names them.
    src = dst = None
    print(f"uniform 2^{exponent} vertices, {graph.num_edges} edges: build {build_ms:.0f} ms")
    first, r = timed(lambda: dyng.components.compute(graph))
    print(
        f"  weak compute first {first:.1f} ms, median of 5 "
        f"{median_ms(lambda: dyng.components.compute(graph)):.1f} ms, count {r.count}"
    )


def print_stages(graph, result, b, kind):
    """The stages of one more update (the last batch again, inverted: its insertions deleted and
    its deletions inserted back)."""
    batch = dyng.EdgeBatch(insert=(b.delete_src, b.delete_dst), delete=(b.insert_src, b.insert_dst))
    with dyng.profile(graph.resources, sync_stages=True, cuda_events=True) as profile:
        stats = dyng.components.update(graph, batch, result)
    print(
        f"  {kind} update stages ({stats.path}, searches {stats.searches}, search_size "
        f"{stats.search_size}, edges {stats.frontier_visits}):"
    )
    for stage in profile.stages:
        print(
            f"    {'  ' * stage.depth}{stage.name:34s} host {stage.host_ms:8.3f}"
            f"  device {stage.device_ms:8.3f}"
        )


def run_updates(graph, spare, kind, batches):
    result = dyng.components.compute(graph, kind=kind)
    times, apply_times, paths = [], [], []
    for i, b in enumerate(batches):
        batch = dyng.EdgeBatch(
            insert=(b.insert_src, b.insert_dst), delete=(b.delete_src, b.delete_dst)
        )
        ms, stats = timed(lambda: dyng.components.update(graph, batch, result))
        times.append(ms)
        paths.append(stats.path)
        apply_times.append(timed(lambda: spare.apply(batch))[0])
        fresh = dyng.components.compute(graph, kind=kind)
        same = (
            np.array_equal(fresh.labels.to_numpy(), result.labels.to_numpy())
            and np.array_equal(fresh.sizes.to_numpy(), result.sizes.to_numpy())
            and fresh.count == result.count
        )
        assert same, f"{kind} update {i} differs from a fresh compute"
    if args.stages:
        print_stages(graph, result, batches[-1], kind)
    recompute = median_ms(lambda: dyng.components.compute(graph, kind=kind))
    steady = float(np.median(times[1:]))
    apply = float(np.median(apply_times[1:]))
    print(
        f"  {kind} update of {args.changes}: first {times[0]:.3f} ms, steady median {steady:.3f}"
        f" ms (min {min(times[1:]):.3f}); apply alone {apply:.3f} ms; recompute {recompute:.3f}"
        f" ms; steady/recompute {steady / recompute:.3f}, steady/(apply+recompute) "
        f"{steady / (apply + recompute):.3f}; paths {sorted(set(paths))}; all equal a fresh "
        f"compute"
    )


def main():
    if args.huge:
        huge(args.huge)
        return
    g0 = generators.by_name(f"rmat{args.scale}", 1)
    print(f"rmat{args.scale}: n {g0.num_vertices}, m {len(g0.src)}")
    cuda, host = dyng.Resources.cuda(), dyng.Resources.openmp()
    graph = dyng.Graph.from_edges(g0.src, g0.dst, num_vertices=g0.num_vertices, resources=cuda)
    on_host = dyng.Graph.from_edges(g0.src, g0.dst, num_vertices=g0.num_vertices, resources=host)
    for kind in ("weak", "strong"):
        first, r = timed(lambda: dyng.components.compute(graph, kind=kind))
        steady = median_ms(lambda: dyng.components.compute(graph, kind=kind))
        host_ms, h = timed(lambda: dyng.components.compute(on_host, kind=kind))
        sp_ms, sp_count = scipy_ms(g0, kind)
        assert r.count == h.count == sp_count
        assert np.array_equal(r.labels.to_numpy(), h.labels.to_numpy())
        print(
            f"  {kind} compute: cuda first {first:.2f} ms, median {steady:.2f} ms; openmp "
            f"{host_ms:.1f} ms; scipy {sp_ms:.1f} ms; count {r.count} (all agree); "
            f"scipy/cuda {sp_ms / steady:.1f}x; rounds {r.stats.iterations}"
        )
        if args.stages:
            with dyng.profile(cuda, sync_stages=True, cuda_events=True) as profile:
                dyng.components.compute(graph, kind=kind)
            for stage in profile.stages:
                print(
                    f"    {'  ' * stage.depth}{stage.name:34s} host {stage.host_ms:8.3f}"
                    f"  device {stage.device_ms:8.3f}"
                )
    drawn = changes.make_changes(
        g0, 2 * args.changes * args.batches, "uniform", np.random.default_rng(7)
    )
    half = args.changes // 2
    batches = [
        changes.ChangeBatch(
            drawn.insert_src[i * half : (i + 1) * half],
            drawn.insert_dst[i * half : (i + 1) * half],
            drawn.insert_weights[i * half : (i + 1) * half],
            drawn.delete_src[i * half : (i + 1) * half],
            drawn.delete_dst[i * half : (i + 1) * half],
            {},
        )
        for i in range(2 * args.batches)
    ]
    for kind, part in (("weak", batches[: args.batches]), ("strong", batches[args.batches :])):
        spare = dyng.Graph.from_edges(g0.src, g0.dst, num_vertices=g0.num_vertices, resources=cuda)
        run_updates(graph, spare, kind, part)


main()

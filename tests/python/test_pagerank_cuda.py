"""On the GPU: pagerank on CUDA within 2 * n * tol / (1 - alpha) in L1 of the host compute and of
the NumPy oracle, compute and update, batch after adversarial batch (hypothesis; weighted and
not, directed and undirected, every id combination); the same bits from two computes and from two
updates; a skewed graph whose batches grow the vertex set and strip a hub of its out-edges;
device results that move between spaces and hand out device arrays (CuPy reads the ranks in
place). Skipped where no CUDA backend is usable (CI); must pass on a GPU before CUDA work is
done (the C++ suite test_pagerank_cuda takes every budget path)."""

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from test_components_properties import COMBOS

import dyng
from dyng import pagerank
from dyng.testing.oracles import pagerank_ranks
from dyng.testing.strategies import batches, graphs

pytestmark = pytest.mark.gpu


def bound(n, tol=1e-6, alpha=0.85):
    return 2 * n * tol / (1 - alpha)


def check_close(got, want, context, tol=1e-6):
    distance = float(np.abs(got - want).sum())
    assert distance < bound(len(got), tol), (
        f"{context}: L1 {distance:.3g}, bound {bound(len(got), tol):.3g}"
    )
    assert len(got) == 0 or abs(float(got.sum()) - 1.0) < 1e-9, context


@pytest.mark.parametrize("combo", sorted(COMBOS))
@settings(max_examples=25, deadline=None)
@given(
    rg=graphs(max_vertices=14, max_edges=30),
    data=st.data(),
    directed=st.booleans(),
    weighted=st.booleans(),
)
def test_cuda_within_the_bound_of_host_and_oracle(rg, data, directed, weighted, combo):
    kw, id_dtype = COMBOS[combo]
    model = rg.model(directed=directed)
    g_dev = rg.to_graph(directed=directed, id_dtype=id_dtype, resources=dyng.Resources.cuda(), **kw)
    g_host = rg.to_graph(
        directed=directed, id_dtype=id_dtype, resources=dyng.Resources.sequential(), **kw
    )
    r_dev = pagerank.compute(g_dev, weighted=weighted)
    r_host = pagerank.compute(g_host, weighted=weighted)
    assert r_dev.space == "device"
    exact = np.array(pagerank_ranks(model, weighted=weighted))
    check_close(r_dev.ranks.to_numpy(), exact, "compute vs oracle")
    same = pagerank.compute(g_dev, weighted=weighted).ranks.to_numpy()
    assert np.array_equal(same, r_dev.ranks.to_numpy()), "two computes differ"
    for step in range(4):
        rb = data.draw(batches(model), label=f"batch {step}")
        rb.apply_to(model)
        twin = r_dev.clone()
        s_dev, _ = dyng.update(g_dev, rb.to_batch(id_dtype=id_dtype), r_dev, twin)
        pagerank.update(g_host, rb.to_batch(id_dtype=id_dtype), r_host)
        event(f"cuda update path: {s_dev.path}")
        context = f"batch {step} ({combo}, weighted={weighted}, directed={directed})"
        got = r_dev.ranks.to_numpy()
        assert np.array_equal(got, twin.ranks.to_numpy()), f"{context}: not the same bits"
        assert s_dev.converged and r_dev.residual < len(got) * 1e-6, context
        check_close(got, np.array(pagerank_ranks(model, weighted=weighted)), context)
        check_close(got, r_host.ranks.to_numpy(), f"{context}: vs the host update")
        check_close(got, pagerank.compute(g_host, weighted=weighted).ranks.to_numpy(), context)
        check_close(got, pagerank.compute(g_dev, weighted=weighted).ranks.to_numpy(), context)


def skewed(n, m, rng):
    """Edges of which a third end at one of 16 hubs and a seventh at one of 2,048 vertices."""

    def ends(size):
        r = rng.random(size)
        uniform = rng.integers(0, n, size)
        return np.where(
            r < 1 / 3,
            rng.integers(0, 16, size),
            np.where(r < 1 / 3 + 1 / 7, rng.integers(0, 2048, size), uniform),
        ).astype(np.int32)

    return ends(m), ends(m), rng.integers(1, 9, m).astype(np.int32)


@pytest.mark.parametrize("weighted", [False, True])
def test_skewed_graph_batches_of_a_thousand_changes(weighted):
    rng = np.random.default_rng(5)
    n, m, tol = 50_000, 400_000, 1e-11
    src, dst, w = skewed(n, m, rng)
    graphs_ = {
        name: dyng.Graph.from_edges(src, dst, w, num_vertices=n, resources=res)
        for name, res in (
            ("cuda", dyng.Resources.cuda()),
            ("twin", dyng.Resources.cuda()),
            ("host", dyng.Resources.openmp()),
        )
    }
    results = {
        name: pagerank.compute(g, weighted=weighted, tol=tol, max_iter=1000)
        for name, g in graphs_.items()
    }
    assert np.array_equal(results["cuda"].ranks.to_numpy(), results["twin"].ranks.to_numpy())
    check_close(results["cuda"].ranks.to_numpy(), results["host"].ranks.to_numpy(), "compute", tol)
    paths = set()
    for step in range(5):
        pick = rng.integers(0, m, 500)
        del_src, del_dst = src[pick], dst[pick]
        ins_src = rng.integers(1, n + (3 if step == 1 else 0), 500, dtype=np.int32)
        if step == 3:  # hub 0 loses every out-edge
            hub = dst[src == 0]
            del_src, del_dst = (
                np.concatenate([del_src, np.zeros_like(hub)]),
                np.concatenate([del_dst, hub]),
            )
        batch = dyng.EdgeBatch(
            insert=(
                ins_src,
                rng.integers(0, 16, 500, dtype=np.int32),
                rng.integers(1, 9, 500, dtype=np.int32),
            ),
            delete=(del_src, del_dst),
        )
        for name, g in graphs_.items():
            stats = pagerank.update(g, batch, results[name])
            assert stats.converged, (name, step)
            if name == "cuda":
                paths.add(stats.path)
        got = results["cuda"].ranks.to_numpy()
        assert np.array_equal(got, results["twin"].ranks.to_numpy()), (
            f"batch {step}: not the same bits"
        )
        fresh = pagerank.compute(graphs_["host"], weighted=weighted, tol=tol, max_iter=1000)
        check_close(got, fresh.ranks.to_numpy(), f"batch {step} vs a fresh host compute", tol)
        check_close(got, results["host"].ranks.to_numpy(), f"batch {step} vs the host update", tol)
    assert "incremental" in paths


def test_device_results_move_between_spaces_and_read_in_place():
    cupy = pytest.importorskip("cupy")
    cuda = dyng.Resources.cuda()
    g = dyng.Graph.from_edges([0, 1], [1, 2], resources=cuda)
    r = pagerank.compute(g)
    assert (r.stats.engine_used, r.stats.method, r.stats.affected) == (
        "operators",
        "pull_power_iteration",
        3,
    )
    assert r.ranks.__cuda_array_interface__["typestr"] == "<f8"
    ranks = cupy.asarray(r.ranks)
    assert ranks.data.ptr == r.ranks.__cuda_array_interface__["data"][0]
    on_host = pagerank.compute(dyng.Graph.from_edges([0, 1], [1, 2]))
    check_close(cupy.asnumpy(ranks), on_host.ranks.to_numpy(), "vs the host")
    host = r.clone(resources="sequential")
    assert host.space == "host" and host.iterations == r.iterations
    back = host.clone(resources=cuda)
    assert back.space == "device"
    assert np.array_equal(back.ranks.to_numpy(), r.ranks.to_numpy())
    kept = r.ranks.to_numpy()
    before = kept.copy()
    stats = pagerank.update(g, dyng.EdgeBatch(insert=([2], [0])), r)
    assert stats.path == "incremental" and stats.method == "frontier_power_iteration"
    assert stats.frontier_size > 0 and stats.vertices_touched > 0
    assert np.array_equal(kept, before), "a host copy changed with the device result"
    check_close(r.ranks.to_numpy(), np.full(3, 1 / 3), "the cycle after the update")


def test_refusals_on_the_device():
    cuda = dyng.Resources.cuda()
    g = dyng.Graph.from_edges([0, 1], [1, 2], [1, -2], resources=cuda)
    with pytest.raises(dyng.InvalidArgumentError, match="1 -> 2 has weight -2.*non-negative"):
        pagerank.compute(g, weighted=True)
    plain = dyng.Graph.from_edges([0, 1], [1, 2], resources=cuda)
    with pytest.raises(dyng.InvalidArgumentError, match="no edge weights"):
        pagerank.compute(plain, weighted=True)


def test_personalization_dangling_and_nstart_on_the_device():
    """NetworkX's vectors on CUDA: compute (and compute from nstart) within the bound of the
    oracle and of the host, then updates that add vertices (a short personalization names none
    of them) and strip a vertex of its out-edges, each within the bound of a fresh compute."""
    from dyng.testing.oracles import GraphModel

    rng = np.random.default_rng(4)
    n = 60
    src = rng.integers(0, n, 240).astype(np.int32)
    dst = rng.integers(0, n, 240).astype(np.int32)
    keep = (src != dst) & (src != 7)  # vertex 7 dangling
    src, dst = src[keep], dst[keep]
    edges = sorted(set(zip(src.tolist(), dst.tolist())))
    src = np.array([a for a, _ in edges], np.int32)
    dst = np.array([b for _, b in edges], np.int32)
    personalization = rng.random(n - 10)  # the last ten get 0
    dangling = {3: 1.0, 9: 2.0}
    opts = dict(personalization=personalization, dangling=dangling, tol=1e-9)
    cuda, host = dyng.Resources.cuda(), dyng.Resources.sequential()
    g = dyng.Graph.from_edges(src, dst, num_vertices=n, resources=cuda)
    g_host = dyng.Graph.from_edges(src, dst, num_vertices=n, resources=host)
    r = pagerank.compute(g, **opts)
    assert r.space == "device"
    want = np.array(
        pagerank_ranks(
            GraphModel(n, src.tolist(), dst.tolist()),
            personalization=list(personalization),
            dangling=dangling,
        )
    )
    check_close(r.ranks.to_numpy(), want, "compute vs the oracle", tol=1e-9)
    check_close(
        r.ranks.to_numpy(),
        pagerank.compute(g_host, **opts).ranks.to_numpy(),
        "compute vs the host",
        tol=1e-9,
    )
    started = pagerank.compute(g, nstart={7: 1.0}, **opts)
    check_close(started.ranks.to_numpy(), want, "compute from nstart vs the oracle", tol=1e-9)
    stripped = [(a, b) for a, b in edges if a == 3]
    batches = [
        dyng.EdgeBatch(insert=([n, n + 1, 5], [0, n, n + 1])),
        dyng.EdgeBatch(delete=([a for a, _ in stripped], [b for _, b in stripped])),
        dyng.EdgeBatch(insert=([3, 7], [n + 1, 3])),
    ]
    for step, batch in enumerate(batches):
        stats = pagerank.update(g, batch, r)
        assert stats.converged, step
        fresh = pagerank.compute(g, **opts).ranks.to_numpy()
        check_close(r.ranks.to_numpy(), fresh, f"update {step} vs a fresh compute", tol=1e-9)


@pytest.mark.parametrize("deleted", [2_000, 14_000, 20_000])
def test_a_first_round_past_its_limit_runs_warm_full_iterations_on_the_gpu(deleted):
    """Deleting thousands of ~150,000 edges lists heads whose in-edges may pass 0.3 of an
    iteration's reads (edges plus vertices; never less than 2^16): then the frontier is not run
    and full iterations start from the previous ranks; from 2^14 changes on the heads are
    counted before the seed plan, so no frontier vertex is listed at all. Far below the limit
    (2,000 deletions: about 15,000 in-edges) the frontier runs. Every way, the ranks lie within
    the bound of a fresh compute."""
    n = 20_000
    rng = np.random.default_rng(3)
    src, dst = rng.integers(0, n, 150_000), rng.integers(0, n, 150_000)
    first = np.sort(np.unique(src * n + dst, return_index=True)[1])
    src, dst = src[first].astype(np.int32), dst[first].astype(np.int32)
    g = dyng.Graph.from_edges(src, dst, num_vertices=n, resources=dyng.Resources.cuda())
    r = pagerank.compute(g)
    stats = pagerank.update(g, dyng.EdgeBatch(delete=(src[:deleted], dst[:deleted])), r)
    in_degree = np.bincount(dst[deleted:], minlength=n)
    heads_in_edges = int(in_degree[np.unique(dst[:deleted])].sum())
    limit = max(1 << 16, int(0.3 * (len(src) - deleted + n)))
    warm = heads_in_edges > limit
    context = f"{deleted} deletions: heads' in-edges {heads_in_edges}, limit {limit}"
    assert stats.method == ("warm_power_iteration" if warm else "frontier_power_iteration"), context
    assert (stats.frontier_size == 0) == (warm and deleted >= 1 << 14), context
    assert stats.converged, context
    check_close(r.ranks.to_numpy(), pagerank.compute(g).ranks.to_numpy(), context)
    stats = pagerank.update(g, dyng.EdgeBatch(insert=([src[30_000]], [dst[40_000]])), r)
    assert stats.method == "frontier_power_iteration" and stats.frontier_size > 0

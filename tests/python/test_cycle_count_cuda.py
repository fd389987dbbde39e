"""On the GPU: cycle_count on CUDA equals the host backends and the pure-Python oracle, compute
and update, batch after adversarial batch, for bounds 2..8 and unbounded, directed and
undirected, with and without stored in-edges; its stats equal the host update's; one dyng.update
repairs device cycle histograms beside sssp results; results move between spaces with the counts
in host memory; bounds past 64 are refused. Skipped where no CUDA backend is usable (CI); must
pass on a GPU before CUDA work is done."""

import numpy as np
import pytest
from _helpers import summary_dict
from hypothesis import event, given, settings
from hypothesis import strategies as st

import dyng
from dyng import cycle_count
from dyng.testing.oracles import simple_cycle_histogram
from dyng.testing.strategies import batches, graphs

pytestmark = pytest.mark.gpu

BOUNDS = st.sampled_from([-1, 2, 3, 4, 5, 6, 8])


def histogram(r):
    return [int(c) for c in np.asarray(r.counts.to_numpy())]


@settings(max_examples=60, deadline=None)
@given(
    rg=graphs(max_vertices=12, max_edges=45),
    data=st.data(),
    directed=st.booleans(),
    transposed=st.booleans(),
)
def test_cuda_updates_match_host_and_oracle(rg, data, directed, transposed):
    model = rg.model(directed=directed)
    max_length = data.draw(BOUNDS, label="max_length")
    props = dyng.GraphProperties(store_transposed=transposed)
    g_dev = rg.to_graph(directed=directed, properties=props, resources=dyng.Resources.cuda())
    g_host = rg.to_graph(directed=directed, properties=props, resources=dyng.Resources.sequential())
    r_dev = cycle_count.compute(g_dev, max_length=max_length)
    r_host = cycle_count.compute(g_host, max_length=max_length)
    assert r_dev.space == "device"
    assert histogram(r_dev) == histogram(r_host) == simple_cycle_histogram(model, max_length)
    for step in range(3):
        rb = data.draw(batches(model, weighted=True), label=f"batch {step}")
        expected = rb.apply_to(model)
        s_dev = cycle_count.update(g_dev, rb.to_batch(), r_dev)
        s_host = cycle_count.update(g_host, rb.to_batch(), r_host)
        assert not g_dev._native.host_rows_current, "the GPU count reads no host rows"
        event(f"cuda update path: {s_dev.path}")
        context = f"batch {step} (max_length {max_length}, directed={directed})"
        assert summary_dict(s_dev.batch) == expected.as_dict(), context
        got = histogram(r_dev)
        assert got == simple_cycle_histogram(model, max_length), f"{context}: CUDA != oracle"
        assert got == histogram(r_host), f"{context}: CUDA update != host update"
        assert (s_dev.deletions, s_dev.insertions, s_dev.affected) == (
            s_host.deletions,
            s_host.insertions,
            s_host.affected,
        ), context
        if s_dev.path == s_host.path == "incremental":
            assert (s_dev.cycles_removed, s_dev.cycles_added) == (
                s_host.cycles_removed,
                s_host.cycles_added,
            ), context
        fresh = cycle_count.compute(g_dev, max_length=max_length)
        assert histogram(fresh) == got, context


def test_larger_graphs_match_openmp():
    # Sparse (4-lane groups, several waves of roots) and skewed dense (32-lane groups) graphs.
    rng = np.random.default_rng(7)
    cases = [(12000, 36000, 6), (3000, 30000, 5)]
    for n, m, max_length in cases:
        src = rng.integers(0, n, m)
        dst = (src + rng.zipf(1.6, m)) % n if n == 3000 else rng.integers(0, n, m)
        keep = src != dst
        pairs = np.unique(np.stack([src[keep], dst[keep]], 1), axis=0).astype(np.int32)
        g_dev = dyng.Graph.from_edges(
            pairs[:, 0],
            pairs[:, 1],
            num_vertices=n,
            properties="cycle_enum_compatible",
            resources=dyng.Resources.cuda(),
        )
        g_omp = dyng.Graph.from_edges(
            pairs[:, 0],
            pairs[:, 1],
            num_vertices=n,
            properties="cycle_enum_compatible",
            resources=dyng.Resources.openmp(),
        )
        r_dev = cycle_count.compute(g_dev, max_length=max_length)
        r_omp = cycle_count.compute(g_omp, max_length=max_length)
        assert histogram(r_dev) == histogram(r_omp), (n, m)
        batch = dyng.EdgeBatch(
            insert=(pairs[:50, 1].copy(), pairs[:50, 0].copy()),
            delete=(pairs[50:100, 0].copy(), pairs[50:100, 1].copy()),
        )
        cycle_count.update(g_dev, batch, r_dev)
        cycle_count.update(g_omp, batch, r_omp)
        assert histogram(r_dev) == histogram(r_omp), (n, m, "update")


def test_module_update_repairs_device_histograms_beside_sssp():
    cuda = dyng.Resources.cuda()
    g = dyng.Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 3], [1, 1, 1, 1], resources=cuda)
    counts = cycle_count.compute(g, max_length=4)
    tree = dyng.sssp.compute(g, 0)
    batch = dyng.EdgeBatch(insert=([3, 1], [0, 0], [1, 1]))
    cycle_stats, sssp_stats = dyng.update(g, batch, counts, tree)
    assert cycle_stats.batch == sssp_stats.batch
    assert counts.to_dict() == {2: 1, 3: 1, 4: 1} and cycle_stats.cycles_added == 2


def test_device_results_move_between_spaces():
    cuda = dyng.Resources.cuda()
    g = dyng.Graph.from_edges([0, 1, 2, 1], [1, 2, 0, 0], resources=cuda)
    r = cycle_count.compute(g)
    assert r.space == "device" and r.to_dict() == {2: 1, 3: 1}
    assert isinstance(r.counts.to_numpy(), np.ndarray) and r.counts.device == "cpu"
    host = r.clone(resources="sequential")
    assert host.space == "host" and host.to_dict() == r.to_dict()
    back = host.clone(resources=cuda)
    assert back.space == "device" and back.total == 2
    cycle_count.update(g, dyng.EdgeBatch(delete=([2], [0])), r)
    assert r.to_dict() == {2: 1} and host.to_dict() == {2: 1, 3: 1}


def test_bounds_past_64_are_refused_clearly():
    cuda = dyng.Resources.cuda()
    n = 70
    ids = np.arange(n, dtype=np.int32)
    g = dyng.Graph.from_edges(ids, (ids + 1) % n, resources=cuda)
    with pytest.raises(dyng.NotSupportedError, match="up to 64 edges.*openmp"):
        cycle_count.compute(g)
    with pytest.raises(dyng.NotSupportedError, match="max_length 65"):
        cycle_count.compute(g, max_length=65)
    r = cycle_count.compute(g, max_length=64)
    assert r.total == 0
    ids = ids[:64]
    ring = cycle_count.compute(dyng.Graph.from_edges(ids, (ids + 1) % 64, resources=cuda))
    assert ring.to_dict() == {64: 1}

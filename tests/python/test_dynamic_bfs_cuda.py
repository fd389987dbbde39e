"""On the GPU: dynamic_bfs on CUDA equals the host backends and the pure-Python oracle, compute
and update, batch after adversarial batch, for every id combination; device results move between
spaces and hand out device arrays. Skipped where no CUDA backend is usable (CI); must pass on a
GPU before CUDA work is done."""

import numpy as np
import pytest
from _helpers import summary_dict
from hypothesis import event, given, settings
from hypothesis import strategies as st

import dyng
from dyng import dynamic_bfs
from dyng.testing.oracles import bfs_levels
from dyng.testing.strategies import batches, graphs

pytestmark = pytest.mark.gpu

COMBOS = {
    "i32i32": ({}, np.int32),
    "i32i64": ({"edge_dtype": "int64"}, np.int32),
    "i64i64": ({"vertex_dtype": "int64"}, np.int32),
}


@pytest.mark.parametrize("combo", sorted(COMBOS))
@settings(max_examples=25, deadline=None)
@given(rg=graphs(max_vertices=14, max_edges=45), data=st.data(), directed=st.booleans())
def test_cuda_updates_match_host_and_oracle(rg, data, directed, combo):
    kw, id_dtype = COMBOS[combo]
    model = rg.model(directed=directed)
    source = data.draw(st.integers(0, rg.num_vertices - 1), label="source")
    g_dev = rg.to_graph(directed=directed, id_dtype=id_dtype, resources=dyng.Resources.cuda(), **kw)
    g_host = rg.to_graph(
        directed=directed, id_dtype=id_dtype, resources=dyng.Resources.sequential(), **kw
    )
    r_dev, r_host = dynamic_bfs.compute(g_dev, source), dynamic_bfs.compute(g_host, source)
    assert r_dev.space == "device"
    assert r_dev.levels.to_numpy().tolist() == r_host.levels.tolist() == bfs_levels(model, source)
    for step in range(4):
        rb = data.draw(batches(model, source=source), label=f"batch {step}")
        expected = rb.apply_to(model)
        s_dev = dynamic_bfs.update(g_dev, rb.to_batch(id_dtype=id_dtype), r_dev)
        dynamic_bfs.update(g_host, rb.to_batch(id_dtype=id_dtype), r_host)
        event(f"cuda update path: {s_dev.path}")
        context = f"batch {step} ({combo}, directed={directed})"
        assert summary_dict(s_dev.batch) == expected.as_dict(), context
        got = r_dev.levels.to_numpy().tolist()
        assert got == bfs_levels(model, source), f"{context}: CUDA update != oracle"
        assert got == r_host.levels.tolist(), f"{context}: CUDA update != host update"
        assert dynamic_bfs.compute(g_dev, source).levels.to_numpy().tolist() == got, context


def test_device_results_move_between_spaces():
    cuda = dyng.Resources.cuda()
    g = dyng.Graph.from_edges([0, 1, 2], [1, 2, 3], resources=cuda)
    r = dynamic_bfs.compute(g, 0)
    assert (r.stats.engine_used, r.stats.method, r.stats.affected) == ("fused", "frontier", 4)
    host = r.clone(resources="sequential")
    assert host.space == "host" and host.levels.tolist() == [0, 1, 2, 3]
    back = host.clone(resources=cuda)
    assert back.space == "device" and back.levels.to_numpy().tolist() == [0, 1, 2, 3]
    array = r.levels
    assert array.__cuda_array_interface__["typestr"] == "<i8"
    kept = array.to_numpy()
    dynamic_bfs.update(g, dyng.EdgeBatch(delete=([1], [2])), r)
    assert kept.tolist() == [0, 1, 2, 3]
    assert r.levels.to_numpy().tolist() == [0, 1, -1, -1]
    assert host.levels.tolist() == [0, 1, 2, 3]


def test_mixed_update_on_the_device():
    g = dyng.Graph.from_edges([0, 0, 1], [1, 2, 2], [4, 1, 1], resources=dyng.Resources.cuda())
    levels, tree = dynamic_bfs.compute(g, 0), dyng.sssp.compute(g, 0)
    dyng.update(g, dyng.EdgeBatch(delete=([0], [2]), insert=([2], [3], [1])), levels, tree)
    assert levels.levels.to_numpy().tolist() == [0, 1, 2, 3]
    assert tree.distances.to_numpy().tolist() == [0, 4, 5, 6]

"""On the GPU: sssp.update on CUDA equals a fresh compute on the host backends bit for bit
(distances and canonical parents), batch after adversarial batch, for every id combination.

The CUDA graph and result are updated alongside a sequential twin built from the same model, so
each step compares a CUDA incremental update (or its GPU recompute fallback) with the host.
Skipped where no CUDA backend is usable (CI); must pass on a GPU before CUDA work is done.
"""

import numpy as np
import pytest
from _helpers import summary_dict
from hypothesis import event, given, settings
from hypothesis import strategies as st

import dyng
from dyng import sssp
from dyng.testing.oracles import dijkstra
from dyng.testing.strategies import batches, graphs

pytestmark = pytest.mark.gpu

COMBOS = {
    "i32i32": ({}, np.int32),
    "i32i64": ({"edge_dtype": "int64"}, np.int32),
    "i64i64": ({"vertex_dtype": "int64"}, np.int32),
}


def _host_lists(result):
    return (
        np.asarray(result.distances.to_numpy()).tolist(),
        np.asarray(result.parents.to_numpy()).tolist(),
    )


def run_parity(rg, data, *, directed, combo, num_batches, **batch_kw):
    kw, id_dtype = COMBOS[combo]
    model = rg.model(directed=directed)
    source = data.draw(st.integers(0, rg.num_vertices - 1), label="source")
    cuda = dyng.Resources.cuda()
    seq = dyng.Resources.sequential()
    g_dev = rg.to_graph(directed=directed, id_dtype=id_dtype, resources=cuda, **kw)
    g_host = rg.to_graph(directed=directed, id_dtype=id_dtype, resources=seq, **kw)
    assert g_dev.space == "device" and g_host.space == "host"
    r_dev = sssp.compute(g_dev, source)
    assert r_dev.space == "device"
    r_host = sssp.compute(g_host, source)
    assert _host_lists(r_dev) == _host_lists(r_host), "compute: CUDA != sequential"
    for step in range(num_batches):
        rb = data.draw(batches(model, source=source, **batch_kw), label=f"batch {step}")
        expected = rb.apply_to(model)
        s_dev = sssp.update(g_dev, rb.to_batch(id_dtype=id_dtype), r_dev)
        sssp.update(g_host, rb.to_batch(id_dtype=id_dtype), r_host)
        event(f"cuda update path: {s_dev.path}")
        context = f"batch {step} ({combo}, directed={directed})"
        assert summary_dict(s_dev.batch) == expected.as_dict(), context
        fresh = sssp.compute(g_host, source, resources=seq)
        got = _host_lists(r_dev)
        assert got == _host_lists(fresh), f"{context}: CUDA update != fresh host compute"
        assert got == _host_lists(r_host), f"{context}: CUDA update != host update"
        dist, parents = dijkstra(model, source)
        assert got == (dist, parents), f"{context}: CUDA update != oracle"
        # A fresh CUDA compute on the updated device graph checks the device copy of the graph.
        assert _host_lists(sssp.compute(g_dev, source)) == got, f"{context}: device graph drifted"


@pytest.mark.parametrize("combo", sorted(COMBOS))
@settings(max_examples=25, deadline=None)
@given(rg=graphs(max_vertices=12, max_edges=40), data=st.data(), directed=st.booleans())
def test_cuda_update_sequence_matches_host(rg, data, directed, combo):
    run_parity(rg, data, directed=directed, combo=combo, num_batches=4)


@settings(max_examples=25, deadline=None)
@given(rg=graphs(max_vertices=30, max_edges=120), data=st.data())
def test_cuda_large_batches_match_host(rg, data):
    # Batches as large as the graph push the update onto its GPU recompute fallback too.
    run_parity(
        rg, data, directed=True, combo="i32i32", num_batches=3, max_insertions=40, max_deletions=40
    )

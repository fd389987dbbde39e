"""On the GPU: triangle_delta on CUDA equals the host backends and the pure-Python oracle,
compute and update, batch after adversarial batch; its stats equal the host update's; one
dyng.update repairs a device count beside a BFS result; results move between spaces. Skipped
where no CUDA backend is usable (CI); must pass on a GPU before CUDA work is done."""

import pytest
from _helpers import summary_dict
from hypothesis import event, given, settings
from hypothesis import strategies as st

import dyng
from dyng import triangle_delta
from dyng.testing.oracles import triangle_count
from dyng.testing.strategies import batches, graphs

pytestmark = pytest.mark.gpu


@settings(max_examples=60, deadline=None)
@given(rg=graphs(max_vertices=14, max_edges=60), data=st.data())
def test_cuda_updates_match_host_and_oracle(rg, data):
    model = rg.model(directed=False)
    g_dev = rg.to_graph(directed=False, resources=dyng.Resources.cuda())
    g_host = rg.to_graph(directed=False, resources=dyng.Resources.sequential())
    r_dev = triangle_delta.compute(g_dev)
    r_host = triangle_delta.compute(g_host)
    assert r_dev.space == "device"
    assert r_dev.count == r_host.count == triangle_count(model)
    for step in range(3):
        rb = data.draw(batches(model, weighted=True), label=f"batch {step}")
        expected = rb.apply_to(model)
        s_dev = triangle_delta.update(g_dev, rb.to_batch(), r_dev)
        s_host = triangle_delta.update(g_host, rb.to_batch(), r_host)
        assert not g_dev._native.host_rows_current, "the GPU count reads no host rows"
        event(f"cuda update path: {s_dev.path}")
        context = f"batch {step}"
        assert summary_dict(s_dev.batch) == expected.as_dict(), context
        assert r_dev.count == triangle_count(model) == r_host.count, context
        assert (s_dev.deletions, s_dev.insertions, s_dev.affected) == (
            s_host.deletions,
            s_host.insertions,
            s_host.affected,
        ), context
        if s_dev.path == s_host.path == "incremental":
            assert (s_dev.triangles_removed, s_dev.triangles_added) == (
                s_host.triangles_removed,
                s_host.triangles_added,
            ), context
        assert triangle_delta.compute(g_dev).count == r_dev.count


def test_module_update_and_spaces():
    pairs = [(u, v) for u in range(6) for v in range(u + 1, 6)]
    g = dyng.Graph.from_edges(
        [u for u, _ in pairs],
        [v for _, v in pairs],
        directed=False,
        resources=dyng.Resources.cuda(),
    )
    count = triangle_delta.compute(g)
    levels = dyng.dynamic_bfs.compute(g, 0)
    assert count.count == 20
    tri, bfs = dyng.update(g, dyng.EdgeBatch(delete=([0], [1])), count, levels)
    assert tri.batch == bfs.batch and count.count == 16 and tri.triangles_removed == 4
    host = count.clone(resources=dyng.Resources.sequential())
    assert host.space == "host" and host.count == 16
    back = host.clone(resources=dyng.Resources.cuda())
    assert back.space == "device" and back.count == 16

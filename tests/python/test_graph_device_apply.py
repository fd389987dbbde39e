"""On the GPU: a device graph applies its batches on the device, with the same outcome as a host
graph given the same batches: summaries, refusals (class and message), edges in order, change
logs through the algorithms' updates, for every semantics and storage setting, with adversarial
batches (repeats, cancelled pairs, self-loops, parallel edges, vertex growth, rows that move or
re-lay the graph out)."""

import numpy as np
import pytest

import dyng
from dyng import sssp

pytestmark = pytest.mark.gpu

SEMANTICS = [
    dyng.BatchSemantics(),
    dyng.BatchSemantics.set(),
    dyng.BatchSemantics(on_existing_insert="error", on_missing_delete="error"),
    dyng.BatchSemantics(on_existing_insert="ignore", on_self_loop="drop", deletions_first=False),
    dyng.BatchSemantics(on_self_loop="error", allow_vertex_growth=False),
    dyng.BatchSemantics(as_sets=True, deletions_first=False),
]


def outcome(graph, batch):
    try:
        return graph.apply(batch)
    except dyng.Error as error:
        return type(error), str(error)


def random_batch(rng, graph, size):
    n = graph.num_vertices
    span = n + 2 if rng.random() < 0.3 else max(4, min(n, 16))
    ins_src = rng.integers(0, span, size)
    ins_dst = np.where(rng.random(size) < 0.1, ins_src, rng.integers(0, span, size))
    src, dst, _ = graph.edges()
    pick = rng.integers(0, max(1, len(src)), size // 2)
    del_src = np.concatenate([src[pick] if len(src) else [], rng.integers(0, span, size // 4)])
    del_dst = np.concatenate([dst[pick] if len(src) else [], rng.integers(0, span, size // 4)])
    # Repeats and delete-then-insert pairs.
    ins_src = np.concatenate([ins_src, del_src[:3]]).astype(np.int32)
    ins_dst = np.concatenate([ins_dst, del_dst[:3]]).astype(np.int32)
    weights = rng.integers(1, 20, len(ins_src)).astype(np.int32)
    return dyng.EdgeBatch(
        insert=(ins_src, ins_dst, weights),
        delete=(del_src.astype(np.int32), del_dst.astype(np.int32)),
    )


@pytest.mark.parametrize("semantics", range(len(SEMANTICS)))
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("multi_edges", ["forbid", "allow"])
def test_device_apply_matches_host_apply(semantics, directed, multi_edges):
    rng = np.random.default_rng(7 + semantics)
    n, m = 200, 1200
    src = rng.integers(0, n, m).astype(np.int32)
    dst = rng.integers(0, n, m).astype(np.int32)
    dst = np.where(dst == src, (dst + 1) % n, dst).astype(np.int32)  # on_self_loop='error' builds
    w = rng.integers(1, 20, m).astype(np.int32)
    kw = dict(directed=directed, multi_edges=multi_edges, semantics=SEMANTICS[semantics])
    host = dyng.Graph.from_edges(src, dst, w, resources=dyng.Resources.sequential(), **kw)
    device = dyng.Graph.from_edges(src, dst, w, resources=dyng.Resources.cuda(), **kw)
    for step in range(25):
        batch = random_batch(rng, host, 2000 if step % 6 == 5 else int(rng.integers(0, 30)))
        expected, got = outcome(host, batch), outcome(device, batch)
        assert got == expected, f"step {step}"
        assert not device._native.host_rows_current or isinstance(expected, tuple)
        if step % 4 == 0:
            for a, b in zip(host.edges(), device.edges()):
                assert a.tolist() == b.tolist(), f"step {step}"
            device.check_integrity()
    assert device.num_edges == host.num_edges and device.version == host.version


@pytest.mark.parametrize("directed", [True, False])
def test_updates_on_a_device_graph_match_host_updates(directed):
    rng = np.random.default_rng(11)
    n, m = 3000, 20000
    src = rng.integers(0, n, m).astype(np.int32)
    dst = rng.integers(0, n, m).astype(np.int32)
    w = rng.integers(1, 100, m).astype(np.int32)
    host = dyng.Graph.from_edges(
        src, dst, w, directed=directed, resources=dyng.Resources.sequential()
    )
    device = dyng.Graph.from_edges(src, dst, w, directed=directed, resources=dyng.Resources.cuda())
    on_host, on_device = sssp.compute(host, 0), sssp.compute(device, 0)
    for _step in range(12):
        batch = random_batch(rng, host, int(rng.integers(1, 5000)))
        sssp.update(host, batch, on_host)
        sssp.update(device, batch, on_device)
        assert not device._native.host_rows_current, "the host rows stay off"
        assert on_device.distances.to_numpy().tolist() == on_host.distances.to_numpy().tolist()
        assert on_device.parents.to_numpy().tolist() == on_host.parents.to_numpy().tolist()
    fresh = sssp.compute(host, 0)
    assert on_device.distances.to_numpy().tolist() == fresh.distances.to_numpy().tolist()
    # A host read brings the rows back, equal to the host graph's.
    assert [a.tolist() for a in device.edges()] == [a.tolist() for a in host.edges()]
    assert device._native.host_rows_current


def test_refused_batch_changes_nothing_on_the_device():
    g = dyng.Graph.from_edges(
        [0, 1],
        [1, 2],
        [5, 6],
        resources=dyng.Resources.cuda(),
        semantics=dyng.BatchSemantics(on_missing_delete="error"),
    )
    r = sssp.compute(g, 0)
    sssp.update(g, dyng.EdgeBatch(insert=([2], [3], [1])), r)
    before = [a.tolist() for a in g.edges()]
    with pytest.raises(dyng.InvalidArgumentError, match="deletion 1 removes edge"):
        g.apply(dyng.EdgeBatch(insert=([0], [3], [1]), delete=([0, 7], [1, 8])))
    assert [a.tolist() for a in g.edges()] == before and g.version == 1

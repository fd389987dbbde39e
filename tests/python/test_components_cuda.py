"""On the GPU: components on CUDA equals the host backends, SciPy and the pure-Python oracle,
compute and update, weak and strong, batch after adversarial batch, for every id combination
(the C++ tests take every budget path); device results move between spaces and hand out
device arrays (CuPy reads them in place); larger skewed graphs against the host. Skipped where
no CUDA backend is usable (CI); must pass on a GPU before CUDA work is done."""

import numpy as np
import pytest
from _helpers import summary_dict
from hypothesis import event, given, settings
from hypothesis import strategies as st
from test_components_properties import COMBOS, expected_answer

import dyng
from dyng import components
from dyng.testing.strategies import batches, graphs

pytestmark = pytest.mark.gpu


def answer(result):
    return (result.labels.to_numpy().tolist(), result.sizes.to_numpy().tolist(), result.count)


@pytest.mark.parametrize("combo", sorted(COMBOS))
@settings(max_examples=30, deadline=None)
@given(rg=graphs(max_vertices=14, max_edges=30), data=st.data(), directed=st.booleans())
def test_cuda_updates_match_host_and_oracle(rg, data, directed, combo):
    kw, id_dtype = COMBOS[combo]
    kind = data.draw(st.sampled_from(["weak", "strong"])) if directed else "weak"
    model = rg.model(directed=directed)
    g_dev = rg.to_graph(directed=directed, id_dtype=id_dtype, resources=dyng.Resources.cuda(), **kw)
    g_host = rg.to_graph(
        directed=directed, id_dtype=id_dtype, resources=dyng.Resources.sequential(), **kw
    )
    r_dev = components.compute(g_dev, kind=kind)
    r_host = components.compute(g_host, kind=kind)
    assert r_dev.space == "device"
    assert answer(r_dev) == expected_answer(model, kind)
    for step in range(4):
        rb = data.draw(batches(model), label=f"batch {step}")
        expected = rb.apply_to(model)
        before = answer(r_dev)
        s_dev = components.update(g_dev, rb.to_batch(id_dtype=id_dtype), r_dev)
        components.update(g_host, rb.to_batch(id_dtype=id_dtype), r_host)
        event(f"cuda update path: {s_dev.path}")
        context = f"batch {step} ({combo}, {kind}, directed={directed})"
        assert summary_dict(s_dev.batch) == expected.as_dict(), context
        got = answer(r_dev)
        assert got == expected_answer(model, kind), f"{context}: CUDA update != oracle"
        # `affected`: the entries whose label or size differ, new vertices starting at (-1, 0).
        grown = list(zip(before[0], before[1]))
        grown += [(-1, 0)] * (len(got[0]) - len(grown))
        differ = sum(old != new for old, new in zip(grown, zip(got[0], got[1])))
        assert s_dev.affected == differ, context
        assert got == (r_host.labels.tolist(), r_host.sizes.tolist(), r_host.count), context
        assert answer(components.compute(g_dev, kind=kind)) == got, context


def test_device_results_move_between_spaces_and_read_in_place():
    cupy = pytest.importorskip("cupy")
    cuda = dyng.Resources.cuda()
    g = dyng.Graph.from_edges([0, 1, 3], [1, 2, 4], directed=False, resources=cuda)
    r = components.compute(g)
    assert (r.stats.engine_used, r.stats.method, r.stats.affected) == ("operators", "afforest", 5)
    assert r.labels.__cuda_array_interface__["typestr"] == "<i8"
    labels = cupy.asarray(r.labels)
    assert labels.data.ptr == r.labels.__cuda_array_interface__["data"][0]
    assert labels.tolist() == [0, 0, 0, 3, 3] and r.count == 2
    host = r.clone(resources="sequential")
    assert host.space == "host" and host.labels.tolist() == [0, 0, 0, 3, 3] and host.count == 2
    back = host.clone(resources=cuda)
    assert back.space == "device" and back.sizes.to_numpy().tolist() == [3, 0, 0, 2, 0]
    kept = r.labels.to_numpy()
    stats = components.update(g, dyng.EdgeBatch(insert=([2], [3]), delete=([0], [1])), r)
    assert kept.tolist() == [0, 0, 0, 3, 3]
    assert r.labels.to_numpy().tolist() == [0, 1, 1, 1, 1] and r.count == 2
    assert stats.path in ("incremental", "recompute") and host.count == 2


def test_strong_on_the_device_and_a_mixed_update():
    cuda = dyng.Resources.cuda()
    g = dyng.Graph.from_edges([0, 1, 2, 3], [1, 2, 0, 4], [1, 1, 1, 1], resources=cuda)
    strong, tree = components.compute(g, kind="strong"), dyng.sssp.compute(g, 0)
    assert strong.labels.to_numpy().tolist() == [0, 0, 0, 3, 4]
    assert strong.stats.method == "signatures"
    dyng.update(g, dyng.EdgeBatch(insert=([4, 5], [3, 2], [1, 1]), delete=([2], [0])), strong, tree)
    assert strong.labels.to_numpy().tolist() == [0, 1, 2, 3, 3, 5] and strong.count == 5
    assert tree.distances.to_numpy().tolist()[:3] == [0, 1, 2]
    with pytest.raises(dyng.InvalidArgumentError, match="strong.*undirected"):
        components.compute(
            dyng.Graph.from_edges([0], [1], directed=False, resources=cuda), kind="strong"
        )


@pytest.mark.parametrize("kind", ["weak", "strong"])
def test_skewed_graphs_with_batches_of_a_thousand_changes(kind):
    rng = np.random.default_rng(5)
    n, m = 50_000, 400_000
    src = (np.minimum(rng.zipf(1.6, m), n) - 1).astype(np.int32)
    dst = rng.integers(0, n, m, dtype=np.int32)
    graphs = {
        name: dyng.Graph.from_edges(src, dst, num_vertices=n, resources=res)
        for name, res in (("cuda", dyng.Resources.cuda()), ("host", dyng.Resources.openmp()))
    }
    results = {name: components.compute(g, kind=kind) for name, g in graphs.items()}
    paths = set()
    for step in range(5):
        pick = rng.integers(0, m, 500)
        batch = dyng.EdgeBatch(
            insert=(
                rng.integers(0, n + 3, 500, dtype=np.int32),
                rng.integers(0, n, 500, dtype=np.int32),
            ),
            delete=(src[pick], dst[pick]),
        )
        for name, g in graphs.items():
            stats = components.update(g, batch, results[name])
            if name == "cuda":
                paths.add(stats.path)
        device, host = results["cuda"], results["host"]
        differ = np.flatnonzero(device.labels.to_numpy() != host.labels.to_numpy())
        assert differ.size == 0, (
            f"batch {step}: {differ.size} labels differ from the host's, "
            f"first at vertices {differ[:5].tolist()}"
        )
        assert np.array_equal(device.sizes.to_numpy(), host.sizes.to_numpy()), step
        assert device.count == host.count, step
    # The hub trees keep the strong repair within its budget on this graph too.
    assert "incremental" in paths


def test_strong_hub_component_shrinks_splits_and_grows_back():
    """Batches that cut the hub trees where it hurts: the hub's own tree edges, the edges of the
    giant component's smallest vertex (its label moves), then back; a copy of the result (which
    carries no trees) is updated beside it, and on some steps a reader holds the labels in place
    across the update (copy on write: the repaired copy takes the trees over, the reader keeps
    the old labels). Each step equals a fresh compute."""
    cupy = pytest.importorskip("cupy")
    rng = np.random.default_rng(11)
    n = 400
    ring = np.arange(n, dtype=np.int32)
    src = np.concatenate([ring, np.zeros(60, np.int32), rng.integers(0, n, 300, dtype=np.int32)])
    dst = np.concatenate(
        [(ring + 1) % n, rng.integers(1, n, 60, dtype=np.int32), np.zeros(300, np.int32)]
    )
    keep = src != dst
    src, dst = src[keep], dst[keep]
    g = dyng.Graph.from_edges(src, dst, num_vertices=n, resources=dyng.Resources.cuda())
    r = components.compute(g, kind="strong")
    copies = []
    paths = set()
    present = set(zip(src.tolist(), dst.tolist()))
    for step in range(24):
        edges = sorted(present)
        hub_edges = [e for e in edges if 0 in e]
        picks = [edges[i] for i in rng.choice(len(edges), 6, replace=False)]
        picks += (
            [
                hub_edges[i]
                for i in rng.choice(len(hub_edges), min(4, len(hub_edges)), replace=False)
            ]
            if step % 3 == 0
            else []
        )
        picks = sorted(set(picks))
        inserts = sorted(
            {(int(a), int(b)) for a, b in rng.integers(0, n + 2, (8, 2)) if a != b}
            - present
            - set(picks)
        )
        batch = dyng.EdgeBatch(
            insert=([a for a, _ in inserts], [b for _, b in inserts]),
            delete=([a for a, _ in picks], [b for _, b in picks]),
        )
        held = cupy.asarray(r.labels) if step % 4 == 1 else None
        before = held.get() if held is not None else None
        paths.update(stats.path for stats in dyng.update(g, batch, r, *copies))
        if held is not None:
            assert np.array_equal(held.get(), before), f"step {step}: the reader's labels moved"
            del held
        present = (present - set(picks)) | set(inserts)
        fresh = answer(components.compute(g, kind="strong"))
        assert answer(r) == fresh, f"step {step}: update != compute"
        assert all(answer(c) == fresh for c in copies), f"step {step}: a clone's update differs"
        if step == 10:
            copies.append(r.clone())
    assert "incremental" in paths


def test_strong_on_long_cycles_without_hub_trees():
    """A ring of 3,000 vertices is deeper than the hub trees go (the phases decide it alone);
    cutting it, closing it again and growing it still equal a fresh compute."""
    n = 3000
    ring = np.arange(n, dtype=np.int32)
    g = dyng.Graph.from_edges(ring, (ring + 1) % n, num_vertices=n, resources=dyng.Resources.cuda())
    r = components.compute(g, kind="strong")
    assert r.count == 1
    steps = [
        dyng.EdgeBatch(delete=([10, 2000], [11, 2001])),
        dyng.EdgeBatch(insert=([11, 2001], [10, 2000])),
        dyng.EdgeBatch(insert=([2001, n], [10, 5])),
        dyng.EdgeBatch(insert=([5], [n]), delete=([2001], [10])),
    ]
    for step, batch in enumerate(steps):
        components.update(g, batch, r)
        assert answer(r) == answer(components.compute(g, kind="strong")), f"step {step}"


@pytest.mark.parametrize("directed", [True, False])
def test_weak_search_from_a_hub_end_reaches_the_label_through_its_neighbours(directed):
    """A deleted edge's end that is a hub of 3,000 neighbours, none of them the label: its own
    rows would fill its search. Where the neighbours link to the label (vertex 0), the probe of
    each queued neighbour's first slots reaches it and nothing is re-linked; where they are
    leaves and the deletion splits the component, the search stays open and the split is found
    whole."""
    hub, leaves = 5000, np.arange(10, 3010, dtype=np.int32)
    cuda = dyng.Resources.cuda()
    # Reached: hub -> leaf for every leaf, leaf -> 0 for every leaf, and 0 -> 1 -> hub.
    src = np.concatenate([np.full(leaves.size, hub, np.int32), leaves, [0, 1]]).astype(np.int32)
    dst = np.concatenate([leaves, np.zeros(leaves.size, np.int32), [1, hub]]).astype(np.int32)
    g = dyng.Graph.from_edges(src, dst, directed=directed, resources=cuda)
    r = components.compute(g)
    stats = components.update(g, dyng.EdgeBatch(delete=([hub], [int(leaves[7])])), r)
    assert (stats.search_size, r.count) == (0, components.compute(g).count)
    assert answer(r) == answer(components.compute(g))
    # Split: the leaves hang on the hub only, and the hub on 0 through vertex 1.
    src = np.concatenate([np.full(leaves.size, hub, np.int32), [0, 1]]).astype(np.int32)
    dst = np.concatenate([leaves, [1, hub]]).astype(np.int32)
    g = dyng.Graph.from_edges(src, dst, directed=directed, resources=cuda)
    r = components.compute(g)
    assert r.labels.to_numpy()[hub] == 0
    stats = components.update(g, dyng.EdgeBatch(delete=([0], [1])), r)
    assert stats.search_size > 0  # the hub's search stayed open: its component was re-linked
    assert r.labels.to_numpy()[hub] == 1 and r.labels.to_numpy()[0] == 0
    assert answer(r) == answer(components.compute(g))

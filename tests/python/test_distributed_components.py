"""dyng.distributed's weak components in a world of one (issue 47).

The same code runs under mpiexec in test_distributed_mpi.py (_distributed_components_rank.py),
where ghosts, subscriptions and candidates cross ranks; here the world is one process (no
launcher, no mpi4py), where compute and update must still equal dyng.components on the same
graph, batch after adversarial batch, and a rank's local view must hold its shard's ghosts and
the components a scan finds.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import dyng
import dyng.distributed as dd
from dyng.distributed._label_rounds import _owned_range, local_view
from dyng.testing.strategies import batches, graphs


def answer_of(result):
    return result.gather_labels().tolist(), result.gather_sizes().tolist(), result.count


def expected_of(graph):
    fresh = dyng.components.compute(graph, kind="weak")
    return fresh.labels.tolist(), fresh.sizes.tolist(), fresh.count


def scan_smallest(pairs, ids):
    """Each id's smallest connected id over the edges `pairs`, by repeated relaxation."""
    low = {v: v for v in ids}
    changed = True
    while changed:
        changed = False
        for u, v in pairs:
            m = min(low[u], low[v])
            if low[u] != m or low[v] != m:
                low[u] = low[v] = m
                changed = True
    return [low[v] for v in ids]


@given(
    n=st.integers(1, 24),
    bounds=st.tuples(st.integers(0, 24), st.integers(0, 24)),
    pairs=st.lists(st.tuples(st.integers(0, 23), st.integers(0, 23)), max_size=30),
)
def test_a_local_view_has_the_shards_ghosts_and_components(n, bounds, pairs):
    start, stop = min(min(bounds), n), min(max(bounds), n)
    # A shard holds only the out-edges of the vertices its rank owns.
    kept = [(u, v) for u, v in pairs if start <= u < stop and v < n]
    shard = dyng.Graph.from_edges(
        [u for u, _ in kept], [v for _, v in kept], num_vertices=n, vertex_dtype="int32"
    )
    view = local_view(dyng.components.compute(shard, kind="weak"), start, stop)
    ghosts = sorted({v for _, v in kept if not start <= v < stop})
    assert view.ghosts.tolist() == ghosts
    slot_ids = list(range(start, stop)) + ghosts
    assert view.local_min.tolist() == scan_smallest(kept, slot_ids)
    assert [slot_ids[c] for c in view.component] == view.local_min.tolist()


def test_owned_ranges_cut_at_the_vertex_count_and_the_last_rank_takes_growth():
    part = dd.VertexPartition(np.array([0, 4, 8, 10]))
    assert [_owned_range(part, r, 10) for r in range(3)] == [(0, 4), (4, 8), (8, 10)]
    assert [_owned_range(part, r, 6) for r in range(3)] == [(0, 4), (4, 6), (6, 6)]
    assert [_owned_range(part, r, 13) for r in range(3)] == [(0, 4), (4, 8), (8, 13)]


@given(
    rg=graphs(max_vertices=14, max_edges=30, weighted=False),
    data=st.data(),
    num_batches=st.integers(1, 4),
    directed=st.booleans(),
)
def test_a_world_of_one_equals_dyng_components_batch_after_batch(rg, data, num_batches, directed):
    src, dst, _ = rg.arrays()
    n = rg.num_vertices
    reference = dyng.Graph.from_edges(src, dst, num_vertices=n, directed=directed)
    graph = dd.DistributedGraph.from_edges(src, dst, num_vertices=n, directed=directed)
    result = dd.components_compute(graph)
    assert answer_of(result) == expected_of(reference)
    assert result.graph_version == 0 and result.stats.path == "compute"
    model = rg.model(directed=directed)
    for step in range(num_batches):
        batch = data.draw(batches(model, weighted=False), label=f"batch {step}")
        batch.apply_to(model)
        reference.apply(batch.to_batch())
        stats = dd.components_update(graph, batch.to_batch(), result)
        assert answer_of(result) == expected_of(reference), f"batch {step}"
        assert result.num_vertices == reference.num_vertices
        assert result.graph_version == graph.version == step + 1
        assert stats is result.stats and stats.path == "update"


def test_only_a_deletion_without_another_path_resets_its_component():
    # Components {0,1,2}, {3,4}, {5..9} and 10.. alone; deleting (5, 6) keeps 5..9 joined
    # through the other path, and 0..4 keep their labels untouched.
    src = [0, 1, 3, 5, 6, 7, 8, 5]
    dst = [1, 2, 4, 6, 7, 8, 9, 9]
    # 100 vertices: on fewer the shard's native update falls back to a recompute, whose
    # counters (relabelled among them) stay 0.
    graph = dd.DistributedGraph.from_edges(src, dst, num_vertices=100)
    reference = dyng.Graph.from_edges(src, dst, num_vertices=100)
    result = dd.components_compute(graph)
    batch = dyng.EdgeBatch(delete=([5], [6]))
    stats = dd.components_update(graph, batch, result)
    reference.apply(batch)
    assert answer_of(result) == expected_of(reference)
    assert (stats.path, stats.reset_components, stats.reset_vertices) == ("update", 0, 0)
    assert stats.relabelled == 0
    stats = dd.components_update(graph, dyng.EdgeBatch(delete=([5], [9])), result)
    reference.apply(dyng.EdgeBatch(delete=([5], [9])))
    assert answer_of(result) == expected_of(reference)
    assert (stats.reset_components, stats.reset_vertices) == (1, 5)
    assert (stats.relabelled, result.count) == (4, 94)


def test_insertions_merge_and_grow_the_graph():
    graph = dd.DistributedGraph.from_edges([0, 2], [1, 3], num_vertices=5)
    result = dd.components_compute(graph)
    stats = dd.components_update(graph, dyng.EdgeBatch(insert=([6, 3], [1, 7])), result)
    assert result.gather_labels().tolist() == [0, 0, 2, 2, 4, 5, 0, 2]
    assert result.gather_sizes().tolist() == [3, 0, 3, 0, 1, 1, 0, 0]
    assert (result.count, result.num_vertices, stats.reset_components) == (4, 8, 0)
    dd.components_update(graph, dyng.EdgeBatch(insert=([7], [6])), result)
    assert result.gather_labels(root=0).tolist() == [0, 0, 0, 0, 4, 5, 0, 0]
    assert (result.gather_sizes()[0], result.count) == (6, 3)


def test_a_result_is_read_only_and_refuses_other_graphs_and_versions():
    graph = dd.DistributedGraph.from_edges([0], [1])
    other = dd.DistributedGraph.from_edges([0], [1])
    result = dd.components_compute(graph)
    with pytest.raises(ValueError):
        result.labels[0] = 5
    with pytest.raises(TypeError, match="cannot be called directly"):
        dd.DistributedComponents()
    with pytest.raises(dyng.InvalidArgumentError, match="root=1 is not a rank"):
        result.gather_sizes(root=1)
    with pytest.raises(dyng.StaleResultError, match="another graph"):
        dd.components_update(other, dyng.EdgeBatch(), result)
    graph.apply(dyng.EdgeBatch(insert=([1], [2])))
    with pytest.raises(dyng.StaleResultError, match="version 0 but the graph is at version 1"):
        dd.components_update(graph, dyng.EdgeBatch(), result)
    assert graph.version == 1 and result.labels.tolist() == [0, 0]


def test_a_refused_batch_changes_neither_graph_nor_result():
    semantics = dyng.BatchSemantics(on_missing_delete="error")
    graph = dd.DistributedGraph.from_edges([0, 2], [1, 3], semantics=semantics)
    result = dd.components_compute(graph)
    with pytest.raises(dyng.InvalidArgumentError):
        dd.components_update(graph, dyng.EdgeBatch(insert=([1], [2]), delete=([3], [0])), result)
    assert graph.version == result.graph_version == 0
    assert result.gather_labels().tolist() == [0, 0, 2, 2]


def test_arguments_of_the_wrong_kind_are_refused():
    graph = dd.DistributedGraph.from_edges([0], [1])
    with pytest.raises(TypeError, match="must be a dyng.distributed.DistributedGraph"):
        dd.components_compute(dyng.Graph.from_edges([0], [1]))
    with pytest.raises(dyng.NotSupportedError, match='kind="strong" is not distributed'):
        dd.components_compute(graph, kind="strong")
    with pytest.raises(dyng.InvalidArgumentError, match='kind must be "weak"'):
        dd.components_compute(graph, kind="both")
    result = dyng.components.compute(dyng.Graph.from_edges([0], [1]))
    with pytest.raises(TypeError, match="DistributedComponents; got Result"):
        dd.components_update(graph, dyng.EdgeBatch(), result)


def test_weights_and_wide_ids_change_nothing():
    src, dst, weights = [0, 5, 7], [5, 7, 2], [[3, 1], [4, 1], [9, 2]]
    graph = dd.DistributedGraph.from_edges(src, dst, weights, vertex_dtype="int64")
    reference = dyng.Graph.from_edges(src, dst, weights, vertex_dtype="int64")
    result = dd.components_compute(graph)
    assert answer_of(result) == expected_of(reference)
    batch = dyng.EdgeBatch(insert=([8], [1], [[1, 1]]), delete=([5], [7]))
    dd.components_update(graph, batch, result)
    reference.apply(batch)
    assert answer_of(result) == expected_of(reference)

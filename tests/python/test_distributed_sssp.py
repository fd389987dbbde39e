"""dyng.distributed.sssp_compute and sssp_update in a world of one (issue 47).

The rounds, the cut walk, the seeding and the budget run here as under mpiexec (the exchange is
the identity): after every batch the result must equal dyng.sssp on a single-process graph bit
for bit (distances, parents, their dtypes), on the adversarial graphs and batches of
dyng.testing.strategies, through both the repair and the recompute. test_distributed_sssp_mpi.py
runs the same comparison over 2, 3 and 4 ranks.
"""

from __future__ import annotations

import numpy as np
import pytest
from _helpers import scaled_examples
from hypothesis import event, given
from hypothesis import strategies as st

import dyng
import dyng.distributed as dd
from dyng.testing.strategies import batches, graphs

BUDGETS = st.sampled_from([None, 0, 3, 10**9])


def assert_same_tree(result, expected, context):
    distances, parents = result.gather()
    for name, got in (("distances", distances), ("parents", parents)):
        want = getattr(expected, name).to_numpy()
        assert got.dtype == want.dtype, f"{context}: {name} dtype {got.dtype} != {want.dtype}"
        assert got.tolist() == want.tolist(), f"{context}: {name} {got.tolist()} != {want}"
        owned = getattr(result, name)
        assert owned.tolist() == want[result.first : result.first + len(owned)].tolist()
    assert result.num_vertices == len(distances)


def build(rg, id_dtype=np.int32, **options):
    src, dst, weights = rg.arrays(id_dtype)
    n = rg.num_vertices
    graph = dd.DistributedGraph.from_edges(src, dst, weights, num_vertices=n, **options)
    return graph, dyng.Graph.from_edges(src, dst, weights, num_vertices=n, **options)


def run_sequence(rg, data, num_batches, id_dtype=np.int32, **options):
    graph, reference = build(rg, id_dtype, **options)
    source = data.draw(st.integers(0, rg.num_vertices - 1), label="source")
    result, expected = dd.sssp_compute(graph, source), dyng.sssp.compute(reference, source)
    assert_same_tree(result, expected, "compute")
    for step in range(num_batches):
        rb = data.draw(batches(reference, source=source), label=f"batch {step}")
        budget = data.draw(BUDGETS, label="max_invalidated")
        want = dyng.sssp.update(reference, rb.to_batch(id_dtype=id_dtype), expected)
        stats = dd.sssp_update(
            graph, rb.to_batch(id_dtype=id_dtype), result, max_invalidated=budget
        )
        event(f"path: {stats.path}")
        assert stats.batch == want.batch, f"batch {step}"
        assert result.graph_version == graph.version == step + 1
        assert_same_tree(result, expected, f"batch {step}")


@given(rg=graphs(max_vertices=12, max_edges=36), data=st.data(), num_batches=st.integers(1, 4))
def test_updates_equal_single_process_sssp(rg, data, num_batches):
    run_sequence(rg, data, num_batches)


@given(rg=graphs(max_vertices=12, max_edges=36), data=st.data(), num_batches=st.integers(1, 4))
def test_undirected_updates_equal_single_process_sssp(rg, data, num_batches):
    # A shard's rows hold both directions; a batch entry stands for both, so a deleted tree
    # edge cuts below whichever end is the child.
    run_sequence(rg, data, num_batches, directed=False)


@given(rg=graphs(min_vertices=10, max_vertices=40, max_edges=120), data=st.data())
@scaled_examples(0.25)
def test_larger_graphs_with_int64_ids(rg, data):
    run_sequence(rg, data, 3, id_dtype=np.int64)


@given(rg=graphs(max_vertices=10, max_edges=30), data=st.data())
@scaled_examples(0.25)
def test_multi_edges_keep_the_lowest_tight_parent(rg, data):
    run_sequence(rg, data, 2, multi_edges="allow")
    run_sequence(rg, data, 2, multi_edges="allow", directed=False)


def test_unreachable_vertices_growth_and_a_deleted_tree_edge():
    # 0 -> 1 -> 2 -> 3, 4 unreachable; deleting 1 -> 2 cuts {2, 3}, which 4 -> 3 cannot reach.
    graph = dd.DistributedGraph.from_edges([0, 1, 2, 4, 0], [1, 2, 3, 3, 2], [1, 1, 1, 1, 5])
    result = dd.sssp_compute(graph, 0)
    assert result.gather()[0].tolist() == [0, 1, 2, 3, dyng.sssp.INFINITE_DISTANCE]
    batch = dyng.EdgeBatch(insert=([3], [6], [2]), delete=([1], [2]))
    stats = dd.sssp_update(graph, batch, result)
    assert (stats.path, stats.invalidated) == ("repair", 2)
    distances, parents = result.gather()
    inf = dyng.sssp.INFINITE_DISTANCE
    assert distances.tolist() == [0, 1, 5, 6, inf, inf, 8]
    assert parents.tolist() == [-1, 0, 0, 2, -1, -1, 3]
    assert dd.sssp_update(graph, batch, result, max_invalidated=0).path in ("repair", "recompute")


def test_gather_to_one_root_and_stats():
    graph = dd.DistributedGraph.from_edges([0, 1], [1, 2], [2, 2])
    result = dd.sssp_compute(graph, 1)
    assert result.gather(root=0)[0].tolist() == [dyng.sssp.INFINITE_DISTANCE, 0, 2]
    assert result.stats.path == "compute" and result.stats.rounds >= 1
    assert "SsspResult(source=1" in repr(result)
    with pytest.raises(dyng.InvalidArgumentError, match="root"):
        result.gather(root=1)
    with pytest.raises(ValueError):
        result.distances[0] = 5  # a read-only view of the result


@pytest.mark.parametrize(
    ("call", "error", "text"),
    [
        (lambda g: dd.sssp_compute(g, 3), dyng.InvalidArgumentError, "source 3 is not a vertex"),
        (lambda g: dd.sssp_compute(g, 0, objective=1), dyng.InvalidArgumentError, "objective"),
        (lambda g: dd.sssp_compute(g, 0, speed=1), TypeError, "unknown option"),
        (lambda g: dd.sssp_compute(g.local, 0), TypeError, "DistributedGraph"),
    ],
)
def test_compute_refusals(call, error, text):
    graph = dd.DistributedGraph.from_edges([0, 1], [1, 2], [2, 2])
    with pytest.raises(error, match=text):
        call(graph)


def test_unweighted_graphs_and_short_lengths_are_refused():
    with pytest.raises(dyng.NotSupportedError, match="unweighted"):
        dd.sssp_compute(dd.DistributedGraph.from_edges([0], [1]), 0)
    zero = dd.DistributedGraph.from_edges([0, 1], [1, 2], [2, 0])
    with pytest.raises(dyng.InvalidArgumentError, match=r"edge \(1, 2\) has length 0"):
        dd.sssp_compute(zero, 0)
    with pytest.raises(dyng.InvalidArgumentError, match="lengths >= 1"):
        dd.sssp_compute(zero, 0, validate_inputs=False)  # refused as dyng.sssp refuses it


def test_a_world_of_one_names_the_smallest_length_of_the_objective_column():
    # Alone, the check is dyng.sssp.compute's own weight scan; the refusal still names the
    # smallest length's edge as the shard's scan does on several ranks, and reads no other column.
    graph = dd.DistributedGraph.from_edges([0, 1, 2], [1, 2, 3], [[5, 1], [-2, 1], [0, 1]])
    with pytest.raises(dyng.InvalidArgumentError, match=r"edge \(1, 2\) has length -2") as caught:
        dd.sssp_compute(graph, 0)
    error = caught.value  # shown alone, not chained to dyng.sssp's message
    assert error.__context__ is None or error.__suppress_context__
    assert dd.sssp_compute(graph, 0, objective=1).gather()[0].tolist() == [0, 1, 2, 3]


def test_a_refused_update_changes_neither_the_graph_nor_the_result():
    graph = dd.DistributedGraph.from_edges([0, 1], [1, 2], [2, 2])
    result = dd.sssp_compute(graph, 0)
    with pytest.raises(dyng.InvalidArgumentError, match=r"insertion \(0, 2\) has length 0"):
        dd.sssp_update(graph, dyng.EdgeBatch(insert=([0], [2], [0])), result)
    with pytest.raises(TypeError, match="SsspResult"):
        dd.sssp_update(graph, dyng.EdgeBatch(), object())
    with pytest.raises(dyng.InvalidArgumentError, match="max_invalidated"):
        dd.sssp_update(graph, dyng.EdgeBatch(), result, max_invalidated=-1)
    assert (graph.version, graph.num_edges, result.graph_version) == (0, 2, 0)
    assert result.gather()[0].tolist() == [0, 2, 4]
    graph.apply(dyng.EdgeBatch(insert=([0], [2], [1])))
    with pytest.raises(dyng.StaleResultError, match="version 0"):
        dd.sssp_update(graph, dyng.EdgeBatch(), result)
    with pytest.raises(TypeError, match="cannot be created directly"):
        dd.SsspResult()

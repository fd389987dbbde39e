"""dyng.distributed's exchange, vote and DistributedGraph in a world of one (issue 47).

The same code paths run under mpiexec in test_distributed_mpi.py; here the world is one process
(no launcher, no mpi4py), where the exchange must still order and carry the entries, the vote
must raise the refusing verdict, and a DistributedGraph must apply batches exactly as a
dyng.Graph does.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import dyng
import dyng.distributed as dd
from dyng.distributed._vote import _describe, _rebuild
from dyng.testing.strategies import batches, graphs

SEMANTICS = dyng.BatchSemantics(on_missing_delete="error", on_existing_insert="error")


def test_exchange_in_a_world_of_one_returns_the_routed_entries_in_order():
    part = dd.VertexPartition.from_degrees([1] * 6, num_ranks=1)
    src, dst, weights = [5, 0, 3], [1, 4, 3], [[1, 2], [3, 4], [5, 6]]
    got = dd.exchange_edges(dd.route_edges(part, src, dst), src, dst, weights)
    assert got.origins.tolist() == [0, 0, 0]
    assert got.positions.tolist() == [0, 1, 2]
    assert (got.src.tolist(), got.dst.tolist()) == (src, dst)
    assert got.weights.tolist() == weights
    assert dd.exchange_edges(dd.route_edges(part, [], []), [], []).weights.shape == (0, 0)


def test_exchange_refuses_a_routing_for_another_world():
    part = dd.VertexPartition.from_degrees([1, 1], num_ranks=2)
    with pytest.raises(dyng.InvalidArgumentError, match="routing is for 2 ranks"):
        dd.exchange_edges(dd.route_edges(part, [0], [1]), [0], [1])


def test_vote_of_one_returns_or_raises_the_verdict_itself():
    assert dd.vote(None) is None
    verdict = dyng.NotSupportedError("f(): no; do something else")
    with pytest.raises(dyng.NotSupportedError) as raised:
        dd.vote(verdict)
    assert raised.value is verdict


@pytest.mark.parametrize(
    "error",
    [
        dyng.InvalidArgumentError("f(): bad; fix it"),
        dyng.FileFormatError("g.txt:3: bad token", path="g.txt", line=3),
        TypeError("f(): batch must be a dyng.EdgeBatch; got int"),
    ],
)
def test_a_voted_error_is_rebuilt_with_its_class_and_message(error):
    rebuilt = _rebuild(*_describe(error))
    assert (type(rebuilt), str(rebuilt)) == (type(error), str(error))


def test_an_error_class_a_rank_cannot_import_becomes_an_internal_error_with_its_message():
    rebuilt = _rebuild("no_such_module", "Oops", "f(): broke")
    assert isinstance(rebuilt, dyng.InternalError)
    assert "no_such_module.Oops: f(): broke" in str(rebuilt)


def edge_rows(graph):
    src, dst, weights = graph.edges()
    return sorted(zip(src.tolist(), dst.tolist(), weights[:, 0].tolist()))


def random_batch(rng, n, graph):
    k = int(rng.integers(0, 10))
    src, dst, _ = graph.edges()
    picks = rng.choice(len(src), size=min(4, len(src)), replace=False)
    insert = (rng.integers(0, n + 2, k), rng.integers(0, n + 2, k), rng.integers(1, 9, k))
    return dyng.EdgeBatch(insert=insert, delete=(src[picks], dst[picks]))


@pytest.mark.parametrize("seed", range(4))
def test_a_world_of_one_applies_batches_exactly_as_one_graph(seed):
    rng = np.random.default_rng(seed)
    n, m = 20, 60
    src, dst, w = rng.integers(0, n, m), rng.integers(0, n, m), rng.integers(1, 9, m)
    graph = dd.DistributedGraph.from_edges(src, dst, w, semantics=SEMANTICS)
    reference = dyng.Graph.from_edges(src, dst, w, semantics=SEMANTICS)
    assert_applies_as_one_graph(graph, reference, rng)


def assert_applies_as_one_graph(graph, reference, rng, rounds=8):
    """A world of one's DistributedGraph and one Graph of the same edges, given the same random
    batches: the same summaries, refusals (the shard unchanged), edges and counters."""
    for _ in range(rounds):
        batch = random_batch(rng, reference.num_vertices, reference)
        try:
            expected = reference.apply(batch)
        except dyng.InvalidArgumentError as error:
            before = edge_rows(graph.local)
            with pytest.raises(type(error)):
                graph.apply(batch)
            assert edge_rows(graph.local) == before
        else:
            assert graph.apply(batch) == expected
        assert edge_rows(graph.local) == edge_rows(reference)
        assert (graph.num_vertices, graph.num_edges) == (
            reference.num_vertices,
            reference.num_edges,
        )
        assert graph.version == reference.version


def test_a_refused_batch_leaves_the_shard_and_version_as_they_were():
    graph = dd.DistributedGraph.from_edges([0, 1], [1, 2], [3, 4], semantics=SEMANTICS)
    before = edge_rows(graph.local)
    batch = dyng.EdgeBatch(insert=([2], [0], [1]), delete=([2], [1]))
    with pytest.raises(dyng.InvalidArgumentError, match="does not exist"):
        graph.apply(batch)
    assert (edge_rows(graph.local), graph.version) == (before, 0)


def test_apply_refuses_what_one_graph_refuses_on_arrival():
    graph = dd.DistributedGraph.from_edges([0], [1], [3])
    with pytest.raises(TypeError, match="must be a dyng.EdgeBatch"):
        graph.apply("not a batch")
    with pytest.raises(dyng.InvalidArgumentError, match="weight"):
        graph.apply(dyng.EdgeBatch(insert=([0], [2])))
    with pytest.raises(dyng.InvalidArgumentError):
        graph.apply(dyng.EdgeBatch(delete=([-1], [0])))
    assert graph.version == 0


def test_from_edges_refuses_what_it_cannot_distribute():
    for directed in (True, False):
        with pytest.raises(dyng.InvalidArgumentError, match="src has 2 entries and dst 1"):
            dd.DistributedGraph.from_edges([0, 1], [1], directed=directed)
    two = dd.VertexPartition.from_degrees([1, 1], num_ranks=2)
    with pytest.raises(dyng.InvalidArgumentError, match="partition has 2 ranks"):
        dd.DistributedGraph.from_edges([0], [1], partition=two)
    with pytest.raises(TypeError, match="cannot be called directly"):
        dd.DistributedGraph()


DEVICE_ONE = dd.Context(0, 1, 0, "device", "none", "none", None)


def test_a_device_world_puts_each_shard_on_its_gpu_or_says_why_not():
    if dyng.config()["backends"]["cuda"]:
        g = dd.DistributedGraph.from_edges([0, 1], [1, 2], [3, 4], context=DEVICE_ONE)
        assert g.local.space == "device"
    else:  # the shard's resources come from the world: here, no CUDA plugin to give them
        with pytest.raises(dyng.NotSupportedError, match="CUDA"):
            dd.DistributedGraph.from_edges([0, 1], [1, 2], [3, 4], context=DEVICE_ONE)


def test_shards_must_live_where_the_world_says():
    with pytest.raises(dyng.NotSupportedError, match="set up for device graphs.*on the host"):
        dd.DistributedGraph.from_edges(
            [0, 1], [1, 2], context=DEVICE_ONE, resources=dyng.Resources.sequential()
        )


def test_a_device_world_under_torchrun_has_no_graphs_yet():
    torchrun = dd.Context(0, 2, 0, "device", "nccl", "torchrun", "node0:29500")
    with pytest.raises(dyng.NotSupportedError, match="no MPI world.*mpiexec -n 2"):
        dd.DistributedGraph.from_edges([0, 1], [1, 2], context=torchrun)


def test_an_unweighted_graph_and_vertex_growth():
    graph = dd.DistributedGraph.from_edges([0], [1], num_vertices=3)
    summary = graph.apply(dyng.EdgeBatch(insert=([2], [6])))
    assert (summary.inserted_vertices, summary.num_vertices_after) == (4, 7)
    assert (graph.num_vertices, graph.num_edges, graph.num_weights) == (7, 2, 0)


SEMANTICS_CHOICES = st.sampled_from(
    [
        dyng.BatchSemantics(),
        SEMANTICS,
        dyng.BatchSemantics.set(),
        dyng.BatchSemantics(
            on_existing_insert="ignore", on_self_loop="drop", deletions_first=False
        ),
        dyng.BatchSemantics(on_self_loop="error"),
    ]
)


def attempt(action):
    """(value, None), or (None, the dyng error it raised)."""
    try:
        return action(), None
    except dyng.Error as error:
        return None, error


@given(
    rg=graphs(max_vertices=12, max_edges=30),
    data=st.data(),
    semantics=SEMANTICS_CHOICES,
    multi_edges=st.sampled_from(["forbid", "allow"]),
    row_order=st.sampled_from(["sorted", "append"]),
)
def test_an_undirected_world_of_one_applies_batches_as_one_undirected_graph(
    rg, data, semantics, multi_edges, row_order
):
    # The shard is the directed graph of both directions; each entry stands for both, so an
    # entry (u, v) and a later (v, u) must resolve as one undirected graph resolves them, down
    # to the rows' order and which parallel copy a deletion takes.
    options = dict(
        directed=False, semantics=semantics, multi_edges=multi_edges, row_order=row_order
    )
    src, dst, w = rg.arrays()
    n = rg.num_vertices
    reference, error = attempt(
        lambda: dyng.Graph.from_edges(src, dst, w, num_vertices=n, **options)
    )
    if error is not None:
        with pytest.raises(type(error)):
            dd.DistributedGraph.from_edges(src, dst, w, num_vertices=n, **options)
        return
    graph = dd.DistributedGraph.from_edges(src, dst, w, num_vertices=n, **options)
    assert (graph.directed, graph.local.directed) == (False, True)
    assert [a.tolist() for a in graph.local.edges()] == [a.tolist() for a in reference.edges()]
    for step in range(3):
        batch = data.draw(batches(reference), label=f"batch {step}").to_batch()
        expected, error = attempt(lambda: reference.apply(batch))
        got, refused = attempt(lambda: graph.apply(batch))
        assert type(refused) is type(error) and got == expected
        rows, expected_rows = graph.local.edges(), reference.edges()
        assert [a.tolist() for a in rows] == [a.tolist() for a in expected_rows]
        assert (graph.num_vertices, graph.num_edges, graph.version) == (
            reference.num_vertices,
            reference.num_edges,
            reference.version,
        )


def test_an_undirected_edge_is_one_edge_whichever_way_a_batch_names_it():
    graph = dd.DistributedGraph.from_edges([0, 1], [1, 1], [3, 4], directed=False)
    assert (graph.num_edges, sorted(zip(*(a.tolist() for a in graph.local.edges()[:2])))) == (
        3,
        [(0, 1), (1, 0), (1, 1)],
    )
    summary = graph.apply(dyng.EdgeBatch(insert=([1], [0], [9]), delete=([1], [1])))
    assert (summary.updated_edges, summary.deleted_edges, graph.num_edges) == (2, 1, 2)
    assert edge_rows(graph.local) == [(0, 1, 9), (1, 0, 9)]

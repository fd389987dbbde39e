"""dyng.distributed's partition, shards and routing against simple oracles (hypothesis).

The oracles are loops over vertices and edges: every vertex is owned by exactly one rank and the
ranges are contiguous and cover 0..n; each rank's edge count is within one largest out-degree
of m/p; a shard holds exactly the edges whose source the rank owns and, as ghosts, exactly
their targets owned elsewhere; a routed entry reaches exactly the owners of its endpoints, in
batch order. The batches are dyng.testing.strategies' adversarial ones, ids past n included.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import dyng
import dyng.distributed as dd
from dyng.testing import strategies as dyng_st

ranks = st.integers(1, 6)


def owner_oracle(starts, v):
    """The rank whose range holds v, by a scan (ids past the end: the last rank)."""
    p = len(starts) - 1
    for k in range(p):
        if starts[k] <= v < starts[k + 1]:
            return k
    return p - 1


@given(st.lists(st.integers(0, 9), max_size=40), ranks)
def test_ranges_cover_contiguously_and_balance_edges(degrees, p):
    part = dd.VertexPartition.from_degrees(degrees, p)
    starts = part.starts.tolist()
    n, m = len(degrees), sum(degrees)
    assert len(starts) == p + 1 and starts[0] == 0 and starts[-1] == n
    assert all(a <= b for a, b in zip(starts, starts[1:]))
    owners = part.owner(np.arange(n)).tolist()
    for v in range(n):
        holders = [k for k in range(p) if part.range_of(k)[0] <= v < part.range_of(k)[1]]
        assert holders == [owners[v]]
    if m:
        largest = max(degrees)
        for k in range(p):
            edges = sum(degrees[starts[k] : starts[k + 1]])
            assert abs(edges * p - m) <= largest * p, (k, edges, m / p, largest)
    else:
        sizes = [b - a for a, b in zip(starts, starts[1:])]
        assert max(sizes) - min(sizes) <= 1


@given(st.lists(st.integers(0, 9), max_size=30), ranks, st.lists(st.integers(0, 45)))
def test_owner_is_vectorised_and_matches_the_scan(degrees, p, ids):
    part = dd.VertexPartition.from_degrees(degrees, p)
    expected = [owner_oracle(part.starts.tolist(), v) for v in ids]
    got = part.owner(np.asarray(ids, dtype=np.int64))
    assert got.dtype == np.int32 and got.tolist() == expected


@given(dyng_st.graphs(max_vertices=12, max_edges=40), ranks)
def test_partition_is_deterministic_and_from_edges_counts_degrees(graph, p):
    by_edges = dd.VertexPartition.from_edges(graph.src, graph.num_vertices, p)
    degrees = np.bincount(np.asarray(graph.src, dtype=np.int64), minlength=graph.num_vertices)
    again = dd.VertexPartition.from_degrees(degrees.tolist(), p)
    assert by_edges.starts.tolist() == again.starts.tolist()


@given(dyng_st.graphs(max_vertices=12, max_edges=40), ranks)
def test_shards_split_the_edges_by_source_and_name_their_ghosts(graph, p):
    part = dd.VertexPartition.from_edges(graph.src, graph.num_vertices, p)
    starts = part.starts.tolist()
    seen = []
    for k in range(p):
        shard = dd.shard_edges(part, k, graph.src, graph.dst, graph.weights)
        mine = [i for i, s in enumerate(graph.src) if owner_oracle(starts, s) == k]
        assert shard.edge_ids.tolist() == mine
        assert shard.src.tolist() == [graph.src[i] for i in mine]
        assert shard.dst.tolist() == [graph.dst[i] for i in mine]
        if graph.weights is not None:
            assert shard.weights.tolist() == [graph.weights[i] for i in mine]
        ghosts = sorted({graph.dst[i] for i in mine if owner_oracle(starts, graph.dst[i]) != k})
        assert shard.ghosts.tolist() == ghosts
        assert shard.ghost_owners.tolist() == [owner_oracle(starts, g) for g in ghosts]
        seen.extend(mine)
    assert sorted(seen) == list(range(len(graph.src)))


@given(dyng_st.graphs(max_vertices=12, max_edges=40), ranks)
def test_undirected_shards_hold_their_vertices_rows_of_one_undirected_graph(graph, p):
    part = dd.VertexPartition.from_edges(graph.src, graph.num_vertices, p)
    starts = part.starts.tolist()
    # Each edge in input order stands for (u, v) and then (v, u); a self-loop for itself once.
    directions = [
        (i, a, b)
        for i, (u, v) in enumerate(zip(graph.src, graph.dst))
        for a, b in ([(u, v)] if u == v else [(u, v), (v, u)])
    ]
    rows = []
    for k in range(p):
        shard = dd.shard_edges(part, k, graph.src, graph.dst, graph.weights, directed=False)
        mine = [(i, a, b) for i, a, b in directions if owner_oracle(starts, a) == k]
        assert list(zip(shard.edge_ids.tolist(), shard.src.tolist(), shard.dst.tolist())) == mine
        if graph.weights is not None:
            assert shard.weights.tolist() == [graph.weights[i] for i, _, _ in mine]
        ghosts = sorted({b for _, _, b in mine if owner_oracle(starts, b) != k})
        assert shard.ghosts.tolist() == ghosts
        rows.extend(zip(shard.src.tolist(), shard.dst.tolist()))
    # Together the shards hold the rows a single-process undirected graph stores (multi-edges
    # kept, so that every direction counts).
    whole = graph.to_graph(directed=False, multi_edges="allow").edges()
    assert sorted(rows) == sorted(zip(whole[0].tolist(), whole[1].tolist()))


@st.composite
def graphs_with_batches(draw):
    graph = draw(dyng_st.graphs(max_vertices=12, max_edges=40))
    return graph, draw(dyng_st.batches(graph))


@given(graphs_with_batches(), ranks)
def test_routing_sends_each_entry_to_exactly_its_owners(graph_and_batch, p):
    graph, random_batch = graph_and_batch
    part = dd.VertexPartition.from_edges(graph.src, graph.num_vertices, p)
    starts = part.starts.tolist()
    routed = dd.route_batch(part, random_batch.to_batch())
    for routing, src, dst in (
        (routed.insertions, random_batch.insert_src, random_batch.insert_dst),
        (routed.deletions, random_batch.delete_src, random_batch.delete_dst),
    ):
        for k in range(p):
            expected = [
                i
                for i, (s, d) in enumerate(zip(src, dst))
                if k in (owner_oracle(starts, s), owner_oracle(starts, d))
            ]
            assert routing.for_rank(k).tolist() == expected


def test_an_edge_across_ranks_reaches_both_and_a_local_one_only_its_owner():
    part = dd.VertexPartition.from_degrees([1, 1, 1, 1], 2)
    routing = dd.route_edges(part, [0, 0, 2], [3, 1, 3])
    assert routing.for_rank(0).tolist() == [0, 1]
    assert routing.for_rank(1).tolist() == [0, 2]


def test_new_ids_belong_to_the_last_rank_and_are_never_its_ghosts():
    part = dd.VertexPartition.from_degrees([1, 1, 1, 1], 2)
    assert part.owner([4, 100]).tolist() == [1, 1]
    shard = dd.shard_edges(part, 1, [2, 3], [7, 0])
    assert shard.ghosts.tolist() == [0]
    routing = dd.route_edges(part, [9], [0])
    assert [routing.for_rank(k).tolist() for k in range(2)] == [[0], [0]]


def test_more_ranks_than_vertices_leaves_ranks_empty_but_owns_every_vertex_once():
    part = dd.VertexPartition.from_degrees([5, 0, 3], 5)
    assert part.owner([0, 1, 2]).tolist() == [
        owner_oracle(part.starts.tolist(), v) for v in range(3)
    ]
    sizes = [b - a for a, b in (part.range_of(k) for k in range(5))]
    assert sum(sizes) == 3


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: dd.VertexPartition.from_degrees([1, -1], 2), "negative id -1"),
        (lambda: dd.VertexPartition.from_degrees([1.5], 2), "integer"),
        (lambda: dd.VertexPartition.from_degrees([1], 0), "num_ranks=0"),
        (lambda: dd.VertexPartition.from_degrees([1], True), "num_ranks=True"),
        (lambda: dd.VertexPartition.from_edges([0, 5], 3, 2), "source 5"),
        (lambda: dd.VertexPartition.from_degrees([1], 1).owner([-2]), "negative id -2"),
        (lambda: dd.VertexPartition.from_degrees([1], 1).range_of(1), "rank 1"),
        (lambda: dd.shard_edges(dd.VertexPartition.from_degrees([1], 1), 0, [0], []), "lengths"),
        (lambda: dd.route_edges(dd.VertexPartition.from_degrees([1], 1), [0], []), "entries"),
    ],
)
def test_bad_arguments_are_refused_with_what_to_do(call, message):
    with pytest.raises(dyng.InvalidArgumentError, match=message) as caught:
        call()
    assert "; " in str(caught.value)


def test_a_batch_with_vertex_changes_is_refused():
    part = dd.VertexPartition.from_degrees([1], 1)
    with pytest.raises(dyng.NotSupportedError, match="adds or removes vertices"):
        dd.route_batch(part, dyng.EdgeBatch(insert_vertices=[3]))

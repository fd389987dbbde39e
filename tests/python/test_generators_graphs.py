"""dyng.generators' synthetic graphs: seeded, shaped as documented, and graphs every algorithm
takes (the demo and the tutorials build on them)."""

from __future__ import annotations

import numpy as np
import pytest

import dyng
from dyng import generators


def _pairs(edges):
    return list(zip(edges.src.tolist(), edges.dst.tolist()))


@pytest.mark.parametrize(
    "make",
    [
        lambda seed: generators.street_grid(7, seed=seed).edges(),
        lambda seed: generators.rmat(7, seed=seed),
        lambda seed: generators.payments(90, seed=seed),
    ],
    ids=["street_grid", "rmat", "payments"],
)
def test_the_same_seed_gives_the_same_graph(make):
    one, again, other = make(3), make(3), make(4)
    assert _pairs(one) == _pairs(again)
    assert _pairs(one) != _pairs(other)
    assert one.src.dtype == one.dst.dtype == np.int32


def test_a_generator_seed_is_drawn_from_and_advanced():
    rng = np.random.default_rng(8)
    first = generators.rmat_pairs(5, 10, seed=rng)
    second = generators.rmat_pairs(5, 10, seed=rng)
    fresh = np.random.default_rng(8)
    assert np.array_equal(first[0], generators.rmat_pairs(5, 10, seed=fresh)[0])
    assert not np.array_equal(first[0], second[0])


def test_streets_join_neighbouring_junctions_both_ways():
    side = 9
    streets = generators.street_grid(side, seed=2)
    u, v = streets.ends[:, 0], streets.ends[:, 1]
    across = (v - u == 1) & (u // side == v // side)
    assert np.all(across | (v - u == side))
    assert len(np.unique(u * side * side + v)) == streets.num_streets
    all_blocks = 2 * side * (side - 1)
    assert 0.7 * all_blocks < streets.num_streets < all_blocks
    low, high = generators.TRAVEL_SECONDS
    assert streets.seconds.min() >= low and streets.seconds.max() <= high
    edges = streets.edges()
    assert set(_pairs(edges)) == {(b, a) for a, b in _pairs(edges)}
    graph = edges.to_graph()
    assert (graph.num_vertices, graph.num_edges) == (side * side, 2 * streets.num_streets)


def test_picked_streets_come_both_ways_with_given_times():
    streets = generators.street_grid(5, seed=1)
    picked = streets.edges([2, 0], seconds=[7, 9])
    a, b = streets.ends[2].tolist(), streets.ends[0].tolist()
    assert _pairs(picked) == [(a[0], a[1]), (b[0], b[1]), (a[1], a[0]), (b[1], b[0])]
    assert picked.weights.tolist() == [7, 9, 7, 9]
    assert streets.edges([1]).weights.tolist() == [streets.seconds[1]] * 2


@pytest.mark.parametrize(
    "edges",
    [generators.rmat(8, 4, seed=5), generators.payments(200, 3, seed=5)],
    ids=["rmat", "payments"],
)
def test_drawn_graphs_have_no_self_loops_or_repeats(edges):
    keys = edges.src.astype(np.int64) * edges.num_vertices + edges.dst
    assert np.all(edges.src != edges.dst)
    assert np.all(np.diff(keys) > 0)  # sorted, each pair once
    assert edges.weights is None
    assert 0 <= edges.src.min() and max(edges.src.max(), edges.dst.max()) < edges.num_vertices
    counts = dyng.cycle_count.compute(edges.to_graph(), max_length=3).counts
    assert counts[0] == counts[1] == 0  # no self-loops: the histogram starts at 2-cycles


def test_payments_stay_mostly_within_a_community():
    src, dst = generators.payment_pairs(10_000, 5_000, seed=9)
    ahead = (dst - src) % 10_000
    assert 0.85 < np.mean((ahead >= 1) & (ahead <= 40)) < 0.95

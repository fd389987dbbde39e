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


_STREETS = generators.street_grid(4, seed=0)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: generators.street_grid(2.5), r"street_grid\(\): side=2.5 is not an integer"),
        (lambda: generators.street_grid(-1), r"street_grid\(\): side=-1 is below 0"),
        (lambda: generators.street_grid(3, seed=-1), r"street_grid\(\): seed=-1 is not a seed"),
        (lambda: generators.street_grid(3, seed="x"), r"street_grid\(\): seed='x' is not a seed"),
        (lambda: generators.rmat_pairs(-1, 5), r"rmat_pairs\(\): scale=-1 is below 0"),
        (lambda: generators.rmat_pairs(63, 5), r"rmat_pairs\(\): scale=63 is above 62"),
        (lambda: generators.rmat_pairs(4, -5), r"rmat_pairs\(\): count=-5 is below 0"),
        (lambda: generators.rmat_pairs(4, 2.0), r"rmat_pairs\(\): count=2.0 is not an integer"),
        (lambda: generators.rmat(32, 0), r"rmat\(\): scale=32 is above 31"),
        (lambda: generators.rmat(4, -1), r"rmat\(\): edge_factor=-1 is below 0"),
        (lambda: generators.rmat(4, seed=1.5), r"rmat\(\): seed=1.5 is not a seed"),
        (lambda: generators.payment_pairs(0, 5), r"payment_pairs\(\): accounts=0 is below 1"),
        (lambda: generators.payment_pairs(9.5, 5), r"payment_pairs\(\): accounts=9.5 is not"),
        (lambda: generators.payment_pairs(9, -1), r"payment_pairs\(\): count=-1 is below 0"),
        (
            lambda: generators.payment_pairs(2**62 + 1, 1),
            r"payment_pairs\(\): accounts=\d+ is above",
        ),
        (lambda: generators.payments(0), r"payments\(\): accounts=0 is below 1"),
        (lambda: generators.payments(2**31 + 1, 0), r"payments\(\): accounts=2147483649 is above"),
        (lambda: generators.payments(9, -2), r"payments\(\): per_account=-2 is below 0"),
        (lambda: _STREETS.edges([0.5]), r"StreetGrid.edges\(\): streets has dtype float64"),
        (lambda: _STREETS.edges([True]), r"StreetGrid.edges\(\): streets has dtype bool"),
        (lambda: _STREETS.edges([[0, 1]]), r"StreetGrid.edges\(\): streets has shape \(1, 2\)"),
        (lambda: _STREETS.edges([-1]), r"streets\[0\] = -1 is not a street; pass indices in"),
        (lambda: _STREETS.edges([0, 99]), r"streets\[1\] = 99 is not a street"),
        (lambda: _STREETS.edges([0], [1, 2]), r"seconds has 2 travel times for 1 streets"),
        (lambda: _STREETS.edges(None, [5]), r"seconds has 1 travel times for \d+ streets"),
        (lambda: _STREETS.edges([0], [7.5]), r"StreetGrid.edges\(\): seconds has dtype float64"),
        (lambda: _STREETS.edges([0], 7), r"StreetGrid.edges\(\): seconds has shape \(\)"),
        (lambda: _STREETS.edges([0], [-3]), r"seconds\[0\] = -3 is not a travel time"),
        (lambda: _STREETS.edges([0], [2**31]), r"seconds\[0\] = 2147483648 is not a travel time"),
    ],
)
def test_bad_arguments_are_refused_with_what_to_do(call, message):
    with pytest.raises(dyng.InvalidArgumentError, match=message):
        call()


def test_empty_picks_and_edge_cases_are_graphs():
    assert _STREETS.edges([], []).num_edges == 0
    assert _STREETS.edges(np.array([]), np.array([])).num_edges == 0
    assert generators.street_grid(0, seed=1).edges().to_graph().num_vertices == 0
    assert generators.rmat(3, 0, seed=1).num_edges == 0
    assert generators.payments(1, seed=1).num_edges == 0  # its only payee is itself


def test_to_graph_keeps_the_edge_lists_own_vertex_count():
    edges = generators.EdgeList(5, np.array([0], np.int32), np.array([1], np.int32))
    with pytest.raises(TypeError, match=r"to_graph\(\): num_vertices=9 is not an option"):
        edges.to_graph(num_vertices=9)
    outside = generators.EdgeList(2, np.array([0], np.int32), np.array([4], np.int32))
    with pytest.raises(dyng.InvalidArgumentError):
        outside.to_graph()

"""dyng.testing's native-backed oracles: dijkstra() and check_sssp_tree() (spec section 8).

check_sssp_tree must catch every kind of corruption, or the property suites could pass vacuously."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import dyng
from dyng import sssp
from dyng.testing import SsspTreeCheck, check_sssp_tree, dijkstra, oracles
from dyng.testing.oracles import INFINITE_DISTANCE as INF
from dyng.testing.strategies import graphs


def diamond():
    # 3 is reached at distance 2 through 1 and through 2 (canonical parent 1); 4 unreachable.
    return dyng.Graph.from_edges([0, 0, 1, 2, 4], [1, 2, 3, 3, 0], [1, 1, 1, 1, 1])


def test_native_dijkstra():
    d, p = dijkstra(diamond(), 0)
    assert d.dtype == np.int64
    assert d.tolist() == [0, 1, 1, 2, INF]
    assert p.tolist() == [-1, 0, 0, 1, -1]


def test_native_dijkstra_int64_graph():
    g = dyng.Graph.from_edges(np.array([0, 1], np.int64), np.array([1, 2], np.int64), [4, 5])
    d, p = dijkstra(g, 0)
    assert p.dtype == np.int64
    assert (d.tolist(), p.tolist()) == ([0, 4, 9], [-1, 0, 1])


def test_check_accepts_a_correct_tree():
    g = diamond()
    check = check_sssp_tree(g, sssp.compute(g, 0))
    assert isinstance(check, SsspTreeCheck)
    assert check and check.ok
    assert check.require_canonical is True
    assert (
        check.distance_mismatches,
        check.inconsistent_parents,
        check.non_canonical_parents,
        check.parent_mismatches,
    ) == ((), (), (), ())
    assert check.summary.startswith("ok")


def test_check_flags_wrong_distance():
    check = check_sssp_tree(diamond(), (0, [0, 1, 1, 3, INF], [-1, 0, 0, 1, -1]))
    assert not check
    assert check.distance_mismatches == (3,)
    assert 3 in check.inconsistent_parents  # 1 -> 3 is not tight for distance 3
    assert "vertex 3" in check.summary


def test_check_flags_non_tight_parent():
    g = dyng.Graph.from_edges([0, 0, 1], [1, 2, 2], [1, 5, 1])
    check = check_sssp_tree(g, (0, [0, 1, 2], [-1, 0, 0]))
    assert check.inconsistent_parents == (2,)
    assert check.distance_mismatches == ()
    assert not check
    assert not check_sssp_tree(g, (0, [0, 1, 2], [-1, 0, 0]), require_canonical=False)


def test_check_flags_non_canonical_parent_only_when_required():
    tree = (0, [0, 1, 1, 2, INF], [-1, 0, 0, 2, -1])
    strict = check_sssp_tree(diamond(), tree)
    assert not strict
    assert strict.non_canonical_parents == (3,)
    assert strict.parent_mismatches == (3,)
    assert strict.inconsistent_parents == ()
    lenient = check_sssp_tree(diamond(), tree, require_canonical=False)
    assert lenient and lenient.require_canonical is False


@pytest.mark.parametrize(
    "parents, bad",
    [
        ([0, 0, 0, 1, -1], 0),  # the source must have no parent
        ([-1, 0, 0, 1, 3], 4),  # an unreachable vertex must have no parent
        ([-1, -1, 0, 1, -1], 1),  # a reachable vertex needs one
        ([-1, 7, 0, 1, -1], 1),  # out of range
    ],
)
def test_check_flags_parent_structure(parents, bad):
    check = check_sssp_tree(diamond(), (0, [0, 1, 1, 2, INF], parents))
    assert bad in check.inconsistent_parents
    assert not check


def test_check_treats_half_infinity_as_unreachable():
    assert check_sssp_tree(diamond(), (0, [0, 1, 1, 2, 2**60], [-1, 0, 0, 1, -1]))


def test_check_uses_result_objective():
    w = np.array([[1, 9], [1, 9], [5, 1]], np.int32)
    g = dyng.Graph.from_edges([0, 1, 0], [1, 2, 2], w)
    r = sssp.compute(g, 0, objective=1)
    assert check_sssp_tree(g, r)
    assert not check_sssp_tree(g, r, objective=0)


@given(graphs(max_vertices=12, max_edges=40), st.data())
def test_native_dijkstra_and_check_agree_with_python_oracle(rg, data):
    g = rg.to_graph()
    source = data.draw(st.integers(0, rg.num_vertices - 1))
    dist, parents = oracles.dijkstra(rg.model(), source)
    d, p = dijkstra(g, source)
    assert d.tolist() == dist and p.tolist() == parents
    assert check_sssp_tree(g, (source, d, p))
    # Any single-entry corruption is caught.
    if rg.num_vertices > 1:
        v = data.draw(st.integers(0, rg.num_vertices - 1))
        bad = d.copy()
        bad[v] = bad[v] - 1 if bad[v] not in (0, INF) else 5
        assert not check_sssp_tree(g, (source, bad, p))

"""triangle_delta's API: 0.2's Options/Stats/Result shape, the graphs it refuses (with the class
0.2 raises), its backends, staleness, clones and the registry entry."""

import dataclasses

import numpy as np
import pytest

import dyng
from dyng import triangle_delta


def k4():
    return dyng.Graph.from_edges([0, 0, 0, 1, 1, 2], [1, 2, 3, 2, 3, 3], directed=False)


def test_shapes_match_0_2():
    assert [f.name for f in dataclasses.fields(triangle_delta.Options)] == []
    assert [f.name for f in dataclasses.fields(triangle_delta.Stats)][-4:] == [
        "deletions",
        "insertions",
        "triangles_removed",
        "triangles_added",
    ]
    r = triangle_delta.compute(k4())
    assert isinstance(r.count, int) and r.count == 4
    assert r.stats.path == "compute" and r.stats.affected == 1
    assert r.space == "host"
    assert {"count", "clone", "graph_version", "options", "space"} <= set(dir(r))


def test_the_example_of_0_2():
    # The batch inserts (1, 3), (3, 2) and deletes (0, 1) of a triangle with a pendant edge.
    g = dyng.Graph.from_edges([0, 1, 2, 0], [1, 2, 0, 3], directed=False)
    r = triangle_delta.compute(g)
    assert r.count == 1
    s = triangle_delta.update(g, dyng.EdgeBatch(insert=([1, 3], [3, 2]), delete=([0], [1])), r)
    assert (r.count, s.deletions, s.insertions) == (2, 1, 2)
    assert (s.triangles_removed, s.triangles_added, s.affected) == (1, 2, 1)
    assert s.frontier_visits == 3
    s = triangle_delta.update(g, dyng.EdgeBatch(insert=([0], [1])), r)
    assert (r.count, s.triangles_added, s.insertions, s.frontier_visits) == (4, 2, 1, 1)


def test_reweights_and_self_loops_change_nothing():
    g = dyng.Graph.from_edges([0, 1, 2], [1, 2, 0], [5, 6, 7], directed=False)
    r = triangle_delta.compute(g)
    s = triangle_delta.update(g, dyng.EdgeBatch(insert=([0, 1], [1, 1], [9, 3])), r)
    assert r.count == 1 and s.affected == 0 and (s.deletions, s.insertions) == (0, 0)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"directed": True},
        {"directed": False, "properties": dyng.GraphProperties(directed=False, order="append")},
        {
            "directed": False,
            "properties": dyng.GraphProperties(directed=False, parallel_edges="allow"),
        },
    ],
)
def test_graphs_it_refuses(kwargs):
    g = dyng.Graph.from_edges([0, 1, 2], [1, 2, 0], **kwargs)
    with pytest.raises(dyng.InvalidArgumentError, match="undirected graph with sorted rows"):
        triangle_delta.compute(g)


def test_stale_results_and_clones():
    g = k4()
    r = triangle_delta.compute(g)
    copy = r.clone()
    g.apply(dyng.EdgeBatch(delete=([0], [1])))
    with pytest.raises(dyng.StaleResultError):
        triangle_delta.update(g, dyng.EdgeBatch(delete=([0], [2])), r)
    assert copy.count == 4 and r.count == 4
    fresh = triangle_delta.compute(g)
    assert fresh.count == 2


def test_graph_growth_and_int64_ids():
    g = dyng.Graph.from_edges(
        np.array([0, 1], dtype=np.int64), np.array([1, 2], dtype=np.int64), [1, 1], directed=False
    )
    r = triangle_delta.compute(g)
    s = triangle_delta.update(g, dyng.EdgeBatch(insert=([2, 5, 5], [0, 0, 1], [1, 1, 1])), r)
    assert r.count == 2 and s.triangles_added == 2
    assert r.count == triangle_delta.compute(g).count


def test_options_take_no_fields():
    with pytest.raises(TypeError, match="unknown option"):
        triangle_delta.compute(k4(), max_length=3)


def test_registry_entry():
    info = {a.name: a for a in dyng.algorithms()}["triangle_delta"]
    assert (info.family, info.maturity, info.determinism) == (
        "aggregate_delta",
        "tutorial",
        "exact_value",
    )
    assert dyng.citation_keys("triangle_delta") == ["dyng2027"]

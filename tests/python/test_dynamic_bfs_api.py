"""dynamic_bfs's API (spec section 6): arguments, options, errors, results and their protocol."""

import copy
import pickle

import numpy as np
import pytest

import dyng
from dyng import dynamic_bfs


def diamond(**kw):
    # 0 -> 1 -> 3, 0 -> 2 -> 3, 3 -> 4; vertex 5 unreachable.
    return dyng.Graph.from_edges([0, 0, 1, 2, 3], [1, 2, 3, 3, 4], num_vertices=6, **kw)


def test_levels_hops_and_unreached(resources):
    r = dynamic_bfs.compute(diamond(), 0, resources=resources)
    assert r.levels.tolist() == [0, 1, 1, 2, 3, -1]
    assert r.levels.dtype == np.int64
    assert (r.source, r.graph_version, r.space) == (0, 0, "host")
    assert r.stats.path == "compute" and r.stats.affected == 5


def test_weights_are_ignored():
    g = dyng.Graph.from_edges([0, 0, 1], [1, 2, 2], [100, 1, 1])
    assert dynamic_bfs.compute(g, 0).levels.tolist() == [0, 1, 1]


def test_source_argument_overrides_options():
    g = diamond()
    assert dynamic_bfs.compute(g).options.source == 0
    assert dynamic_bfs.compute(g, options=dynamic_bfs.Options(source=3)).levels.tolist() == [
        -1,
        -1,
        -1,
        0,
        1,
        -1,
    ]
    r = dynamic_bfs.compute(g, 1, options=dynamic_bfs.Options(source=3))
    assert (r.source, r.options.source) == (1, 1)
    assert dynamic_bfs.compute(g, source=2).levels.tolist()[3] == 1


@pytest.mark.parametrize("source", [6, -1, 99])
def test_source_out_of_range(source, resources):
    with pytest.raises(dyng.InvalidArgumentError, match=str(source)):
        dynamic_bfs.compute(diamond(), source, resources=resources)


def test_options_checks():
    assert dynamic_bfs.Options(source=-2).source == -2  # accepted; compute refuses it
    with pytest.raises(dyng.InvalidArgumentError, match="source"):
        dynamic_bfs.Options(source=1.5)
    with pytest.raises(TypeError, match="foo"):
        dynamic_bfs.compute(diamond(), foo=1)
    with pytest.raises(TypeError, match="dynamic_bfs.Options"):
        dynamic_bfs.compute(diamond(), options=dyng.sssp.Options())


def test_needs_in_edges_of_a_directed_graph():
    with pytest.raises(dyng.InvalidArgumentError, match="store_transposed"):
        dynamic_bfs.compute(dyng.Graph.from_edges([0], [1], store_transposed=False))
    g = dyng.Graph.from_edges([0, 1], [1, 2], directed=False, store_transposed=False)
    assert dynamic_bfs.compute(g, 2).levels.tolist() == [2, 1, 0]


def test_source_is_fixed():
    r = dynamic_bfs.compute(diamond(), 0)
    r.set_options(source=0)
    with pytest.raises(dyng.InvalidArgumentError, match="source"):
        r.set_options(source=2)


def test_update_repairs_and_reports():
    g = diamond()
    r = dynamic_bfs.compute(g, 0)
    stats = dynamic_bfs.update(g, dyng.EdgeBatch(delete=([0, 0], [1, 2]), insert=([4], [5])), r)
    assert r.levels.tolist() == [0, -1, -1, -1, -1, -1]
    assert (stats.affected, stats.batch.deleted_edges) == (4, 2)
    # A 6-vertex graph is below any repair budget worth its bookkeeping: recomputed.
    assert (stats.path, stats.fallback_used) == ("recompute", True)
    assert r.graph_version == g.version == 1
    stats = dynamic_bfs.update(g, dyng.EdgeBatch(insert=([0, 6], [6, 5])), r)
    assert r.levels.tolist() == [0, -1, -1, -1, -1, 2, 1]  # vertex 6 is new
    assert stats.batch.inserted_vertices == 1


def test_incremental_repair_on_a_long_path():
    n = 3000
    g = dyng.Graph.from_edges(list(range(n - 1)), list(range(1, n)))
    r = dynamic_bfs.compute(g, 0)
    stats = dynamic_bfs.update(g, dyng.EdgeBatch(delete=([2950], [2951]), insert=([0], [2980])), r)
    assert (stats.path, stats.engine_used) == ("incremental", "operators")
    assert (stats.invalidated, stats.invalidation_rounds) == (n - 2951, n - 2951)
    assert stats.affected == n - 2951
    assert r.levels.tolist()[2979:2982] == [-1, 1, 2]


def test_stale_and_foreign_results_change_nothing():
    g = diamond()
    r = dynamic_bfs.compute(g, 0)
    g.apply(dyng.EdgeBatch(insert=([5], [0])))
    with pytest.raises(dyng.StaleResultError, match="version 0"):
        dynamic_bfs.update(g, dyng.EdgeBatch(delete=([0], [1])), r)
    assert g.version == 1 and g.num_edges == 6
    other = diamond()
    with pytest.raises(dyng.StaleResultError, match="another graph"):
        dynamic_bfs.update(other, dyng.EdgeBatch(delete=([0], [1])), r)
    with pytest.raises(TypeError, match="dynamic_bfs.Result"):
        dynamic_bfs.update(
            g, dyng.EdgeBatch(), dyng.sssp.compute(dyng.Graph.from_edges([0], [1], [1]), 0)
        )


def test_views_keep_their_values_after_an_update():
    g = diamond()
    r = dynamic_bfs.compute(g, 0)
    array = r.levels
    kept = np.asarray(array)
    dynamic_bfs.update(g, dyng.EdgeBatch(delete=([0], [1])), r)
    assert kept.tolist() == [0, 1, 1, 2, 3, -1]
    with pytest.raises(dyng.StaleResultError):
        array.tolist()
    assert r.levels.tolist() == [0, -1, 1, 2, 3, -1]


def test_clone_is_independent():
    g = diamond()
    r = dynamic_bfs.compute(g, 0)
    c = r.clone(resources="sequential")
    dynamic_bfs.update(g, dyng.EdgeBatch(delete=([3], [4])), r)
    assert c.levels.tolist() == [0, 1, 1, 2, 3, -1]
    assert c.graph_version == 0 and r.levels.tolist()[4] == -1


def test_not_constructible_nor_picklable():
    with pytest.raises(TypeError):
        dynamic_bfs.Result()
    with pytest.raises(TypeError, match="pickled"):
        pickle.dumps(dynamic_bfs.compute(diamond(), 0))
    assert "dynamic_bfs.Result(source=0" in repr(dynamic_bfs.compute(diamond(), 0))
    assert copy.copy(dynamic_bfs.Options(source=3)).source == 3

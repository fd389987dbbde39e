"""The dyng.mosp API on hand-made graphs: Options, Result, Stats, the argument errors, updates
(alone and through dyng.update), staleness, pickling and from_arrays. Every fact here was
confirmed against the released dyng 0.2.0 by running it.

dyng.mosp is imported inside each test (the ``mosp`` fixture), so this file is collected even
where the module does not exist yet; its tests then fail, one by one.
"""

import importlib
import pickle

import numpy as np
import pytest
from _helpers import HOST_BACKENDS, graph_state, make_resources

import dyng

INF = 2**61 - 1


@pytest.fixture
def mosp():
    return importlib.import_module("dyng.mosp")


def two_objective_graph(**kw):
    """0 -> 1 -> 2 is best for objective 0 (1 + 1), 0 -> 2 for objective 1 (1 < 4 + 1).

    Combined (preferences 1, 1: L = 1, base 3): (0, 1) is in both trees, weight 1; (0, 2) and
    (1, 2) in one each, weight 2; so the combined tree is 0 -> 1, 0 -> 2.
    """
    return dyng.Graph.from_edges(
        np.array([0, 0, 1], np.int32),
        np.array([1, 2, 2], np.int32),
        np.array([[1, 4], [5, 1], [1, 1]], np.int32),
        **kw,
    )


def fact_graph():
    """The verified example: five vertices, three objectives, two parallel 0 -> 1 edges."""
    return dyng.Graph.from_edges(
        [0, 0, 0, 1, 2, 1, 3],
        [1, 1, 2, 3, 3, 2, 4],
        [[5, 1, 9], [2, 7, 3], [4, 4, 4], [1, 1, 1], [1, 2, 3], [1, 1, 1], [2, 2, 2]],
        properties="mosp_compatible",
    )


def result_arrays(result):
    """Everything observable about a mosp result, as plain values (path costs if computed)."""
    k = result.num_objectives
    return {
        "graph_version": result.graph_version,
        "distances": [result.distances(i).tolist() for i in range(k)],
        "parents": [result.parents(i).tolist() for i in range(k)],
        "combined_distances": result.combined_distances.tolist(),
        "combined_parents": result.combined_parents.tolist(),
        "path_costs": np.asarray(result.path_costs).tolist(),
    }


# --- Options and compute ------------------------------------------------------------------------


def test_options_defaults(mosp):
    o = mosp.Options()
    assert (
        o.preferences,
        o.delta,
        o.cuda_engine,
        o.compute_path_costs,
        o.validate_inputs,
        o.num_objectives,
    ) == ([], 0, "automatic", True, True, 0)


@pytest.mark.parametrize("backend", HOST_BACKENDS)
def test_compute_on_the_verified_example(mosp, backend):
    r = mosp.compute(fact_graph(), 0, preferences=[1, 2, 3], resources=make_resources(backend))
    assert r.preference_scale == 6
    assert [r.parents(k).tolist() for k in range(3)] == [
        [-1, 0, 1, 1, 3],
        [-1, 0, 1, 1, 3],
        [-1, 0, 0, 1, 3],
    ]
    assert [r.distances(k).tolist() for k in range(3)] == [
        [0, 2, 3, 3, 5],
        [0, 1, 2, 2, 4],
        [0, 3, 4, 4, 6],
    ]
    assert r.combined_distances.tolist() == [0, 13, 22, 26, 39]
    assert r.combined_parents.tolist() == [-1, 0, 0, 1, 3]
    # [5, 1, 9]: the first stored 0 -> 1 edge, not the cheaper [2, 7, 3].
    assert np.asarray(r.path_costs).tolist() == [
        [0, 0, 0],
        [5, 1, 9],
        [4, 4, 4],
        [6, 2, 10],
        [8, 4, 12],
    ]


def test_testing_helpers_on_the_verified_example(mosp):
    g = fact_graph()
    r = mosp.compute(g, 0, preferences=[1, 2, 3])
    c = dyng.testing.combined_graph([r.parents(k) for k in range(3)], 0, [1, 2, 3])
    assert c.row_ptr.tolist() == [0, 2, 4, 4, 5, 5]
    assert c.col_ind.tolist() == [1, 2, 2, 3, 4]
    assert c.weights.tolist() == [[13], [22], [15], [13], [13]]
    assert (c.row_ptr.dtype, c.col_ind.dtype, c.weights.dtype) == (np.int64, np.int32, np.int32)
    costs = dyng.testing.mosp_path_costs(g, r.combined_parents, 0)
    assert costs.dtype == np.int64
    assert costs.tolist() == np.asarray(r.path_costs).tolist()


def test_two_objective_graph_by_hand(mosp):
    r = mosp.compute(two_objective_graph(), 0)
    assert [r.distances(k).tolist() for k in range(2)] == [[0, 1, 2], [0, 4, 1]]
    assert [r.parents(k).tolist() for k in range(2)] == [[-1, 0, 1], [-1, 0, 0]]
    assert r.combined_distances.tolist() == [0, 1, 2]
    assert r.combined_parents.tolist() == [-1, 0, 0]
    assert np.asarray(r.path_costs).tolist() == [[0, 0], [1, 4], [5, 1]]


def test_unreachable_vertices_are_infinite(mosp):
    g = dyng.Graph.from_edges([0, 2], [1, 1], [[1, 2], [1, 1]], num_vertices=4)
    r = mosp.compute(g, 0)
    assert r.distances(1).tolist() == [0, 2, INF, INF]
    assert r.parents(0).tolist() == [-1, 0, -1, -1]
    assert r.combined_distances.tolist() == [0, 1, INF, INF]
    assert r.combined_parents.tolist() == [-1, 0, -1, -1]
    assert np.asarray(r.path_costs).tolist() == [[0, 0], [1, 2], [INF, INF], [INF, INF]]


def test_result_attributes_and_dtypes(mosp):
    g = two_objective_graph()
    r = mosp.compute(g, 1, preferences=[2, 3])
    assert (r.source, r.num_objectives, r.preference_scale, r.graph_version) == (1, 2, 6, 0)
    assert np.dtype(r.vertex_dtype) == np.int32
    assert r.distances(0).dtype == np.int64 and r.combined_distances.dtype == np.int64
    assert r.parents(1).dtype == np.int32 and r.combined_parents.dtype == np.int32
    costs = np.asarray(r.path_costs)
    assert (costs.dtype, costs.shape) == (np.int64, (3, 2))


def test_int64_graphs_give_int64_parents(mosp):
    g = two_objective_graph(vertex_dtype="int64")
    r = mosp.compute(g, 0)
    assert np.dtype(r.vertex_dtype) == np.int64
    assert r.parents(1).dtype == np.int64 and r.combined_parents.dtype == np.int64


def test_num_objectives_uses_the_first_columns(mosp):
    r = mosp.compute(two_objective_graph(), 0, num_objectives=1)
    assert r.num_objectives == 1
    assert r.parents(0).tolist() == [-1, 0, 1]
    assert r.combined_parents.tolist() == [-1, 0, 1]
    assert np.asarray(r.path_costs).tolist() == [[0], [1], [2]]


def test_options_object_and_keywords_agree(mosp):
    g = two_objective_graph()
    via_options = mosp.compute(g, 0, options=mosp.Options(preferences=[1, 3]))
    via_keywords = mosp.compute(g, 0, preferences=[1, 3])
    assert via_options.preference_scale == via_keywords.preference_scale == 3
    assert result_arrays(via_options) == result_arrays(via_keywords)


def test_largest_preference_scale_is_accepted(mosp):
    assert mosp.compute(two_objective_graph(), 0, preferences=[2**20, 2]).preference_scale == 2**20


# --- argument errors ----------------------------------------------------------------------------


@pytest.mark.parametrize("value", [-1, 3])
def test_num_objectives_out_of_range(mosp, value):
    with pytest.raises(dyng.InvalidArgumentError, match=rf"num_objectives.*{value}"):
        mosp.compute(two_objective_graph(), 0, num_objectives=value)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"preferences": [1]},  # one per objective, or none
        {"preferences": [1, 2, 3]},
        {"preferences": [1, 0]},  # each >= 1
        {"preferences": [-2, 1]},
        {"preferences": [2**20, 3]},  # lcm 3 * 2**20 > 2**20
        {"delta": -1},
    ],
    ids=["short", "long", "zero", "negative", "lcm", "delta"],
)
def test_bad_options_are_refused(mosp, kwargs):
    g = two_objective_graph()
    with pytest.raises(dyng.InvalidArgumentError):
        mosp.compute(g, 0, **kwargs)
    with pytest.raises(dyng.InvalidArgumentError):
        mosp.compute(g, 0, options=mosp.Options(**kwargs))


def test_preferences_must_match_num_objectives(mosp):
    g = two_objective_graph()
    assert mosp.compute(g, 0, num_objectives=1, preferences=[4]).preference_scale == 4
    with pytest.raises(dyng.InvalidArgumentError):
        mosp.compute(g, 0, num_objectives=1, preferences=[1, 2])


@pytest.mark.parametrize("source", [-1, 3])
def test_source_out_of_range(mosp, source):
    with pytest.raises(dyng.InvalidArgumentError, match="source"):
        mosp.compute(two_objective_graph(), source)


def test_unknown_keyword_is_a_type_error(mosp):
    with pytest.raises(TypeError, match="bogus"):
        mosp.compute(two_objective_graph(), 0, bogus=1)


def test_path_costs_not_computed(mosp):
    r = mosp.compute(two_objective_graph(), 0, compute_path_costs=False)
    assert r.combined_parents.tolist() == [-1, 0, 0]  # everything else is there
    with pytest.raises(dyng.InvalidArgumentError, match="compute_path_costs"):
        _ = r.path_costs


@pytest.mark.parametrize("k", [-1, 1, 2])
def test_objective_index_out_of_range(mosp, k):
    r = mosp.compute(two_objective_graph(), 0, num_objectives=1)
    with pytest.raises(dyng.InvalidArgumentError, match="objective"):
        r.distances(k)
    with pytest.raises(dyng.InvalidArgumentError, match="objective"):
        r.parents(k)


def test_unweighted_graph_is_not_supported(mosp):
    with pytest.raises(dyng.NotSupportedError):
        mosp.compute(dyng.Graph.from_edges([0, 1], [1, 2]), 0)


def test_weight_below_one_in_a_used_column(mosp):
    g = dyng.Graph.from_edges([0, 1], [1, 2], [[1, 0], [1, 1]])
    with pytest.raises(dyng.InvalidArgumentError):
        mosp.compute(g, 0)
    # Column 1 is not used with num_objectives=1, so its 0 does not matter.
    assert mosp.compute(g, 0, num_objectives=1).combined_distances.tolist() == [0, 1, 2]


def test_more_than_64_objectives_refused(mosp):
    # 0.2.0 builds a 65-column graph and refuses it at compute; a graph that refuses 65
    # columns itself keeps K' <= 64 just as well.
    with pytest.raises(dyng.InvalidArgumentError):
        mosp.compute(dyng.Graph.from_edges([0], [1], [[1] * 65]), 0)
    g = dyng.Graph.from_edges([0, 1], [1, 2], [[1] * 64, [2] * 64])
    r = mosp.compute(g, 0)
    assert r.num_objectives == 64
    assert r.combined_distances.tolist() == [0, 1, 2]
    assert np.asarray(r.path_costs)[2].tolist() == [3] * 64


def test_weight_below_one_in_an_insertion_changes_nothing(mosp):
    g = two_objective_graph()
    r = mosp.compute(g, 0)
    graph_before, result_before = graph_state(g), result_arrays(r)
    with pytest.raises(dyng.InvalidArgumentError):
        mosp.update(g, dyng.EdgeBatch(insert=([1], [0], [[1, 0]]), delete=([0], [1])), r)
    assert graph_state(g) == graph_before
    assert result_arrays(r) == result_before
    # The refused batch left the result current: an empty update still works.
    mosp.update(g, dyng.EdgeBatch(), r)
    assert r.graph_version == g.version == 1


def test_insertion_weight_below_one_in_an_unused_column_is_accepted(mosp):
    g = two_objective_graph()
    r = mosp.compute(g, 0, num_objectives=1)
    mosp.update(g, dyng.EdgeBatch(insert=([1], [0], [[1, 0]])), r)
    assert g.version == r.graph_version == 1


# --- update, Stats and dyng.update ---------------------------------------------------------------


@pytest.mark.parametrize("backend", HOST_BACKENDS)
def test_update_stats(mosp, backend):
    g = two_objective_graph()
    r = mosp.compute(g, 0, preferences=[1, 3], resources=make_resources(backend))
    stats = mosp.update(g, dyng.EdgeBatch(delete=([0], [1])), r, resources=make_resources(backend))
    assert isinstance(stats.objectives, tuple) and len(stats.objectives) == 2
    assert all(isinstance(s, dyng.sssp.Stats) for s in stats.objectives)
    assert all(s.batch == stats.batch for s in stats.objectives)
    assert stats.batch.deleted_edges == 1
    # Both trees now reach 2 straight from 0 and 1 not at all: one combined edge.
    assert stats.combined_edges == 1
    assert stats.preference_scale == 3
    # L = 3, base L * 3 = 9; (0, 2) is in both trees: 9 - 3 // 1 - 3 // 3 = 5.
    assert r.combined_distances.tolist() == [0, INF, 5]
    assert np.asarray(r.path_costs).tolist() == [[0, 0], [INF, INF], [5, 1]]


@pytest.mark.parametrize("backend", HOST_BACKENDS)
def test_update_equals_a_fresh_compute(mosp, backend):
    g = fact_graph()
    res = make_resources(backend)
    r = mosp.compute(g, 0, preferences=[1, 2, 3], resources=res)
    batches = [
        dyng.EdgeBatch(insert=([0], [3], [[3, 3, 3]]), delete=([0], [1])),  # the first 0 -> 1
        dyng.EdgeBatch(insert=([4, 5], [0, 2], [[1, 1, 1], [1, 1, 1]])),  # grows to 6 vertices
        dyng.EdgeBatch(delete=([1, 1, 2], [3, 3, 4])),  # a repeat, a miss
    ]
    for step, batch in enumerate(batches, start=1):
        mosp.update(g, batch, r, resources=res)
        fresh = mosp.compute(g, 0, preferences=[1, 2, 3], resources=res)
        assert result_arrays(r) == result_arrays(fresh), f"after batch {step}"
        assert r.graph_version == g.version == step


def test_stale_result_is_refused(mosp):
    g = two_objective_graph()
    r = mosp.compute(g, 0)
    twin = r.clone()
    mosp.update(g, dyng.EdgeBatch(delete=([0], [1])), r)
    with pytest.raises(dyng.StaleResultError):
        mosp.update(g, dyng.EdgeBatch(), twin)  # the clone stayed at version 0


def test_module_update_applies_once_and_repairs_both(mosp):
    g = two_objective_graph()
    tree = mosp.compute(g, 0, preferences=[1, 3])
    sssp_tree = dyng.sssp.compute(g, 0)
    batch = dyng.EdgeBatch(insert=([2], [3], [[1, 1]]), delete=([1], [2]))
    mosp_stats, sssp_stats = dyng.update(g, batch, tree, sssp_tree)
    assert g.version == tree.graph_version == sssp_tree.graph_version == 1
    assert mosp_stats.batch == sssp_stats.batch
    assert (mosp_stats.batch.inserted_edges, mosp_stats.batch.deleted_edges) == (1, 1)
    assert g.num_edges == 3
    assert result_arrays(tree) == result_arrays(mosp.compute(g, 0, preferences=[1, 3]))
    assert tree.combined_distances.tolist() == [0, 5, 5, 10]
    assert np.asarray(tree.path_costs).tolist() == [[0, 0], [1, 4], [5, 1], [6, 2]]
    assert sssp_tree.distances.tolist() == [0, 1, 5, 6]


def test_result_cannot_be_pickled(mosp):
    r = mosp.compute(two_objective_graph(), 0)
    with pytest.raises(TypeError):
        pickle.dumps(r)


def test_result_cannot_be_created_directly(mosp):
    with pytest.raises(TypeError):
        mosp.Result()


def test_from_arrays_gives_the_combined_results_of_compute(mosp):
    g = fact_graph()
    computed = mosp.compute(g, 0, preferences=[1, 2, 3])
    rebuilt = mosp.Result.from_arrays(
        g,
        0,
        [computed.distances(k).tolist() for k in range(3)],
        [computed.parents(k).tolist() for k in range(3)],
        preferences=[1, 2, 3],
    )
    assert rebuilt.preference_scale == 6
    assert result_arrays(rebuilt) == result_arrays(computed)


def test_from_arrays_needs_one_tree_per_objective(mosp):
    g = two_objective_graph()
    r = mosp.compute(g, 0)
    with pytest.raises(dyng.InvalidArgumentError):
        mosp.Result.from_arrays(g, 0, [r.distances(0)], [r.parents(0)])


def test_from_arrays_result_updates_like_a_computed_one(mosp):
    g = two_objective_graph()
    r = mosp.compute(g, 0)
    rebuilt = mosp.Result.from_arrays(
        g, 0, [r.distances(k) for k in range(2)], [r.parents(k) for k in range(2)]
    )
    mosp.update(g, dyng.EdgeBatch(delete=([0], [1])), rebuilt)
    assert result_arrays(rebuilt) == result_arrays(mosp.compute(g, 0))

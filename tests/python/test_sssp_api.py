"""sssp on hand-made graphs against the pure-Python oracle, on both host backends, plus the
Result / Stats / Options API of spec section 6."""

import pickle
import re

import numpy as np
import pytest
from _helpers import assert_tree_equal, graph_state, result_state

import dyng
from dyng import sssp
from dyng.testing import check_sssp_tree
from dyng.testing.oracles import INFINITE_DISTANCE as INF
from dyng.testing.oracles import GraphModel, dijkstra

# (name, src, dst, weights, graph keywords, source, expected distances, expected parents)
CASES = [
    ("chain", [0, 1, 2], [1, 2, 3], [2, 3, 4], {}, 0, [0, 2, 5, 9], [-1, 0, 1, 2]),
    (
        "tie_lowest_id_wins",
        [0, 0, 1, 2],
        [1, 2, 3, 3],
        [1, 1, 1, 1],
        {},
        0,
        [0, 1, 1, 2],
        [-1, 0, 0, 1],
    ),
    # The higher-id route is found first (it is lighter at the first hop), yet 1 must win.
    (
        "tie_found_late",
        [0, 2, 0, 1],
        [2, 3, 1, 3],
        [1, 2, 2, 1],
        {},
        0,
        [0, 2, 1, 3],
        [-1, 0, 0, 1],
    ),
    (
        "unreachable",
        [0, 3, 4],
        [1, 4, 0],
        [5, 1, 1],
        {"num_vertices": 6},
        0,
        [0, 5, INF, INF, INF, INF],
        [-1, 0, -1, -1, -1, -1],
    ),
    (
        "source_not_zero",
        [0, 1, 2, 3],
        [1, 2, 3, 0],
        [1, 1, 1, 1],
        {},
        2,
        [2, 3, 0, 1],
        [3, 0, -1, 2],
    ),
    (
        "isolated_source",
        [1, 2],
        [2, 1],
        [1, 1],
        {"num_vertices": 3},
        0,
        [0, INF, INF],
        [-1, -1, -1],
    ),
    ("self_loops", [0, 1, 1, 0], [0, 1, 2, 1], [1, 1, 4, 3], {}, 0, [0, 3, 7], [-1, 0, 1]),
    (
        "parallel_edges",
        [0, 0, 1, 1],
        [1, 1, 2, 2],
        [5, 2, 9, 1],
        {"multi_edges": "allow"},
        0,
        [0, 2, 3],
        [-1, 0, 1],
    ),
    (
        "undirected",
        [0, 1, 2],
        [1, 2, 3],
        [3, 1, 1],
        {"directed": False},
        3,
        [5, 2, 1, 0],
        [1, 2, 3, -1],
    ),
    (
        "undirected_tie",
        [0, 0, 1, 2],
        [1, 2, 3, 3],
        [2, 2, 2, 2],
        {"directed": False},
        3,
        [4, 2, 2, 0],
        [1, 3, 3, -1],
    ),
    (
        "big_weights_need_int64",
        [0, 1, 2],
        [1, 2, 3],
        [2**31 - 1] * 3,
        {},
        0,
        [0, 2**31 - 1, 2 * (2**31 - 1), 3 * (2**31 - 1)],
        [-1, 0, 1, 2],
    ),
    ("back_edges_to_source", [0, 1, 2], [1, 0, 0], [1, 1, 1], {}, 0, [0, 1, INF], [-1, 0, -1]),
]
IDS = [c[0] for c in CASES]
TYPE_COMBOS = {"i32i32": {}, "i32i64": {"edge_dtype": "int64"}, "i64i64": {"vertex_dtype": "int64"}}


def build(src, dst, weights, **kw):
    return dyng.Graph.from_edges(
        np.array(src, np.int32), np.array(dst, np.int32), np.array(weights), **kw
    )


@pytest.mark.parametrize("case", CASES, ids=IDS)
@pytest.mark.parametrize("combo", sorted(TYPE_COMBOS))
def test_hand_cases(case, combo, resources):
    name, src, dst, w, kw, source, dist, parents = case
    g = build(src, dst, w, **kw, **TYPE_COMBOS[combo])
    r = sssp.compute(g, source, resources=resources)
    assert_tree_equal(r, dist, parents, f"{name}: ")
    # The hand answers agree with the pure-Python oracle too.
    model = GraphModel(g.num_vertices, src, dst, w, directed=kw.get("directed", True))
    if kw.get("multi_edges") != "allow":
        assert dijkstra(model, source) == (dist, parents)
    assert check_sssp_tree(g, r)


def test_result_attributes_and_dtypes(resources):
    for _combo, kw in TYPE_COMBOS.items():
        g = build([0, 1], [1, 2], [1, 1], **kw)
        r = sssp.compute(g, 0, resources=resources)
        assert r.source == 0
        assert r.graph_version == 0
        assert r.space == "host"
        assert np.dtype(r.vertex_dtype) == np.dtype(g.vertex_dtype)
        assert isinstance(r.distances, dyng.Array) and isinstance(r.parents, dyng.Array)
        assert r.distances.dtype == np.int64
        assert r.parents.dtype == np.dtype(g.vertex_dtype)
        assert r.distances.shape == (3,) and r.parents.shape == (3,)
        assert isinstance(r.options, sssp.Options)


def test_infinite_distance_constant():
    assert sssp.INFINITE_DISTANCE == 2**61 - 1 == INF


def test_options_defaults():
    o = sssp.Options()
    assert (o.delta, o.objective, o.cuda_engine, o.validate_inputs) == (0, 0, "automatic", True)


@pytest.mark.parametrize("delta", [1, 2, 7, 1000])
def test_delta_does_not_change_answer(delta, resources):
    src, dst, w = [0, 0, 1, 2, 3, 1], [1, 2, 3, 3, 4, 4], [3, 1, 2, 4, 1, 9]
    g = build(src, dst, w)
    base = result_state(sssp.compute(g, 0, resources=resources))
    assert result_state(sssp.compute(g, 0, delta=delta, resources=resources)) == base
    r = sssp.compute(g, 0, options=sssp.Options(delta=delta), resources=resources)
    assert r.options.delta == delta
    assert result_state(r) == base


def test_objective_selects_weight_column(resources):
    w = np.array([[1, 10], [1, 10], [5, 1]], dtype=np.int32)
    g = dyng.Graph.from_edges([0, 1, 0], [1, 2, 2], w)
    r0 = sssp.compute(g, 0, objective=0, resources=resources)
    r1 = sssp.compute(g, 0, options=sssp.Options(objective=1), resources=resources)
    assert_tree_equal(r0, [0, 1, 2], [-1, 0, 1])
    assert_tree_equal(r1, [0, 10, 1], [-1, 0, 0])
    assert r1.options.objective == 1
    d, p = dyng.testing.dijkstra(g, 0, objective=1)
    assert d.tolist() == [0, 10, 1] and p.tolist() == [-1, 0, 0]


def test_update_returns_stats(resources):
    g = build([0, 1, 2], [1, 2, 3], [1, 1, 1])
    r = sssp.compute(g, 0, resources=resources)
    stats = sssp.update(g, dyng.EdgeBatch(insert=([0], [3], [1]), delete=([1], [2])), r)
    assert g.version == 1
    assert r.graph_version == 1
    assert_tree_equal(r, [0, 1, INF, 1], [-1, 0, -1, 0])
    assert isinstance(stats.batch, dyng.ApplySummary)
    assert (stats.batch.inserted_edges, stats.batch.deleted_edges) == (1, 1)
    expected_engine = "operators" if resources.backend == "sequential" else "fused"
    assert stats.engine_used == expected_engine
    assert stats.method == "dijkstra"  # the incremental repair is sequential on every host backend
    assert stats.path in ("compute", "incremental", "recompute")
    for field in ("affected", "iterations", "frontier_visits", "invalidated", "epochs", "pushes"):
        assert getattr(stats, field) >= 0, field
    for field in ("fallback_used", "converged", "packed_parents"):
        assert isinstance(getattr(stats, field), bool), field
    assert stats.converged is True


# (name, src, dst, weights, graph keywords, source, batch insert, batch delete)
UPDATE_CASES = [
    # Found by the property suite: an upsert lowers a non-tree edge's weight below the tree path.
    (
        "upsert_decrease_undirected",
        [0, 0, 1, 0],
        [0, 2, 2, 1],
        [1, 1, 1, 3],
        {"directed": False},
        0,
        ([0], [1], [1]),
        None,
    ),
    ("upsert_decrease_directed", [0, 0, 2], [1, 2, 1], [3, 1, 1], {}, 0, ([0], [1], [1]), None),
    ("upsert_increase_tree_edge", [0, 1, 0], [1, 2, 2], [1, 1, 5], {}, 0, ([0], [1], [9]), None),
    (
        "delete_tree_edge_tie_remains",
        [0, 0, 1, 2],
        [1, 2, 3, 3],
        [1, 1, 1, 1],
        {},
        0,
        None,
        ([1], [3]),
    ),
    ("delete_cuts_subtree", [0, 1, 2, 3], [1, 2, 3, 4], [1, 1, 1, 1], {}, 0, None, ([1], [2])),
    ("tight_lower_id_insert", [0, 0, 2], [1, 2, 3], [1, 1, 1], {}, 0, ([1], [3], [1]), None),
    ("insert_and_delete_same_edge", [0, 1], [1, 2], [1, 1], {}, 0, ([1], [2], [4]), ([1], [2])),
    (
        "reconnect_unreachable",
        [0, 2],
        [1, 3],
        [1, 1],
        {"num_vertices": 4},
        0,
        ([1], [2], [2]),
        None,
    ),
    (
        "undirected_delete_both_ways",
        [0, 1, 0],
        [1, 2, 2],
        [1, 1, 3],
        {"directed": False},
        0,
        None,
        ([2], [1]),
    ),
    (
        "self_loop_and_growth",
        [0, 1],
        [1, 2],
        [1, 1],
        {},
        0,
        ([2, 2, 4], [2, 5, 4], [1, 2, 1]),
        None,
    ),
]


@pytest.mark.parametrize("case", UPDATE_CASES, ids=[c[0] for c in UPDATE_CASES])
@pytest.mark.parametrize("combo", sorted(TYPE_COMBOS))
def test_hand_updates_equal_fresh_compute(case, combo, resources):
    name, src, dst, w, kw, source, insert, delete = case
    g = build(src, dst, w, **kw, **TYPE_COMBOS[combo])
    model = GraphModel(g.num_vertices, src, dst, w, directed=kw.get("directed", True))
    r = sssp.compute(g, source, resources=resources)
    ins = insert or ([], [], [])
    dele = delete or ([], [])
    model.apply(*ins, *dele)
    sssp.update(g, dyng.EdgeBatch(insert=insert, delete=delete), r, resources=resources)
    dist, parents = dijkstra(model, source)
    assert_tree_equal(r, dist, parents, f"{name}: ")
    assert result_state(r) == result_state(sssp.compute(g, source, resources=resources))


def test_update_growth_gives_new_vertices(resources):
    g = build([0, 1], [1, 2], [1, 1])
    r = sssp.compute(g, 0, resources=resources)
    sssp.update(g, dyng.EdgeBatch(insert=([2, 5], [4, 6], [2, 1])), r)
    assert_tree_equal(r, [0, 1, 2, INF, 4, INF, INF], [-1, 0, 1, -1, 2, -1, -1])


def test_module_update_applies_once_for_all_results(resources):
    g = build([0, 1, 2, 3], [1, 2, 3, 0], [1, 2, 3, 4])
    r0 = sssp.compute(g, 0, resources=resources)
    r2 = sssp.compute(g, 2, resources=resources)
    batch = dyng.EdgeBatch(insert=([0], [2], [1]), delete=([2], [3]))
    stats = dyng.update(g, batch, r2, r0, resources=resources)
    assert isinstance(stats, tuple) and len(stats) == 2
    assert g.version == 1
    for r, s in ((r2, stats[0]), (r0, stats[1])):
        assert r.graph_version == 1
        assert s.batch.deleted_edges == 1
        assert (
            result_state(r)[2:] == result_state(sssp.compute(g, r.source, resources=resources))[2:]
        )
    assert_tree_equal(r2, [INF, INF, 0, INF], [-1, -1, -1, -1])


def test_module_update_argument_checks():
    g = build([0, 1], [1, 2], [1, 1])
    r = sssp.compute(g, 0)
    b = dyng.EdgeBatch(insert=([0], [2], [1]))
    with pytest.raises(dyng.InvalidArgumentError):
        dyng.update(g, b)
    with pytest.raises(dyng.InvalidArgumentError):
        dyng.update(g, b, r, r)
    with pytest.raises(TypeError):
        dyng.update(g, b, object())
    assert g.version == 0
    assert r.graph_version == 0


def test_result_not_picklable():
    r = sssp.compute(build([0], [1], [1]), 0)
    with pytest.raises(TypeError):
        pickle.dumps(r)


def test_result_clone_is_independent():
    g = build([0, 1], [1, 2], [1, 1])
    r = sssp.compute(g, 0)
    c = r.clone(dyng.Resources.sequential())
    assert result_state(c) == result_state(r)
    sssp.update(g, dyng.EdgeBatch(delete=([0], [1])), r)
    assert_tree_equal(r, [0, INF, INF], [-1, -1, -1])
    assert_tree_equal(c, [0, 1, 2], [-1, 0, 1])
    assert c.graph_version == 0


def test_from_arrays_canonicalizes_and_updates(resources):
    src, dst, w = [0, 0, 1, 2], [1, 2, 3, 3], [1, 1, 1, 1]
    g = build(src, dst, w, num_vertices=5)
    dist = np.array([0, 1, 1, 2, 2**60], dtype=np.int64)  # >= INF/2 reads as unreachable
    parents = np.array([-1, 0, 0, 2, -1], dtype=np.int32)  # 3's parent not canonical
    r = sssp.Result.from_arrays(g, 0, dist, parents, resources=resources)
    assert_tree_equal(r, [0, 1, 1, 2, INF], [-1, 0, 0, 1, -1])
    assert r.graph_version == g.version
    sssp.update(g, dyng.EdgeBatch(insert=([3], [4], [1])), r)
    assert result_state(r) == result_state(sssp.compute(g, 0, resources=resources))


def test_from_arrays_without_canonicalize_keeps_parents():
    g = build([0, 0, 1, 2], [1, 2, 3, 3], [1, 1, 1, 1])
    r = sssp.Result.from_arrays(
        g, 0, np.array([0, 1, 1, 2]), np.array([-1, 0, 0, 2]), canonicalize=False
    )
    assert np.asarray(r.parents).tolist() == [-1, 0, 0, 2]


def test_compute_leaves_graph_alone(resources):
    g = build([0, 1], [1, 2], [1, 1])
    before = graph_state(g)
    sssp.compute(g, 0, resources=resources)
    assert graph_state(g) == before


@pytest.mark.gpu
def test_cuda_matches_host():
    g = build([0, 0, 1, 2, 3], [1, 2, 3, 3, 4], [1, 1, 1, 1, 2])
    host = sssp.compute(g, 0, resources=dyng.Resources.sequential())
    dev = sssp.compute(g.to_backend(dyng.Resources.cuda()), 0)
    assert np.asarray(dev.distances.to_numpy()).tolist() == np.asarray(host.distances).tolist()
    assert np.asarray(dev.parents.to_numpy()).tolist() == np.asarray(host.parents).tolist()


def test_set_options_changes_free_fields_only(resources):
    w = np.array([[1, 10], [1, 10], [5, 1]], dtype=np.int32)
    g = dyng.Graph.from_edges([0, 1, 0], [1, 2, 2], w)
    r = sssp.compute(g, 0, resources=resources)
    r.set_options(delta=5)
    assert r.options.delta == 5 and r.options.objective == 0
    r.set_options(sssp.Options(delta=2))
    assert r.options.delta == 2
    before = result_state(r)
    # The objective defines what the result is; changing it would make the result wrong.
    with pytest.raises(dyng.InvalidArgumentError):
        r.set_options(objective=1)
    assert r.options.objective == 0 and result_state(r) == before
    sssp.update(g, dyng.EdgeBatch(insert=([2], [0], [[1, 1]])), r, resources=resources)
    assert result_state(r) == result_state(sssp.compute(g, 0, resources=resources))


def test_large_vertex_growth(resources):
    g = build([0, 1], [1, 2], [1, 1])
    r = sssp.compute(g, 0, resources=resources)
    stats = sssp.update(
        g, dyng.EdgeBatch(insert=([2, 70000], [99999, 5], [3, 1])), r, resources=resources
    )
    assert stats.batch.inserted_vertices == 100000 - 3
    assert g.num_vertices == 100000
    d = np.asarray(r.distances)
    assert d.shape == (100000,)
    assert d[99999] == 5 and d[5] == INF and d[70000] == INF
    assert np.asarray(r.parents)[99999] == 2
    assert result_state(r) == result_state(sssp.compute(g, 0, resources=resources))


# With validate_inputs (the default), from_arrays accepts exactly the shortest distances and tight
# parents (issue 11, item 5): anything else would make every later update differ from a fresh
# compute. 0.2.0 refuses the first two cases too; the checks are one pass over the in-edges.
PATH = ([0, 1, 2], [1, 2, 3], [1, 1, 1])
FROM_ARRAYS_REFUSED = [
    ("source_not_at_zero", [1, 1, 2, 3], [-1, 0, 1, 2], {}, "distances[0] = 1"),
    (
        "longer_than_shortest",
        [0, 1, 5, 3],
        [-1, 0, 1, 2],
        {},
        "distances[2] = 5 is not the shortest",
    ),
    (
        "shorter_than_any_path",
        [0, 1, 1, 3],
        [-1, 0, 1, 2],
        {},
        "distances[2] = 1 is not the length",
    ),
    (
        "reachable_marked_unreachable",
        [0, 1, 2, INF],
        [-1, 0, 1, -1],
        {},
        "distances[3] = unreachable",
    ),
    ("parent_not_tight", [0, 1, 2, 3], [-1, 0, 0, 2], {"canonicalize": False}, "parents[2] = 0"),
    ("source_with_parent", [0, 1, 2, 3], [1, 0, 1, 2], {"canonicalize": False}, "parents[0] = 1"),
    (
        "reachable_without_parent",
        [0, 1, 2, 3],
        [-1, 0, -1, 2],
        {"canonicalize": False},
        "parents[2] = -1",
    ),
]


@pytest.mark.parametrize("case", FROM_ARRAYS_REFUSED, ids=[c[0] for c in FROM_ARRAYS_REFUSED])
def test_from_arrays_refuses_what_is_not_a_shortest_path_result(case, resources):
    _, dist, parents, kw, needle = case
    g = build(*PATH)
    with pytest.raises(dyng.InvalidArgumentError, match=re.escape(needle)):
        sssp.Result.from_arrays(g, 0, dist, parents, resources=resources, **kw)
    # The same arrays are taken as they are when the caller turns the check off.
    r = sssp.Result.from_arrays(
        g, 0, dist, parents, resources=resources, validate_inputs=False, **kw
    )
    assert r.graph_version == g.version


def test_from_arrays_accepts_any_tight_parents_without_canonicalize():
    g = build([0, 0, 1], [1, 2, 2], [1, 2, 1])  # 2 is reached tightly from 0 and from 1
    r = sssp.Result.from_arrays(g, 0, [0, 1, 2], [-1, 0, 1], canonicalize=False)
    assert np.asarray(r.parents).tolist() == [-1, 0, 1]


def test_from_arrays_accepts_every_computed_result(resources):
    rng = np.random.default_rng(3)
    for _ in range(20):
        n = int(rng.integers(2, 40))
        m = int(rng.integers(0, 4 * n))
        g = build(
            rng.integers(0, n, m).tolist(),
            rng.integers(0, n, m).tolist(),
            rng.integers(1, 6, m).tolist(),
            num_vertices=n,
        )
        r = sssp.compute(g, 0, resources=resources)
        again = sssp.Result.from_arrays(
            g,
            0,
            r.distances.to_numpy(),
            r.parents.to_numpy(),
            canonicalize=False,
            resources=resources,
        )
        assert result_state(again) == result_state(r)


# engine_used keeps 0.2's two words; method names the kernel (issue 11, item 13).
@pytest.mark.parametrize("backend, engine", [("sequential", "operators"), ("openmp", "fused")])
def test_compute_reports_engine_and_method(backend, engine):
    rng = np.random.default_rng(4)
    n, m = 4000, 40_000
    g = build(
        rng.integers(0, n, m).tolist(),
        rng.integers(0, n, m).tolist(),
        rng.integers(1, 9, m).tolist(),
        num_vertices=n,
    )
    res = dyng.Resources.sequential() if backend == "sequential" else dyng.Resources.openmp(2)
    stats = sssp.compute(g, 0, resources=res).stats
    assert stats.engine_used == engine
    # OpenMP runs its team only where it pays (a large enough graph, a free core).
    assert (
        stats.method == "dijkstra"
        if backend == "sequential"
        else stats.method in ("delta_stepping", "dijkstra")
    )


@pytest.mark.gpu
@pytest.mark.parametrize("cuda_engine", ["automatic", "fused", "operators"])
def test_cuda_reports_the_fused_near_far_kernel(cuda_engine):
    g = build([0, 0, 1, 2, 3], [1, 2, 3, 3, 4], [1, 1, 1, 1, 2]).to_backend(dyng.Resources.cuda())
    r = sssp.compute(g, 0, cuda_engine=cuda_engine)
    assert (r.stats.engine_used, r.stats.method) == ("fused", "near_far")
    stats = sssp.update(g, dyng.EdgeBatch(insert=([4], [0], [1])), r)
    assert (stats.engine_used, stats.method) == ("fused", "near_far")

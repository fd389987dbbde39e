"""EdgeBatch, BatchSemantics and ApplySummary (spec section 3): every observed rule, the error
modes, atomicity, and random batch sequences against the pure-Python model."""

import dataclasses

import numpy as np
import pytest
from _helpers import csr_lists, edge_dict, graph_state, summary_dict
from hypothesis import assume, given
from hypothesis import strategies as st

import dyng
from dyng.testing.oracles import SUMMARY_FIELDS, GraphModel, ModelError, ModelSemantics
from dyng.testing.strategies import batches, graphs


def base_graph(**kw):
    """0->1 (1), 1->2 (1), 2->3 (1) on 4 vertices."""
    return dyng.Graph.from_edges(
        np.array([0, 1, 2], np.int32), np.array([1, 2, 3], np.int32), np.array([1, 1, 1]), **kw
    )


def apply(g, insert=None, delete=None):
    return g.apply(dyng.EdgeBatch(insert=insert, delete=delete))


def assert_counters(summary, **expected):
    """Every ApplySummary counter equals `expected` (absent names: 0; num_vertices_after: 4)."""
    want = {name: 0 for name in summary_dict(summary)}
    want["num_vertices_after"] = 4
    want.update(expected)
    assert summary_dict(summary) == want


# --- EdgeBatch -------------------------------------------------------------------------------


def test_edge_batch_properties():
    b = dyng.EdgeBatch(insert=([0, 1], [1, 2], [5, 6]), delete=([3], [4]))
    assert np.asarray(b.insert_src).tolist() == [0, 1]
    assert np.asarray(b.insert_dst).tolist() == [1, 2]
    w = np.asarray(b.insert_weights)
    assert w.shape == (2, 1) and w.dtype == np.int32 and w.tolist() == [[5], [6]]
    assert np.asarray(b.delete_src).tolist() == [3]
    assert np.asarray(b.delete_dst).tolist() == [4]
    assert (b.num_insertions, b.num_deletions, b.num_weights, b.empty) == (2, 1, 1, False)


def test_edge_batch_multi_weights_and_unweighted():
    b = dyng.EdgeBatch(insert=([0], [1], np.array([[1, 2, 3]])))
    assert np.asarray(b.insert_weights).shape == (1, 3)
    assert b.num_weights == 3
    u = dyng.EdgeBatch(insert=([0], [1]))
    assert u.insert_weights is None
    assert u.num_weights == 0


def test_empty_batch():
    b = dyng.EdgeBatch()
    assert b.empty is True
    assert (b.num_insertions, b.num_deletions) == (0, 0)
    g = base_graph()
    s = g.apply(b)
    assert g.version == 1
    assert_counters(s)


def test_edge_batch_holds_arrays_by_reference():
    src, dst, w = np.array([0]), np.array([3]), np.array([9])
    b = dyng.EdgeBatch(insert=(src, dst, w))
    dst[0] = 2  # changed after the batch was made: the batch re-converts at use
    w[0] = 4
    g = base_graph()
    g.apply(b)
    assert edge_dict(g)[(0, 2)] == (4,)
    assert (0, 3) not in edge_dict(g)


@pytest.mark.parametrize(
    "kw",
    [
        {"insert_vertices": [7]},
        {"delete_vertices": [1]},
        {"insert_vertices": [7], "vertex_labels": [1]},
    ],
)
def test_vertex_changes_not_supported_at_apply(kw):
    b = dyng.EdgeBatch(**kw)
    g = base_graph()
    before = graph_state(g)
    with pytest.raises(dyng.NotSupportedError, match="0.4"):
        g.apply(b)
    assert graph_state(g) == before


def test_apply_summary_is_frozen():
    s = apply(base_graph(), insert=([0], [2], [1]))
    assert isinstance(s, dyng.ApplySummary)
    with pytest.raises(AttributeError):
        s.inserted_edges = 5


# --- weights and K ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make_graph, insert",
    [
        (lambda: dyng.Graph.from_edges([0, 1], [1, 2]), ([0], [2], [3])),  # weighted on unweighted
        (base_graph, ([0], [2], np.array([[1, 2]]))),  # K=2 on K=1
        (base_graph, ([0], [2])),  # no weights on weighted
        (lambda: base_graph().clone(), ([0], [2], np.array([[1, 2, 3]]))),  # K=3 on K=1
    ],
)
def test_weight_count_mismatch_rejected_and_atomic(make_graph, insert):
    g = make_graph()
    before = graph_state(g)
    with pytest.raises(dyng.InvalidArgumentError):
        apply(g, insert=insert, delete=([0], [1]))
    assert graph_state(g) == before


@pytest.mark.parametrize("insert", [None, ([], []), ([], [], np.empty((0, 3), np.int32))])
def test_batch_without_insertions_accepted_whatever_k(insert):
    g = base_graph()
    s = apply(g, insert=insert, delete=([0], [1]))
    assert s.deleted_edges == 1
    assert (0, 1) not in edge_dict(g)


# --- upsert_last_wins (observed) -------------------------------------------------------------


def test_deletions_run_first():
    g = base_graph()
    s = apply(g, insert=([0], [1], [8]), delete=([0], [1]))
    assert_counters(s, deleted_edges=1, inserted_edges=1)
    assert edge_dict(g)[(0, 1)] == (8,)


def test_missing_deletion_ignored():
    g = base_graph()
    s = apply(g, delete=([3], [0]))
    assert_counters(s, ignored_deletions=1)
    assert g.version == 1


def test_same_deletion_twice():
    g = base_graph()
    s = apply(g, delete=([0, 0], [1, 1]))
    assert (s.deleted_edges, s.ignored_deletions) == (1, 1)


def test_insert_existing_overwrites_weight():
    g = base_graph()
    s = apply(g, insert=([1], [2], [6]))
    assert (s.updated_edges, s.inserted_edges) == (1, 0)
    assert edge_dict(g)[(1, 2)] == (6,)
    assert g.num_edges == 3


def test_two_insertions_of_new_edge_last_weight_kept():
    g = base_graph()
    s = apply(g, insert=([0, 0], [3, 3], [4, 2]))
    assert (s.inserted_edges, s.updated_edges) == (1, 1)
    assert edge_dict(g)[(0, 3)] == (2,)


def test_self_loop_insertion_kept():
    g = base_graph()
    s = apply(g, insert=([2], [2], [3]))
    assert (s.inserted_edges, s.dropped_self_loops) == (1, 0)
    assert edge_dict(g)[(2, 2)] == (3,)


def test_new_id_grows_vertex_set():
    g = base_graph()
    s = apply(g, insert=([3], [6], [1]))
    assert (s.inserted_vertices, s.num_vertices_after, s.inserted_edges) == (3, 7, 1)
    assert g.num_vertices == 7
    assert np.asarray(g.to_csr().row_ptr).size == 8
    g.check_integrity()


def test_parallel_edges_upsert_rewrites_first_and_delete_removes_first():
    g = dyng.Graph.from_edges([0, 0, 0], [1, 2, 1], [5, 1, 7], properties="mosp_compatible")
    assert csr_lists(g)[1:] == ([1, 2, 1], [[5], [1], [7]])
    s = apply(g, insert=([0], [1], [9]))
    assert s.updated_edges == 1
    assert csr_lists(g)[1:] == ([1, 2, 1], [[9], [1], [7]])
    s = apply(g, delete=([0], [1]))
    assert s.deleted_edges == 1
    assert csr_lists(g)[1:] == ([2, 1], [[1], [7]])
    g.check_integrity()


def test_undirected_batch_changes_both_directions():
    g = base_graph(directed=False)
    assert g.num_edges == 6
    s = apply(g, insert=([0], [3], [4]), delete=([2], [1]))
    assert (s.deleted_edges, s.inserted_edges) == (2, 2)
    e = edge_dict(g)
    assert e[(0, 3)] == e[(3, 0)] == (4,)
    assert (1, 2) not in e and (2, 1) not in e
    s = apply(g, insert=([3], [0], [6]), delete=([1], [3]))
    assert (s.updated_edges, s.ignored_deletions) == (2, 2)
    assert edge_dict(g)[(0, 3)] == (6,)
    g.check_integrity()


# --- set semantics (observed) ----------------------------------------------------------------


def set_graph():
    return base_graph(semantics="set")


def test_set_existing_insert_ignored():
    g = set_graph()
    s = apply(g, insert=([0], [1], [9]))
    assert (s.ignored_insertions, s.updated_edges, s.inserted_edges) == (1, 0, 0)
    assert edge_dict(g)[(0, 1)] == (1,)


def test_set_duplicate_insertions_first_weight():
    g = set_graph()
    s = apply(g, insert=([0, 0], [3, 3], [4, 2]))
    assert s.inserted_edges == 1
    assert edge_dict(g)[(0, 3)] == (4,)
    assert g.num_edges == 4


def test_set_self_loop_dropped():
    g = set_graph()
    s = apply(g, insert=([2], [2], [3]))
    assert (s.dropped_self_loops, s.inserted_edges) == (1, 0)
    assert (2, 2) not in edge_dict(g)


def test_set_insert_delete_existing_cancels():
    g = set_graph()
    s = apply(g, insert=([1], [2], [8]), delete=([1], [2]))
    assert (s.deleted_edges, s.inserted_edges, s.cancelled_pairs) == (1, 1, 1)
    assert edge_dict(g)[(1, 2)] == (8,)


def test_set_insert_delete_absent():
    g = set_graph()
    s = apply(g, insert=([0], [3], [8]), delete=([0], [3]))
    assert (s.inserted_edges, s.ignored_deletions, s.cancelled_pairs, s.deleted_edges) == (
        1,
        1,
        0,
        0,
    )
    assert edge_dict(g)[(0, 3)] == (8,)


# Repeats within a set batch collapse before anything is counted: the counters 0.2.0 gives for
# each batch on the graph 0->1, 1->2 (issue 11, item 9: repeats were counted as ignored).
SET_REPEATS = [
    ("existing_insert_twice", dict(insert=([0, 0], [1, 1], [5, 6])), dict(ignored_insertions=1)),
    ("new_insert_twice", dict(insert=([0, 0], [2, 2], [5, 6])), dict(inserted_edges=1)),
    ("new_insert_thrice", dict(insert=([0, 0, 0], [2, 2, 2], [5, 6, 7])), dict(inserted_edges=1)),
    ("delete_twice", dict(delete=([0, 0], [1, 1])), dict(deleted_edges=1)),
    ("missing_delete_twice", dict(delete=([0, 0], [2, 2])), dict(ignored_deletions=1)),
    (
        "insert_and_delete_twice",
        dict(insert=([0], [1], [5]), delete=([0, 0], [1, 1])),
        dict(inserted_edges=1, deleted_edges=1, cancelled_pairs=1),
    ),
    (
        "new_insert_twice_and_delete",
        dict(insert=([0, 0], [2, 2], [5, 6]), delete=([0], [2])),
        dict(inserted_edges=1, ignored_deletions=1),
    ),
    (
        "existing_insert_twice_and_delete",
        dict(insert=([0, 0], [1, 1], [5, 6]), delete=([0], [1])),
        dict(inserted_edges=1, deleted_edges=1, cancelled_pairs=1),
    ),
    ("self_loop_twice", dict(insert=([1, 1], [1, 1], [5, 6])), dict(dropped_self_loops=2)),
]


@pytest.mark.parametrize("case", SET_REPEATS, ids=[c[0] for c in SET_REPEATS])
def test_set_repeats_collapse_before_counting(case):
    _, batch, expected = case
    g = dyng.Graph.from_edges([0, 1], [1, 2], [1, 1], semantics="set")
    summary = g.apply(dyng.EdgeBatch(**batch))
    counters = {
        name: getattr(summary, name)
        for name in SUMMARY_FIELDS
        if name != "num_vertices_after" and getattr(summary, name)
    }
    assert counters == expected
    model = GraphModel(None, [0, 1], [1, 2], [1, 1], semantics="set")
    ins, dels = batch.get("insert", ([], [], [])), batch.get("delete", ([], []))
    got = model.apply(ins[0], ins[1], ins[2], dels[0], dels[1]).as_dict()
    assert {k: v for k, v in got.items() if v and k != "num_vertices_after"} == expected


# --- other semantics fields and error modes --------------------------------------------------


def test_insertions_first_when_requested():
    g = base_graph(semantics=dyng.BatchSemantics(deletions_first=False))
    apply(g, insert=([0], [3], [5]), delete=([0], [3]))
    assert (0, 3) not in edge_dict(g)


def test_on_existing_insert_ignore():
    g = base_graph(semantics=dyng.BatchSemantics(on_existing_insert="ignore"))
    s = apply(g, insert=([0, 0], [1, 3], [9, 2]))
    assert (s.ignored_insertions, s.inserted_edges) == (1, 1)
    assert edge_dict(g)[(0, 1)] == (1,)


def test_on_self_loop_drop_counts():
    g = base_graph(semantics=dyng.BatchSemantics(on_self_loop="drop"))
    s = apply(g, insert=([1, 3], [1, 3], [1, 1]))
    assert s.dropped_self_loops == 2
    assert g.num_edges == 3


@pytest.mark.parametrize(
    "semantics, insert, delete",
    [
        (dict(on_missing_delete="error"), None, ([3], [0])),
        (dict(on_existing_insert="error"), ([1], [2], [5]), None),
        (dict(allow_vertex_growth=False), ([0], [4], [5]), None),
        (dict(on_self_loop="error"), ([2], [2], [5]), None),
    ],
    ids=["missing_delete", "existing_insert", "vertex_growth", "self_loop"],
)
def test_error_modes_raise_and_change_nothing(semantics, insert, delete):
    g = base_graph(semantics=dyng.BatchSemantics(**semantics))
    # A valid change rides along: it must not be applied either.
    ins = insert or ([], [], [])
    ins = (list(ins[0]) + [3], list(ins[1]) + [0], list(ins[2]) + [7])
    before = graph_state(g)
    with pytest.raises(dyng.InvalidArgumentError):
        apply(g, insert=ins, delete=delete)
    assert graph_state(g) == before
    g.check_integrity()


# --- random batch sequences against the model ------------------------------------------------

SEMANTICS = {
    "upsert_last_wins": ModelSemantics.upsert_last_wins(),
    "set": ModelSemantics.set(),
    "insertions_first": ModelSemantics(deletions_first=False),
    "ignore_existing": ModelSemantics(on_existing_insert="ignore"),
}


def dyng_semantics(name):
    if name in ("upsert_last_wins", "set"):
        return name
    return dyng.BatchSemantics(**dataclasses.asdict(SEMANTICS[name]))


@given(
    graphs(max_vertices=8, max_edges=24),
    st.sampled_from(sorted(SEMANTICS)),
    st.booleans(),
    st.integers(1, 4),
    st.data(),
)
def test_batch_sequences_match_model(rg, semantics, directed, num_batches, data):
    g = rg.to_graph(directed=directed, semantics=dyng_semantics(semantics))
    model = rg.model(directed=directed, semantics=SEMANTICS[semantics])
    for step in range(num_batches):
        rb = data.draw(batches(model), label=f"batch {step}")
        expected = rb.apply_to(model)
        got = g.apply(rb.to_batch())
        assert summary_dict(got) == expected.as_dict(), f"batch {step}"
        assert g.version == step + 1
        assert g.num_vertices == model.num_vertices
        assert edge_dict(g) == model.edges, f"batch {step}"
        g.check_integrity()


@given(graphs(max_vertices=8, max_edges=24), st.data())
def test_error_mode_batches_are_atomic(rg, data):
    sem = ModelSemantics(
        on_missing_delete="error",
        on_existing_insert="error",
        allow_vertex_growth=data.draw(st.booleans()),
    )
    g = rg.to_graph(semantics=dyng.BatchSemantics(**dataclasses.asdict(sem)))
    model = rg.model(semantics=sem)
    rb = data.draw(batches(model, max_insertions=3, max_deletions=3))
    # Whether "existing"/"missing" means before the batch or at that point of it is unspecified,
    # so only batches where both readings agree are judged.
    ins = list(zip(rb.insert_src, rb.insert_dst))
    dels = list(zip(rb.delete_src, rb.delete_dst))
    assume(len(set(ins)) == len(ins) and len(set(dels)) == len(dels) and not set(ins) & set(dels))
    before = graph_state(g)
    try:
        expected = rb.apply_to(model)
    except ModelError:
        with pytest.raises(dyng.InvalidArgumentError):
            g.apply(rb.to_batch())
        assert graph_state(g) == before
    else:
        assert summary_dict(g.apply(rb.to_batch())) == expected.as_dict()
        assert edge_dict(g) == model.edges


@pytest.mark.parametrize(
    "kw",
    [{}, {"edge_dtype": "int64"}, {"vertex_dtype": "int64"}],
    ids=["i32i32", "i32i64", "i64i64"],
)
@given(rg=graphs(max_vertices=8, max_edges=20), data=st.data())
def test_type_combos_apply_identically(kw, rg, data):
    g = rg.to_graph(**kw)
    model = rg.model()
    rb = data.draw(batches(model))
    id_dtype = np.int64 if kw.get("vertex_dtype") == "int64" else np.int32
    assert summary_dict(g.apply(rb.to_batch(id_dtype=id_dtype))) == rb.apply_to(model).as_dict()
    assert edge_dict(g) == model.edges


# Large batches take the counting-sort paths of Graph.apply (batch size >= n / 8 and 4096, and
# n > 2^16 for the two-pass digit split), where operations stay in (row, column, seq) order
# instead of being sorted by comparison. Checked against the model on every layout that changes
# the ordering argument: directed with in-edges, undirected, append rows, and a log consumer.
@pytest.mark.parametrize(
    "directed, order, semantics",
    [
        (True, "sorted", "upsert_last_wins"),
        (False, "sorted", "upsert_last_wins"),
        (True, "append", "upsert_last_wins"),
        (True, "sorted", "set"),
    ],
)
def test_large_batch_matches_the_model(directed, order, semantics):
    rng = np.random.default_rng(11)
    n, m, k = 70_000, 60_000, 40_000
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.integers(1, 50, m)
    g = dyng.Graph.from_edges(
        src.astype(np.int32),
        dst.astype(np.int32),
        w.astype(np.int32),
        num_vertices=n,
        directed=directed,
        row_order=order,
        semantics=semantics,
    )
    model = GraphModel(
        n, src.tolist(), dst.tolist(), w.tolist(), directed=directed, semantics=semantics
    )
    # Repeats, re-insertions of deleted edges and insertions of existing edges, in one batch.
    pick = rng.integers(0, m, k // 4)
    ins_src = np.concatenate([rng.integers(0, n, k), src[pick], src[pick[:100]]])
    ins_dst = np.concatenate([rng.integers(0, n, k), dst[pick], dst[pick[:100]]])
    ins_w = rng.integers(1, 50, len(ins_src))
    del_src = np.concatenate([src[pick[: k // 8]], rng.integers(0, n, 500)])
    del_dst = np.concatenate([dst[pick[: k // 8]], rng.integers(0, n, 500)])
    summary = g.apply(dyng.EdgeBatch(insert=(ins_src, ins_dst, ins_w), delete=(del_src, del_dst)))
    expected = model.apply(
        ins_src.tolist(), ins_dst.tolist(), ins_w.tolist(), del_src.tolist(), del_dst.tolist()
    )
    assert summary_dict(summary) == {f: getattr(expected, f) for f in SUMMARY_FIELDS}
    assert edge_dict(g) == model.edges
    if order == "append":  # each row: survivors in place, then new slots in processing order
        got_src, got_dst, _ = g.edges()
        rows = {}
        for u, v in model.edges:
            rows.setdefault(u, []).append(v)
        assert [v for u in sorted(rows) for v in rows[u]] == got_dst.tolist()
    g.check_integrity()
    if directed:  # an update reads the change log in processing order
        r = dyng.sssp.compute(g, 0)
        dyng.sssp.update(
            g,
            dyng.EdgeBatch(
                insert=(ins_dst[:5000], ins_src[:5000], ins_w[:5000]),
                delete=(ins_src[5000:9000], ins_dst[5000:9000]),
            ),
            r,
        )
        fresh = dyng.sssp.compute(g, 0)
        assert np.array_equal(r.distances.to_numpy(), fresh.distances.to_numpy())
        assert np.array_equal(r.parents.to_numpy(), fresh.parents.to_numpy())


# --- Large batches on a team ----------------------------------------------------------------


@pytest.mark.parametrize("directed", [True, False])
def test_large_batch_same_on_every_backend(directed):
    """A batch past the parallel threshold (4096 entries) gives the same graph, summary and
    update on the OpenMP team as sequentially. (Whether a team is granted depends on the
    machine's load; test_graph_apply_team forces it and compares the slots.)"""
    rng = np.random.default_rng(7)
    n, m = 3000, 30000
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.integers(1, 50, m)
    ins = (rng.integers(0, n + 10, 6000), rng.integers(0, 200, 6000), rng.integers(1, 50, 6000))
    pick = rng.integers(0, m, 6000)
    batch = dyng.EdgeBatch(insert=ins, delete=(src[pick], dst[pick]))
    outcomes = []
    for resources in (
        dyng.Resources.sequential(),
        dyng.Resources.openmp(2),
        dyng.Resources.openmp(3),
    ):
        g = dyng.Graph.from_edges(
            src, dst, w, num_vertices=n, directed=directed, resources=resources
        )
        r = dyng.sssp.compute(g, 0)
        dyng.update(g, batch, r)
        h = dyng.Graph.from_edges(src, dst, w, num_vertices=n, directed=directed)
        summary = h.apply(batch, resources=resources)
        assert csr_lists(h) == csr_lists(g)
        outcomes.append(
            (
                summary_dict(summary),
                csr_lists(g),
                r.distances.to_numpy().tolist(),
                r.parents.to_numpy().tolist(),
            )
        )
    assert outcomes[1] == outcomes[0]
    assert outcomes[2] == outcomes[0]

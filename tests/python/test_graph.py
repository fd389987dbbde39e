"""Graph construction, properties and conversions (spec sections 1-2)."""

import copy
import dataclasses
import pickle

import numpy as np
import pytest
from _helpers import csr_lists, edge_dict
from hypothesis import given

import dyng
from dyng.testing.oracles import GraphModel
from dyng.testing.strategies import graphs


def simple_graph(**kw):
    # int32 ids: int64 arrays would (correctly) make an int64-id graph.
    return dyng.Graph.from_edges(
        np.array([0, 1, 2, 2], np.int32),
        np.array([1, 2, 0, 3], np.int32),
        np.array([4, 5, 6, 7]),
        **kw,
    )


def test_plain_constructor_raises_type_error():
    with pytest.raises(TypeError):
        dyng.Graph()


def test_basic_properties():
    g = simple_graph()
    assert g.num_vertices == 4
    assert g.num_edges == 4
    assert g.num_weights == 1
    assert g.weighted is True
    assert g.directed is True
    assert g.has_transposed is True
    assert g.version == 0
    assert g.space == "host"
    assert np.dtype(g.vertex_dtype) == np.int32
    assert np.dtype(g.edge_dtype) == np.int32
    assert isinstance(g.properties, dyng.GraphProperties)
    assert isinstance(g.resources, dyng.Resources)


def test_num_vertices_keyword_adds_isolated_vertices():
    g = dyng.Graph.from_edges([0], [1], [1], num_vertices=10)
    assert g.num_vertices == 10
    assert np.asarray(g.to_csr().row_ptr).tolist() == [0] + [1] * 10


def test_csr_and_edges_content():
    g = simple_graph()
    row_ptr, col, w = csr_lists(g)
    assert row_ptr == [0, 1, 2, 4, 4]
    assert col == [1, 2, 0, 3]
    assert w == [[4], [5], [6], [7]]
    csr = g.to_csr()
    assert np.asarray(csr.weights).shape == (4, 1)
    assert np.asarray(csr.weights).dtype == np.int32
    assert edge_dict(g) == {(0, 1): (4,), (1, 2): (5,), (2, 0): (6,), (2, 3): (7,)}


def test_unweighted_graph():
    g = dyng.Graph.from_edges([0, 1], [1, 2])
    assert g.weighted is False
    assert g.num_weights == 0
    assert g.to_csr().weights is None


def test_multiple_weight_columns():
    w = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.int32)
    g = dyng.Graph.from_edges([0, 1], [1, 0], w)
    assert g.num_weights == 3
    assert np.asarray(g.to_csr().weights).tolist() == [[1, 2, 3], [4, 5, 6]]
    assert g.properties.num_weights == 3


def test_non_positive_weights_accepted_at_construction():
    g = dyng.Graph.from_edges([0, 1], [1, 2], [0, -3])
    assert sorted(edge_dict(g).values()) == [(-3,), (0,)]


def test_duplicates_merge_last_weight_wins():
    # Observed in 0.2.0: weights 5 then 7 on one pair -> one edge of weight 7.
    g = dyng.Graph.from_edges([0, 0], [1, 1], [5, 7])
    assert g.num_edges == 1
    assert edge_dict(g) == {(0, 1): (7,)}


def test_duplicates_keep_first_position_in_append_order():
    g = dyng.Graph.from_edges([0, 0, 0, 0], [3, 1, 3, 2], [1, 2, 9, 4], row_order="append")
    row_ptr, col, w = csr_lists(g)
    assert col == [3, 1, 2]
    assert w == [[9], [2], [4]]


def test_sorted_order_sorts_rows():
    g = dyng.Graph.from_edges([0, 0, 0], [3, 1, 2], [1, 2, 3])
    assert csr_lists(g)[1] == [1, 2, 3]


def test_multi_edges_allow_keeps_both():
    g = dyng.Graph.from_edges([0, 0], [1, 1], [5, 7], multi_edges="allow")
    assert g.num_edges == 2
    row_ptr, col, w = csr_lists(g)
    assert col == [1, 1]
    assert sorted(w) == [[5], [7]]


def test_undirected_stores_both_directions():
    g = dyng.Graph.from_edges([0, 1, 2], [1, 2, 2], [3, 4, 5], directed=False)
    assert g.directed is False
    # Two ordinary edges stored twice each, the self-loop once.
    assert g.num_edges == 5
    assert edge_dict(g) == {(0, 1): (3,), (1, 0): (3,), (1, 2): (4,), (2, 1): (4,), (2, 2): (5,)}


def test_self_loops_kept_at_construction():
    g = dyng.Graph.from_edges([1, 0], [1, 1], [2, 3])
    assert (1, 1) in edge_dict(g)


def test_ids_outside_range_rejected():
    with pytest.raises(dyng.InvalidArgumentError, match="7"):
        dyng.Graph.from_edges([0, 7], [1, 1], [1, 1], num_vertices=3)


def test_store_transposed_false():
    g = simple_graph(store_transposed=False)
    assert g.has_transposed is False
    assert g.properties.store_transposed is False


def test_properties_is_a_copy():
    g = simple_graph()
    props = g.properties
    try:
        props.directed = False
    except dataclasses.FrozenInstanceError:
        return  # immutable properties cannot leak changes back either
    assert g.properties.directed is True
    assert g.directed is True


def test_graph_properties_defaults():
    p = dyng.GraphProperties()
    assert p.directed is True
    assert p.store_transposed is True
    assert p.num_weights == 1
    assert p.layout == "compact"
    assert p.headroom == pytest.approx(0.125)
    assert p.order == "sorted"
    assert p.parallel_edges == "forbid"
    assert p.semantics == dyng.BatchSemantics()
    assert p.semantics == dyng.BatchSemantics.upsert_last_wins()


PRESETS = {
    "default": ("sorted", "forbid", dyng.BatchSemantics.upsert_last_wins()),
    "mosp_compatible": ("append", "allow", dyng.BatchSemantics.upsert_last_wins()),
    "cycle_enum_compatible": ("sorted", "forbid", dyng.BatchSemantics.set()),
}


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_presets(name):
    order, parallel, semantics = PRESETS[name]
    for p in (dyng.GraphProperties.preset(name), getattr(dyng.GraphProperties, name)()):
        assert (p.order, p.parallel_edges, p.semantics) == (order, parallel, semantics)
    g = simple_graph(properties=name)
    assert (g.properties.order, g.properties.parallel_edges) == (order, parallel)
    assert g.properties.semantics == semantics


def test_cycle_enum_preset_is_unweighted():
    assert dyng.GraphProperties.preset("cycle_enum_compatible").num_weights == 0


def test_unknown_preset_rejected():
    with pytest.raises(dyng.InvalidArgumentError, match="no_such_preset"):
        dyng.GraphProperties.preset("no_such_preset")


@pytest.mark.parametrize("layout", ["slotted", "slack"])
def test_unimplemented_layouts(layout):
    with pytest.raises(dyng.NotSupportedError):
        simple_graph(layout=layout)
    with pytest.raises(dyng.NotSupportedError):
        simple_graph(properties=dyng.GraphProperties(layout=layout))


def test_semantics_keyword_accepts_names_and_objects():
    assert simple_graph(semantics="set").properties.semantics == dyng.BatchSemantics.set()
    assert (
        simple_graph(semantics="upsert_last_wins").properties.semantics
        == dyng.BatchSemantics.upsert_last_wins()
    )
    custom = dyng.BatchSemantics(on_missing_delete="error")
    assert simple_graph(semantics=custom).properties.semantics == custom


def test_batch_semantics_fields():
    s = dyng.BatchSemantics()
    assert (s.on_existing_insert, s.on_missing_delete, s.on_self_loop) == (
        "upsert",
        "ignore",
        "keep",
    )
    assert (s.deletions_first, s.allow_vertex_growth, s.as_sets) == (True, True, False)
    t = dyng.BatchSemantics.set()
    assert (t.on_existing_insert, t.on_missing_delete, t.on_self_loop) == (
        "ignore",
        "ignore",
        "drop",
    )
    assert (t.deletions_first, t.allow_vertex_growth, t.as_sets) == (True, True, True)


def test_version_counts_applied_batches():
    g = simple_graph()
    for expected in (1, 2, 3):
        g.apply(dyng.EdgeBatch(insert=([0], [3], [1])))
        assert g.version == expected


@pytest.mark.parametrize(
    "kw, vdt, edt",
    [
        ({}, np.int32, np.int32),
        ({"edge_dtype": "int64"}, np.int32, np.int64),
        ({"vertex_dtype": "int64"}, np.int64, np.int64),
    ],
)
def test_compiled_weighted_type_combos(kw, vdt, edt):
    g = simple_graph(**kw)
    assert (np.dtype(g.vertex_dtype), np.dtype(g.edge_dtype)) == (np.dtype(vdt), np.dtype(edt))
    csr = g.to_csr()
    assert np.asarray(csr.row_ptr).dtype == edt
    assert np.asarray(csr.col_ind).dtype == vdt
    src, dst, _ = g.edges()
    assert np.asarray(src).dtype == vdt and np.asarray(dst).dtype == vdt
    assert edge_dict(g) == edge_dict(simple_graph())


@pytest.mark.parametrize("kw", [{}, {"edge_dtype": "int64"}])
def test_compiled_unweighted_type_combos(kw):
    g = dyng.Graph.from_edges([0, 1], [1, 2], **kw)
    assert g.weighted is False


@pytest.mark.parametrize(
    "kw",
    [
        {"vertex_dtype": "int64"},
        {"vertex_dtype": "int64", "edge_dtype": "int64"},
    ],
)
def test_unweighted_int64_ids_not_supported(kw):
    with pytest.raises(dyng.NotSupportedError):
        dyng.Graph.from_edges([0, 1], [1, 2], **kw)


def test_int64_ids_with_int32_offsets_not_supported():
    with pytest.raises(dyng.NotSupportedError):
        simple_graph(vertex_dtype="int64", edge_dtype="int32")


@pytest.mark.parametrize(
    "dtype, expected",
    [
        (np.int8, np.int32),
        (np.int16, np.int32),
        (np.int32, np.int32),
        (np.uint8, np.int32),
        (np.uint16, np.int32),
        (np.uint32, np.int64),
        (np.int64, np.int64),
    ],
)
def test_vertex_dtype_inference(dtype, expected):
    g = dyng.Graph.from_edges(np.array([0, 1], dtype=dtype), np.array([1, 2], dtype=dtype), [1, 1])
    assert np.dtype(g.vertex_dtype) == np.dtype(expected)
    assert edge_dict(g) == {(0, 1): (1,), (1, 2): (1,)}


def test_int64_ids_use_int64_offsets():
    g = dyng.Graph.from_edges(np.array([0], np.int64), np.array([1], np.int64), [1])
    assert np.dtype(g.edge_dtype) == np.int64


def test_int64_narrowed_only_on_request():
    src, dst = np.array([0, 1], np.int64), np.array([1, 2], np.int64)
    g = dyng.Graph.from_edges(src, dst, [1, 1], vertex_dtype="int32")
    assert np.dtype(g.vertex_dtype) == np.int32


def test_python_lists_give_int32():
    g = dyng.Graph.from_edges([0, 1], [1, 2], [1, 1])
    assert np.dtype(g.vertex_dtype) == np.int32


def test_clone_is_independent():
    g = simple_graph()
    for other in (g.clone(), copy.copy(g), copy.deepcopy(g)):
        assert isinstance(other, dyng.Graph)
        assert csr_lists(other) == csr_lists(g)
        other.apply(dyng.EdgeBatch(insert=([3], [0], [9]), delete=([0], [1])))
        assert other.version == 1
        assert g.version == 0
        assert edge_dict(g) == {(0, 1): (4,), (1, 2): (5,), (2, 0): (6,), (2, 3): (7,)}


def test_clone_with_resources():
    g = simple_graph(resources=dyng.Resources.sequential())
    c = g.clone(resources=dyng.Resources.sequential())
    assert c.resources.backend == "sequential"
    assert csr_lists(c) == csr_lists(g)


def test_to_backend_keeps_content():
    g = simple_graph()
    h = g.to_backend(dyng.Resources.sequential())
    assert h.resources.backend == "sequential"
    assert csr_lists(h) == csr_lists(g)


def test_pickling_raises_type_error():
    with pytest.raises(TypeError):
        pickle.dumps(simple_graph())


def test_reserve_and_check_integrity_keep_content():
    g = simple_graph()
    before = csr_lists(g)
    g.reserve(1000)
    g.check_integrity()
    assert csr_lists(g) == before
    assert g.version == 0


def test_from_csr_round_trip_and_offset_dtype():
    g = simple_graph()
    csr = g.to_csr()
    h = dyng.Graph.from_csr(csr.row_ptr, csr.col_ind, csr.weights)
    assert csr_lists(h) == csr_lists(g)
    wide = dyng.Graph.from_csr(np.asarray(csr.row_ptr).astype(np.int64), csr.col_ind, csr.weights)
    assert np.dtype(wide.edge_dtype) == np.int64
    assert csr_lists(wide)[1:] == csr_lists(g)[1:]


def test_from_csr_undirected_must_be_symmetric():
    row_ptr, col, w = [0, 1, 1], [1], [1]
    with pytest.raises(dyng.InvalidArgumentError):
        dyng.Graph.from_csr(np.array(row_ptr), np.array(col), np.array(w), directed=False)
    sym = dyng.Graph.from_csr(
        np.array([0, 1, 2]), np.array([1, 0]), np.array([1, 1]), directed=False
    )
    assert sym.num_edges == 2 and sym.directed is False


@given(graphs(max_vertices=12, max_edges=40))
def test_edges_round_trip_matches_model(rg):
    for directed in (True, False):
        g = rg.to_graph(directed=directed)
        model = rg.model(directed=directed)
        assert g.num_vertices == model.num_vertices
        assert g.num_edges == model.num_edges
        assert edge_dict(g) == model.edges
        src, dst, w = g.edges()
        again = dyng.Graph.from_edges(src, dst, w, num_vertices=g.num_vertices)
        assert csr_lists(again) == csr_lists(g)
        g.check_integrity()


@given(graphs(max_vertices=10, max_edges=30, weighted=False))
def test_unweighted_round_trip(rg):
    g = rg.to_graph()
    assert edge_dict(g) == GraphModel(rg.num_vertices, rg.src, rg.dst).edges


# The graph's semantics govern its first edges too (issue 11, item 10; 0.2.0 observed): under
# on_self_loop='drop' (and the 'set' preset) construction drops self-loops, under 'error' it
# refuses them; num_vertices still counts their ids.
@pytest.mark.parametrize("build", ["edges", "csr", "undirected"])
@pytest.mark.parametrize("semantics", ["set", "drop"])
def test_construction_drops_self_loops_when_the_semantics_do(build, semantics):
    sem = "set" if semantics == "set" else dyng.BatchSemantics(on_self_loop="drop")
    if build == "csr":
        g = dyng.Graph.from_csr([0, 1, 3, 3], [1, 1, 2], [1, 2, 3], semantics=sem)
    else:
        g = dyng.Graph.from_edges(
            [0, 1, 1], [1, 1, 2], [1, 2, 3], semantics=sem, directed=build != "undirected"
        )
    src, dst, w = g.edges()
    assert all(u != v for u, v in zip(src.tolist(), dst.tolist()))
    assert g.num_edges == (2 if build != "undirected" else 4)
    assert sorted(w.ravel().tolist()) == ([1, 3] if build != "undirected" else [1, 1, 3, 3])
    assert dyng.Graph.from_edges([0, 5], [1, 5], [1, 2], semantics=sem).num_vertices == 6


@pytest.mark.parametrize("build", ["edges", "csr"])
def test_construction_refuses_self_loops_under_error(build):
    sem = dyng.BatchSemantics(on_self_loop="error")
    with pytest.raises(dyng.InvalidArgumentError, match=r"edge 1 is a self-loop \(1, 1\)"):
        if build == "csr":
            dyng.Graph.from_csr([0, 1, 3, 3], [1, 1, 2], [1, 2, 3], semantics=sem)
        else:
            dyng.Graph.from_edges([0, 1, 1], [1, 1, 2], [1, 2, 3], semantics=sem)
    kept = dyng.Graph.from_edges([0, 1, 1], [1, 1, 2], [1, 2, 3])
    assert kept.num_edges == 3  # the default, on_self_loop='keep', keeps them


# Unusual id dtypes (issue 11, item 11; 0.2.0 observed): byte order does not change the id type;
# uint64 batch ids are cast to the graph's type with a range check; uint64 row_ptr and empty
# float batch arrays (np.array([]) is float64) are accepted.
@pytest.mark.parametrize("order", [">i4", "<i4", ">i8"])
def test_byte_order_keeps_the_id_type(order):
    g = dyng.Graph.from_edges(np.array([0, 1], order), np.array([1, 2], order), [1, 1])
    assert g.vertex_dtype == np.dtype(order).newbyteorder("=")
    assert edge_dict(g) == {(0, 1): (1,), (1, 2): (1,)}


# Plain 1-d native int32/int64 arrays take a short path (a copy and the sign check); strided
# views and other byte orders take the general one: both give the same edges and errors.
@pytest.mark.parametrize("dtype", [np.int32, np.int64, ">i4", ">i8"])
def test_batch_ids_of_every_layout_read_alike(dtype):
    g = dyng.Graph.from_edges(np.array([0, 1], np.int32), np.array([1, 2], np.int32), [1, 1])
    every_other = np.array([0, 9, 2, 9], dtype)[::2]  # a strided view: ids 0 and 2
    g.apply(dyng.EdgeBatch(insert=(every_other, np.array([2, 0], dtype), [5, 6])))
    assert edge_dict(g) == {(0, 1): (1,), (0, 2): (5,), (1, 2): (1,), (2, 0): (6,)}
    bad = np.array([0, -3], dtype)
    with pytest.raises(dyng.InvalidArgumentError, match=r"insert_src\[1\] = -3"):
        g.apply(dyng.EdgeBatch(insert=(bad, np.array([1, 1], dtype))))


def test_uint64_batch_ids_are_cast_to_the_graph_type():
    g = dyng.Graph.from_edges(np.array([0, 1], np.int32), np.array([1, 2], np.int32), [1, 1])
    summary = g.apply(
        dyng.EdgeBatch(
            insert=(np.array([0], np.uint64), np.array([2], np.uint64), [4]),
            delete=(np.array([0], np.uint64), np.array([1], np.uint64)),
        )
    )
    assert (summary.inserted_edges, summary.deleted_edges) == (1, 1)
    assert edge_dict(g) == {(0, 2): (4,), (1, 2): (1,)}
    assert g.vertex_dtype == np.int32


def test_uint64_row_ptr_is_accepted():
    g = dyng.Graph.from_csr(np.array([0, 1, 2, 2], np.uint64), np.array([1, 2], np.int32), [3, 4])
    assert g.edge_dtype == np.int64
    assert edge_dict(g) == {(0, 1): (3,), (1, 2): (4,)}


def test_empty_float_batch_arrays_are_an_empty_batch():
    g = dyng.Graph.from_edges([0, 1], [1, 2], [1, 1])
    empty = np.array([])
    summary = g.apply(dyng.EdgeBatch(insert=(empty, empty, empty), delete=(empty, empty)))
    assert summary.inserted_edges == summary.deleted_edges == 0
    assert g.version == 1 and g.num_edges == 2

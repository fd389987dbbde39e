"""Bad inputs raise the spec's error class with a message naming the bad value, and leave the
graph (content, version) and any result (distances, parents, graph_version) exactly as they were.
Unusual but valid inputs (strided, read-only, lists, narrow dtypes, DLPack, buffers) must work."""

import array

import numpy as np
import pytest
from _helpers import edge_dict, graph_state, result_state

import dyng
from dyng import sssp

SRC, DST, W = [0, 0, 1, 2, 3], [1, 2, 3, 3, 4], [2, 1, 1, 2, 1]


def make(**kw):
    return dyng.Graph.from_edges(
        np.array(SRC, np.int32), np.array(DST, np.int32), np.array(W, np.int32), **kw
    )


@pytest.fixture
def setup(resources):
    g = make()
    r = sssp.compute(g, 0, resources=resources)
    return g, r, resources


def i32(*values):
    return np.array(values, dtype=np.int32)


# Each case: (id, batch factory, error class, substrings the message must contain)
BAD_BATCHES = [
    (
        "negative_insert_id",
        lambda: dyng.EdgeBatch(insert=(i32(0, -5), i32(1, 2), i32(1, 1))),
        dyng.InvalidArgumentError,
        ["-5"],
    ),
    (
        "negative_delete_id",
        lambda: dyng.EdgeBatch(delete=(i32(0), i32(-6))),
        dyng.InvalidArgumentError,
        ["-6"],
    ),
    (
        "id_beyond_int32",
        lambda: dyng.EdgeBatch(insert=(np.array([0, 2**31 + 5], np.int64), i32(1, 2), i32(1, 1))),
        dyng.InvalidArgumentError,
        ["2147483653"],
    ),
    (
        "float_ids",
        lambda: dyng.EdgeBatch(insert=(np.array([0.0]), i32(1), i32(1))),
        dyng.InvalidArgumentError,
        ["float"],
    ),
    (
        "bool_ids",
        lambda: dyng.EdgeBatch(insert=(np.array([True]), i32(1), i32(1))),
        dyng.InvalidArgumentError,
        ["bool"],
    ),
    # uint64 batch ids are cast to the graph's id type with a range check (0.2.0 does the same).
    (
        "uint64_id_beyond_int32",
        lambda: dyng.EdgeBatch(insert=(np.array([0, 2**31 + 7], np.uint64), i32(1, 2), i32(1, 1))),
        dyng.InvalidArgumentError,
        ["2147483655"],
    ),
    (
        "uint64_id_beyond_int64",
        lambda: dyng.EdgeBatch(insert=(i32(0), np.array([2**63 + 1], np.uint64), i32(1))),
        dyng.InvalidArgumentError,
        ["9223372036854775809"],
    ),
    (
        "weight_zero",
        lambda: dyng.EdgeBatch(insert=(i32(0, 4), i32(4, 0), i32(1, 0))),
        dyng.InvalidArgumentError,
        [],
    ),
    (
        "weight_negative",
        lambda: dyng.EdgeBatch(insert=(i32(0, 4), i32(4, 0), i32(1, -7))),
        dyng.InvalidArgumentError,
        ["-7"],
    ),
    (
        "weight_beyond_int32",
        lambda: dyng.EdgeBatch(insert=(i32(0), i32(4), np.array([2**31], np.int64))),
        dyng.InvalidArgumentError,
        ["2147483648"],
    ),
    (
        "float_weights",
        lambda: dyng.EdgeBatch(insert=(i32(0), i32(4), np.array([1.5]))),
        dyng.InvalidArgumentError,
        ["float"],
    ),
    (
        "wrong_k",
        lambda: dyng.EdgeBatch(insert=(i32(0), i32(4), np.array([[1, 2, 3]], np.int32))),
        dyng.InvalidArgumentError,
        ["3"],
    ),
    (
        "missing_weights",
        lambda: dyng.EdgeBatch(insert=(i32(0), i32(4))),
        dyng.InvalidArgumentError,
        [],
    ),
    (
        "insert_lengths",
        lambda: dyng.EdgeBatch(
            insert=(i32(0, 1, 2, 3, 0, 1, 2), i32(1, 2, 3, 4, 4), i32(1, 1, 1, 1, 1, 1, 1))
        ),
        dyng.InvalidArgumentError,
        ["7", "5"],
    ),
    (
        "weight_length",
        lambda: dyng.EdgeBatch(insert=(i32(0, 1, 2), i32(4, 4, 4), i32(1, 1, 1, 1, 1))),
        dyng.InvalidArgumentError,
        ["3", "5"],
    ),
    (
        "delete_lengths",
        lambda: dyng.EdgeBatch(delete=(i32(0, 1, 2, 3, 0, 1), i32(1, 3, 3, 4))),
        dyng.InvalidArgumentError,
        ["6", "4"],
    ),
]


def check_message(info, needles):
    message = str(info.value)
    for needle in needles:
        assert needle in message, f"message {message!r} does not name {needle!r}"


@pytest.mark.parametrize("case", BAD_BATCHES, ids=[c[0] for c in BAD_BATCHES])
def test_bad_batch_in_update_changes_nothing(case, setup):
    _, make_batch, error, needles = case
    g, r, res = setup
    g_before, r_before = graph_state(g), result_state(r)
    with pytest.raises(error) as info:
        sssp.update(g, make_batch(), r, resources=res)
    check_message(info, needles)
    assert graph_state(g) == g_before
    assert result_state(r) == r_before
    # The result is still current and usable afterwards.
    sssp.update(g, dyng.EdgeBatch(insert=(i32(4), i32(0), i32(1))), r, resources=res)
    assert result_state(r)[2:] == result_state(sssp.compute(g, 0, resources=res))[2:]


@pytest.mark.parametrize(
    "case",
    [
        c
        for c in BAD_BATCHES
        if not c[0].startswith("weight_") or c[0] in ("weight_beyond_int32", "weight_length")
    ],
    ids=lambda c: c[0],
)
def test_bad_batch_in_graph_apply_changes_nothing(case):
    # Weights < 1 are only an sssp restriction; apply() itself takes them (tested below).
    _, make_batch, error, needles = case
    g = make()
    before = graph_state(g)
    with pytest.raises(error) as info:
        g.apply(make_batch())
    check_message(info, needles)
    assert graph_state(g) == before


def test_graph_apply_accepts_non_positive_weights():
    g = make()
    g.apply(dyng.EdgeBatch(insert=(i32(0, 4), i32(4, 0), i32(0, -7))))
    assert edge_dict(g)[(0, 4)] == (0,) and edge_dict(g)[(4, 0)] == (-7,)


def test_module_update_bad_batch_changes_nothing(setup):
    g, r, res = setup
    r2 = sssp.compute(g, 3, resources=res)
    before = graph_state(g), result_state(r), result_state(r2)
    with pytest.raises(dyng.InvalidArgumentError):
        dyng.update(g, dyng.EdgeBatch(insert=(i32(0, 1), i32(4, 4), i32(1, 0))), r, r2)
    assert (graph_state(g), result_state(r), result_state(r2)) == before


def test_weight_check_uses_result_objective():
    # Column 1 holds the bad weight; a result on column 0 must not care, one on column 1 must.
    w = np.array([[1, 1], [1, 1], [1, 1], [1, 1], [1, 1]], np.int32)
    g = dyng.Graph.from_edges(i32(*SRC), i32(*DST), w)
    r1 = sssp.compute(g, 0, objective=1)
    before = graph_state(g), result_state(r1)
    bad = dyng.EdgeBatch(insert=(i32(4), i32(0), np.array([[3, 0]], np.int32)))
    with pytest.raises(dyng.InvalidArgumentError):
        sssp.update(g, bad, r1)
    assert (graph_state(g), result_state(r1)) == before
    r0 = sssp.compute(g, 0, objective=0)
    sssp.update(g, bad, r0)
    assert g.version == 1


# --- compute-time checks ---------------------------------------------------------------------


@pytest.mark.parametrize("source", [17, 5, -1])
def test_source_out_of_range(source, resources):
    g = make()
    with pytest.raises(dyng.InvalidArgumentError) as info:
        sssp.compute(g, source, resources=resources)
    check_message(info, [str(source)])


@pytest.mark.parametrize("bad", [0, -4])
def test_weights_below_one_rejected_at_compute(bad, resources):
    g = dyng.Graph.from_edges(i32(*SRC), i32(*DST), i32(2, 1, bad, 2, 1))
    with pytest.raises(dyng.InvalidArgumentError) as info:
        sssp.compute(g, 0, resources=resources)
    check_message(info, [str(bad)])


def test_unweighted_graph_not_supported(resources):
    g = dyng.Graph.from_edges(i32(*SRC), i32(*DST))
    with pytest.raises(dyng.NotSupportedError):
        sssp.compute(g, 0, resources=resources)


@pytest.mark.parametrize("directed", [True, False])
def test_graph_without_in_edges_rejected(directed):
    # InvalidArgumentError as in 0.2 (it was NotSupportedError), undirected graphs included.
    g = make(store_transposed=False, directed=directed)
    with pytest.raises(dyng.InvalidArgumentError, match="store_transposed=True"):
        sssp.compute(g, 0)
    with pytest.raises(dyng.InvalidArgumentError, match="store_transposed=True"):
        sssp.Result.from_arrays(g, 0, [0] * g.num_vertices, [-1] * g.num_vertices)


def test_growing_int32_ids_past_their_range_is_an_argument_error():
    # 0.2 raises InvalidArgumentError (this raised CapacityError): id 2**31 - 1 needs 2**31
    # vertices, which int32 ids cannot number.
    g = make()
    before = graph_state(g)
    big = 2**31 - 1
    batch = dyng.EdgeBatch(insert=(np.array([0], np.int64), np.array([big], np.int64), [1]))
    with pytest.raises(dyng.InvalidArgumentError, match=str(big)) as info:
        g.apply(batch)
    assert not isinstance(info.value, dyng.CapacityError)
    assert graph_state(g) == before


def test_objective_out_of_range():
    with pytest.raises(dyng.InvalidArgumentError):
        sssp.compute(make(), 0, objective=3)


# --- stale results ---------------------------------------------------------------------------


def test_stale_result_graph_moved_on(setup):
    g, r, res = setup
    # Bring the result to version 2, then move the graph alone to version 5.
    for _ in range(2):
        sssp.update(g, dyng.EdgeBatch(insert=(i32(4), i32(0), i32(3))), r, resources=res)
    for _ in range(3):
        g.apply(dyng.EdgeBatch(insert=(i32(4), i32(1), i32(3))))
    g_before, r_before = graph_state(g), result_state(r)
    assert (r.graph_version, g.version) == (2, 5)
    with pytest.raises(dyng.StaleResultError) as info:
        sssp.update(g, dyng.EdgeBatch(delete=(i32(0), i32(1))), r, resources=res)
    check_message(info, ["2", "5"])
    assert graph_state(g) == g_before
    assert result_state(r) == r_before


def test_stale_result_of_another_graph(setup):
    g, r, res = setup
    other = make()
    before = graph_state(other), result_state(r)
    with pytest.raises(dyng.StaleResultError):
        sssp.update(other, dyng.EdgeBatch(delete=(i32(0), i32(1))), r, resources=res)
    assert (graph_state(other), result_state(r)) == before


def test_stale_result_in_module_update_changes_nothing(setup):
    g, r, res = setup
    fresh = sssp.compute(g, 1, resources=res)
    g.apply(dyng.EdgeBatch(insert=(i32(4), i32(1), i32(3))))
    current = sssp.compute(g, 2, resources=res)
    before = graph_state(g), result_state(r), result_state(fresh), result_state(current)
    with pytest.raises(dyng.StaleResultError):
        dyng.update(g, dyng.EdgeBatch(delete=(i32(0), i32(1))), current, r)
    assert (graph_state(g), result_state(r), result_state(fresh), result_state(current)) == before


# --- bad construction ------------------------------------------------------------------------

BAD_GRAPHS = [
    (
        "negative_id",
        lambda: dyng.Graph.from_edges(i32(0, -3), i32(1, 1), i32(1, 1)),
        dyng.InvalidArgumentError,
        ["-3"],
    ),
    (
        "id_ge_num_vertices",
        lambda: dyng.Graph.from_edges(i32(0, 9), i32(1, 1), i32(1, 1), num_vertices=4),
        dyng.InvalidArgumentError,
        ["9"],
    ),
    (
        "float_ids",
        lambda: dyng.Graph.from_edges(np.array([0.0, 1.0]), i32(1, 2), i32(1, 1)),
        dyng.InvalidArgumentError,
        ["float"],
    ),
    (
        "bool_ids",
        lambda: dyng.Graph.from_edges(np.array([False, True]), i32(1, 2), i32(1, 1)),
        dyng.InvalidArgumentError,
        ["bool"],
    ),
    (
        "uint64_ids",
        lambda: dyng.Graph.from_edges(np.array([0, 1], np.uint64), np.array([1, 2], np.uint64)),
        dyng.NotSupportedError,
        ["uint64"],
    ),
    (
        "narrowing_overflow",
        lambda: dyng.Graph.from_edges(
            np.array([0, 2**31 + 5], np.int64),
            np.array([1, 1], np.int64),
            i32(1, 1),
            vertex_dtype="int32",
        ),
        dyng.InvalidArgumentError,
        ["2147483653"],
    ),
    (
        "weight_beyond_int32",
        lambda: dyng.Graph.from_edges(i32(0), i32(1), np.array([2**31 + 7], np.int64)),
        dyng.InvalidArgumentError,
        ["2147483655"],
    ),
    (
        "float_weights",
        lambda: dyng.Graph.from_edges(i32(0), i32(1), np.array([2.5])),
        dyng.InvalidArgumentError,
        ["float"],
    ),
    (
        "lengths",
        lambda: dyng.Graph.from_edges(i32(0, 1, 2, 3, 4, 5, 6), i32(1, 2, 3, 4, 5), None),
        dyng.InvalidArgumentError,
        ["7", "5"],
    ),
    (
        "weight_lengths",
        lambda: dyng.Graph.from_edges(i32(0, 1, 2), i32(1, 2, 3), i32(1, 1, 1, 1, 1, 1, 1, 1)),
        dyng.InvalidArgumentError,
        ["3", "8"],
    ),
]


@pytest.mark.parametrize("case", BAD_GRAPHS, ids=[c[0] for c in BAD_GRAPHS])
def test_bad_construction(case):
    _, build, error, needles = case
    with pytest.raises(error) as info:
        build()
    check_message(info, needles)


# --- inputs that must work -------------------------------------------------------------------


class DLPackOnly:
    """Exposes an array only through the DLPack protocol."""

    def __init__(self, arr):
        self._arr = arr

    def __dlpack__(self, **kw):
        return self._arr.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self._arr.__dlpack_device__()


def read_only(values, dtype=np.int32):
    arr = np.array(values, dtype=dtype)
    arr.setflags(write=False)
    return arr


def strided(values, dtype=np.int32):
    arr = np.zeros(2 * len(values), dtype=dtype)
    arr[::2] = values
    view = arr[::2]
    assert not view.flags.c_contiguous
    return view


INPUT_FORMS = {
    "list": lambda v, dt: list(v),
    "strided": strided,
    "read_only": read_only,
    "int8": lambda v, dt: (
        np.array(v, np.int8) if dt == np.int32 and max(v, default=0) < 128 else np.array(v, dt)
    ),
    "uint16": lambda v, dt: np.array(v, np.uint16) if dt == np.int32 else np.array(v, dt),
    "from_dlpack": lambda v, dt: np.from_dlpack(np.array(v, dt)),
    "dlpack_only": lambda v, dt: DLPackOnly(np.array(v, dt)),
    "buffer_array": lambda v, dt: array.array("i", v),
    "memoryview": lambda v, dt: memoryview(np.array(v, dt)),
    "reversed_view": lambda v, dt: np.array(v[::-1], dt)[::-1],
}


@pytest.mark.parametrize("form", sorted(INPUT_FORMS))
def test_input_forms_in_construction_and_batches(form, resources):
    conv = INPUT_FORMS[form]
    g = dyng.Graph.from_edges(conv(SRC, np.int32), conv(DST, np.int32), conv(W, np.int32))
    ref = make()
    assert edge_dict(g) == edge_dict(ref)
    r = sssp.compute(g, 0, resources=resources)
    r_ref = sssp.compute(ref, 0, resources=resources)
    batch_args = dict(insert=([4, 1, 0], [0, 4, 3], [1, 2, 1]), delete=([0, 2], [1, 3]))
    b = dyng.EdgeBatch(
        insert=tuple(conv(x, np.int32) for x in batch_args["insert"]),
        delete=tuple(conv(x, np.int32) for x in batch_args["delete"]),
    )
    s = sssp.update(g, b, r, resources=resources)
    s_ref = sssp.update(ref, dyng.EdgeBatch(**batch_args), r_ref, resources=resources)
    assert edge_dict(g) == edge_dict(ref)
    assert s.batch == s_ref.batch
    assert result_state(r) == result_state(r_ref)


def test_uint32_ids_give_int64_graph_that_works():
    g = dyng.Graph.from_edges(np.array(SRC, np.uint32), np.array(DST, np.uint32), np.array(W))
    assert np.dtype(g.vertex_dtype) == np.int64
    r = sssp.compute(g, 0)
    sssp.update(
        g, dyng.EdgeBatch(insert=(np.array([4], np.uint32), np.array([0], np.uint32), [1])), r
    )
    assert np.asarray(r.distances).tolist() == [0, 2, 1, 3, 4]


def test_strided_and_fortran_weight_columns():
    w2 = np.asfortranarray(np.array([[9, x] for x in W], np.int32))
    g = dyng.Graph.from_edges(SRC, DST, w2[:, 1])
    assert edge_dict(g) == edge_dict(make())
    gk = dyng.Graph.from_edges(SRC, DST, w2)
    assert gk.num_weights == 2
    assert np.asarray(gk.to_csr().weights)[:, 1].tolist() == W


def test_from_arrays_accepts_lists_and_strided():
    g = make()
    ref = sssp.compute(g, 0)
    d = np.asarray(ref.distances).tolist()
    p = strided(np.asarray(ref.parents).tolist(), np.int64)
    r = sssp.Result.from_arrays(g, 0, d, p)
    assert result_state(r) == result_state(ref)

"""Error messages name the public function and the argument the caller wrote (issue 11, item
14): never an internal class (GraphHandle, SsspState), never the wrong noun (row_ptr holds
offsets, not vertex ids)."""

import numpy as np
import pytest

import dyng
from dyng import sssp

INTERNAL_WORDS = ("Handle", "State", "_core", "native", "std::", "span")


def graph():
    return dyng.Graph.from_edges([0, 1], [1, 2], [1, 1])


# (id, call, error class, the function and argument the message must start with / contain)
CASES = [
    (
        "semantics_name",
        lambda: dyng.Graph.from_edges([0], [1], [1], semantics="strict"),
        dyng.InvalidArgumentError,
        "Graph.from_edges(): semantics='strict'",
    ),
    (
        "multi_edges",
        lambda: dyng.Graph.from_edges([0], [1], [1], multi_edges="x"),
        dyng.InvalidArgumentError,
        "Graph.from_edges(): multi_edges='x'",
    ),
    (
        "row_order",
        lambda: dyng.Graph.from_csr([0, 1], [0], [1], row_order="y"),
        dyng.InvalidArgumentError,
        "Graph.from_csr(): row_order='y'",
    ),
    (
        "properties_field",
        lambda: dyng.Graph.from_edges([0], [1], [1], properties=_bad_properties()),
        dyng.InvalidArgumentError,
        "Graph.from_edges(): properties.headroom=-1",
    ),
    (
        "row_ptr_float",
        lambda: dyng.Graph.from_csr([0.0, 1.0], [0]),
        dyng.InvalidArgumentError,
        "Graph.from_csr(): row_ptr has dtype float64; offsets",
    ),
    (
        "row_ptr_negative",
        lambda: dyng.Graph.from_csr([-1, 1], [0]),
        dyng.InvalidArgumentError,
        "Graph.from_csr(): row_ptr[0] = -1 is negative; offsets",
    ),
    (
        "row_ptr_2d",
        lambda: dyng.Graph.from_csr([[0, 1]], [0]),
        dyng.InvalidArgumentError,
        "Graph.from_csr(): row_ptr has shape (1, 2); offsets",
    ),
    (
        "row_ptr_ends",
        lambda: dyng.Graph.from_csr([0, 1, 5], [1, 0]),
        dyng.InvalidArgumentError,
        "Graph.from_csr(): row_ptr starts at 0 and ends at 5",
    ),
    (
        "row_ptr_too_big",
        lambda: dyng.Graph.from_csr(np.array([0, 2**63], np.uint64), [0]),
        dyng.InvalidArgumentError,
        "Graph.from_csr(): row_ptr",
    ),
    (
        "col_ind",
        lambda: dyng.Graph.from_csr([0, 1, 2], [1, 7]),
        dyng.InvalidArgumentError,
        "Graph.from_csr(): col_ind[1] = 7",
    ),
    (
        "apply_k",
        lambda: graph().apply(dyng.EdgeBatch(insert=([0], [1], [[1, 2]]))),
        dyng.InvalidArgumentError,
        "Graph.apply(): the batch inserts edges with 2 weight(s)",
    ),
    (
        "apply_growth",
        lambda: graph().apply(dyng.EdgeBatch(insert=([0], [2**31 - 1], [1]))),
        dyng.InvalidArgumentError,
        "Graph.apply(): insertion id 2147483647",
    ),
    (
        "compute_source",
        lambda: sssp.compute(graph(), 9),
        dyng.InvalidArgumentError,
        "sssp.compute(): source 9",
    ),
    (
        "update_weight",
        lambda: _update(dyng.EdgeBatch(insert=([0], [2], [0]))),
        dyng.InvalidArgumentError,
        "sssp.update(): insertion 0 (0, 2) has weight 0",
    ),
    # A weight that only mosp reads (objective column 1) is mosp's fault to report, also when an
    # sssp result on objective 0 shares the call.
    (
        "mosp_update_weight",
        lambda: _update_two(dyng.EdgeBatch(insert=([0], [2], [[1, 0]])), with_sssp=False),
        dyng.InvalidArgumentError,
        "mosp.update(): insertion 0 (0, 2) has weight 0 in objective column 1; mosp needs",
    ),
    (
        "dyng_update_mosp_weight",
        lambda: _update_two(dyng.EdgeBatch(insert=([0], [2], [[1, 0]]))),
        dyng.InvalidArgumentError,
        "mosp.update(): insertion 0 (0, 2) has weight 0 in objective column 1; mosp needs",
    ),
]


def _bad_properties():
    p = dyng.GraphProperties()
    p.headroom = -1
    return p


def _update(batch):
    g = graph()
    return sssp.update(g, batch, sssp.compute(g, 0))


def _update_two(batch, with_sssp=True):
    g = dyng.Graph.from_edges([0, 1], [1, 2], [[1, 1], [1, 1]])
    results = [sssp.compute(g, 0)] if with_sssp else []
    return dyng.update(g, batch, *results, dyng.mosp.compute(g, 0))


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_message_names_the_public_call(case):
    _, call, error, expected = case
    with pytest.raises(error) as info:
        call()
    message = str(info.value)
    assert expected in message, message
    assert not any(word in message for word in INTERNAL_WORDS), message
    if "row_ptr" in expected:
        assert "vertex ids" not in message, message


@pytest.mark.parametrize(
    "entry, args",
    [
        ("from_edges", lambda i64: ("int32", "int32", 3, i64, i64, np.ones(1, np.int32))),
        ("from_csr", lambda i64: (np.zeros(1, np.float64), i64, np.ones(1, np.int32))),
    ],
)
def test_native_checks_name_the_public_function(entry, args):
    """The native layer's own dtype checks back up the Python ones; if they ever fire, they
    still speak of Graph.from_edges / Graph.from_csr. The active native module is asked (with a
    CUDA plugin installed that is the plugin's, and dyng._core then never received the error
    classes, so its errors would be builtins)."""
    native = dyng._backend.native()
    props = dyng.GraphProperties()._to_native(native, 1)
    with pytest.raises(dyng.Error) as info:
        getattr(native.GraphHandle, entry)(*args(np.zeros(1, np.int64)), props)
    assert str(info.value).startswith(f"Graph.{entry}()"), str(info.value)

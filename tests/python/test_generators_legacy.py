"""dyng.generators.legacy against batches that dyng 0.2.0 produced.

tests/data/generators/legacy_cases.npz holds, for ten graphs (directed and undirected, K = 0..4,
sorted and append rows, parallel edges, int32 and int64 ids), the output of 0.2.0's
mosp_changes (every mode, with and without safe_deletions and local_hops, odd percentages and
weight ranges, other sources) and cycle_enum_batch (with and without locality windows) for
random seeds: ids, weights, order, dtypes and reports, or the error class a call raised.
make_legacy_cases.py next to it made them; these tests need only this dyng.
"""

from __future__ import annotations

import builtins
import json
import pathlib

import numpy as np
import pytest

import dyng
from dyng.generators import legacy

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "generators" / "legacy_cases.npz"
_LOADED = json.loads(str(np.load(DATA)["cases"]))
GRAPHS = {g["name"]: g for g in _LOADED["graphs"]}
CASES = _LOADED["cases"]
_REPORT_FIELDS = (
    "inserts",
    "reweights",
    "deletes",
    "requested_deletes",
    "safe_rounds",
    "safe",
    "centre",
    "local_hops",
    "region",
    "summary",
)


_GRAPH_CACHE: dict = {}


def _graph(name, _cache=_GRAPH_CACHE):
    if name not in _cache:
        g = GRAPHS[name]
        kw = dict(g["keywords"])
        props = kw.pop("properties")
        weights = None if g["weights"] is None else np.asarray(g["weights"], dtype=np.int32)
        _cache[name] = dyng.Graph.from_edges(
            np.asarray(g["src"]), np.asarray(g["dst"]), weights, properties=props, **kw
        )
    return _cache[name]


def _case_id(case):
    args = ",".join(f"{k}={v}" for k, v in case["args"].items())
    return f"{case['function']}-{case['graph']}-{args}"


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_graph_rows_are_the_ones_0_2_read(name):
    # Both generators walk the rows in to_csr() order: if this fails, so will the batches.
    csr = _graph(name).to_csr()
    row_ptr, col = GRAPHS[name]["csr"]
    assert csr.row_ptr.tolist() == row_ptr
    assert csr.col_ind.tolist() == col


def test_the_data_covers_what_it_claims():
    mosp = [c for c in CASES if c["function"] == "mosp_changes"]
    modes = {c["args"].get("mode", "uniform") for c in mosp}
    assert modes >= {"uniform", "targeted", "reweight", "increase"}
    assert any(
        c["args"].get("safe_deletions")
        and "error" not in c["expected"]
        and c["expected"]["report"]["deletes"] < c["expected"]["report"]["requested_deletes"]
        for c in mosp
    )
    assert any(c["args"].get("local_hops") and "error" not in c["expected"] for c in mosp)
    cycle = [c for c in CASES if c["function"] == "cycle_enum_batch"]
    assert any(
        c["args"].get("locality_window", -1) >= 0 and "error" not in c["expected"] for c in cycle
    )
    assert len(CASES) > 1000


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_same_batch_as_0_2(case):
    graph = _graph(case["graph"])
    function = getattr(legacy, case["function"])
    expected = case["expected"]
    if "error" in expected:
        error = getattr(dyng, expected["error"], None) or getattr(builtins, expected["error"])
        with pytest.raises(error):
            function(graph, **case["args"])
        return
    result = function(graph, **case["args"])
    batch, report = result if isinstance(result, tuple) else (result, None)
    assert batch.insert_src.tolist() == expected["insert_src"]
    assert batch.insert_dst.tolist() == expected["insert_dst"]
    assert batch.delete_src.tolist() == expected["delete_src"]
    assert batch.delete_dst.tolist() == expected["delete_dst"]
    weights = batch.insert_weights
    if expected["insert_weights"] is None:
        assert weights is None
    else:
        assert list(weights.shape) == expected["weights_shape"]
        assert weights.tolist() == expected["insert_weights"]
    assert [
        str(batch.insert_src.dtype),
        str(batch.delete_src.dtype),
        None if weights is None else str(weights.dtype),
    ] == expected["dtypes"]
    if report is not None:
        assert {f: getattr(report, f) for f in _REPORT_FIELDS} == expected["report"]

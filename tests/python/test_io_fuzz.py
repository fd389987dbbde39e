"""Fuzzing every reader of dyng.io: random bytes and mutated valid files either read (and the
result is well formed) or raise FileFormatError; never a crash, a hang or another exception.
(InvalidArgumentError is allowed where a well-formed file asks for more than int32 ids hold.)"""

from __future__ import annotations

import os

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import dyng.io as io  # noqa: E402
from dyng import FileFormatError, InvalidArgumentError  # noqa: E402

DATA = os.path.join(os.path.dirname(__file__), os.pardir, "data", "io")
SEEDS = {
    "edges": b"# c\n0 1 5\n1,2,7\n2\t0\t3 99\n",
    "mtx": b"%%MatrixMarket matrix coordinate integer symmetric\n% c\n3 3 2\n2 1 5\n3 2 6\n",
    "pattern": b"%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n3 1\n",
    "dgt": b"%dgt 1\n%batch 0\n-e 0 1\n+e 1 2 5\n%batch 1\n+e 2 0 1\n",
    "values": b"0 0\n1 5\n2 INF\n",
    "parents": b"0 -1\n1 0\n2 1\n",
}
# Bytes a mutation inserts: separators, signs, digits, comment marks, line ends, NUL.
ALPHABET = b" \t,\r\n-+0123456789#%eEINF\x00\xff"

READERS = [
    lambda p: io.read_edge_list_arrays(p),
    lambda p: io.read_edge_list_arrays(p, num_weights=1, duplicates="keep", threads=2),
    lambda p: io.read_edge_list_arrays(p, ids="as_is", symmetrize=True, vertex_dtype="int64"),
    lambda p: io.read_matrix_market_arrays(p),
    lambda p: io.read_matrix_market_arrays(p, weights="random", sort_and_dedupe=False),
    lambda p: io.read_batches(p),
    lambda p: io.read_distances(p, 3),
    lambda p: io.read_parents(p, 3),
    lambda p: io.read_legacy_batch(p, p, num_weights=1),
    lambda p: io.read_csr_triplet(p),
]


def _check(result):
    if isinstance(result, io.EdgeList):
        n = result.num_vertices
        assert len(result.src) == len(result.dst)
        if len(result.src):
            assert 0 <= result.src.min() and result.src.max() < n
            assert 0 <= result.dst.min() and result.dst.max() < n
        if result.weights is not None:
            assert result.weights.shape[0] == len(result.src)


def _run(tmp_path, data):
    p = str(tmp_path / "f")
    for suffix in ("", "RowPtr.txt", "ColInd.txt", "Values.txt"):
        with open(p + suffix, "wb") as f:
            f.write(data)
    for read in READERS:
        try:
            _check(read(p))
        except FileFormatError as e:
            assert e.path is not None and str(e)
            assert e.line is None or e.line >= 1
            assert e.column is None or e.column >= 1
        except InvalidArgumentError as e:
            assert "int64" in str(e)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=300))
def test_random_bytes(tmp_path, data):
    _run(tmp_path, data)


@st.composite
def mutated(draw):
    data = bytearray(SEEDS[draw(st.sampled_from(sorted(SEEDS)))])
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data)))
        action = draw(st.sampled_from(["insert", "delete", "replace"]))
        byte = draw(st.sampled_from(list(ALPHABET)))
        if action == "insert" or not data:
            data[at:at] = bytes([byte])
        elif action == "delete":
            del data[min(at, len(data) - 1)]
        else:
            data[min(at, len(data) - 1)] = byte
    return bytes(data)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutated())
def test_mutated_valid_files(tmp_path, data):
    _run(tmp_path, data)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(-3, 40), st.integers(-3, 40), st.integers(-9, 9)),
                max_size=40),
       st.sampled_from([" ", "\t", ",", ", "]))
def test_valid_edge_lists_match_a_model(tmp_path, rows, sep):
    # Well-formed files: compact ids, self-loop removal and last-wins merging as a model says.
    p = tmp_path / "g.txt"
    p.write_text("".join(f"{u}{sep}{v}{sep}{w}\n" for u, v, w in rows))
    e = io.read_edge_list_arrays(str(p), num_weights=1)
    kept = {}
    for u, v, w in rows:
        if u != v:
            kept[(u, v)] = w
    ids = sorted({x for pair in kept for x in pair})
    rank = {x: i for i, x in enumerate(ids)}
    want = sorted((rank[u], rank[v], w) for (u, v), w in kept.items())
    got = list(zip(e.src.tolist(), e.dst.tolist(), e.weights[:, 0].tolist()))
    assert got == want
    assert e.info.external_ids.tolist() == ids and e.num_vertices == len(ids)
    assert np.all(np.diff(e.src) >= 0)

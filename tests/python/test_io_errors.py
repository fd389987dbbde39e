"""dyng.io refuses malformed files with FileFormatError at the right line and column, bad
arguments with InvalidArgumentError, and leaves no partial file when a write fails."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import dyng
import dyng.io as io
from dyng import FileFormatError, InvalidArgumentError

DATA = os.path.join(os.path.dirname(__file__), os.pardir, "data", "io")
with open(os.path.join(DATA, "expected_errors.json")) as _f:
    ERRORS = json.load(_f)

READERS = {
    "edge_list": io.read_edge_list_arrays,
    "matrix_market": io.read_matrix_market_arrays,
    "batches": io.read_batches,
    "distances": io.read_distances,
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_on_the_line_0_2_names(tmp_path, name):
    case = ERRORS[name]
    path = str(tmp_path / (name + ".txt"))
    if case["content"] is not None:
        with open(path, "w") as f:
            f.write(case["content"])
    kw = dict(case["keywords"])
    args = [path] + ([kw.pop("num_vertices")] if "num_vertices" in kw else [])
    with pytest.raises(FileFormatError) as info:
        READERS[case["reader"]](*args, **kw)
    assert info.value.line == case["line"]
    assert info.value.path == path
    assert str(info.value).startswith(("read_",))
    assert isinstance(info.value, OSError)


def _error(tmp_path, text, reader=io.read_edge_list_arrays, **kw):
    p = tmp_path / "f.txt"
    p.write_bytes(text.encode() if isinstance(text, str) else text)
    with pytest.raises(FileFormatError) as info:
        reader(str(p), **kw)
    return info.value


@pytest.mark.parametrize(
    "text, kw, line, column, words",
    [
        ("0 1\n1 x\n", {}, 2, 3, "integer target vertex id, found 'x'"),
        ("0 1\n# c\n1 2 3 4\n", {}, 3, 7, "at most 3 fields"),
        ("0 1 5\n1 2\n", {"num_weights": 1}, 2, 4, "at least 3 fields"),
        ("0 1 5\n\n1 2 99999999999\n", {"num_weights": 1}, 3, 5, "weight 1 '99999999999'"),
        ("0 1 5 x\n", {"num_weights": 1}, 1, 7, "integer timestamp"),
        ("3 4\n1 2\n", {"ids": "as_is", "index_base": 2}, 2, 1, "below index_base 2"),
        ("1 99999999999999999999\n", {}, 1, 3, "integer target vertex id"),
    ],
)
def test_edge_list_error_positions(tmp_path, text, kw, line, column, words):
    e = _error(tmp_path, text, **kw)
    assert (e.line, e.column) == (line, column)
    assert words in str(e)
    assert f"f.txt:{line}:{column}: " in str(e)


def test_matrix_market_error_positions(tmp_path):
    mm = io.read_matrix_market_arrays
    e = _error(tmp_path, "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 3 5\n", mm)
    assert (e.line, e.column) == (3, 3) and "[1, 2]" in str(e)
    e = _error(tmp_path, "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2\n", mm)
    assert (e.line, e.column) == (3, 4) and "value" in str(e)
    e = _error(tmp_path, "%%MatrixMarket matrix coordinate pattern general\n2 2\n", mm)
    assert e.line == 2 and "entry count" in str(e)
    e = _error(tmp_path, "not a banner\n", mm)
    assert (e.line, e.column) == (1, 1)
    e = _error(tmp_path, "%%MatrixMarket matrix coordinate pattern antisymmetric\n", mm)
    assert (e.line, e.column) == (1, 42) and "unsupported symmetry 'antisymmetric'" in str(e)
    e = _error(tmp_path, "%%MatrixMarket matrix coordinate pattern general\n% only comments\n", mm)
    assert e.line == 3 and "size line" in str(e)
    e = _error(
        tmp_path,
        "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n",
        mm,
        weights="from_file",
    )
    assert e.line == 1 and "pattern" in str(e)
    e = _error(
        tmp_path, "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 5\n", num_weights=1
    )
    assert e.line == 1 and "read_matrix_market" in str(e)


def test_error_line_counts_across_blocks_and_threads(tmp_path):
    # The bad line sits deep in a file that is parsed in many ranges.
    good = "".join(f"{i} {i + 1} 7\n" for i in range(150_000))
    e = _error(tmp_path, good + "5 6 bad\n" + good, num_weights=1, threads=4)
    assert (e.line, e.column) == (150_001, 5)


def test_small_format_errors(tmp_path):
    ins, dele = tmp_path / "i.txt", tmp_path / "d.txt"
    ins.write_text("0 1 5\n2 3 7 9\n")
    dele.write_text("4 5\n")
    with pytest.raises(FileFormatError) as info:
        io.read_legacy_batch(str(ins), str(dele), num_weights=1)
    assert (info.value.line, info.value.column) == (2, 7)
    b = io.read_legacy_batch(str(ins), str(dele), num_weights=1, mosp_lenient=True)
    assert b.insert_weights.tolist() == [[5], [7]]
    with pytest.raises(FileFormatError) as info:
        io.read_legacy_batch(str(ins), str(dele), num_weights=1, num_vertices=3, mosp_lenient=True)
    assert (info.value.line, info.value.column) == (2, 3)
    p = tmp_path / "p.txt"
    p.write_text("0 -1\n1 0\n1 0\n")
    with pytest.raises(FileFormatError, match="listed twice") as info:
        io.read_parents(str(p), 3)
    assert info.value.line == 3
    p.write_text("0 -1\n1 5\n")
    with pytest.raises(FileFormatError) as info:
        io.read_parents(str(p), 2)
    assert (info.value.line, info.value.column) == (2, 3)
    with pytest.raises(FileFormatError) as info:
        io.read_csr_triplet(str(tmp_path / "none"))
    assert info.value.path.endswith("noneRowPtr.txt") and info.value.line is None


@pytest.mark.parametrize(
    "call",
    [
        lambda p: io.read_edge_list_arrays(p, ids="bad"),
        lambda p: io.read_edge_list_arrays(p, duplicates="first"),
        lambda p: io.read_edge_list_arrays(p, num_weights=-1),
        lambda p: io.read_edge_list_arrays(p, num_weights=1.5),
        lambda p: io.read_edge_list_arrays(p, symmetrize="yes"),
        lambda p: io.read_edge_list_arrays(12),
        lambda p: io.read_matrix_market_arrays(p, weights="weird"),
        lambda p: io.read_matrix_market_arrays(p, random_weights=(5, 1, 0)),
        lambda p: io.read_matrix_market_arrays(p, random_weights=(1, 2)),
        lambda p: io.read_matrix_market_arrays(p, num_weights=0),
        lambda p: io.write_matrix_market(p, ([0], [1], [[1, 2]]), weight_column=2),
        lambda p: io.write_edge_list(p, "not edges"),
        lambda p: io.write_csr_triplet(p, dyng.Graph.from_edges([0], [1])),
        lambda p: io.write_batches(p, [object()]),
        lambda p: io.histogram_csv([1, -1]),
    ],
)
def test_bad_arguments(tmp_path, call):
    p = tmp_path / "g.txt"
    p.write_text("0 1\n")
    with pytest.raises(InvalidArgumentError):
        call(str(p))
    assert sorted(os.listdir(tmp_path)) == ["g.txt"]


def test_uncompiled_vertex_dtype(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text("0 1\n")
    with pytest.raises(dyng.NotSupportedError):
        io.read_edge_list_arrays(str(p), vertex_dtype="float64")


def test_failed_write_leaves_target_untouched(tmp_path):
    target = tmp_path / "g.txt"
    target.write_text("old\n")
    with pytest.raises(InvalidArgumentError):
        io.write_matrix_market(str(target), ([0], [1], [[1]]), weight_column=3)
    assert target.read_text() == "old\n"
    with pytest.raises(FileFormatError) as info:  # a file where a folder of the path goes
        io.write_edge_list(str(tmp_path / "g.txt" / "sub" / "g.txt"), ([0], [1]))
    assert info.value.path.endswith("g.txt")
    assert sorted(os.listdir(tmp_path)) == ["g.txt"]


def test_missing_file_is_file_format_error(tmp_path):
    with pytest.raises(FileFormatError) as info:
        io.read_matrix_market_arrays(str(tmp_path / "nope.mtx"))
    assert info.value.line is None and "No such file" in str(info.value)


def test_int32_overflow_needs_int64(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text("0 3000000000\n")
    # As 0.2.0: the file's fault, at the id's place.
    with pytest.raises(FileFormatError, match="vertex_dtype='int64'") as info:
        io.read_edge_list_arrays(str(p), ids="as_is")
    assert (info.value.line, info.value.column) == (1, 3)
    e = io.read_edge_list_arrays(str(p), ids="as_is", vertex_dtype="int64")
    assert e.dst.tolist() == [3000000000] and e.src.dtype == np.int64

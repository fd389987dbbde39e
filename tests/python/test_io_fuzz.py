"""Fuzzing every reader of dyng.io: byte-level mutations of a corpus of valid files
(tests/data/io/corpus/) and random bytes. A file a reader accepts must round-trip through the
matching writer to the same edges, batches or values; a file it refuses must raise a
dyng.Error subclass (FileFormatError, naming the file and a place in it, for anything but the
vertex dtype being too small), never another exception and never a crash.

Budget: DYNG_FUZZ_EXAMPLES mutated files per corpus format (default 250, a few seconds per
format), e.g. ``DYNG_FUZZ_EXAMPLES=20000 pytest tests/python/test_io_fuzz.py
--hypothesis-show-statistics`` for a long run (docs/developer/testing.md).
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import dyng  # noqa: E402
import dyng.io as io  # noqa: E402
import dyng.sssp  # noqa: E402
from dyng import FileFormatError, InvalidArgumentError  # noqa: E402

CORPUS = os.path.join(os.path.dirname(__file__), os.pardir, "data", "io", "corpus")
EXAMPLES = int(os.environ.get("DYNG_FUZZ_EXAMPLES", "250"))
INF = dyng.sssp.INFINITE_DISTANCE

# Each unit of the corpus: its reader, its files by role, and the keywords it is read with
# (every mutation of a unit is read with each). The first read of every unit must accept the
# unmutated files (test_corpus_reads_and_round_trips).
EDGE_READS = [
    {"num_weights": 1},
    {"num_weights": 1, "duplicates": "keep", "threads": 2},
    {
        "num_weights": 1,
        "ids": "as_is",
        "symmetrize": True,
        "drop_self_loops": False,
        "vertex_dtype": "int64",
    },
    {"weighted": False, "ids": "as_is", "index_base": -5},
]
MM_READS = [
    {},
    {"weights": "none", "sort_and_dedupe": False, "drop_self_loops": False},
    {"weights": "random", "num_weights": 2, "vertex_dtype": "int64"},
]
UNITS = {
    "edges_k1": ("edge_list", {"file": "edges_k1.txt"}, EDGE_READS),
    "edges_k2_mixed": (
        "edge_list",
        {"file": "edges_k2_mixed.txt"},
        [{"num_weights": 2}, {"num_weights": 1}, {"num_weights": 2, "threads": 3}],
    ),
    "edges_timestamps": (
        "edge_list",
        {"file": "edges_timestamps.txt"},
        [{"duplicates": "keep"}, {}, {"ids": "as_is", "index_base": -4}],
    ),
    "edges_cr": ("edge_list", {"file": "edges_cr.txt"}, EDGE_READS),
    "edges_wide_ids": (
        "edge_list",
        {"file": "edges_wide_ids.txt"},
        [{"num_weights": 1}, {"num_weights": 1, "ids": "as_is", "vertex_dtype": "int64"}],
    ),
    "edges_negative": (
        "edge_list",
        {"file": "edges_negative.txt"},
        [{"num_weights": 1}, {"num_weights": 1, "ids": "as_is", "index_base": -3}],
    ),
    "edges_from_mtx": (
        "edge_list",
        {"file": "mm_general_int.mtx"},
        [{}, {"ids": "as_is", "duplicates": "keep"}],
    ),
    "mm_general_int": ("matrix_market", {"file": "mm_general_int.mtx"}, MM_READS),
    "mm_symmetric_pattern": ("matrix_market", {"file": "mm_symmetric_pattern.mtx"}, MM_READS),
    "mm_skew_int": (
        "matrix_market",
        {"file": "mm_skew_int.mtx"},
        MM_READS + [{"weights": "from_file", "sort_and_dedupe": False}],
    ),
    "mm_hermitian_complex": ("matrix_market", {"file": "mm_hermitian_complex.mtx"}, MM_READS[1:]),
    "mm_real": ("matrix_market", {"file": "mm_real.mtx"}, MM_READS[1:]),
    "mm_lower_banner": ("matrix_market", {"file": "mm_lower_banner.mtx"}, MM_READS),
    "mm_crlf": ("matrix_market", {"file": "mm_crlf.mtx"}, MM_READS),
    "batches_full": (
        "batches",
        {"file": "batches_full.dgt"},
        [{}, {"num_weights": 2, "num_vertices": 4}],
    ),
    "batches_plain": ("batches", {"file": "batches_plain.dgt"}, [{}, {"num_weights": 1}]),
    "batches_unweighted": ("batches", {"file": "batches_unweighted.dgt"}, [{}]),
    "legacy": (
        "legacy",
        {"insert": "legacy_insert.txt", "delete": "legacy_delete.txt"},
        [{}, {"num_vertices": 3, "vertex_dtype": "int64"}, {"mosp_lenient": True}],
    ),
    "csr": (
        "csr",
        {"RowPtr": "csr_RowPtr.txt", "ColInd": "csr_ColInd.txt", "Values": "csr_Values.txt"},
        [{}, {"num_weights": 2, "vertex_dtype": "int64", "edge_dtype": "int64"}],
    ),
    "distances": ("distances", {"file": "distances.txt"}, [{"num_vertices": 4}]),
    "parents": (
        "parents",
        {"file": "parents.txt"},
        [{"num_vertices": 4}, {"num_vertices": 4, "vertex_dtype": "int64"}],
    ),
}
FORMATS = sorted({reader for reader, _, _ in UNITS.values()})

# What a mutation inserts: separators, line breaks, signs, digits, comment and directive marks,
# the control bytes of a damaged file, and tokens at the edges of the number types.
BYTES = b" \t,\r\n\v-+.0123456789#%eEx\x00\x01\x1b\x7f\x80\xff"
TOKENS = [
    b"\r\n",
    b"\r",
    b"\n\n",
    b"\x00" * 16,
    b"%batch 3",
    b"%dgt 1",
    b"%btach",
    b"+e 1 2 3",
    b"-e 0 0",
    b"INF",
    b"inf",
    b"nan",
    b"1e999",
    b"-",
    b"2147483647",
    b"2147483648",
    b"-2147483648",
    b"4294967296",
    b"9223372036854775807",
    b"9223372036854775808",
    b"99999999999999999999",
    b"2305843009213693952",
    b"%%MatrixMarket",
    b"skew-symmetric",
    b"hermitian",
    b"complex",
    b"# c",
    b"% c",
    b"0",
    b"-1",
]


@st.composite
def mutation(draw, data):
    """One edit of `data` (bytes): insert, delete, replace or repeat bytes, or insert a token."""
    data = bytearray(data)
    at = draw(st.integers(0, len(data)))
    kind = draw(st.sampled_from(["insert", "delete", "replace", "token", "repeat", "cut"]))
    if kind == "insert" or (not data and kind != "token"):
        data[at:at] = bytes([draw(st.sampled_from(BYTES))])
    elif kind == "token":
        data[at:at] = draw(st.sampled_from(TOKENS))
    elif kind == "delete":
        del data[at : at + draw(st.integers(1, 8))]
    elif kind == "replace":
        data[min(at, len(data) - 1)] = draw(st.sampled_from(BYTES))
    elif kind == "repeat":
        end = min(len(data), at + draw(st.integers(1, 24)))
        data[end:end] = data[at:end]
    else:
        del data[at:]
    return bytes(data)


@st.composite
def mutated_unit(draw, fmt):
    """(unit name, {role: bytes}): a unit of format `fmt` with 1-4 edits in one of its files."""
    name = draw(st.sampled_from(sorted(u for u, (r, _, _) in UNITS.items() if r == fmt)))
    files = {role: _corpus(file) for role, file in UNITS[name][1].items()}
    role = draw(st.sampled_from(sorted(files)))
    for _ in range(draw(st.integers(1, 4))):
        files[role] = draw(mutation(files[role]))
    return name, files


def _corpus(file):
    with open(os.path.join(CORPUS, file), "rb") as f:
        return f.read()


@pytest.fixture(scope="module")
def folder():
    d = tempfile.mkdtemp(prefix="dyng_fuzz_")
    yield d
    shutil.rmtree(d, ignore_errors=True)


def _put(folder, reader, files):
    """Writes the files where the reader looks; returns the read target (path or prefix)."""
    names = {
        "legacy": {"insert": "insert.txt", "delete": "delete.txt"},
        "csr": {r: f"g{r}.txt" for r in ("RowPtr", "ColInd", "Values")},
    }.get(reader)
    for role, content in files.items():
        with open(os.path.join(folder, names[role] if names else "f"), "wb") as f:
            f.write(content)
    if reader == "legacy":
        return os.path.join(folder, "insert.txt"), os.path.join(folder, "delete.txt")
    return os.path.join(folder, "g" if reader == "csr" else "f")


def _read(reader, target, keywords):
    kw = dict(keywords)
    if reader == "edge_list":
        return io.read_edge_list_arrays(target, **kw)
    if reader == "matrix_market":
        return io.read_matrix_market_arrays(target, **kw)
    if reader == "batches":
        return io.read_batches(target, **kw)
    if reader == "legacy":
        return io.read_legacy_batch(*target, **kw)
    if reader == "csr":
        return io.read_csr_triplet(target, **kw)
    n = kw.pop("num_vertices")
    return (io.read_distances if reader == "distances" else io.read_parents)(target, n, **kw)


def _edges(e):
    w = None if e.weights is None else e.weights.tolist()
    return e.src.tolist(), e.dst.tolist(), w


def _batch(b):
    w = b.insert_weights
    return (
        b.insert_src.tolist(),
        b.insert_dst.tolist(),
        [] if w is None else w.tolist(),
        b.delete_src.tolist(),
        b.delete_dst.tolist(),
    )


def _round_trip(reader, result, keywords, folder):
    """Writes `result` with the matching writer, reads it back, and checks it is the same."""
    kw = dict(keywords)
    out = os.path.join(folder, "round_trip")
    if reader == "edge_list":
        io.write_edge_list(out, result)
        k = 0 if result.weights is None else result.weights.shape[1]
        back = io.read_edge_list_arrays(
            out,
            num_weights=k,
            ids="as_is",
            drop_self_loops=False,
            duplicates=kw.get("duplicates", "merge"),
            vertex_dtype=result.src.dtype.name,
        )
        assert _edges(back) == _edges(result)
        assert back.num_vertices == (
            int(max(result.src.max(), result.dst.max())) + 1 if result.num_edges else 0
        )
        assert back.num_vertices <= result.num_vertices
    elif reader == "matrix_market":
        k = 0 if result.weights is None else result.weights.shape[1]
        for column in range(max(k, 1)):
            io.write_matrix_market(out, result, weight_column=column)
            back = io.read_matrix_market_arrays(
                out,
                weights="from_file" if k else "none",
                drop_self_loops=False,
                sort_and_dedupe=kw.get("sort_and_dedupe", True),
                vertex_dtype=result.src.dtype.name,
            )
            assert back.num_vertices == result.num_vertices
            assert (back.src.tolist(), back.dst.tolist()) == (
                result.src.tolist(),
                result.dst.tolist(),
            )
            if k:
                assert back.weights[:, 0].tolist() == result.weights[:, column].tolist()
    elif reader == "batches":
        io.write_batches(out, result)
        k = max([b.num_weights for b in result], default=0)
        back = io.read_batches(out, num_weights=k)
        assert [_batch(b) for b in back] == [_batch(b) for b in result]
    elif reader == "legacy":
        io.write_legacy_batch(out + "_i", out + "_d", result)
        back = io.read_legacy_batch(
            out + "_i",
            out + "_d",
            num_weights=result.num_weights,
            vertex_dtype=kw.get("vertex_dtype", "int32"),
        )
        assert _batch(back) == _batch(result)
    elif reader == "csr":
        io.write_csr_triplet(out, result)
        back = io.read_csr_triplet(
            out,
            num_weights=result.num_weights,
            vertex_dtype=kw.get("vertex_dtype", "int32"),
            edge_dtype=kw.get("edge_dtype", "int32"),
        )
        a, b = result.to_csr(), back.to_csr()
        assert back.num_vertices == result.num_vertices
        for part in ("row_ptr", "col_ind", "weights"):
            assert np.array_equal(getattr(a, part), getattr(b, part)), part
    elif reader == "distances":
        io.write_distances(out, result)
        # The writer writes INF for every distance at or above INFINITE_DISTANCE, and the
        # reader (as 0.2.0's) keeps a larger number it reads: both mean unreachable.
        assert io.read_distances(out, len(result)).tolist() == np.minimum(result, INF).tolist()
    else:
        io.write_parents(out, result)
        back = io.read_parents(out, len(result), vertex_dtype=result.dtype.name)
        assert back.tolist() == result.tolist()


def _check_refusal(error, target):
    """A refused file: a dyng.Error, and for a format problem one that says where."""
    assert isinstance(error, dyng.Error), repr(error)
    if isinstance(error, InvalidArgumentError):
        # The one refusal that is about the arguments: ids that need vertex_dtype='int64'.
        assert "int64" in str(error), str(error)
        return
    assert isinstance(error, FileFormatError), repr(error)
    targets = target if isinstance(target, tuple) else (target,)
    assert any(error.path.startswith(t) for t in targets), (error.path, targets)
    assert error.line is None or error.line >= 1
    assert error.column is None or (error.column >= 1 and error.line is not None)
    assert str(error).startswith("read_") and "(): " in str(error)


def _plain(result):
    """A read's result as plain values, to compare two reads."""
    if isinstance(result, io.EdgeList):
        return (result.num_vertices,) + _edges(result)
    if isinstance(result, dyng.EdgeBatch):
        return _batch(result)
    if isinstance(result, dyng.Graph):
        csr = result.to_csr()
        return (
            result.num_vertices,
            csr.row_ptr.tolist(),
            csr.col_ind.tolist(),
            csr.weights.tolist(),
        )
    if isinstance(result, list):
        return [_batch(b) for b in result]
    return result.tolist()


_CONTROL = bytes(range(0, 9)) + bytes(range(14, 32)) + b"\x7f"
_SEPARATORS = re.compile(rb"[ \t,\v\f\r]+")


def _directives_are_known(content):
    """Whether every '%' line of a .dgt file is '%dgt 1' or '%batch <id>': one read as a
    comment merged two batches."""
    for line in re.split(rb"\r\n|\r|\n", content):
        tokens = [t for t in _SEPARATORS.split(line) if t]
        if (
            tokens
            and tokens[0].startswith(b"%")
            and not (
                tokens == [b"%dgt", b"1"]
                or (
                    len(tokens) == 2
                    and tokens[0] == b"%batch"
                    and re.fullmatch(rb"\+?\d+", tokens[1])
                )
            )
        ):
            return False
    return True


def _check_unit(folder, name, files):
    """Reads the unit's files with each of its reads: a refusal must be a well-formed dyng.Error,
    an acceptance must round-trip; and two things no format allows are checked on every mutant:
    a control byte anywhere is refused, and a file read with its LFs made bare CRs reads the
    same (the issue's silent losses: a NUL line skipped, a comment ended by CR eating data)."""
    reader, _, reads = UNITS[name]
    damaged = any(b in _CONTROL for content in files.values() for b in content)
    as_cr = {role: content.replace(b"\n", b"\r") for role, content in files.items()}
    for keywords in reads:
        target = _put(folder, reader, files)
        try:
            result = _read(reader, target, keywords)
        except dyng.Error as e:
            _check_refusal(e, target)
            continue
        assert not damaged, f"a file with a control byte was read with {keywords}"
        assert reader != "batches" or _directives_are_known(files["file"])
        _round_trip(reader, result, keywords, folder)
        if not any(b"\r" in content for content in files.values()):
            assert _plain(_read(reader, _put(folder, reader, as_cr), keywords)) == _plain(result)


def test_corpus_reads_and_round_trips(folder):
    for name, (reader, files, reads) in UNITS.items():
        target = _put(folder, reader, {role: _corpus(f) for role, f in files.items()})
        _read(reader, target, reads[0])  # the unmutated unit is valid for its first read
        _check_unit(folder, name, {role: _corpus(f) for role, f in files.items()})


@pytest.mark.parametrize("fmt", FORMATS)
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_mutated_corpus(folder, fmt, data):
    _check_unit(folder, *data.draw(mutated_unit(fmt)))


@settings(
    max_examples=max(EXAMPLES // 5, 20), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(st.binary(max_size=400), st.sampled_from(sorted(UNITS)))
def test_random_bytes(folder, data, name):
    reader, files, _ = UNITS[name]
    _check_unit(folder, name, {role: data for role in files})


@settings(max_examples=max(EXAMPLES // 5, 20), deadline=None)
@given(
    st.lists(st.tuples(st.integers(-3, 40), st.integers(-3, 40), st.integers(-9, 9)), max_size=40),
    st.sampled_from([" ", "\t", ",", ", "]),
    st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_valid_edge_lists_match_a_model(folder, rows, sep, newline):
    # Well-formed files: compact ids, self-loop removal and last-wins merging as a model says.
    p = os.path.join(folder, "model.txt")
    with open(p, "w", newline="") as f:
        f.write("".join(f"{u}{sep}{v}{sep}{w}{newline}" for u, v, w in rows))
    e = io.read_edge_list_arrays(p, num_weights=1)
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

"""What dyng.io's readers refuse, and what they still read, where issue 40 found them merging,
inventing or mis-classing data that dyng 0.2.0 refused (the places are 0.2.0's):

- a '%' line of a .dgt file that is not '%dgt 1' or '%batch <id>' (read as a comment, a
  misspelt '%batch' merged two batches);
- an id with ids="as_is" whose vertex count does not fit int64 (the count wrapped negative);
- a Matrix Market value that is not a number of the banner's field, read or not;
- a weight below 1 in CSR Values.txt or insert.txt (the MOSP tools' weights are lengths);
- a CSR triplet without edges and without num_weights (a bare NumPy ValueError before).
"""

from __future__ import annotations

import numpy as np
import pytest

import dyng.io as io
from dyng import FileFormatError

MM = "%%MatrixMarket matrix coordinate "


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_bytes(text.encode() if isinstance(text, str) else text)
    return str(p)


def _fault(call):
    with pytest.raises(FileFormatError) as info:
        call()
    return info.value


def _batches(batches):
    return [
        (
            b.insert_src.tolist(),
            b.insert_dst.tolist(),
            None if b.insert_weights is None else b.insert_weights.tolist(),
            b.delete_src.tolist(),
            b.delete_dst.tolist(),
        )
        for b in batches
    ]


@pytest.mark.parametrize(
    "text, where, words",
    [
        ("%dgt 1\n%batch 0\n+e 0 1 1\n%btach 1\n-e 0 1\n", (4, 1), "unknown directive '%btach'"),
        ("%batch 0\n+e 0 1 1\n%batch\n-e 0 1\n", (3, 7), "batch id is missing"),
        ("%batch 0\n+e 0 1 1\n%batch x\n-e 0 1\n", (3, 8), "batch id 'x'"),
        ("%batch 5\n%batch 2\n", (2, 8), "batch id 2 after 5"),
        ("%batch 0\n%batch 0\n", (2, 8), "batch id 0 after 0"),
        ("%batch -1\n", (1, 8), "batch id '-1'"),
        ("%batch 0 1\n", (1, 10), "unexpected '1'"),
        ("%dgt 1\n% a comment\n", (2, 1), "unknown directive '%'"),
        ("%%x\n", (1, 1), "unknown directive '%%x'"),
        ("%BATCH 0\n", (1, 1), "unknown directive '%BATCH'"),
        ("%dgt\n", (1, 5), "version is missing"),
        ("%dgt 2\n", (1, 6), "unsupported .dgt version '2'"),
        ("%dgt 1 x\n", (1, 8), "unexpected 'x'"),
        ("%batch 0\n%dgt 1\n", (2, 1), "only be the first line"),
    ],
)
def test_dgt_refuses_unknown_and_malformed_directives(tmp_path, text, where, words):
    e = _fault(lambda: io.read_batches(_write(tmp_path, "b.dgt", text)))
    assert (e.line, e.column) == where, str(e)
    assert words in str(e) and str(e).startswith("read_batches(): ")


def test_dgt_reads_what_0_2_read(tmp_path):
    text = "# made by hand\n\n%dgt 1\n  %batch\t3\n+e 0 1 4\n%batch 007\n%batch 9\n-e 1 0\n"
    assert _batches(io.read_batches(_write(tmp_path, "b.dgt", text))) == [
        ([0], [1], [[4]], [], []),
        ([], [], [], [], []),
        ([], [], [], [1], [0]),
    ]


@pytest.mark.parametrize(
    "text, keywords, where",
    [
        ("0 9223372036854775807\n", {"vertex_dtype": "int64"}, (1, 3)),
        ("0 9223372036854775807\n", {}, (1, 3)),
        ("0 9223372036854775806\n", {"index_base": -1, "vertex_dtype": "int64"}, (1, 3)),
        ("0 5\n", {"index_base": -(2**63), "vertex_dtype": "int64"}, (1, 1)),
        (
            "1 2\n999999999999999999 3\n",
            {"index_base": -8_300_000_000_000_000_000, "vertex_dtype": "int64"},
            (2, 1),
        ),
    ],
)
def test_as_is_ids_past_int64_do_not_wrap(tmp_path, text, keywords, where):
    # The case: num_vertices -2^63 and, read as int32, target -1.
    p = _write(tmp_path, "g.txt", text)
    e = _fault(lambda: io.read_edge_list_arrays(p, ids="as_is", **keywords))
    assert (e.line, e.column) == where and "ids='compact'" in str(e)


def test_as_is_ids_of_a_matrix_market_file_read_by_read_edge_list(tmp_path):
    # 0.2.0 numbers them id - index_base with max id + 1 vertices; this reader used the size
    # line's count and 0-based ids.
    p = _write(tmp_path, "m.mtx", MM + "pattern general\n5 5 2\n1 2\n3 2\n")
    e = io.read_edge_list_arrays(p, ids="as_is")
    assert (e.num_vertices, e.src.tolist(), e.dst.tolist()) == (4, [1, 3], [2, 2])
    e = io.read_edge_list_arrays(p, ids="as_is", index_base=1)
    assert (e.num_vertices, e.src.tolist(), e.dst.tolist()) == (3, [0, 2], [1, 1])
    e = _fault(lambda: io.read_edge_list_arrays(p, ids="as_is", index_base=2))
    assert (e.line, e.column) == (3, 1) and "below index_base 2" in str(e)
    e = _fault(lambda: io.read_edge_list_arrays(p, ids="as_is", index_base=-(2**63)))
    assert (e.line, e.column) == (3, 1) and "too large" in str(e)


def test_as_is_ids_up_to_the_int64_count_read(tmp_path):
    p = _write(tmp_path, "g.txt", "0 9223372036854775806\n")
    e = io.read_edge_list_arrays(p, ids="as_is", vertex_dtype="int64")
    assert (e.num_vertices, e.dst.tolist()) == (2**63 - 1, [2**63 - 2])
    e = _fault(lambda: io.read_edge_list_arrays(p, ids="as_is"))
    assert (e.line, e.column) == (1, 3) and "vertex_dtype='int64'" in str(e)
    # A negative index_base within reach still numbers from it.
    p = _write(tmp_path, "g.txt", "-5 -3\n")
    e = io.read_edge_list_arrays(p, ids="as_is", index_base=-5)
    assert (e.num_vertices, e.src.tolist(), e.dst.tolist()) == (3, [0], [2])


@pytest.mark.parametrize(
    "field, value, weights, column",
    [
        ("integer", "#", "none", 5),
        ("integer", "inf", "none", 5),
        ("integer", "1.5", "random", 5),
        ("integer", "9223372036854775808", "none", 5),
        ("integer", "5\x01", "random", 6),
        ("real", "#", "none", 5),
        ("real", "0x1p3", "random", 5),
        ("real", "1e999", "none", 5),
        ("real", "1e-400", "none", 5),
        ("real", "1e", "none", 5),
        ("real", "5\x00", "none", 6),
        ("complex", "1 x", "none", 7),
        ("complex", "# 1", "random", 5),
    ],
)
def test_matrix_market_checks_values_it_does_not_read(tmp_path, field, value, weights, column):
    other = "4 0" if field == "complex" else "4"
    p = _write(tmp_path, "m.mtx", f"{MM}{field} general\n3 3 2\n2 3 {other}\n1 2 {value}\n")
    e = _fault(lambda: io.read_matrix_market_arrays(p, weights=weights))
    assert (e.line, e.column) == (4, column), str(e)
    if field == "integer" and weights == "none" and "\x01" not in value:
        # read_edge_list reads a Matrix Market file's ids only, and checks its values too.
        e = _fault(lambda: io.read_edge_list_arrays(p))
        assert (e.line, e.column) == (4, column)


@pytest.mark.parametrize(
    "field, value",
    [
        ("integer", "9223372036854775807"),
        ("integer", "-7"),
        ("real", "inf"),
        ("real", "-NaN"),
        ("real", "1.5e5"),
        ("real", ".5"),
        ("real", "5."),
        ("real", "-1E-3"),
        ("real", "1e-310"),
        ("real", "nan(0x7)"),
        ("complex", "1.5 -inf"),
    ],
)
def test_matrix_market_values_0_2_read_still_read(tmp_path, field, value):
    p = _write(tmp_path, "m.mtx", f"{MM}{field} general\n3 3 1\n1 2 {value}\n")
    assert io.read_matrix_market_arrays(p, weights="none").src.tolist() == [0]
    assert io.read_edge_list_arrays(p).num_edges == 1


def test_matrix_market_variants_read_as_0_2_did(tmp_path):
    # The arrays 0.2.0 gives for these files (tests/data/io/expected_reads.json holds larger
    # cases made by 0.2.0 itself).
    def mm(text, **kw):
        e = io.read_matrix_market_arrays(_write(tmp_path, "m.mtx", text), **kw)
        return (
            e.num_vertices,
            e.src.tolist(),
            e.dst.tolist(),
            None if e.weights is None else e.weights.tolist(),
        )

    skew = MM + "integer skew-symmetric\n3 3 2\n2 1 4\n3 2 5\n"
    assert mm(skew) == (3, [0, 1, 1, 2], [1, 0, 2, 1], [[-4], [4], [-5], [5]])
    assert mm(skew, sort_and_dedupe=False) == (
        3,
        [1, 0, 2, 1],
        [0, 1, 1, 2],
        [[4], [-4], [5], [-5]],
    )
    assert mm(
        MM + "complex hermitian\n3 3 2\n2 1 4 1\n3 3 5 0\n", weights="none", drop_self_loops=False
    ) == (3, [0, 1, 2], [1, 0, 2], None)
    assert mm(MM + "integer hermitian\n3 3 1\n2 1 4\n") == (3, [0, 1], [1, 0], [[4], [4]])
    assert mm("%%matrixmarket MATRIX Coordinate pattern GENERAL\n3 3 1\n1 2\n") == (
        3,
        [0],
        [1],
        None,
    )
    assert mm(MM + "complex general\n3 3 1\n1 2 4 1\n", weights="random") == (3, [0], [1], [[93]])


@pytest.mark.parametrize(
    "text, keywords, where, words",
    [
        (
            MM + "complex general\n3 3 1\n1 2 4 1\n",
            {},
            (1, None),
            "'complex' matrix has no integer",
        ),
        (MM + "complex general\n3 3 1\n1 2 4 1\n", {"weights": "from_file"}, (1, None), "complex"),
        (MM + "integer skew-symmetric\n3 3 1\n2 1 -2147483648\n", {}, (3, 5), "no int32 mirror"),
        (MM + "pattern general extra\n3 3 1\n1 2\n", {}, (1, 50), "after the banner"),
        (MM + "complex general\n3 3 1\n1 2 4\n", {"weights": "none"}, (3, 6), "real imaginary"),
        (MM + "pattern general\n# c\n3 3 1\n1 2\n", {}, (2, 1), "row count '#'"),
    ],
)
def test_matrix_market_refusals(tmp_path, text, keywords, where, words):
    e = _fault(lambda: io.read_matrix_market_arrays(_write(tmp_path, "m.mtx", text), **keywords))
    assert (e.line, e.column) == where and words in str(e), str(e)


def _csr(tmp_path, row_ptr, col_ind, values, **kw):
    for part, text in (("RowPtr", row_ptr), ("ColInd", col_ind), ("Values", values)):
        _write(tmp_path, f"c{part}.txt", text)
    return io.read_csr_triplet(str(tmp_path / "c"), **kw)


@pytest.mark.parametrize(
    "values, where",
    [
        ("3\n0\n", (2, 1)),
        ("-1\n3\n", (1, 1)),
        ("3 1\n4 0\n", (2, 3)),
        ("3\n2147483648\n", (2, 1)),
    ],
)
def test_csr_weights_below_one_are_refused(tmp_path, values, where):
    e = _fault(lambda: _csr(tmp_path, "0\n1\n2\n", "1\n0\n", values))
    assert e.path.endswith("cValues.txt") and (e.line, e.column) == where
    assert "out of range [1, 2147483647]" in str(e)


def test_csr_triplet_without_edges(tmp_path):
    # 0.2.0's answer: without num_weights there is nothing to count the weights on.
    e = _fault(lambda: _csr(tmp_path, "0\n0\n0\n", "", ""))
    assert e.path.endswith("cValues.txt") and "no edges" in str(e) and "num_weights" in str(e)
    g = _csr(tmp_path, "0\n0\n0\n", "", "", num_weights=2)
    assert (g.num_vertices, g.num_edges, g.num_weights) == (2, 0, 2)


def test_csr_reads_several_numbers_to_a_line_as_0_2_did(tmp_path):
    g = _csr(tmp_path, "0 1\n2\n", "1 0\n", "3\n4\n")
    assert g.to_csr().col_ind.tolist() == [1, 0] and g.to_csr().weights.tolist() == [[3], [4]]
    e = _fault(lambda: _csr(tmp_path, "0 2\n\n1 3\n", "0\n0\n0\n", "1\n1\n1\n"))
    assert (e.line, e.column) == (3, 1) and "must not decrease" in str(e)


@pytest.mark.parametrize(
    "insert, keywords, where",
    [
        ("0 1 0\n", {}, (1, 5)),
        ("0 1 5\n1 2 -4\n", {}, (2, 5)),
        ("0 1 5 0\n", {"num_weights": 2}, (1, 7)),
        ("0 1 0 7\n", {"mosp_lenient": True}, (1, 5)),
    ],
)
def test_legacy_insert_weights_below_one_are_refused(tmp_path, insert, keywords, where):
    ins, dele = _write(tmp_path, "insert.txt", insert), _write(tmp_path, "delete.txt", "")
    e = _fault(lambda: io.read_legacy_batch(ins, dele, **keywords))
    assert e.path == ins and (e.line, e.column) == where and "[1, 2147483647]" in str(e)


@pytest.mark.parametrize("extra", ["x", "#", "\x00", "99999999999999999999", "1.5"])
def test_mosp_lenient_skips_extra_numbers_only(tmp_path, extra):
    # As 0.2.0. The fuzz suite found this reader skipping anything, a NUL included.
    ins = _write(tmp_path, "insert.txt", "0 1 5 7 -8\n")
    dele = _write(tmp_path, "delete.txt", f"1 2 {extra}\n")
    e = _fault(lambda: io.read_legacy_batch(ins, dele, mosp_lenient=True))
    assert e.path == dele and (e.line, e.column) == (1, 5)
    _write(tmp_path, "delete.txt", "1 2 3 -4\n")
    b = io.read_legacy_batch(ins, dele, mosp_lenient=True)
    assert (b.insert_weights.tolist(), b.delete_dst.tolist()) == ([[5]], [2])


def test_dgt_weights_keep_their_sign(tmp_path):
    # .dgt is dyng's own format: 0.2.0 read any int32 weight there, and so does this.
    b = io.read_batches(_write(tmp_path, "b.dgt", "+e 0 1 0\n+e 1 2 -3\n"))
    assert b[0].insert_weights.tolist() == [[0], [-3]]
    assert np.array_equal(b[0].insert_src, [0, 1])


@pytest.mark.parametrize(
    "text, k, where",
    [
        ("0 1\n1 3000000000\n", 0, (2, 3)),  # a plain line (the reader's fast path)
        ("# c\n0 1 7\n1\t2147483647  7\n", 1, (3, 3)),  # a line the general path reads
        ("0 1\n2147483646 1\n", 0, None),  # the largest id int32 ids hold
    ],
)
def test_as_is_ids_past_int32_are_a_fault_at_their_place(tmp_path, text, k, where):
    # 0.2.0 refused them at file:line with FileFormatError; before, this reader read the file
    # and then raised InvalidArgumentError without a place.
    p = _write(tmp_path, "g.txt", text)
    if where is None:
        assert io.read_edge_list_arrays(p, ids="as_is").num_vertices == 2**31 - 1
        return
    e = _fault(lambda: io.read_edge_list_arrays(p, ids="as_is", num_weights=k))
    assert (e.line, e.column) == where, str(e)
    assert "does not fit int32 ids" in str(e) and "vertex_dtype='int64'" in str(e)
    wide = io.read_edge_list_arrays(p, ids="as_is", vertex_dtype="int64", num_weights=k)
    assert wide.num_vertices == (3000000001 if "3000000000" in text else 2**31)

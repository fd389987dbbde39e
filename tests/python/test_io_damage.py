"""Every reader of dyng.io against damaged bytes and foreign line breaks (issue 40).

A control byte anywhere in a line (NUL from a zero-filled block, or any other; a comment
included) is a FileFormatError at its line and column that says the file is damaged: before,
a line that started with NUL was skipped as blank, so a zero-filled block lost its lines
without a word and a file of NUL bytes read as an empty graph. LF, CR LF and a bare CR end a
line alike, and error lines count bare CR breaks: before, a comment ended by a bare CR
swallowed the rest of the file.
"""

from __future__ import annotations

import numpy as np
import pytest

import dyng
import dyng.io as io
from dyng import FileFormatError

# Each target file of each reader: a valid text, and its partner files' texts where the reader
# reads several (legacy batches, CSR triplets).
FORMATS = {
    "edge_list": "# weighted\n0 1 5\n1 2 7\n2 0 9\n",
    "edge_list_mm": "%%MatrixMarket matrix coordinate integer general\n% c\n3 3 2\n1 2 5\n2 3 7\n",
    "matrix_market": "%%MatrixMarket matrix coordinate integer symmetric\n% c\n3 3 2\n2 1 5\n"
    "3 2 7\n",
    "batches": "%dgt 1\n# c\n%batch 0\n+e 0 1 5\n-e 1 2\n%batch 1\n+e 2 0 3\n",
    "distances": "0 0\n1 5\n2 INF\n",
    "parents": "0 -1\n1 0\n2 1\n",
    "legacy_insert": "0 1 5\n1 2 7\n",
    "legacy_delete": "1 2\n2 0\n",
    "csr_rowptr": "0\n1\n2\n3\n",
    "csr_colind": "1\n2\n0\n",
    "csr_values": "5 1\n7 2\n9 3\n",
}
_PARTNERS = {
    "legacy": ("insert.txt", "delete.txt"),
    "csr": ("gRowPtr.txt", "gColInd.txt", "gValues.txt"),
}


def _plain(result):
    """A read's result as plain lists, to compare two reads."""
    if isinstance(result, io.EdgeList):
        w = result.weights
        return (
            result.num_vertices,
            result.src.tolist(),
            result.dst.tolist(),
            None if w is None else w.tolist(),
        )
    if isinstance(result, dyng.EdgeBatch):
        w = result.insert_weights
        return (
            result.insert_src.tolist(),
            result.insert_dst.tolist(),
            None if w is None else w.tolist(),
            result.delete_src.tolist(),
            result.delete_dst.tolist(),
        )
    if isinstance(result, dyng.Graph):
        csr = result.to_csr()
        return (
            result.num_vertices,
            csr.row_ptr.tolist(),
            csr.col_ind.tolist(),
            csr.weights.tolist(),
        )
    if isinstance(result, list):
        return [_plain(b) for b in result]
    return result.tolist()


def read(tmp_path, fmt, data):
    """Reads `data` (bytes) as the file `fmt` names, its partners valid; returns plain lists."""

    def put(name, content):
        (tmp_path / name).write_bytes(content if isinstance(content, bytes) else content.encode())
        return str(tmp_path / name)

    family = fmt.split("_")[0]
    if family in _PARTNERS:
        names = _PARTNERS[family]
        parts = [f for f in FORMATS if f.startswith(family + "_")]
        for name, part in zip(names, parts):
            put(name, data if part == fmt else FORMATS[part])
        if family == "legacy":
            return _plain(io.read_legacy_batch(str(tmp_path / names[0]), str(tmp_path / names[1])))
        return _plain(io.read_csr_triplet(str(tmp_path / "g")))
    p = put("f.txt", data)
    if fmt.startswith("edge_list"):
        return _plain(io.read_edge_list_arrays(p, num_weights=0 if fmt.endswith("mm") else 1))
    return _plain(
        {
            "matrix_market": io.read_matrix_market_arrays,
            "batches": io.read_batches,
            "distances": lambda q: io.read_distances(q, 3),
            "parents": lambda q: io.read_parents(q, 3),
        }[fmt](p)
    )


def _fault(tmp_path, fmt, data):
    with pytest.raises(FileFormatError) as info:
        read(tmp_path, fmt, data)
    return info.value


def _damage_cases():
    for fmt, text in FORMATS.items():
        lines = text.encode().split(b"\n")
        second = len(lines[1])
        zeroed = b"\n".join([lines[0], b"\0" * max(second, 1)] + lines[2:])
        yield fmt, "a line of NUL bytes", zeroed, (2, 1)
        yield (
            fmt,
            "a NUL at the start of a line",
            b"\n".join([lines[0], b"\0" + lines[1]] + lines[2:]),
            (2, 1),
        )
        yield (
            fmt,
            "a NUL before a line break",
            b"\n".join([lines[0], lines[1] + b"\0"] + lines[2:]),
            (2, second + 1),
        )
        yield fmt, "NUL bytes only", b"\0" * 4096, (1, 1)
        yield fmt, "an escape byte", b"\n".join([lines[0], b"\x1b" + lines[1]] + lines[2:]), (2, 1)


@pytest.mark.parametrize(
    "fmt, what, data, where", list(_damage_cases()), ids=lambda v: v if isinstance(v, str) else None
)
def test_control_bytes_are_damage_at_their_place(tmp_path, fmt, what, data, where):
    e = _fault(tmp_path, fmt, data)
    assert (e.line, e.column) == where, str(e)
    assert "control byte" in str(e) and "restore it" in str(e)
    assert f":{where[0]}:{where[1]}: control byte" in str(e)


@pytest.mark.parametrize(
    "fmt, text, where",
    [
        ("edge_list", b"# a comment \x00 with a NUL\n0 1 5\n", (1, 13)),
        ("edge_list", b"0 1 5\n% \x7f\n", (2, 3)),
        (
            "matrix_market",
            b"%%MatrixMarket matrix coordinate pattern general\n%\x01\n2 2 1\n1 2\n",
            (2, 2),
        ),
        (
            "matrix_market",
            b"%%MatrixMarket matrix coordinate pattern general\n2 2 1\n% \x02\n1 2\n",
            (3, 3),
        ),
        ("batches", b"%dgt 1\n# \x03\n+e 0 1 1\n", (2, 3)),
    ],
)
def test_control_bytes_in_comments_are_damage(tmp_path, fmt, text, where):
    e = _fault(tmp_path, fmt, text)
    assert (e.line, e.column) == where and "control byte" in str(e)


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_every_line_break_reads_like_lf(tmp_path, fmt, newline):
    text = FORMATS[fmt]
    want = read(tmp_path, fmt, text)
    assert read(tmp_path, fmt, text.replace("\n", newline)) == want
    # No break after the last line, and a mix of the three.
    mixed = "".join(
        line + ("\n", "\r\n", "\r")[i % 3] for i, line in enumerate(text.split("\n")[:-1])
    )
    assert read(tmp_path, fmt, mixed.rstrip("\r\n")) == want


def test_a_comment_ended_by_a_bare_cr_does_not_swallow_the_file(tmp_path):
    # The case: 0.2.0 read this as an empty graph.
    e = read(tmp_path, "edge_list", "# header\r0 1 5\r1 2 7\r")
    assert e == (3, [0, 1], [1, 2], [[5], [7]])


@pytest.mark.parametrize(
    "fmt, text, where",
    [
        ("edge_list", "# c\r0 1 5\r1 2 x\r", (3, 5)),
        (
            "matrix_market",
            "%%MatrixMarket matrix coordinate integer general\r% c\r3 3 2\r1 2 5\r2 9 7\r",
            (5, 3),
        ),
        ("batches", "%dgt 1\r%batch 0\r+e 0 1 5\r+e 1 x 2\r", (4, 6)),
        ("distances", "0 0\r\n1 5\r2 x\n", (3, 3)),
        ("csr_colind", "1\r2\r\r7\r", (4, 1)),
    ],
)
def test_error_lines_count_bare_cr_breaks(tmp_path, fmt, text, where):
    e = _fault(tmp_path, fmt, text)
    assert (e.line, e.column) == where, str(e)


def test_a_cr_inside_a_line_ends_it(tmp_path):
    # "0\r1" was one line "0 1" while CR was a separator; now it is two lines of one field.
    e = _fault(tmp_path, "edge_list", "0 1 5\n2\r3 4\n")
    assert (e.line, e.column) == (2, 2)


def test_separators_that_are_control_characters_still_separate(tmp_path):
    assert read(tmp_path, "edge_list", "0\t1\v5\f\n1 , 2,7\r\n") == (3, [0, 1], [1, 2], [[5], [7]])


def test_damage_deep_in_a_large_file_read_on_threads(tmp_path):
    good = "".join(f"{i} {i + 1} 3\n" for i in range(120_000))
    p = tmp_path / "big.txt"
    p.write_bytes(good.encode() + b"\0" * 5000 + b"\n" + good.encode())
    with pytest.raises(FileFormatError) as info:
        io.read_edge_list_arrays(str(p), num_weights=1, threads=3)
    assert (info.value.line, info.value.column) == (120_001, 1)
    p.write_bytes(good.replace("\n", "\r").encode())
    e = io.read_edge_list_arrays(str(p), num_weights=1, threads=3)
    assert e.num_edges == 120_000 and np.all(e.weights == 3)

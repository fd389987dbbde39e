"""The readers' source_range (one rank's shard, read from a file): a filtered read equals the full
read with the edges of other sources left out in NumPy, whatever the options, and a broken file
raises the full read's error whatever the range, so every rank of a world fails alike.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import dyng.io as io  # noqa: E402
from dyng import FileFormatError, InvalidArgumentError  # noqa: E402

_SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _ranges(n, rng):
    """Ranges at the edges (empty, past the last id, the whole) and two drawn ones."""
    a, b = sorted(int(x) for x in rng.integers(0, n + 2, size=2))
    return [(0, 0), (0, None), (0, n), (n, None), (n + 3, n + 7), (a, b), (a, None), (0, a)]


def _restricted(full, lo, hi):
    """The full read's edges whose source lies in [lo, hi), as the filtered read must give."""
    keep = (full.src >= lo) & (full.src < (np.iinfo(np.int64).max if hi is None else hi))
    weights = None if full.weights is None else full.weights[keep]
    stamps = full.info.timestamps[keep] if full.info and full.info.timestamps.size else None
    return full.src[keep], full.dst[keep], weights, stamps


def _assert_equal_part(part, full, lo, hi):
    src, dst, weights, stamps = _restricted(full, lo, hi)
    assert part.num_vertices == full.num_vertices
    assert part.src.dtype == full.src.dtype
    np.testing.assert_array_equal(part.src, src)
    np.testing.assert_array_equal(part.dst, dst)
    if weights is None:
        assert part.weights is None
    else:
        np.testing.assert_array_equal(part.weights, weights)
    if stamps is not None:
        np.testing.assert_array_equal(part.info.timestamps, stamps)


def _edge_list_text(rng, k, base):
    """A small edge list with comments, blank lines, duplicates, self-loops, mixed separators
    and timestamps on some lines."""
    n = int(rng.integers(1, 12))
    lines = []
    for _ in range(int(rng.integers(0, 40))):
        kind = rng.random()
        if kind < 0.08:
            lines.append("# a comment" if rng.random() < 0.5 else "")
            continue
        u, v = (int(x) + base for x in rng.integers(0, n, size=2))
        fields = [str(u), str(v)] + [str(int(w)) for w in rng.integers(-9, 9, size=k)]
        if rng.random() < 0.3:
            fields.append(str(int(rng.integers(-50, 50))))
        sep = str(rng.choice([" ", "\t", ","]))
        lines.append(sep.join(fields))
    return "\n".join(lines) + ("\n" if rng.random() < 0.7 else "")


@_SETTINGS
@given(
    seed=st.integers(0, 2**32 - 1),
    k=st.integers(0, 2),
    base=st.sampled_from([0, 1, -3]),
    symmetrize=st.booleans(),
    drop_self_loops=st.booleans(),
    duplicates=st.sampled_from(["merge", "keep"]),
    vertex_dtype=st.sampled_from(["int32", "int64"]),
)
def test_edge_list_part_equals_the_full_read_filtered(
    tmp_path, seed, k, base, symmetrize, drop_self_loops, duplicates, vertex_dtype
):
    rng = np.random.default_rng(seed)
    path = tmp_path / "g.txt"
    path.write_text(_edge_list_text(rng, k, base))
    keywords = dict(
        num_weights=k,
        ids="as_is",
        index_base=base,
        symmetrize=symmetrize,
        drop_self_loops=drop_self_loops,
        duplicates=duplicates,
        vertex_dtype=vertex_dtype,
    )
    full = io.read_edge_list_arrays(path, **keywords)
    for lo, hi in _ranges(full.num_vertices, rng):
        part = io.read_edge_list_arrays(path, source_range=(lo, hi), **keywords)
        _assert_equal_part(part, full, lo, hi)


def _matrix_market_text(rng, field, symmetry):
    n = int(rng.integers(1, 10))
    entries = []
    for _ in range(int(rng.integers(0, 25))):
        i, j = (int(x) for x in rng.integers(1, n + 1, size=2))
        if symmetry != "general" and i < j:
            i, j = j, i  # the lower triangle, as symmetric files store it
        value = "" if field == "pattern" else f" {int(rng.integers(-9, 9))}"
        entries.append(f"{i} {j}{value}")
    head = [f"%%MatrixMarket matrix coordinate {field} {symmetry}", "% a comment"]
    return "\n".join(head + [f"{n} {n} {len(entries)}"] + entries) + "\n"


@_SETTINGS
@given(
    seed=st.integers(0, 2**32 - 1),
    field=st.sampled_from(["integer", "pattern"]),
    symmetry=st.sampled_from(["general", "symmetric", "skew-symmetric"]),
    drop_self_loops=st.booleans(),
    sort_and_dedupe=st.booleans(),
)
def test_matrix_market_part_equals_the_full_read_filtered(
    tmp_path, seed, field, symmetry, drop_self_loops, sort_and_dedupe
):
    rng = np.random.default_rng(seed)
    path = tmp_path / "g.mtx"
    path.write_text(_matrix_market_text(rng, field, symmetry))
    keywords = dict(drop_self_loops=drop_self_loops, sort_and_dedupe=sort_and_dedupe)
    full = io.read_matrix_market_arrays(path, **keywords)
    for lo, hi in _ranges(full.num_vertices, rng):
        part = io.read_matrix_market_arrays(path, source_range=(lo, hi), **keywords)
        _assert_equal_part(part, full, lo, hi)
    # The same file through the edge-list reader, its 1-based ids as the ids.
    duplicates = "merge" if sort_and_dedupe else "keep"
    as_edges = dict(
        ids="as_is", index_base=1, drop_self_loops=drop_self_loops, duplicates=duplicates
    )
    for symmetrize in (False, True):
        full = io.read_edge_list_arrays(path, symmetrize=symmetrize, **as_edges)
        for lo, hi in _ranges(full.num_vertices, rng):
            part = io.read_edge_list_arrays(
                path, symmetrize=symmetrize, source_range=(lo, hi), **as_edges
            )
            _assert_equal_part(part, full, lo, hi)


def test_symmetric_entry_is_kept_by_each_direction_s_source(tmp_path):
    path = tmp_path / "s.mtx"
    path.write_text("%%MatrixMarket matrix coordinate integer symmetric\n4 4 2\n3 1 5\n4 3 6\n")
    low = io.read_matrix_market_arrays(path, source_range=(0, 2))
    high = io.read_matrix_market_arrays(path, source_range=(2, None))
    assert (low.src.tolist(), low.dst.tolist(), low.weights[:, 0].tolist()) == ([0], [2], [5])
    assert (high.src.tolist(), high.dst.tolist()) == ([2, 2, 3], [0, 3, 2])
    assert low.num_vertices == high.num_vertices == 4


def _error_of(read):
    with pytest.raises(FileFormatError) as caught:
        read()
    return str(caught.value), caught.value.line, caught.value.column


@pytest.mark.parametrize(
    "bad_line",
    ["5 x", "5", "5 6 7 8 9", "-1 3", "5 6 99999999999", "5 6 1 \x01", "99999999999999999999 1"],
)
def test_a_bad_line_anywhere_fails_every_range_alike(tmp_path, bad_line):
    path = tmp_path / "bad.txt"
    path.write_text("0 1 1\n1 2 1\n" + bad_line + "\n2 0 1\n")
    keywords = dict(num_weights=1, ids="as_is")
    expected = _error_of(lambda: io.read_edge_list_arrays(path, **keywords))
    for r in [(0, 0), (0, 1), (2, 3), (7, None), (0, None)]:
        got = _error_of(lambda r=r: io.read_edge_list_arrays(path, source_range=r, **keywords))
        assert got == expected


def test_a_bad_line_of_a_large_file_fails_every_range_alike(tmp_path):
    """Many lines and two threads: the fault is found by the range of the parse that holds it,
    and its line number counts the lines of the ranges before it, kept or not."""
    rng = np.random.default_rng(7)
    src, dst = rng.integers(0, 1000, size=(2, 60_000))
    lines = [f"{u} {v}" for u, v in zip(src.tolist(), dst.tolist())]
    lines[45_000] = "12 oops"
    path = tmp_path / "large.txt"
    path.write_text("\n".join(lines) + "\n")
    expected = _error_of(lambda: io.read_edge_list_arrays(path, ids="as_is", threads=2))
    assert expected[1] == 45_001
    for r in [(0, 0), (0, 500), (500, None)]:
        got = _error_of(
            lambda r=r: io.read_edge_list_arrays(path, ids="as_is", threads=2, source_range=r)
        )
        assert got == expected
    lines[45_000] = "12 13"
    path.write_text("\n".join(lines) + "\n")
    full = io.read_edge_list_arrays(path, ids="as_is", threads=2, duplicates="keep")
    for lo, hi in [(0, 0), (0, 500), (500, None), (123, 124)]:
        part = io.read_edge_list_arrays(
            path, ids="as_is", threads=2, duplicates="keep", source_range=(lo, hi)
        )
        _assert_equal_part(part, full, lo, hi)


@pytest.mark.parametrize(
    "text",
    [
        "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 4\n",  # too few entries
        "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 4\n3 1 5\n",  # too many
        "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 4\n3 4 5\n",  # id past n
        "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 4\n3 1 x\n",  # bad value
        "%%MatrixMarket matrix coordinate integer skew-symmetric\n3 3 1\n3 1 -2147483648\n",
    ],
)
def test_a_broken_matrix_market_file_fails_every_range_alike(tmp_path, text):
    path = tmp_path / "bad.mtx"
    path.write_text(text)
    expected = _error_of(lambda: io.read_matrix_market_arrays(path))
    for r in [(0, 0), (0, 1), (2, None)]:
        assert _error_of(lambda r=r: io.read_matrix_market_arrays(path, source_range=r)) == expected


def test_graph_readers_take_the_range(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("0 1 3\n1 2 4\n2 0 5\n")
    g = io.read_edge_list(path, num_weights=1, ids="as_is", source_range=(1, 2))
    assert (g.num_vertices, g.num_edges) == (3, 1)
    assert [a.tolist() for a in g.edges()] == [[1], [2], [[4]]]
    mtx = tmp_path / "g.mtx"
    io.write_matrix_market(mtx, ([0, 1, 2], [1, 2, 0], [3, 4, 5]))
    g = io.read_matrix_market(mtx, source_range=(2, None))
    assert (g.num_vertices, g.num_edges) == (3, 1)


@pytest.mark.parametrize(
    ("source_range", "words"),
    [
        (5, "is not (lo, hi)"),
        ((1, 2, 3), "is not (lo, hi)"),
        ((-1, 2), "source_range lo=-1 is below 0"),
        ((3, 2), "source_range hi=2 is below 3"),
        ((0.5, 2), "source_range lo=0.5 is not an integer"),
        ((0, True), "source_range hi=True is a bool"),
    ],
)
def test_source_range_is_checked(tmp_path, source_range, words):
    path = tmp_path / "g.txt"
    path.write_text("0 1\n")
    for read in (io.read_edge_list_arrays, io.read_matrix_market_arrays):
        with pytest.raises(InvalidArgumentError, match=re.escape(words)):
            read(path, source_range=source_range)


def test_source_range_refuses_what_a_part_cannot_give(tmp_path):
    path = tmp_path / "g.mtx"
    io.write_matrix_market(path, ([0, 1], [1, 2], [3, 4]))
    with pytest.raises(InvalidArgumentError, match="needs ids='as_is'"):
        io.read_edge_list_arrays(path, source_range=(0, 1))
    with pytest.raises(InvalidArgumentError, match="random weights are drawn"):
        io.read_matrix_market_arrays(path, weights="random", source_range=(0, 1))
    with pytest.raises(InvalidArgumentError, match="needs ids='as_is'"):
        io.read_edge_list_arrays(path, source_range=(0, None))  # a range, even the whole one
    assert io.read_matrix_market_arrays(path, weights="random", source_range=None).num_edges == 2

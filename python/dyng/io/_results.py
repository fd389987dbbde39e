"""Result files of the original tools: distances, parent trees, MOSP path costs, cycle histograms."""

from __future__ import annotations

import numpy as np

from dyng import _backend, _convert
from dyng._errors import InvalidArgumentError
from dyng.io import _args

#: The distance of an unreachable vertex (dyng.sssp.INFINITE_DISTANCE), written as ``INF``.
INFINITE_DISTANCE = 2**61 - 1


def _vector(values, fn, argument, dtype=np.int64):
    arr = _convert.to_numpy(values, fn, argument)
    if arr.ndim != 1 or arr.dtype.kind not in "iu":
        raise InvalidArgumentError(
            f"{fn}(): {argument} must be a 1-d integer array (got shape {arr.shape}, dtype "
            f"{arr.dtype}); pass one value per vertex"
        )
    return np.ascontiguousarray(arr, dtype=dtype)


def read_distances(path, num_vertices):
    """Reads ``v d`` lines (``v INF`` when unreachable), each vertex exactly once.

    Parameters
    ----------
    path : str or os.PathLike
        The file to read.
    num_vertices : int
        n: the file must name every vertex 0..n-1 exactly once.

    Returns
    -------
    numpy.ndarray of int64
        INF reads as ``INFINITE_DISTANCE`` (2**61 - 1).

    Raises
    ------
    InvalidArgumentError
        `path` is not a str or os.PathLike, or `num_vertices` is negative.
    FileFormatError
        A missing file, a malformed line, a vertex out of range, named twice or missing, or a
        negative distance (``path``, ``line``, ``column`` say where).

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "d.txt")
    >>> write_distances(p, [0, 4, INFINITE_DISTANCE])
    >>> read_distances(p, 3).tolist() == [0, 4, INFINITE_DISTANCE]
    True
    """
    fn = "read_distances"
    p = _args.path_of(path, fn)
    n = _args.integer(num_vertices, fn, "num_vertices", minimum=0)
    return _backend.native().io_read_vertex_values(p, fn, n, INFINITE_DISTANCE, 0, 0)


def write_distances(path, distances) -> None:
    """Writes ``v d`` per vertex, ``v INF`` for distances at or above INFINITE_DISTANCE.

    Parameters
    ----------
    path : str or os.PathLike
        The file to write (replaced).
    distances : array_like
        One integer distance per vertex (an sssp result's ``distances``).

    Raises
    ------
    InvalidArgumentError
        `path` is not a str or os.PathLike, or `distances` is not a 1-d integer array.
    FileFormatError
        The file cannot be written.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "d.txt")
    >>> write_distances(p, [0, INFINITE_DISTANCE])
    >>> open(p).read()
    '0 0\\n1 INF\\n'
    """
    fn = "write_distances"
    p = _args.path_of(path, fn)
    _backend.native().io_write_vertex_values(
        p, fn, _vector(distances, fn, "distances"), INFINITE_DISTANCE
    )


def read_parents(path, num_vertices, *, vertex_dtype="int32"):
    """Reads ``v p`` lines (p = -1 for no parent), each vertex exactly once.

    Parameters
    ----------
    path : str or os.PathLike
        The file to read.
    num_vertices : int
        n: the file must name every vertex 0..n-1 exactly once, each parent below n or -1.
    vertex_dtype : {"int32", "int64"}
        The dtype of the returned array.

    Returns
    -------
    numpy.ndarray
        The parents by vertex, -1 for none.

    Raises
    ------
    InvalidArgumentError
        `path` is not a str or os.PathLike, `num_vertices` is negative or does not fit the
        vertex dtype.
    FileFormatError
        A missing file, a malformed line, or a vertex or parent out of range, named twice or
        missing (``path``, ``line``, ``column`` say where).

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "t.txt")
    >>> write_parents(p, [-1, 0, 1])
    >>> read_parents(p, 3).tolist()
    [-1, 0, 1]
    """
    fn = "read_parents"
    p = _args.path_of(path, fn)
    n = _args.integer(num_vertices, fn, "num_vertices", minimum=0)
    wide = _args.is_wide(vertex_dtype, fn)
    if not wide and n - 1 > _convert.INT32_MAX:
        raise InvalidArgumentError(
            f"{fn}(): num_vertices={n} does not fit int32 ids; pass vertex_dtype='int64'"
        )
    values = _backend.native().io_read_vertex_values(p, fn, n, 0, -1, max(n, 1))
    return values if wide else values.astype(np.int32)


def write_parents(path, parents) -> None:
    """Writes ``v p`` per vertex (-1 for none).

    Parameters
    ----------
    path : str or os.PathLike
        The file to write (replaced).
    parents : array_like
        One parent per vertex, -1 for none (an sssp result's ``parents``).

    Raises
    ------
    InvalidArgumentError
        `path` is not a str or os.PathLike, or `parents` is not a 1-d integer array.
    FileFormatError
        The file cannot be written.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "t.txt")
    >>> write_parents(p, [-1, 0])
    >>> open(p).read()
    '0 -1\\n1 0\\n'
    """
    fn = "write_parents"
    p = _args.path_of(path, fn)
    _backend.native().io_write_vertex_values(p, fn, _vector(parents, fn, "parents"), 0)


def write_path_costs(path, costs) -> None:
    """Writes ``v c1 .. cK`` per vertex of an (n, K) cost matrix, INF for unreachable.

    Parameters
    ----------
    path : str or os.PathLike
        The file to write (replaced).
    costs : array_like
        (n, K) integer costs (a mosp result's ``path_costs``); a 1-d array is one column.

    Raises
    ------
    InvalidArgumentError
        `path` is not a str or os.PathLike, or `costs` is not an integer matrix.
    FileFormatError
        The file cannot be written.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "c.txt")
    >>> write_path_costs(p, [[0, 0], [3, INFINITE_DISTANCE]])
    >>> open(p).read()
    '0 0 0\\n1 3 INF\\n'
    """
    fn = "write_path_costs"
    p = _args.path_of(path, fn)
    arr = _convert.to_numpy(costs, fn, "costs")
    if arr.ndim == 1:
        arr = arr.reshape(-1, 1)
    if arr.ndim != 2 or (arr.size and arr.dtype.kind not in "iu"):
        raise InvalidArgumentError(
            f"{fn}(): costs must be an (n, K) integer matrix (got shape {arr.shape}, dtype "
            f"{arr.dtype}); pass MospResult.path_costs"
        )
    flat = np.ascontiguousarray(arr, dtype=np.int64).reshape(-1)
    _backend.native().io_write_path_costs(p, flat, arr.shape[1], INFINITE_DISTANCE)


def histogram_csv(counts, *, include_total=True):
    """The cycle histogram as CycleEnum's CSV text.

    ``# cycle_size, num_of_cycles``, then ``len, count`` for every non-zero count, then
    ``Total, N``.

    Parameters
    ----------
    counts : array_like
        Cycle counts by length (a cycle_count result's ``counts``).
    include_total : bool
        Whether the ``Total, N`` line ends the text.

    Returns
    -------
    str
        The CSV text, one line per non-zero count.

    Raises
    ------
    InvalidArgumentError
        `counts` is not a 1-d integer array or holds a negative value, or `include_total` is
        not a bool.

    Examples
    --------
    >>> histogram_csv([0, 0, 3, 0, 5])
    '# cycle_size, num_of_cycles\\n2, 3\\n4, 5\\nTotal, 8\\n'
    """
    fn = "histogram_csv"
    arr = _convert.to_numpy(counts, fn, "counts")
    if arr.ndim != 1 or (arr.size and arr.dtype.kind not in "iu"):
        raise InvalidArgumentError(
            f"{fn}(): counts must be a 1-d integer array (got shape {arr.shape}, dtype "
            f"{arr.dtype}); pass CycleCountResult.counts"
        )
    values = [int(c) for c in arr.tolist()]
    if any(c < 0 for c in values):
        raise InvalidArgumentError(f"{fn}(): counts hold a negative value; pass cycle counts")
    lines = ["# cycle_size, num_of_cycles"]
    lines += [f"{length}, {c}" for length, c in enumerate(values) if c]
    if _args.flag(include_total, fn, "include_total"):
        lines.append(f"Total, {sum(values)}")
    return "\n".join(lines) + "\n"


def write_histogram_csv(file, counts, *, include_total=True) -> None:
    """Writes [`histogram_csv`][dyng.io.histogram_csv] text to a path (atomically) or an open
    text file.

    Parameters
    ----------
    file : str, os.PathLike or file object
        A path (the file is replaced) or anything with a ``write(str)`` method.
    counts : array_like
        Cycle counts by length.
    include_total : bool
        Whether the ``Total, N`` line ends the text.

    Raises
    ------
    InvalidArgumentError
        As [`histogram_csv`][dyng.io.histogram_csv], or `file` is neither a path nor writable.
    FileFormatError
        The file cannot be written.

    Examples
    --------
    >>> import io
    >>> out = io.StringIO()
    >>> write_histogram_csv(out, [0, 0, 2])
    >>> out.getvalue()
    '# cycle_size, num_of_cycles\\n2, 2\\nTotal, 2\\n'
    """
    text = histogram_csv(counts, include_total=include_total)
    if hasattr(file, "write"):
        file.write(text)
        return
    p = _args.path_of(file, "write_histogram_csv", "file")
    _backend.native().io_write_text(p, "write_histogram_csv", text)

"""Batch files: the original tools' insert.txt/delete.txt pair and dyng's .dgt batch stream."""

from __future__ import annotations

import numpy as np

from dyng import _backend, _convert
from dyng._batch import EdgeBatch
from dyng._errors import InvalidArgumentError
from dyng.io import _args


def _batch_of(parts, dtype):
    ins_src, ins_dst, flat, k, del_src, del_dst = parts
    insert = (ins_src.astype(dtype, copy=False), ins_dst.astype(dtype, copy=False))
    if k > 0:
        insert = insert + (flat.reshape(-1, k),)
    return EdgeBatch(
        insert=insert, delete=(del_src.astype(dtype, copy=False), del_dst.astype(dtype, copy=False))
    )


def read_legacy_batch(
    insert_path,
    delete_path,
    *,
    num_weights=1,
    num_vertices=-1,
    mosp_lenient=False,
    vertex_dtype="int32",
):
    """Reads a change batch of the original tools: ``u v w1..wK`` insertions, ``u v`` deletions.

    Parameters
    ----------
    insert_path, delete_path : str or os.PathLike
        The insertion file (``u v w1..wK`` lines) and the deletion file (``u v`` lines).
    num_weights : int
        K, the weights of every insertion line, each in [1, 2**31 - 1].
    num_vertices : int
        Ids must lie below it (-1: anything the vertex dtype holds).
    mosp_lenient : bool
        Ignore extra numbers at the end of a line, as the MOSP tools did.
    vertex_dtype : {"int32", "int64"}
        The id type of the batch's arrays.

    Returns
    -------
    EdgeBatch
        The insertions (with their K weights) and the deletions.

    Raises
    ------
    InvalidArgumentError
        A path is not a str or os.PathLike, or another argument is out of its range.
    FileFormatError
        A file is missing or cannot be read, or a line is malformed (a weight out of range, an id
        at or above `num_vertices`, a missing or extra number); it names the path, line and
        column.

    Examples
    --------
    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> _ = open(os.path.join(d, "insert.txt"), "w").write("0 2 7\\n")
    >>> _ = open(os.path.join(d, "delete.txt"), "w").write("1 2\\n")
    >>> b = read_legacy_batch(os.path.join(d, "insert.txt"), os.path.join(d, "delete.txt"))
    >>> (b.insert_src.tolist(), b.insert_weights.tolist(), b.delete_dst.tolist())
    ([0], [[7]], [2])
    """
    fn = "read_legacy_batch"
    ins = _args.path_of(insert_path, fn, "insert_path")
    dele = _args.path_of(delete_path, fn, "delete_path")
    k = _args.integer(num_weights, fn, "num_weights", minimum=0, maximum=1 << 16)
    n = _args.integer(num_vertices, fn, "num_vertices", minimum=-1)
    wide = _args.is_wide(vertex_dtype, fn)
    id_max = (1 << 63) - 1 if wide else _convert.INT32_MAX
    parts = _backend.native().io_read_legacy_batch(
        ins, dele, k, n, id_max, _args.flag(mosp_lenient, fn, "mosp_lenient")
    )
    return _batch_of(parts, np.int64 if wide else np.int32)


def _parts_of(batch, fn):
    if not isinstance(batch, EdgeBatch):
        raise InvalidArgumentError(
            f"{fn}(): {type(batch).__name__} is not an EdgeBatch; pass EdgeBatch objects"
        )
    if batch._has_vertex_changes():
        raise InvalidArgumentError(
            f"{fn}(): the batch inserts or deletes vertices, which the file format cannot "
            "hold; pass a batch of edge changes only"
        )
    w = batch.insert_weights
    k = 0 if w is None else w.shape[1]
    flat = np.empty(0, dtype=np.int32) if w is None else np.ascontiguousarray(w).reshape(-1)
    ids = [
        np.ascontiguousarray(a)
        for a in (batch.insert_src, batch.insert_dst, batch.delete_src, batch.delete_dst)
    ]
    return ids[0], ids[1], flat, k, ids[2], ids[3]


def write_legacy_batch(insert_path, delete_path, batch) -> None:
    """Writes a batch as the original tools' insert.txt (``u v w1..wK``) and delete.txt (``u v``).

    Parameters
    ----------
    insert_path, delete_path : str or os.PathLike
        The files to write (replaced, as every writer of [`dyng.io`][] does).
    batch : EdgeBatch
        Edge changes only (the files cannot hold vertex insertions or deletions).

    Raises
    ------
    InvalidArgumentError
        A path is not a str or os.PathLike, `batch` is not an [`EdgeBatch`][dyng.EdgeBatch], or
        it inserts or deletes vertices.
    FileFormatError
        A file cannot be written.

    Examples
    --------
    >>> import os, tempfile, dyng
    >>> d = tempfile.mkdtemp()
    >>> ins, dele = os.path.join(d, "insert.txt"), os.path.join(d, "delete.txt")
    >>> write_legacy_batch(ins, dele, dyng.EdgeBatch(insert=([0], [1], [3]), delete=([2], [0])))
    >>> (open(ins).read(), open(dele).read())
    ('0 1 3\\n', '2 0\\n')
    """
    fn = "write_legacy_batch"
    ins = _args.path_of(insert_path, fn, "insert_path")
    dele = _args.path_of(delete_path, fn, "delete_path")
    a, b, flat, k, c, d = _parts_of(batch, fn)
    _backend.native().io_write_legacy_batch(ins, dele, a, b, flat, k, c, d)


def read_batches(path, *, num_weights=None, num_vertices=-1, resources=None):
    """Reads a ``.dgt`` batch stream into a list of [`dyng.EdgeBatch`][] (int64 ids).

    The format: an optional ``%dgt 1`` first line; ``%batch <id>`` starts a batch (ids rise
    through the file); ``+e u v [w1..wK]`` inserts, ``-e u v`` deletes; ``#`` starts a comment
    line. Any other ``%`` line is refused. A file without ``%batch`` lines is one batch.

    Parameters
    ----------
    path : str or os.PathLike
        The file to read.
    num_weights : int, optional
        K of every insertion; None takes it from the first insertion.
    num_vertices : int
        Ids must lie below it (-1: no bound).
    resources : Resources, optional
        Accepted for compatibility; reading does not use it.

    Returns
    -------
    list of EdgeBatch
        The batches in file order.

    Raises
    ------
    InvalidArgumentError
        `path` is not a str or os.PathLike, or another argument is out of its range.
    FileFormatError
        The file is missing or cannot be read, or a line is malformed (an unknown ``%`` line,
        batch ids that do not rise, an insertion with another number of weights, an id at or
        above `num_vertices`); it names the path, line and column.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "b.dgt")
    >>> _ = open(p, "w").write("%dgt 1\\n%batch 0\\n-e 0 1\\n+e 1 2 5\\n%batch 1\\n+e 2 0 1\\n")
    >>> [(b.num_insertions, b.num_deletions) for b in read_batches(p)]
    [(1, 1), (1, 0)]
    """
    fn = "read_batches"
    p = _args.path_of(path, fn)
    k = (
        -1
        if num_weights is None
        else _args.integer(num_weights, fn, "num_weights", minimum=0, maximum=1 << 16)
    )
    n = _args.integer(num_vertices, fn, "num_vertices", minimum=-1)
    return [_batch_of(parts, np.int64) for parts in _backend.native().io_read_batches(p, k, n)]


def write_batches(path, batches) -> None:
    """Writes batches as a ``.dgt`` stream, each batch's deletions before its insertions.

    Parameters
    ----------
    path : str or os.PathLike
        The file to write (replaced, as every writer of [`dyng.io`][] does).
    batches : iterable of EdgeBatch
        Edge changes only; numbered from 0 in the file.

    Raises
    ------
    InvalidArgumentError
        `path` is not a str or os.PathLike, `batches` is not iterable, or one of them is not an
        [`EdgeBatch`][dyng.EdgeBatch] or inserts or deletes vertices.
    FileFormatError
        The file cannot be written.

    Examples
    --------
    >>> import os, tempfile, dyng
    >>> p = os.path.join(tempfile.mkdtemp(), "b.dgt")
    >>> write_batches(p, [dyng.EdgeBatch(insert=([0], [1], [4]), delete=([1], [2]))])
    >>> open(p).read().splitlines()
    ['%dgt 1', '%batch 0', '-e 1 2', '+e 0 1 4']
    """
    fn = "write_batches"
    p = _args.path_of(path, fn)
    try:
        items = list(batches)
    except TypeError:
        raise InvalidArgumentError(
            f"{fn}(): batches={type(batches).__name__} is not iterable; pass a list of EdgeBatch"
        ) from None
    _backend.native().io_write_batches(p, [_parts_of(b, fn) for b in items])

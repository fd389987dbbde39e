"""Edge lists and Matrix Market files: readers to arrays or graphs, and their writers."""

from __future__ import annotations

import numpy as np

from dyng import _backend, _convert
from dyng._errors import InvalidArgumentError
from dyng.io import _args
from dyng.io._types import EdgeList, EdgeListInfo

_RANDOM_DEFAULT = (1, 100, 12345)
_MM_WEIGHTS = ("automatic", "none", "from_file", "random")


def _edge_list_of(parts, with_info=True):
    n, src, dst, flat, k, external, stamps, mm, symmetric = parts
    weights = flat.reshape(-1, k) if flat is not None else None
    info = EdgeListInfo(external, stamps, bool(mm), bool(symmetric)) if with_info else None
    return EdgeList(int(n), src, dst, weights, info)


def read_edge_list_arrays(
    path,
    *,
    num_weights=0,
    weighted=None,
    ids="compact",
    index_base=0,
    symmetrize=False,
    drop_self_loops=True,
    duplicates="merge",
    threads=0,
    vertex_dtype="int32",
    source_range=None,
):
    """Reads a text edge list (``src dst [w1..wK] [timestamp]`` per line) into arrays.

    Separators are spaces, tabs or commas; lines starting with ``#`` or ``%`` are comments. A
    file that starts with a ``%%MatrixMarket`` banner is read as Matrix Market (its 1-based ids
    as the ids, values checked but not read). The file is parsed in blocks on several threads.

    Parameters
    ----------
    path : str or os.PathLike
        The file to read.
    num_weights : int
        Weight columns K after ``src dst``. With K = 0 a third column is an integer timestamp.
    weighted : bool, optional
        True with num_weights=0 reads one weight column; False reads none.
    ids : {"compact", "as_is"}
        "compact" renumbers the ids 0..n-1 in ascending order (``info.external_ids``);
        "as_is" keeps ``id - index_base`` and n = max id + 1 (which must fit int64).
    index_base : int
        The smallest id of the file (as_is only).
    symmetrize : bool
        Adds (v, u) for every (u, v).
    drop_self_loops : bool
        Leaves out edges (v, v).
    duplicates : {"merge", "keep"}
        "merge" keeps one edge per (src, dst), the last weight read; "keep" keeps every edge
        and its timestamp (``info.timestamps``).
    threads : int
        Parsing threads; 0 means the OpenMP default.
    vertex_dtype : {"int32", "int64"}
        The id type of ``src`` and ``dst``.
    source_range : (int, int or None), optional
        Keeps only the edges whose source lies in ``lo <= src < hi`` (hi None: no upper end),
        such as one rank's shard of a 1D partition
        ([`VertexPartition.range_of`][dyng.distributed.VertexPartition.range_of]). Memory holds
        those edges only, yet every line is read and checked (a malformed line anywhere raises
        what the full read raises), ``num_vertices`` is the whole file's, and the edges are
        exactly the full read's whose source lies in the range (with ``symmetrize``, each
        direction counts by its own source). Needs ``ids="as_is"``.

    Returns
    -------
    EdgeList
        Sorted by (src, dst); weights (m, K) int32 or None.

    Raises
    ------
    InvalidArgumentError
        `path` is not a str or os.PathLike, another argument is not one of its values, or
        `source_range` is not ``(lo, hi)`` with 0 <= lo <= hi or comes with ``ids="compact"``.
    FileFormatError
        A missing file or a malformed line (``path``, ``line``, ``column`` say where): a
        missing or extra column, a weight outside int32, an id that does not fit the vertex
        dtype.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "g.txt")
    >>> _ = open(p, "w").write("# a comment\\n10 20 5\\n20,30,7\\n")
    >>> e = read_edge_list_arrays(p, num_weights=1)
    >>> (e.num_vertices, e.src.tolist(), e.dst.tolist(), e.weights.tolist())
    (3, [0, 1], [1, 2], [[5], [7]])
    >>> e.info.external_ids.tolist()
    [10, 20, 30]
    >>> _ = open(p, "w").write("0 1\\n2 0\\n1 2\\n0 2\\n")
    >>> part = read_edge_list_arrays(p, ids="as_is", source_range=(0, 2))
    >>> (part.num_vertices, part.src.tolist(), part.dst.tolist())
    (3, [0, 0, 1], [1, 2, 2])
    """
    fn = "read_edge_list"
    p = _args.path_of(path, fn)
    k = _args.integer(num_weights, fn, "num_weights", minimum=0, maximum=1 << 16)
    if weighted is not None:
        if _args.flag(weighted, fn, "weighted"):
            k = max(k, 1)
        else:
            k = 0
    _args.choice(ids, ("compact", "as_is"), fn, "ids")
    base = _args.integer(index_base, fn, "index_base")
    _args.choice(duplicates, ("merge", "keep"), fn, "duplicates")
    t = _args.integer(threads, fn, "threads")
    wide = _args.is_wide(vertex_dtype, fn)
    lo, hi = _args.source_range(source_range, fn)
    parts = _backend.native().io_read_edge_list(
        p,
        k,
        ids == "compact",
        base,
        _args.flag(symmetrize, fn, "symmetrize"),
        _args.flag(drop_self_loops, fn, "drop_self_loops"),
        duplicates == "merge",
        max(t, 0),
        wide,
        lo,
        hi,
    )
    return _edge_list_of(parts)


def read_edge_list(
    path,
    *,
    num_weights=0,
    weighted=None,
    ids="compact",
    index_base=0,
    symmetrize=False,
    drop_self_loops=True,
    duplicates="merge",
    threads=0,
    vertex_dtype="int32",
    source_range=None,
    properties=None,
    directed=None,
    semantics=None,
    edge_dtype=None,
    resources=None,
):
    """Reads a text edge list into a [`dyng.Graph`][].

    Parameters
    ----------
    path : str or os.PathLike
        The file to read.
    num_weights, weighted, ids, index_base, symmetrize, drop_self_loops, duplicates : optional
        How to read it, as in [`read_edge_list_arrays`][dyng.io.read_edge_list_arrays].
    threads, vertex_dtype, source_range : optional
        As in [`read_edge_list_arrays`][dyng.io.read_edge_list_arrays] (a graph of one source
        range's edges has the whole file's vertex count).
    properties, directed, semantics, edge_dtype, resources : optional
        The graph's, as in [`dyng.Graph.from_edges`][].

    Returns
    -------
    Graph
        A new graph of the file's edges (ids renumbered with ``ids="compact"``).

    Raises
    ------
    InvalidArgumentError
        An argument is not valid (as the array reader or [`dyng.Graph.from_edges`][] checks).
    FileFormatError
        A missing file or a malformed line (``path``, ``line``, ``column`` say where).

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "g.txt")
    >>> _ = open(p, "w").write("0 1 4\\n1 2 3\\n")
    >>> g = read_edge_list(p, num_weights=1)
    >>> (g.num_vertices, g.num_edges, g.num_weights)
    (3, 2, 1)
    """
    e = read_edge_list_arrays(
        path,
        num_weights=num_weights,
        weighted=weighted,
        ids=ids,
        index_base=index_base,
        symmetrize=symmetrize,
        drop_self_loops=drop_self_loops,
        duplicates=duplicates,
        threads=threads,
        vertex_dtype=vertex_dtype,
        source_range=source_range,
    )
    # Whether kept duplicates stay parallel edges is the properties' call (parallel_edges), as
    # in 0.2.0: the default properties merge them again.
    return e.to_graph(
        properties=properties,
        directed=directed,
        semantics=semantics,
        vertex_dtype=e.src.dtype.name,
        edge_dtype=edge_dtype,
        resources=resources,
    )


def _random_triple(random_weights, fn):
    if random_weights is None:
        return _RANDOM_DEFAULT
    try:
        lo, hi, seed = random_weights
    except (TypeError, ValueError):
        raise InvalidArgumentError(
            f"{fn}(): random_weights={random_weights!r} is not (min, max, seed); pass three "
            "integers"
        ) from None
    i32 = _convert.INT32_MAX
    lo = _args.integer(lo, fn, "random_weights min", minimum=-i32 - 1, maximum=i32)
    hi = _args.integer(hi, fn, "random_weights max", minimum=lo, maximum=i32)
    seed = _args.integer(seed, fn, "random_weights seed", minimum=0, maximum=(1 << 32) - 1)
    return lo, hi, seed


def read_matrix_market_arrays(
    path,
    *,
    weights=None,
    num_weights=1,
    random_weights=None,
    drop_self_loops=True,
    sort_and_dedupe=True,
    vertex_dtype="int32",
    source_range=None,
):
    """Reads a coordinate Matrix Market file (1-based ids) into arrays.

    Parameters
    ----------
    path : str or os.PathLike
        The file to read.
    weights : {"automatic", "none", "from_file", "random"}, optional
        None means "automatic": the values of an ``integer`` matrix, none for ``pattern``
        (a ``real`` or ``complex`` matrix needs "none" or "random"). Values that are not read
        are still checked against the banner's field. A ``skew-symmetric`` matrix's mirrored
        entry has the value negated; ``symmetric`` and ``hermitian`` ones keep it. "random"
        draws ``num_weights`` weights per edge from one mt19937 stream, edge by edge in output
        order, exactly as ``mospPrep mtx2csr`` does.
    num_weights : int
        Weights per edge for "random".
    random_weights : (min, max, seed), optional
        Default (1, 100, 12345).
    drop_self_loops : bool
        Leaves out entries (v, v).
    sort_and_dedupe : bool
        Sort by (src, dst) and keep one edge per pair (the last value read); otherwise file
        order, each mirror of a symmetric matrix right after its entry.
    vertex_dtype : {"int32", "int64"}
        The id type of ``src`` and ``dst``.
    source_range : (int, int or None), optional
        Keeps only the edges whose (0-based) source lies in ``lo <= src < hi`` (hi None: no upper
        end), as [`read_edge_list_arrays`][dyng.io.read_edge_list_arrays] does: every entry is
        read, checked and counted against the size line, ``num_vertices`` is the size line's,
        and each direction of a mirrored entry is kept by its own source's range. Not with
        ``weights="random"``, which are drawn over the whole file's edges.

    Returns
    -------
    EdgeList
        ``info`` is None.

    Raises
    ------
    InvalidArgumentError
        `path` is not a str or os.PathLike, `weights` is not one of its values, `num_weights`
        is < 1, `random_weights` is not three integers with min <= max, or `source_range` is not
        ``(lo, hi)`` with 0 <= lo <= hi or comes with ``weights="random"``.
    FileFormatError
        A missing file, a banner that is not a coordinate matrix, a malformed entry, a value
        that does not fit the weights asked for, or an entry count that differs from the size
        line (``path``, ``line``, ``column`` say where).

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "g.mtx")
    >>> _ = open(p, "w").write(
    ...     "%%MatrixMarket matrix coordinate integer symmetric\\n3 3 2\\n2 1 5\\n3 2 6\\n")
    >>> e = read_matrix_market_arrays(p)
    >>> (e.src.tolist(), e.dst.tolist(), e.weights[:, 0].tolist())
    ([0, 1, 1, 2], [1, 0, 2, 1], [5, 5, 6, 6])
    >>> read_matrix_market_arrays(p, weights="random", num_weights=2).weights.shape
    (4, 2)
    >>> e = read_matrix_market_arrays(p, source_range=(1, None))
    >>> (e.num_vertices, e.src.tolist(), e.dst.tolist())
    (3, [1, 1, 2], [0, 2, 1])
    """
    fn = "read_matrix_market"
    p = _args.path_of(path, fn)
    mode = "automatic" if weights is None else _args.choice(weights, _MM_WEIGHTS, fn, "weights")
    k = _args.integer(num_weights, fn, "num_weights", minimum=1, maximum=1 << 16)
    lo, hi, seed = _random_triple(random_weights, fn)
    wide = _args.is_wide(vertex_dtype, fn)
    source_lo, source_hi = _args.source_range(source_range, fn)
    parts = _backend.native().io_read_matrix_market(
        p,
        mode,
        k,
        lo,
        hi,
        seed,
        _args.flag(drop_self_loops, fn, "drop_self_loops"),
        _args.flag(sort_and_dedupe, fn, "sort_and_dedupe"),
        0,
        wide,
        source_lo,
        source_hi,
    )
    return _edge_list_of(parts, with_info=False)


def read_matrix_market(
    path,
    *,
    weights=None,
    num_weights=1,
    random_weights=None,
    drop_self_loops=True,
    sort_and_dedupe=True,
    vertex_dtype="int32",
    source_range=None,
    properties=None,
    directed=None,
    semantics=None,
    edge_dtype=None,
    resources=None,
):
    """Reads a coordinate Matrix Market file into a [`dyng.Graph`][].

    Parameters
    ----------
    path : str or os.PathLike
        The file to read.
    weights, num_weights, random_weights, drop_self_loops, sort_and_dedupe : optional
        How to read it, as in [`read_matrix_market_arrays`][dyng.io.read_matrix_market_arrays].
    vertex_dtype : {"int32", "int64"}
        The graph's id type.
    source_range : (int, int or None), optional
        Keeps the edges of these sources only, as in
        [`read_matrix_market_arrays`][dyng.io.read_matrix_market_arrays].
    properties, directed, semantics, edge_dtype, resources : optional
        The graph's, as in [`dyng.Graph.from_edges`][].

    Returns
    -------
    Graph
        A new graph of the file's entries (0-based ids).

    Raises
    ------
    InvalidArgumentError
        An argument is not valid (as the array reader or [`dyng.Graph.from_edges`][] checks).
    FileFormatError
        A missing file or a malformed banner, size line or entry (``path``, ``line``,
        ``column`` say where).

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "g.mtx")
    >>> _ = open(p, "w").write("%%MatrixMarket matrix coordinate pattern general\\n2 2 1\\n1 2\\n")
    >>> g = read_matrix_market(p, weights="random")
    >>> (g.num_vertices, g.num_edges, g.num_weights)
    (2, 1, 1)
    """
    e = read_matrix_market_arrays(
        path,
        weights=weights,
        num_weights=num_weights,
        random_weights=random_weights,
        drop_self_loops=drop_self_loops,
        sort_and_dedupe=sort_and_dedupe,
        vertex_dtype=vertex_dtype,
        source_range=source_range,
    )
    return e.to_graph(
        properties=properties,
        directed=directed,
        semantics=semantics,
        vertex_dtype=e.src.dtype.name,
        edge_dtype=edge_dtype,
        resources=resources,
    )


def edges_of(edges, fn):
    """(num_vertices, src, dst, flat int32 weights, K) from a Graph, an EdgeList or a tuple."""
    from dyng._graph import Graph

    if isinstance(edges, Graph):
        src, dst, w = edges.edges()
        n = edges.num_vertices
    elif isinstance(edges, EdgeList):
        src, dst, w, n = edges.src, edges.dst, edges.weights, edges.num_vertices
    elif isinstance(edges, tuple) and len(edges) in (2, 3):
        src, dst = edges[0], edges[1]
        w = edges[2] if len(edges) == 3 else None
        n = None
    else:
        raise InvalidArgumentError(
            f"{fn}(): edges={type(edges).__name__} is not a Graph, EdgeList or (src, dst[, "
            "weights]) tuple; pass one of those"
        )
    s = _convert.id_array(src, fn, "src")
    d = _convert.id_array(dst, fn, "dst")
    _convert.check_same_length(fn, "src", s, "dst", d)
    dt = np.int64 if np.int64 in (s.dtype, d.dtype) else np.int32
    s, d = np.ascontiguousarray(s, dtype=dt), np.ascontiguousarray(d, dtype=dt)
    if w is None:
        flat, k = np.empty(0, dtype=np.int32), 0
    else:
        flat, k = _convert.weight_matrix(w, len(s), fn, "weights")
    if n is None:
        n = int(max(s.max(initial=-1), d.max(initial=-1))) + 1
    return int(n), s, d, np.ascontiguousarray(flat, dtype=np.int32), k


def write_edge_list(path, edges) -> None:
    """Writes ``src dst w1..wK`` lines (single spaces, 0-based ids).

    Parameters
    ----------
    path : str or os.PathLike
        Replaced atomically: a failed write leaves no partial file.
    edges : Graph, EdgeList or tuple (src, dst[, weights])
        The edges, with int32 weights (none, one column, or (m, K)).

    Raises
    ------
    InvalidArgumentError
        `path` is not a str or os.PathLike, `edges` is none of the accepted kinds, or its
        arrays are not ids or int32 weights of matching lengths.
    FileFormatError
        The file cannot be written.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "g.txt")
    >>> write_edge_list(p, ([0, 1], [1, 2], [5, 6]))
    >>> open(p).read()
    '0 1 5\\n1 2 6\\n'
    """
    fn = "write_edge_list"
    p = _args.path_of(path, fn)
    _, s, d, flat, k = edges_of(edges, fn)
    _backend.native().io_write_edge_list(p, s, d, flat, k)


def write_matrix_market(path, edges, *, weight_column=0) -> None:
    """Writes a general coordinate Matrix Market file (``integer``, or ``pattern`` unweighted).

    Parameters
    ----------
    path : str or os.PathLike
        The file to write (replaced).
    edges : Graph, EdgeList or tuple (src, dst[, weights])
        The edges; ids are written 1-based.
    weight_column : int
        Which of the K weights becomes the value.

    Raises
    ------
    InvalidArgumentError
        `path` is not a str or os.PathLike, `edges` is none of the accepted kinds or its arrays
        do not match, or `weight_column` is negative or not below K.
    FileFormatError
        The file cannot be written.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "g.mtx")
    >>> write_matrix_market(p, ([0], [1], [[3, 4]]), weight_column=1)
    >>> open(p).read().splitlines()
    ['%%MatrixMarket matrix coordinate integer general', '2 2 1', '1 2 4']
    """
    fn = "write_matrix_market"
    p = _args.path_of(path, fn)
    n, s, d, flat, k = edges_of(edges, fn)
    col = _args.integer(weight_column, fn, "weight_column", minimum=0)
    _backend.native().io_write_matrix_market(p, n, s, d, flat, k, col)

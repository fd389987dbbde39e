"""The CSR triplet of the original MOSP tools: <prefix>RowPtr.txt, ColInd.txt, Values.txt."""

from __future__ import annotations

import numpy as np

from dyng import _backend, _convert
from dyng._errors import InvalidArgumentError
from dyng.io import _args


def read_csr_triplet(
    prefix,
    *,
    num_weights=0,
    vertex_dtype="int32",
    edge_dtype="int32",
    properties=None,
    directed=None,
    semantics=None,
    resources=None,
):
    """Reads a CSR triplet into a [`dyng.Graph`][].

    Parameters
    ----------
    prefix : str or os.PathLike
        The files are ``<prefix>RowPtr.txt`` (n + 1 numbers), ``<prefix>ColInd.txt`` (m numbers)
        and ``<prefix>Values.txt`` (m lines of K weights, each in [1, 2**31 - 1]).
    num_weights : int
        K; 0 takes it from the first line of Values (a triplet without edges needs it).
    vertex_dtype, edge_dtype : {"int32", "int64"}
        The graph's id and offset types.
    properties, directed, semantics, resources
        As in [`dyng.Graph.from_csr`][].

    Returns
    -------
    Graph
        The graph, weighted with the K weight columns.

    Raises
    ------
    InvalidArgumentError
        `prefix` is not a str or os.PathLike, an argument is out of its range, or the counts do
        not fit the requested id or offset type.
    FileFormatError
        A file is missing or cannot be read, or malformed (row offsets that fall, a column id out
        of range, a weight outside [1, 2**31 - 1], lines of different lengths in Values); it
        names the path, line and column.

    Examples
    --------
    >>> import os, tempfile, dyng
    >>> prefix = os.path.join(tempfile.mkdtemp(), "g")
    >>> write_csr_triplet(prefix, dyng.Graph.from_edges([0, 1], [1, 0], [[1, 2], [3, 4]]))
    >>> g = read_csr_triplet(prefix)
    >>> (g.num_vertices, g.num_edges, g.num_weights)
    (2, 2, 2)
    """
    fn = "read_csr_triplet"
    p = _args.path_of(prefix, fn, "prefix")
    k = _args.integer(num_weights, fn, "num_weights", minimum=0, maximum=1 << 16)
    vid = _convert.dtype_name(vertex_dtype, fn, "vertex_dtype") or "int32"
    eid = _convert.dtype_name(edge_dtype, fn, "edge_dtype") or "int32"
    row_ptr, col_ind, flat, k = _backend.native().io_read_csr_triplet(p, k)
    if eid == "int32" and len(col_ind) > _convert.INT32_MAX:
        raise InvalidArgumentError(
            f"{fn}(): {len(col_ind)} edges do not fit int32 offsets; pass edge_dtype='int64'"
        )
    if vid == "int32" and len(row_ptr) - 1 > _convert.INT32_MAX:
        raise InvalidArgumentError(
            f"{fn}(): {len(row_ptr) - 1} vertices do not fit int32 ids; pass vertex_dtype='int64'"
        )
    from dyng._graph import Graph

    return Graph.from_csr(
        row_ptr.astype(eid),
        col_ind.astype(vid),
        flat.reshape(-1, k),
        properties=properties,
        directed=directed,
        semantics=semantics,
        vertex_dtype=vid,
        edge_dtype=eid,
        resources=resources,
    )


def write_csr_triplet(prefix, graph) -> None:
    """Writes a weighted graph as a CSR triplet (the three files replaced together).

    Parameters
    ----------
    prefix : str or os.PathLike
        The files are ``<prefix>RowPtr.txt``, ``<prefix>ColInd.txt`` and ``<prefix>Values.txt``.
    graph : Graph
        A weighted graph.

    Raises
    ------
    InvalidArgumentError
        `prefix` is not a str or os.PathLike, `graph` is not a [`dyng.Graph`][], or it has no
        weights.
    FileFormatError
        A file cannot be written.

    Examples
    --------
    >>> import os, tempfile, dyng
    >>> prefix = os.path.join(tempfile.mkdtemp(), "g")
    >>> write_csr_triplet(prefix, dyng.Graph.from_edges([0, 0], [1, 2], [5, 6]))
    >>> open(prefix + "RowPtr.txt").read().split()
    ['0', '2', '2', '2']
    """
    fn = "write_csr_triplet"
    p = _args.path_of(prefix, fn, "prefix")
    from dyng._graph import Graph

    if not isinstance(graph, Graph):
        raise InvalidArgumentError(
            f"{fn}(): graph={type(graph).__name__} is not a dyng.Graph; pass a graph"
        )
    if graph.num_weights == 0:
        raise InvalidArgumentError(
            f"{fn}(): the graph is unweighted and a CSR triplet always has a Values file; "
            "pass a weighted graph"
        )
    csr = graph.to_csr()
    flat = np.ascontiguousarray(csr.weights, dtype=np.int32).reshape(-1)
    _backend.native().io_write_csr_triplet(
        p,
        np.ascontiguousarray(csr.row_ptr),
        np.ascontiguousarray(csr.col_ind),
        flat,
        graph.num_weights,
    )

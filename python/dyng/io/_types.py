"""The value types of dyng.io: an edge list read from a file and what the file said about it."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class EdgeListInfo:
    """What a reader learned besides the edges.

    Attributes
    ----------
    external_ids : numpy.ndarray of int64
        With ``ids="compact"``, the file's id of each vertex (ascending); empty otherwise.
    timestamps : numpy.ndarray of int64
        With ``duplicates="keep"``, one timestamp per edge (0 where the file has none);
        empty otherwise.
    matrix_market : bool
        The file was a Matrix Market file.
    symmetric : bool
        The Matrix Market banner said ``symmetric``.

    Examples
    --------
    >>> import os, tempfile, dyng
    >>> p = os.path.join(tempfile.mkdtemp(), "g.txt")
    >>> _ = open(p, "w").write("10 20\\n20 30\\n")
    >>> dyng.io.read_edge_list_arrays(p, ids="compact").info.external_ids.tolist()
    [10, 20, 30]
    """

    external_ids: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.int64))
    timestamps: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.int64))
    matrix_market: bool = False
    symmetric: bool = False


@dataclass
class EdgeList:
    """Edges as arrays, as the ``*_arrays`` readers return them.

    Attributes
    ----------
    num_vertices : int
        The number of vertices (ids lie below it).
    src, dst : numpy.ndarray
        Each edge's endpoints, in the vertex dtype.
    weights : numpy.ndarray or None
        (m, K) int32 weights, or None for an unweighted list.
    info : EdgeListInfo or None
        What the reader learned besides the edges.

    Examples
    --------
    >>> import numpy as np
    >>> e = EdgeList(3, np.array([0, 1], np.int32), np.array([1, 2], np.int32), None)
    >>> (e.num_edges, e.to_graph().num_edges)
    (2, 2)
    """

    num_vertices: int
    src: np.ndarray
    dst: np.ndarray
    weights: np.ndarray | None
    info: EdgeListInfo | None = None

    @property
    def num_edges(self) -> int:
        """The number of edges (rows of src)."""
        return int(len(self.src))

    def to_graph(self, **keywords):
        """A [`dyng.Graph`][] of these edges.

        Parameters
        ----------
        **keywords
            Keywords of [`dyng.Graph.from_edges`][] (``num_vertices`` defaults to this list's).

        Returns
        -------
        Graph
            A new graph of these edges and weights.

        Raises
        ------
        TypeError
            A keyword [`dyng.Graph.from_edges`][] does not take.
        InvalidArgumentError
            As [`dyng.Graph.from_edges`][] raises it (a keyword value that is not valid).

        Examples
        --------
        >>> import numpy as np
        >>> EdgeList(2, np.array([0]), np.array([1]), np.array([[4]])).to_graph().num_weights
        1
        """
        from dyng._graph import Graph

        keywords.setdefault("num_vertices", self.num_vertices)
        return Graph.from_edges(self.src, self.dst, self.weights, **keywords)

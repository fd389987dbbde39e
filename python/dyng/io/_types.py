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
    """

    external_ids: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.int64))
    timestamps: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.int64))
    matrix_market: bool = False
    symmetric: bool = False


@dataclass
class EdgeList:
    """Edges as arrays: ``src``/``dst`` in the vertex dtype, ``weights`` (m, K) int32 or None.

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
        """A :class:`dyng.Graph` of these edges; keywords go to :meth:`dyng.Graph.from_edges`.

        Examples
        --------
        >>> import numpy as np
        >>> EdgeList(2, np.array([0]), np.array([1]), np.array([[4]])).to_graph().num_weights
        1
        """
        from dyng._graph import Graph

        keywords.setdefault("num_vertices", self.num_vertices)
        return Graph.from_edges(self.src, self.dst, self.weights, **keywords)

"""The 1D vertex partition: each rank owns one contiguous range of vertex ids and their
out-edges, the ranges balanced by edges.

Rank k's range starts at the first vertex whose edges before it reach k/p of all edges, so every
rank holds m/p edges give or take one vertex's out-degree (a boundary moves by whole vertices),
and the split depends only on the degrees: every rank computes the same partition from the same
input, with no exchange. Ids past the last vertex belong to the last rank, whose range stays
open: a batch that grows the graph adds vertices at the end, and the owner of a new id must be
known before any rank has heard of it. A graph without edges is split by vertex count.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from dyng._errors import InvalidArgumentError


def _ids(values, what: str, function: str) -> np.ndarray:
    array = np.asarray(values)
    if array.size and not np.issubdtype(array.dtype, np.integer):
        raise InvalidArgumentError(
            f"{function}: {what} must hold integer vertex ids, not {array.dtype}; pass an "
            "integer array"
        )
    array = array.astype(np.int64, copy=False).reshape(-1)
    if array.size and array.min() < 0:
        raise InvalidArgumentError(
            f"{function}: {what} holds the negative id {int(array.min())}; vertex ids start at 0"
        )
    return array


def _rank_count(num_ranks: int, function: str) -> int:
    if isinstance(num_ranks, bool) or not isinstance(num_ranks, int | np.integer) or num_ranks < 1:
        raise InvalidArgumentError(
            f"{function}: num_ranks={num_ranks!r} is not a world size; pass an integer >= 1"
        )
    return int(num_ranks)


@dataclasses.dataclass(frozen=True, eq=False)
class VertexPartition:
    """Contiguous vertex ranges, one per rank: rank k owns ids ``starts[k] <= v < starts[k+1]``.

    The last rank also owns every id at or past ``num_vertices`` (the graph grows at its end).
    Build one with [`from_degrees`][dyng.distributed.VertexPartition.from_degrees] or
    [`from_edges`][dyng.distributed.VertexPartition.from_edges].

    Attributes
    ----------
    starts : numpy.ndarray
        int64, ``num_ranks + 1`` non-decreasing entries from 0 to ``num_vertices``.

    Examples
    --------
    >>> import dyng.distributed as dd
    >>> part = dd.VertexPartition.from_degrees([3, 1, 1, 1, 0, 2], num_ranks=2)
    >>> part.starts.tolist(), part.owner([0, 3, 5, 9]).tolist()
    ([0, 2, 6], [0, 1, 1, 1])
    """

    starts: np.ndarray

    @property
    def num_ranks(self) -> int:
        """The number of ranks (ranges)."""
        return len(self.starts) - 1

    @property
    def num_vertices(self) -> int:
        """The number of vertices the partition was made for."""
        return int(self.starts[-1])

    def range_of(self, rank: int) -> tuple[int, int]:
        """The ids `rank` owns, as ``(start, stop)``: ``start <= v < stop``.

        Parameters
        ----------
        rank : int
            A rank, 0 <= rank < num_ranks.

        Returns
        -------
        tuple of int
            The half-open range; empty (start == stop) for a rank that owns no vertex.

        Raises
        ------
        InvalidArgumentError
            For a rank outside the world.

        Examples
        --------
        >>> import dyng.distributed as dd
        >>> dd.VertexPartition.from_degrees([1, 1, 1, 1], num_ranks=2).range_of(1)
        (2, 4)
        """
        if not 0 <= rank < self.num_ranks:
            raise InvalidArgumentError(
                f"VertexPartition.range_of(): rank {rank} is not in the world of "
                f"{self.num_ranks}; pass 0 <= rank < {self.num_ranks}"
            )
        return int(self.starts[rank]), int(self.starts[rank + 1])

    def owner(self, vertices) -> np.ndarray:
        """The rank that owns each of `vertices`, all at once (a binary search each).

        Parameters
        ----------
        vertices : array_like of int
            Vertex ids, >= 0; ids at or past ``num_vertices`` belong to the last rank.

        Returns
        -------
        numpy.ndarray
            int32, one rank per id, in the order given.

        Raises
        ------
        InvalidArgumentError
            For a negative or non-integer id.

        Examples
        --------
        >>> import dyng.distributed as dd
        >>> part = dd.VertexPartition.from_degrees([1, 1, 1, 1], num_ranks=2)
        >>> part.owner([3, 0, 2]).tolist()
        [1, 0, 1]
        """
        ids = _ids(vertices, "vertices", "VertexPartition.owner()")
        # side="right" skips empty ranges: an id equal to a start belongs to the last rank
        # that starts there, the only one of them whose range is not empty.
        ranks = np.searchsorted(self.starts[1:-1], ids, side="right")
        return ranks.astype(np.int32)

    @classmethod
    def from_degrees(cls, out_degrees, num_ranks: int) -> VertexPartition:
        """Ranges balanced by edges, from each vertex's out-degree.

        Parameters
        ----------
        out_degrees : array_like of int
            The out-degree of vertex 0, 1, ..., n-1 (its length is the vertex count).
        num_ranks : int
            The number of ranges, >= 1.

        Returns
        -------
        VertexPartition
            Every rank holds m/p edges give or take the largest out-degree.

        Raises
        ------
        InvalidArgumentError
            For a negative or non-integer degree, or `num_ranks` < 1.

        Examples
        --------
        >>> import dyng.distributed as dd
        >>> dd.VertexPartition.from_degrees([2, 2, 2, 2, 2, 2], num_ranks=3).starts.tolist()
        [0, 2, 4, 6]
        """
        function = "VertexPartition.from_degrees()"
        degrees = _ids(out_degrees, "out_degrees", function)
        p = _rank_count(num_ranks, function)
        n = len(degrees)
        before = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(degrees, out=before[1:])
        m = int(before[-1])
        targets = np.arange(p + 1, dtype=np.int64)
        if m == 0:
            starts = targets * n // p
        else:
            # The first vertex whose preceding edges reach k*m/p, compared as before*p >= k*m
            # in integers, so no rounding can differ between ranks.
            starts = np.searchsorted(before * p, targets * m, side="left")
            starts[-1] = n
        return cls(np.asarray(starts, dtype=np.int64))

    @classmethod
    def from_edges(cls, sources, num_vertices: int, num_ranks: int) -> VertexPartition:
        """Ranges balanced by edges, from the edges' sources (each edge belongs to its source).

        Parameters
        ----------
        sources : array_like of int
            The source of every edge, each below `num_vertices`.
        num_vertices : int
            The vertex count n.
        num_ranks : int
            The number of ranges, >= 1.

        Returns
        -------
        VertexPartition
            The same partition as [`from_degrees`][dyng.distributed.VertexPartition.from_degrees]
            gives for the sources' out-degrees.

        Raises
        ------
        InvalidArgumentError
            For a negative, non-integer or too large source, or `num_ranks` < 1.

        Examples
        --------
        >>> import dyng.distributed as dd
        >>> dd.VertexPartition.from_edges([0, 0, 0, 1, 2, 3], 4, num_ranks=2).starts.tolist()
        [0, 1, 4]
        """
        function = "VertexPartition.from_edges()"
        src = _ids(sources, "sources", function)
        if src.size and src.max() >= num_vertices:
            raise InvalidArgumentError(
                f"{function}: source {int(src.max())} is not below num_vertices={num_vertices}; "
                "pass the graph's vertex count"
            )
        return cls.from_degrees(np.bincount(src, minlength=num_vertices), num_ranks)

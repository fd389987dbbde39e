"""EdgeBatch and ApplySummary (spec section 3)."""

from __future__ import annotations

import dataclasses

import numpy as np

from dyng import _convert
from dyng._errors import InvalidArgumentError, NotSupportedError

__all__ = ["ApplySummary", "EdgeBatch"]


@dataclasses.dataclass(frozen=True)
class ApplySummary:
    """Counters of one applied batch.

    [`dyng.Graph.apply`][] returns one. An undirected graph counts both directions of every
    change.

    Attributes
    ----------
    inserted_edges : int
        Edges the batch added.
    updated_edges : int
        Existing edges whose weights an insertion overwrote ("upsert").
    deleted_edges : int
        Edges the batch removed.
    ignored_deletions : int
        Deletions of absent edges that were ignored.
    dropped_self_loops : int
        Insertions of (v, v) dropped under ``on_self_loop="drop"``.
    cancelled_pairs : int
        Edges both deleted and inserted by the batch under ``as_sets`` (no change).
    inserted_vertices : int
        Vertices added because an insertion named an id >= ``num_vertices``.
    deleted_vertices : int
        Vertices removed (0 until batches take vertex deletions).
    num_vertices_after : int
        The graph's vertex count after the batch.
    ignored_insertions : int
        Insertions of existing edges that were ignored (``on_existing_insert="ignore"``).

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0], [1], [5])
    >>> s = g.apply(dyng.EdgeBatch(insert=([0, 1], [1, 2], [7, 1])))
    >>> (s.inserted_edges, s.updated_edges, s.inserted_vertices, s.num_vertices_after)
    (1, 1, 1, 3)
    """

    inserted_edges: int = 0
    updated_edges: int = 0
    deleted_edges: int = 0
    ignored_deletions: int = 0
    dropped_self_loops: int = 0
    cancelled_pairs: int = 0
    inserted_vertices: int = 0
    deleted_vertices: int = 0
    num_vertices_after: int = 0
    ignored_insertions: int = 0


@dataclasses.dataclass(frozen=True)
class _Resolved:
    """A batch converted to one graph's id type: what the native apply() takes."""

    insert_src: np.ndarray
    insert_dst: np.ndarray
    insert_weights: np.ndarray  # flat, K per insertion
    num_weights: int
    delete_src: np.ndarray
    delete_dst: np.ndarray
    staged = None  # a host batch: nothing staged on a device (see _device_batch.py)

    def native_args(self):
        return (
            self.insert_src,
            self.insert_dst,
            self.insert_weights,
            self.num_weights,
            self.delete_src,
            self.delete_dst,
        )


_EMPTY_WEIGHTS = np.empty(0, dtype=np.int32)


def check_weight_count(num_insertions, k, graph_num_weights, function):
    """Raises when insertions carry another K than the graph's; True when there are none (the
    batch then counts as carrying the graph's K, whatever its weights say)."""
    if num_insertions == 0:
        return True
    if graph_num_weights == 0 and k > 0:
        raise InvalidArgumentError(
            f"{function}(): the batch inserts edges with {k} weight(s) but the graph is "
            f"unweighted; insert (src, dst) without weights"
        )
    if k != graph_num_weights:
        raise InvalidArgumentError(
            f"{function}(): the batch inserts edges with {k} weight(s) per edge but the "
            f"graph has {graph_num_weights}; pass weights of shape (n, {graph_num_weights})"
        )
    return False


class EdgeBatch:
    """Edge insertions and deletions applied together by [`dyng.Graph.apply`][] or an update.

    The arrays are held by reference and converted at every use, so changing them between uses
    changes the batch. Each use converts and checks a private copy, so a change made while a call
    runs (from another thread) reaches at most the next use, never a batch half-checked.

    Parameters
    ----------
    insert : tuple, optional
        ``(src, dst)`` or ``(src, dst, weights)`` with weights of shape (n,) or (n, K).
    delete : tuple, optional
        ``(src, dst)``.
    insert_vertices, vertex_labels, delete_vertices : optional
        Vertex changes, planned for dyng 0.4: applying a batch with them raises
        NotSupportedError.

    Raises
    ------
    InvalidArgumentError
        When `insert` or `delete` is not a tuple or list of the lengths above. The arrays
        themselves are checked at each use (an id that is not an integer, lengths that differ).

    Examples
    --------
    >>> import dyng
    >>> b = dyng.EdgeBatch(insert=([0, 1], [2, 2], [5, 6]), delete=([3], [4]))
    >>> (b.num_insertions, b.num_deletions, b.num_weights, b.empty)
    (2, 1, 1, False)
    >>> b.insert_weights.tolist()
    [[5], [6]]
    """

    __slots__ = ("_insert", "_delete", "_insert_vertices", "_vertex_labels", "_delete_vertices")

    def __init__(
        self,
        insert=None,
        delete=None,
        *,
        insert_vertices=None,
        vertex_labels=None,
        delete_vertices=None,
    ):
        self._insert = self._check_tuple("insert", insert, (2, 3))
        self._delete = self._check_tuple("delete", delete, (2,))
        self._insert_vertices = insert_vertices
        self._vertex_labels = vertex_labels
        self._delete_vertices = delete_vertices

    @staticmethod
    def _check_tuple(name, value, sizes):
        if value is None:
            return None
        if not isinstance(value, (tuple, list)) or len(value) not in sizes:
            shapes = " or ".join({2: "(src, dst)", 3: "(src, dst, weights)"}[s] for s in sizes)
            raise InvalidArgumentError(f"EdgeBatch(): {name} must be {shapes}; got {value!r}")
        return tuple(value)

    def _ids(self, part, index, argument):
        if part is None:
            return np.empty(0, dtype=np.int32)
        # A batch is for an existing graph: its ids are cast to the graph's type, range-checked.
        return _convert.id_array(part[index], "EdgeBatch", argument, for_graph=True)

    @property
    def insert_src(self):
        """Insertion sources as an int32/int64 array (inferred dtype)."""
        return self._ids(self._insert, 0, "insert_src")

    @property
    def insert_dst(self):
        """Insertion targets as an int32/int64 array (inferred dtype)."""
        return self._ids(self._insert, 1, "insert_dst")

    @property
    def insert_weights(self):
        """Insertion weights as an (n, K) int32 array, or None when the batch has no weights."""
        if self._insert is None or len(self._insert) < 3 or self._insert[2] is None:
            return None
        flat, k = _convert.weight_matrix(
            self._insert[2], self.num_insertions, "EdgeBatch", "insert_weights"
        )
        return flat.reshape(-1, k)

    @property
    def delete_src(self):
        """Deletion sources as an int32/int64 array (inferred dtype)."""
        return self._ids(self._delete, 0, "delete_src")

    @property
    def delete_dst(self):
        """Deletion targets as an int32/int64 array (inferred dtype)."""
        return self._ids(self._delete, 1, "delete_dst")

    @property
    def num_insertions(self):
        """Number of insertions."""
        return len(self.insert_src)

    @property
    def num_deletions(self):
        """Number of deletions."""
        return len(self.delete_src)

    @property
    def num_weights(self):
        """K of the insertion weights (0 when the batch has none)."""
        w = self.insert_weights
        return 0 if w is None else w.shape[1]

    @property
    def empty(self):
        """True when the batch changes nothing."""
        return (
            self.num_insertions == 0 and self.num_deletions == 0 and not self._has_vertex_changes()
        )

    def _has_vertex_changes(self):
        return any(
            v is not None
            for v in (self._insert_vertices, self._vertex_labels, self._delete_vertices)
        )

    def __repr__(self):
        try:
            return (
                f"EdgeBatch(insertions={self.num_insertions}, deletions={self.num_deletions}, "
                f"num_weights={self.num_weights})"
            )
        except Exception:  # repr must not fail on a batch whose arrays do not convert
            return "EdgeBatch(<unconvertible arrays>)"

    def _resolve(self, vertex_dtype, graph_num_weights, function):
        """Converts and checks the whole batch for a graph; raises before anything changes."""
        if self._has_vertex_changes():
            raise NotSupportedError(
                f"{function}(): vertex insertion and deletion in a batch are planned for dyng "
                f"0.4; insert edges to new ids instead (the vertex set grows automatically)"
            )
        ins_src = self._ids(self._insert, 0, "insert_src")
        ins_dst = self._ids(self._insert, 1, "insert_dst")
        _convert.check_same_length(function, "insert_src", ins_src, "insert_dst", ins_dst)
        weights, k = _EMPTY_WEIGHTS, 0
        if self._insert is not None and len(self._insert) == 3 and self._insert[2] is not None:
            weights, k = _convert.weight_matrix(
                self._insert[2], len(ins_src), function, "insert_weights"
            )
        del_src = self._ids(self._delete, 0, "delete_src")
        del_dst = self._ids(self._delete, 1, "delete_dst")
        _convert.check_same_length(function, "delete_src", del_src, "delete_dst", del_dst)
        if check_weight_count(len(ins_src), k, graph_num_weights, function):
            weights, k = _EMPTY_WEIGHTS, graph_num_weights
        return _Resolved(
            _convert.cast_ids(ins_src, vertex_dtype, function, "insert_src"),
            _convert.cast_ids(ins_dst, vertex_dtype, function, "insert_dst"),
            weights,
            k,
            _convert.cast_ids(del_src, vertex_dtype, function, "delete_src"),
            _convert.cast_ids(del_dst, vertex_dtype, function, "delete_dst"),
        )

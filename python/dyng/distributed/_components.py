"""Weak components of a DistributedGraph, computed and kept current across the ranks.

Each rank holds the labels and sizes entries of the vertices it owns; together they equal, bit
for bit, ``dyng.components.compute(graph, kind="weak")`` on the whole graph (a vertex's label
is the smallest id of its component), whatever the partition. The rounds that find them are in
``_label_rounds``; this module holds the result, the compute, and the update: apply the batch,
reset the components a deletion may have cut (those where the rank holding a deleted edge no
longer joins its ends by a path of its own shard; found by their labels, the same set on every
rank), keep every other label, and run the rounds again, which merge what insertions joined.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from dyng._errors import InvalidArgumentError, NotSupportedError, StaleResultError
from dyng.distributed._graph import DistributedGraph, _allreduce, _verdict
from dyng.distributed._label_rounds import (
    _owned_range,
    component_sizes,
    cut_labels,
    local_view,
    settle_labels,
)
from dyng.distributed._vote import vote

COMPUTE = "dyng.distributed.components_compute"
UPDATE = "dyng.distributed.components_update"


@dataclasses.dataclass(frozen=True)
class ComponentsStats:
    """What one distributed components compute or update did (the same on every rank).

    Attributes
    ----------
    path : str
        ``"compute"`` or ``"update"``.
    rounds : int
        Label rounds run (each: four all-to-all exchanges and one allreduce); 0 when no rank
        had a ghost (a world of one, or components that never cross ranks), where each rank's
        local components are the answer.
    reset_components : int
        Components whose labels the update reset: a deleted edge's ends were no longer joined
        by a path of the shard that held it, so the deletion may have cut them.
    reset_vertices : int
        Vertices those components held, over every rank.
    relabelled : int
        Vertices, present before the update, whose label changed.

    Examples
    --------
    >>> import dyng.distributed as dd
    >>> g = dd.DistributedGraph.from_edges([0, 1], [1, 2])
    >>> dd.components_compute(g).stats.path
    'compute'
    """

    path: str
    rounds: int
    reset_components: int = 0
    reset_vertices: int = 0
    relabelled: int = 0


class DistributedComponents:
    """This rank's part of the weak components of a [`DistributedGraph`][dyng.distributed.DistributedGraph].

    Rank r holds the entries of the vertices it owns, ``start`` to ``start + len(labels) - 1``
    (its partition range, cut at the vertex count; the last rank's runs to the end). Laid end to
    end in rank order they are ``dyng.components.compute(g, kind="weak")``'s ``labels`` and
    ``sizes`` for the whole graph; ``gather_labels`` and ``gather_sizes`` do that.
    Built by [`components_compute`][dyng.distributed.components_compute], kept current by
    [`components_update`][dyng.distributed.components_update].

    Attributes
    ----------
    start : int
        The first vertex id this rank holds.
    labels : numpy.ndarray
        int64, read-only: the smallest vertex id of each owned vertex's component.
    sizes : numpy.ndarray
        int64, read-only: per owned id c, the number of vertices (on every rank) labelled c.
    count : int
        The number of components of the whole graph.
    num_vertices : int
        The whole graph's vertex count.
    graph_version : int
        The graph version the labels match.
    stats : ComponentsStats
        What the last compute or update did.

    Examples
    --------
    >>> import dyng.distributed as dd
    >>> g = dd.DistributedGraph.from_edges([0, 2], [1, 3], num_vertices=5)
    >>> r = dd.components_compute(g)
    >>> r.labels.tolist(), r.sizes.tolist(), r.count
    ([0, 0, 2, 2, 4], [2, 0, 2, 0, 1], 3)
    """

    _identity: object  # the identity token of the graph's local shard
    _comm: Any  # mpi4py.MPI.Comm, or None for a world of one
    _size: int
    _start: int
    _labels: np.ndarray
    _sizes: np.ndarray
    _count: int
    _num_vertices: int
    _graph_version: int

    def __init__(self, *args, **kwargs):
        raise TypeError(
            "DistributedComponents() cannot be called directly; compute one with "
            "dyng.distributed.components_compute(graph)"
        )

    @classmethod
    def _settled(cls, graph: DistributedGraph, view, labels: np.ndarray, stats):
        """The result of `labels` settled over `view` (this rank's owned ids); collective."""
        self = object.__new__(cls)
        self._identity, self._comm = _identity_of(graph), graph._comm
        self._size = graph.context.size
        self._commit(graph, view, labels, stats)
        return self

    def _commit(self, graph: DistributedGraph, view, labels: np.ndarray, stats) -> None:
        """Takes `labels`, settled over `view`, with their sizes, count and version
        (collective)."""
        self._start, self._labels = view.start, labels
        self._sizes = component_sizes(graph, view, labels, stats.rounds)
        mine = int(np.count_nonzero(self._labels == self._ids()))
        self._count = int(_allreduce(self._comm, [mine], "SUM")[0])
        self._num_vertices, self._graph_version = graph.num_vertices, graph.version
        self.stats = stats

    def _ids(self) -> np.ndarray:
        return np.arange(self._start, self._start + len(self._labels), dtype=np.int64)

    @staticmethod
    def _read_only(array: np.ndarray) -> np.ndarray:
        view = array.view()
        view.flags.writeable = False
        return view

    @property
    def start(self) -> int:
        """The first vertex id this rank holds."""
        return self._start

    @property
    def labels(self) -> np.ndarray:
        """int64 labels of the owned vertices (read-only)."""
        return self._read_only(self._labels)

    @property
    def sizes(self) -> np.ndarray:
        """int64 sizes entries of the owned ids (read-only)."""
        return self._read_only(self._sizes)

    @property
    def count(self) -> int:
        """The number of components of the whole graph."""
        return self._count

    @property
    def num_vertices(self) -> int:
        """The whole graph's vertex count."""
        return self._num_vertices

    @property
    def graph_version(self) -> int:
        """The graph version the labels match."""
        return self._graph_version

    def _gather(self, part: np.ndarray, root, fn: str):
        if root is not None and (not isinstance(root, int) or not 0 <= root < self._size):
            raise InvalidArgumentError(
                f"DistributedComponents.{fn}(): root={root!r} is not a rank of this world of "
                f"{self._size}; pass a rank in [0, {self._size}) or None for every rank"
            )
        if self._comm is None:
            return part.copy()
        if root is None:
            return np.concatenate(self._comm.allgather(part))
        parts = self._comm.gather(part, root=root)
        return None if parts is None else np.concatenate(parts)

    def gather_labels(self, root=None):
        """The whole graph's labels, on every rank or on `root` only (a collective).

        Parameters
        ----------
        root : int, optional
            The rank that receives them; None: every rank.

        Returns
        -------
        numpy.ndarray or None
            int64, one label per vertex (a new array); None on ranks other than `root`.

        Raises
        ------
        InvalidArgumentError
            `root` is not a rank of the world (every rank raises: they pass the same root).

        Examples
        --------
        >>> import dyng.distributed as dd
        >>> g = dd.DistributedGraph.from_edges([1], [2], num_vertices=4)
        >>> dd.components_compute(g).gather_labels().tolist()
        [0, 1, 1, 3]
        """
        return self._gather(self._labels, root, "gather_labels")

    def gather_sizes(self, root=None):
        """The whole graph's sizes, on every rank or on `root` only (a collective).

        Parameters
        ----------
        root : int, optional
            The rank that receives them; None: every rank.

        Returns
        -------
        numpy.ndarray or None
            int64, per vertex id c the number of vertices labelled c (a new array); None on
            ranks other than `root`.

        Raises
        ------
        InvalidArgumentError
            `root` is not a rank of the world (every rank raises: they pass the same root).

        Examples
        --------
        >>> import dyng.distributed as dd
        >>> g = dd.DistributedGraph.from_edges([1], [2], num_vertices=4)
        >>> dd.components_compute(g).gather_sizes().tolist()
        [1, 2, 0, 1]
        """
        return self._gather(self._sizes, root, "gather_sizes")

    def __repr__(self):
        return (
            f"DistributedComponents(kind='weak', count={self._count}, "
            f"num_vertices={self._num_vertices}, graph_version={self._graph_version}, "
            f"start={self._start}, owned={len(self._labels)})"
        )


def _identity_of(graph: DistributedGraph) -> object:
    """The token that tells the graph's shard apart from every other Graph (as ResultBase keeps
    it for one graph's results)."""
    local: Any = graph.local  # Graph sets _identity where it wraps its native graph
    return local._identity


def _check_graph(fn: str, graph) -> None:
    if not isinstance(graph, DistributedGraph):
        raise TypeError(
            f"{fn}(): graph must be a dyng.distributed.DistributedGraph; got {type(graph).__name__}"
        )


def components_compute(graph: DistributedGraph, *, kind: str = "weak") -> DistributedComponents:
    """The weak components of a distributed graph; each rank keeps its vertices' part.

    A collective: every rank calls it. Each rank groups its shard's edges (directions ignored)
    into local components, then label rounds run across the ranks (FastSV-style): every local
    component takes its smallest label, lowered ghost labels and the vertices named by lowered
    labels (hooking) get it at their owners, each label falls to the label of the vertex it
    names (shortcutting), and owners send the labels they changed to the ranks holding those
    vertices, until an allreduce finds no change.

    Parameters
    ----------
    graph : DistributedGraph
        The graph; weights are ignored.
    kind : {"weak"}
        Only weak components are distributed yet.

    Returns
    -------
    DistributedComponents
        This rank's labels and sizes entries; gathered, they equal
        ``dyng.components.compute(g, kind="weak")`` on the whole graph, bit for bit.

    Raises
    ------
    TypeError
        `graph` is not a DistributedGraph.
    NotSupportedError
        ``kind="strong"`` (not distributed yet).
    InvalidArgumentError
        Another `kind`.

    Examples
    --------
    >>> import dyng.distributed as dd
    >>> g = dd.DistributedGraph.from_edges([3, 1, 4], [1, 0, 5])
    >>> r = dd.components_compute(g)
    >>> r.gather_labels().tolist(), r.count
    ([0, 0, 2, 0, 4, 4], 3)
    """
    _check_graph(COMPUTE, graph)
    if kind == "strong":
        raise NotSupportedError(
            f'{COMPUTE}(): kind="strong" is not distributed yet; gather the graph and use '
            'dyng.components.compute, or pass kind="weak"'
        )
    if kind != "weak":
        raise InvalidArgumentError(f'{COMPUTE}(): kind must be "weak"; got {kind!r}')
    n = graph.num_vertices
    start, stop = _owned_range(graph.partition, graph.context.rank, n)
    view = local_view(graph, start, stop)
    labels = np.arange(start, stop, dtype=np.int64)
    rounds = settle_labels(graph, view, labels)
    return DistributedComponents._settled(graph, view, labels, ComponentsStats("compute", rounds))


def _check_current(graph: DistributedGraph, result) -> None:
    """Raises, on this rank, for a result that is not a current one of `graph`."""
    if not isinstance(result, DistributedComponents):
        raise TypeError(
            f"{UPDATE}(): result must be a dyng.distributed.DistributedComponents; got "
            f"{type(result).__name__}"
        )
    if result._identity is not _identity_of(graph):
        raise StaleResultError(
            f"{UPDATE}(): the result belongs to another graph; pass the graph it was computed on"
        )
    if result.graph_version != graph.version:
        raise StaleResultError(
            f"{UPDATE}(): the result matches graph version {result.graph_version} but the "
            f"graph is at version {graph.version}; update results with every batch or compute "
            "a new one"
        )


def _deletions(batch, below: int) -> tuple[np.ndarray, np.ndarray]:
    """This rank's part's deletions whose source was a vertex before the batch (a deletion
    from a new vertex removed no old edge)."""
    sources = np.asarray(batch.delete_src, dtype=np.int64)
    targets = np.asarray(batch.delete_dst, dtype=np.int64)
    kept = sources < below
    return sources[kept], targets[kept]


def _carried(old_start: int, old: np.ndarray, start: int, stop: int) -> np.ndarray:
    """Labels for the ids start..stop-1: the old ones where they existed, each new id its own."""
    labels = np.arange(start, stop, dtype=np.int64)
    low, high = max(start, old_start), min(stop, old_start + len(old))
    if high > low:
        labels[low - start : high - start] = old[low - old_start : high - old_start]
    return labels


def _changed_count(comm, old_start: int, old: np.ndarray, start: int, new: np.ndarray) -> int:
    """Vertices present before whose label changed, over every rank."""
    low, high = max(start, old_start), min(start + len(new), old_start + len(old))
    mine = 0
    if high > low:
        mine = int(
            np.count_nonzero(
                old[low - old_start : high - old_start] != new[low - start : high - start]
            )
        )
    return int(_allreduce(comm, [mine], "SUM")[0])


def components_update(graph: DistributedGraph, batch, result: DistributedComponents):
    """Applies `batch` to `graph` and brings `result` to a fresh compute's labels, bit for bit.

    A collective: every rank passes its own part of the batch, as to
    [`DistributedGraph.apply`][dyng.distributed.DistributedGraph.apply]. A stale result or a
    batch refused on any rank raises on every rank and changes neither the graph nor the
    result. After the apply, each deletion (u, v) goes to u's owner, which held the edge: when
    a path of its shard's edges (directions ignored) still joins u and v, the deletion cut
    nothing; otherwise u's old label is named. The named labels are gathered on every rank, the
    components they name are reset (each vertex labelled with itself) on every rank, every
    other label is kept, and the label rounds run again, joining what insertions merged and
    splitting what the deletions cut. The set of reset labels is the same on every rank, so
    every rank takes the same steps.

    Parameters
    ----------
    graph : DistributedGraph
        The graph `result` was computed on.
    batch : EdgeBatch
        This rank's part of the batch (weights are ignored).
    result : DistributedComponents
        A current result of `graph`, updated in place.

    Returns
    -------
    ComponentsStats
        What the update did; ``result.stats`` holds it too.

    Raises
    ------
    TypeError
        `graph` or `result` has the wrong type, or `batch` is not an EdgeBatch.
    StaleResultError
        `result` belongs to another graph or another version of it (on every rank).
    InvalidArgumentError
        What [`DistributedGraph.apply`][dyng.distributed.DistributedGraph.apply] refuses.

    Examples
    --------
    >>> import dyng, dyng.distributed as dd
    >>> g = dd.DistributedGraph.from_edges([0, 1, 3], [1, 2, 4])
    >>> r = dd.components_compute(g)
    >>> s = dd.components_update(g, dyng.EdgeBatch(insert=([2], [3]), delete=([0], [1])), r)
    >>> r.gather_labels().tolist(), r.count, s.reset_components
    ([0, 1, 1, 1, 1], 2, 1)

    A deletion whose ends another path still joins resets nothing:

    >>> s = dd.components_update(g, dyng.EdgeBatch(insert=([4], [1]), delete=([3], [4])), r)
    >>> r.gather_labels().tolist(), s.reset_components
    ([0, 1, 1, 1, 1], 0)
    """
    _check_graph(UPDATE, graph)
    comm = graph._comm
    vote(_verdict(lambda: _check_current(graph, result))[1], comm=comm)
    graph.apply(batch)
    old_start, old = result._start, result._labels
    start, stop = _owned_range(graph.partition, graph.context.rank, graph.num_vertices)
    view = local_view(graph, start, stop)
    reset_labels = cut_labels(graph, view, _deletions(batch, result.num_vertices), old, old_start)
    labels = _carried(old_start, old, start, stop)
    ids = np.arange(start, stop, dtype=np.int64)
    reset = np.isin(labels, reset_labels)
    labels[reset] = ids[reset]
    reset_vertices = int(_allreduce(comm, [np.count_nonzero(reset)], "SUM")[0])
    rounds = settle_labels(graph, view, labels)
    relabelled = _changed_count(comm, old_start, old, start, labels)
    stats = ComponentsStats("update", rounds, len(reset_labels), reset_vertices, relabelled)
    result._commit(graph, view, labels, stats)
    return stats

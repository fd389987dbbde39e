"""The result of the distributed weak components: each rank's part of the labels and sizes.

[`DistributedComponents`][dyng.distributed.DistributedComponents] holds the entries of the
vertices a rank owns, with the global count; gathered in rank order they are one graph's
``dyng.components`` labels and sizes. ``_components`` computes and updates it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from dyng._errors import InvalidArgumentError
from dyng.distributed._graph import DistributedGraph, _allreduce
from dyng.distributed._label_rounds import component_sizes


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
        Vertices whose label changed (a vertex the batch added counts when its label is not
        its own id). Where no rank has a ghost, the shards' native repairs count them; as in
        ``dyng.components.Stats``, a repair that fell back to a recompute counts 0.

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
    _local: Any  # dyng.components.Result of the shard (its local components), kept current
    _start: int
    _stop: int
    # Whether the answer is the local result's own (no rank has a ghost); then labels and
    # sizes are read from it when asked (None until then), so an update that keeps it so costs
    # what the native repair costs.
    _answer_is_local: bool
    _labels: np.ndarray | None
    _sizes: np.ndarray | None
    _count: int
    _num_vertices: int
    _graph_version: int

    def __init__(self, *args, **kwargs):
        raise TypeError(
            "DistributedComponents() cannot be called directly; compute one with "
            "dyng.distributed.components_compute(graph)"
        )

    @classmethod
    def _settled(cls, graph: DistributedGraph, local, placed, labels: np.ndarray, stats):
        """The result of `labels` settled over `view` (this rank's owned ids) of a graph of `n`
        vertices (`placed`: the two), with `local`, the shard's components result; collective."""
        view, n = placed
        self = object.__new__(cls)
        self._identity, self._comm = _identity_of(graph), graph._comm
        self._size, self._local = graph.context.size, local
        self._place(view.start, view.stop, n)
        self._commit(graph, view, labels, stats)
        return self

    def _place(self, start: int, stop: int, num_vertices: int) -> None:
        """The owned ids and the vertex count the next commit's answer is for."""
        self._start, self._stop, self._num_vertices = start, stop, num_vertices

    def _commit(self, graph: DistributedGraph, view, labels: np.ndarray, stats) -> None:
        """Takes `labels`, settled over `view`, with their sizes, count and version
        (collective). Settled without a round, they are the local result's: kept as that."""
        if stats.rounds == 0:
            self._commit_local(stats)
            return
        self._answer_is_local, self._labels = False, labels
        self._sizes = component_sizes(graph, view, labels, stats.rounds)
        self._stamp(int(np.count_nonzero(self._labels == self._ids())), stats)

    def _commit_local(self, stats) -> None:
        """Takes the local result as the answer, where no rank has a ghost (every component
        lies in one rank's owned range), without a pass over the vertices (collective)."""
        self._answer_is_local, self._labels, self._sizes = True, None, None
        held = self._held()
        # The shard's other ids are alone there (none is a ghost), and so are the owned ids it
        # does not hold yet: the owned components are its count less those, plus these.
        shard_ids = self._shard_ids()
        mine = self._local.count - (shard_ids - held) + (self._stop - self._start - held)
        self._stamp(mine, stats)

    def _stamp(self, mine: int, stats) -> None:
        """Sums the components whose smallest id each rank owns; takes the shard's version."""
        self._count = int(_allreduce(self._comm, [mine], "SUM")[0])
        self._graph_version = self._local.graph_version
        self.stats = stats

    def _held(self) -> int:
        """How many owned ids the shard holds (it may not know the newest ones yet)."""
        return max(min(self._stop, self._shard_ids()) - self._start, 0)

    def _shard_ids(self) -> int:
        return int(self._local._state.num_vertices)

    def _from_local(self, name: str, alone) -> np.ndarray:
        """The local result's `name` entries of the owned ids; `alone` for those not held."""
        values = getattr(self._local, name).to_numpy(copy=None)
        held = self._held()
        entries = np.empty(self._stop - self._start, dtype=np.int64)
        entries[:held] = values[self._start : self._start + held]
        entries[held:] = alone[held:] if isinstance(alone, np.ndarray) else alone
        return entries

    def _owned_labels(self) -> np.ndarray:
        if self._labels is None:
            self._labels = self._from_local("labels", self._ids())
        return self._labels

    def _owned_sizes(self) -> np.ndarray:
        if self._sizes is None:
            self._sizes = self._from_local("sizes", 1)
        return self._sizes

    def _labels_at(self, ids: np.ndarray) -> np.ndarray:
        """The labels of owned ids the shard holds, without reading every label on a host shard
        (a device shard's labels come to the host whole: its rounds run on the host yet)."""
        if self._labels is None:
            return self._local.labels.to_numpy(copy=None)[ids].astype(np.int64)
        return self._labels[ids - self._start]

    def _sizes_at(self, ids: np.ndarray) -> np.ndarray:
        """The sizes entries of owned ids the shard holds, without reading every entry on a host
        shard (a device shard's come to the host whole)."""
        if self._sizes is None:
            return self._local.sizes.to_numpy(copy=None)[ids].astype(np.int64)
        return self._sizes[ids - self._start]

    def _ids(self) -> np.ndarray:
        return np.arange(self._start, self._stop, dtype=np.int64)

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
        return self._read_only(self._owned_labels())

    @property
    def sizes(self) -> np.ndarray:
        """int64 sizes entries of the owned ids (read-only)."""
        return self._read_only(self._owned_sizes())

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
        return self._gather(self._owned_labels(), root, "gather_labels")

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
        return self._gather(self._owned_sizes(), root, "gather_sizes")

    def __repr__(self):
        return (
            f"DistributedComponents(kind='weak', count={self._count}, "
            f"num_vertices={self._num_vertices}, graph_version={self._graph_version}, "
            f"start={self._start}, owned={self._stop - self._start})"
        )


def _identity_of(graph: DistributedGraph) -> object:
    """The token that tells the graph's shard apart from every other Graph (as ResultBase keeps
    it for one graph's results)."""
    local: Any = graph.local  # Graph sets _identity where it wraps its native graph
    return local._identity

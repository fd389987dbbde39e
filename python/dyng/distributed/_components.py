"""Weak components of a DistributedGraph, computed and kept current across the ranks.

Each rank holds the labels and sizes entries of the vertices it owns; together they equal, bit
for bit, ``dyng.components.compute(graph, kind="weak")`` on the whole graph (a vertex's label
is the smallest id of its component), whatever the partition. The rounds that find them are in
``_label_rounds``, the result in ``_components_result``; this module holds the compute and the
update: apply the batch and repair each shard's own components result (dyng.components' native
update, from the shard's change log), reset the components a deletion may have cut (those where
the rank holding a deleted edge no longer joins its ends by a path of its own shard; found by
their labels, the same set on every rank), keep every other label, and run the rounds again,
which merge what insertions joined. Where no rank has a ghost (a world of one, or components
that never cross ranks) the shard's result is the answer and the update ends after its repair.

In a device world the shard's components are computed and repaired on the rank's GPU, and the
rounds run on the host over MPI, as for host shards: the shard's labels and sizes come to the
host once per compute and about twice per update (docs/developer/distributed.md, the plan's
step 2: the rounds on the device, over NCCL, come next).
"""

from __future__ import annotations

import numpy as np

from dyng import components
from dyng._errors import InvalidArgumentError, NotSupportedError, StaleResultError
from dyng.distributed._components_result import (
    ComponentsStats,
    DistributedComponents,
    _identity_of,
)
from dyng.distributed._graph import DistributedGraph, _allreduce, _verdict
from dyng.distributed._label_rounds import _owned_range, local_view, settle_labels
from dyng.distributed._vote import vote

COMPUTE = "dyng.distributed.components_compute"
UPDATE = "dyng.distributed.components_update"


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
    local = components.compute(graph.local, kind="weak")
    view = local_view(local, start, stop)
    labels = np.arange(start, stop, dtype=np.int64)
    rounds = settle_labels(graph, view, labels)
    stats = ComponentsStats("compute", rounds)
    return DistributedComponents._settled(graph, local, (view, n), labels, stats)


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


def _carried(old_start: int, old: np.ndarray, start: int, stop: int) -> np.ndarray:
    """Labels for the ids start..stop-1: the old ones where they existed, each new id its own."""
    labels = np.arange(start, stop, dtype=np.int64)
    low, high = max(start, old_start), min(stop, old_start + len(old))
    if high > low:
        labels[low - start : high - start] = old[low - old_start : high - old_start]
    return labels


def _applied(graph: DistributedGraph, batch, result: DistributedComponents):
    """Applies `batch` (a collective) and repairs the shard's components result from this
    rank's change log (after the apply's vote: a batch refused anywhere never reaches it).
    Returns the vertex count, the repair's relabelled count and, per edge the shard lost, its
    source's old label and whether the shard no longer joins its ends, with those labels' old
    sizes entries where the answer stays the local result's (else None).

    The old labels are read before the repair. Where the answer stays the local result's (it
    was, and no rank's batch added an edge to a vertex it does not own, so no ghost appears),
    the old labels and sizes are read only at the deleted edges' sources; otherwise every
    owned label is read first, for the rounds.
    """
    whole, mine, change_log = graph._apply_logged(batch, log=True)
    src, dst, kind = (np.asarray(a) for a in change_log.changes())
    lost_src, lost_dst = src[kind == 1].astype(np.int64), dst[kind == 1].astype(np.int64)
    start, stop = _owned_range(graph.partition, graph.context.rank, whole.num_vertices_after)
    added = dst[kind == 0]
    crossing = int(np.any((added < start) | (added >= stop)))
    stays_local = result._answer_is_local and _allreduce(graph._comm, [crossing], "MAX")[0] == 0
    old_labels = result._labels_at(lost_src)
    old_sizes = result._sizes_at(old_labels) if stays_local else None
    if not stays_local:
        result._owned_labels()
    local = result._local
    native = local._apply_log(graph.local, change_log, local._resources._execution(), mine)
    labels_now = local.labels.to_numpy(copy=None)
    cut = labels_now[lost_src] != labels_now[lost_dst]
    return whole.num_vertices_after, native.relabelled, (old_labels, cut, old_sizes)


def _named(comm, labels: np.ndarray) -> np.ndarray:
    """The distinct `labels` of every rank, sorted, the same on every rank (a collective)."""
    named = np.unique(labels)
    if comm is None:
        return named
    return np.unique(np.concatenate(comm.allgather(named)))


def components_update(graph: DistributedGraph, batch, result: DistributedComponents):
    """Applies `batch` to `graph` and brings `result` to a fresh compute's labels, bit for bit.

    A collective: every rank passes its own part of the batch, as to
    [`DistributedGraph.apply`][dyng.distributed.DistributedGraph.apply]. A stale result or a
    batch refused on any rank raises on every rank and changes neither the graph nor the
    result. After the apply, each rank repairs the components of its own shard with
    ``dyng.components.update``'s native repair, from the shard's change log. Where no rank
    has a ghost (a world of one, or components that never cross ranks) they are the answer,
    and the update costs what the repair costs. Otherwise, for each edge (u, v) a shard lost:
    when a path of its edges (directions ignored) still joins u and v, the deletion cut
    nothing; else u's old label is named. The named labels are gathered on every rank, the
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
    old_start = result._start
    n, native_relabelled, (old_labels, cut, old_sizes) = _applied(graph, batch, result)
    reset_labels = _named(comm, old_labels[cut])
    start, stop = _owned_range(graph.partition, graph.context.rank, n)
    result._place(start, stop, n)
    if old_sizes is not None:  # the answer stays the local result's: no pass over the vertices
        _, first = np.unique(old_labels[cut], return_index=True)
        sums = _allreduce(comm, [old_sizes[cut][first].sum(), native_relabelled], "SUM")
        stats = ComponentsStats("update", 0, len(reset_labels), *(int(x) for x in sums))
        result._commit_local(stats)
        return stats
    old = result._owned_labels()  # read before the repair, in _applied
    view = local_view(result._local, start, stop)
    before = _carried(old_start, old, start, stop)  # an added id: its own id
    labels = before.copy()
    reset = np.isin(labels, reset_labels)
    labels[reset] = np.arange(start, stop, dtype=np.int64)[reset]
    rounds = settle_labels(graph, view, labels)
    changed = [np.count_nonzero(reset), np.count_nonzero(before != labels)]
    sums = _allreduce(comm, changed, "SUM")  # reset and relabelled vertices
    stats = ComponentsStats("update", rounds, len(reset_labels), *(int(x) for x in sums))
    result._commit(graph, view, labels, stats)
    return stats

"""Weak components of a DistributedGraph, computed and kept current across the ranks.

Each rank holds the labels and sizes entries of the vertices it owns; together they equal, bit
for bit, ``dyng.components.compute(graph, kind="weak")`` on the whole graph (a vertex's label
is the smallest id of its component), whatever the partition. The rounds that find them are in
``_label_rounds``, the result in ``_components_result``; this module holds the compute and the
update: apply the batch, reset the components a deletion may have cut (those where the rank
holding a deleted edge no longer joins its ends by a path of its own shard; found by their
labels, the same set on every rank), keep every other label, and run the rounds again, which
merge what insertions joined.
"""

from __future__ import annotations

import numpy as np

from dyng._errors import InvalidArgumentError, NotSupportedError, StaleResultError
from dyng.distributed._components_result import (
    ComponentsStats,
    DistributedComponents,
    _identity_of,
)
from dyng.distributed._graph import DistributedGraph, _allreduce, _verdict
from dyng.distributed._label_rounds import _owned_range, cut_labels, local_view, settle_labels
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

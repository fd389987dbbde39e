"""One rank's share of an edge list: the edges its vertices own, and the ghosts they reach.

An edge lives with its source (the 1D partition stores out-edges), so a rank relaxes its own
edges without asking anyone; a target owned by another rank is a ghost: the rank keeps a slot
for its value (a distance, a component label) and hears from the owner when it changes.

An undirected edge {u, v} is stored as a single-process undirected graph stores it, in both
directions: u -> v in u's row and v -> u in v's, so each direction lives with its own source's
owner, and an edge whose ends two ranks own is held by both (`_both_directions`).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from dyng._errors import InvalidArgumentError
from dyng.distributed._partition import VertexPartition, _ids


@dataclasses.dataclass(frozen=True, eq=False)
class EdgeShard:
    """The edges one rank owns and the ghost vertices they reach.

    Attributes
    ----------
    rank : int
        The rank the shard is for.
    start, stop : int
        The vertex ids it owns: ``start <= v < stop``.
    src, dst : numpy.ndarray
        int64, its edges (those whose source it owns), in the order of the input; for an
        undirected list, the directions whose source it owns.
    weights : numpy.ndarray or None
        The weight rows of those edges (the input's rows, same dtype), or None.
    edge_ids : numpy.ndarray
        int64, each shard edge's position in the input edge list (an undirected edge whose
        ends the rank both owns appears twice, once per direction).
    ghosts : numpy.ndarray
        int64, sorted and distinct: the targets of its edges that other ranks own.
    ghost_owners : numpy.ndarray
        int32, the rank owning each ghost.

    Examples
    --------
    >>> import dyng.distributed as dd
    >>> part = dd.VertexPartition.from_edges([0, 1, 2, 3], 4, num_ranks=2)
    >>> shard = dd.shard_edges(part, 0, [0, 1, 2, 3], [1, 2, 3, 0])
    >>> shard.src.tolist(), shard.dst.tolist(), shard.ghosts.tolist()
    ([0, 1], [1, 2], [2])
    """

    rank: int
    start: int
    stop: int
    src: np.ndarray
    dst: np.ndarray
    weights: np.ndarray | None
    edge_ids: np.ndarray
    ghosts: np.ndarray
    ghost_owners: np.ndarray


def _both_directions(src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The directions of undirected entries in order: (index, reversed), entry i's (u, v) and
    then its (v, u), once for a self-loop (an undirected graph stores a self-loop once). Each
    direction keeps the entry's place in the list, so a rank resolves the entries it stores in
    the order one graph resolves them."""
    twice = src != dst
    index = np.repeat(np.arange(len(src), dtype=np.int64), np.where(twice, 2, 1))
    reverse = np.zeros(len(index), dtype=bool)
    reverse[np.cumsum(np.where(twice, 2, 1))[twice] - 1] = True
    return index, reverse


def shard_edges(
    partition: VertexPartition, rank: int, src, dst, weights=None, *, directed=True
) -> EdgeShard:
    """The shard of an edge list that `rank` holds under `partition`.

    Parameters
    ----------
    partition : VertexPartition
        The vertex ranges of the world.
    rank : int
        The rank whose shard to take, 0 <= rank < partition.num_ranks.
    src, dst : array_like of int
        The edges' endpoints, one length.
    weights : array_like, optional
        One weight (or one row of weights) per edge.
    directed : bool
        False for the edges of an undirected graph: each edge (u, v) stands for both
        directions, and the shard holds those whose source `rank` owns (both, in input order,
        when it owns u and v; one when it owns one end; a self-loop once).

    Returns
    -------
    EdgeShard
        The edges whose source `rank` owns and the ghosts they reach.

    Raises
    ------
    InvalidArgumentError
        For a rank outside the world, a negative or non-integer id, or arrays whose lengths
        differ.

    Examples
    --------
    >>> import dyng.distributed as dd
    >>> part = dd.VertexPartition.from_edges([0, 0, 1, 2], 3, num_ranks=2)
    >>> shard = dd.shard_edges(part, 1, [0, 0, 1, 2], [1, 2, 2, 0], weights=[5, 6, 7, 8])
    >>> shard.edge_ids.tolist(), shard.weights.tolist(), shard.ghost_owners.tolist()
    ([2, 3], [7, 8], [0])
    >>> both = dd.shard_edges(part, 1, [0, 0, 1, 2], [1, 2, 2, 0], directed=False)
    >>> both.src.tolist(), both.dst.tolist(), both.edge_ids.tolist()
    ([1, 2, 1, 2, 2], [0, 0, 2, 1, 0], [0, 1, 2, 2, 3])
    """
    function = "dyng.distributed.shard_edges()"
    start, stop = partition.range_of(rank)
    sources, targets = _ids(src, "src", function), _ids(dst, "dst", function)
    rows = None if weights is None else np.asarray(weights)
    lengths = {len(sources), len(targets)} | ({len(rows)} if rows is not None else set())
    if len(lengths) > 1:
        raise InvalidArgumentError(
            f"{function}: src, dst and weights have lengths {len(sources)}, {len(targets)}"
            f"{'' if rows is None else f', {len(rows)}'}; pass one entry per edge in each"
        )
    index = np.arange(len(sources), dtype=np.int64)
    if not directed:
        index, reverse = _both_directions(sources, targets)
        sources, targets = (
            np.where(reverse, targets[index], sources[index]),
            np.where(reverse, sources[index], targets[index]),
        )
    mine = np.flatnonzero(partition.owner(sources) == rank)
    shard_dst = targets[mine]
    ghosts = np.unique(shard_dst[(shard_dst < start) | (shard_dst >= stop)])
    if rank == partition.num_ranks - 1:
        ghosts = ghosts[ghosts < start]  # the last range is open: ids past n are its own
    return EdgeShard(
        rank=rank,
        start=start,
        stop=stop,
        src=sources[mine],
        dst=shard_dst,
        weights=None if rows is None else rows[index[mine]],
        edge_ids=index[mine],
        ghosts=ghosts,
        ghost_owners=partition.owner(ghosts),
    )

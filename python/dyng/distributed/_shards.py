"""One rank's share of an edge list: the edges its vertices own, and the ghosts they reach.

An edge lives with its source (the 1D partition stores out-edges), so a rank relaxes its own
edges without asking anyone; a target owned by another rank is a ghost: the rank keeps a slot
for its value (a distance, a component label) and hears from the owner when it changes.
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
        int64, its edges (those whose source it owns), in the order of the input.
    weights : numpy.ndarray or None
        The weight rows of those edges (the input's rows, same dtype), or None.
    edge_ids : numpy.ndarray
        int64, each shard edge's position in the input edge list.
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


def shard_edges(partition: VertexPartition, rank: int, src, dst, weights=None) -> EdgeShard:
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
        weights=None if rows is None else rows[mine],
        edge_ids=mine.astype(np.int64),
        ghosts=ghosts,
        ghost_owners=partition.owner(ghosts),
    )

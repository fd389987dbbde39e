"""Which ranks must see each entry of a batch: the owners of its two endpoints.

The source's owner stores the edge and applies the change; the target's owner keeps the
reverse view a repair walks (an sssp deletion invalidates the target's subtree, a components
deletion splits at the target) and learns of the new ghost. An entry whose endpoints share an
owner goes to that rank once. The routing is what each rank sends in the batch's all-to-all:
rank r's list, in batch order, so a rank that receives several lists applies them in the
order the single-process batch would.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from dyng._errors import InvalidArgumentError, NotSupportedError
from dyng.distributed._partition import VertexPartition, _ids


@dataclasses.dataclass(frozen=True, eq=False)
class Routing:
    """Each rank's entries of a list of edges, as one flat array cut by offsets.

    Attributes
    ----------
    offsets : numpy.ndarray
        int64, ``num_ranks + 1`` entries: rank r's entries are
        ``entries[offsets[r]:offsets[r+1]]``.
    entries : numpy.ndarray
        int64, positions in the routed list, ascending within each rank.

    Examples
    --------
    >>> import dyng.distributed as dd
    >>> part = dd.VertexPartition.from_degrees([1, 1, 1, 1], num_ranks=2)
    >>> routing = dd.route_edges(part, [0, 0, 3], [1, 2, 3])
    >>> routing.for_rank(0).tolist(), routing.for_rank(1).tolist()
    ([0, 1], [1, 2])
    """

    offsets: np.ndarray
    entries: np.ndarray

    @property
    def num_ranks(self) -> int:
        """The number of ranks routed to."""
        return len(self.offsets) - 1

    def for_rank(self, rank: int) -> np.ndarray:
        """The positions of the entries `rank` must see, ascending.

        Parameters
        ----------
        rank : int
            A rank, 0 <= rank < num_ranks.

        Returns
        -------
        numpy.ndarray
            int64 positions in the routed list.

        Raises
        ------
        InvalidArgumentError
            For a rank outside the world.

        Examples
        --------
        >>> import dyng.distributed as dd
        >>> part = dd.VertexPartition.from_degrees([1, 1], num_ranks=2)
        >>> dd.route_edges(part, [1], [0]).for_rank(1).tolist()
        [0]
        """
        if not 0 <= rank < self.num_ranks:
            raise InvalidArgumentError(
                f"Routing.for_rank(): rank {rank} is not in the world of {self.num_ranks}; "
                f"pass 0 <= rank < {self.num_ranks}"
            )
        return self.entries[self.offsets[rank] : self.offsets[rank + 1]]


@dataclasses.dataclass(frozen=True, eq=False)
class BatchRouting:
    """The routing of a batch's insertions and of its deletions.

    Attributes
    ----------
    insertions, deletions : Routing
        Positions in the batch's insertion and deletion lists, by rank.

    Examples
    --------
    >>> import dyng, dyng.distributed as dd
    >>> part = dd.VertexPartition.from_degrees([1, 1], num_ranks=2)
    >>> batch = dyng.EdgeBatch(insert=([0], [1], [4]), delete=([1], [1]))
    >>> routed = dd.route_batch(part, batch)
    >>> routed.insertions.for_rank(1).tolist(), routed.deletions.for_rank(0).tolist()
    ([0], [])
    """

    insertions: Routing
    deletions: Routing


def route_edges(partition: VertexPartition, src, dst) -> Routing:
    """Routes each edge to the owners of its endpoints (once when they coincide).

    Parameters
    ----------
    partition : VertexPartition
        The vertex ranges of the world.
    src, dst : array_like of int
        The endpoints, one length; ids past the partition's vertices (vertex growth) belong
        to the last rank.

    Returns
    -------
    Routing
        Rank r's entries: those with an endpoint that r owns, ascending.

    Raises
    ------
    InvalidArgumentError
        For a negative or non-integer id, or arrays whose lengths differ.

    Examples
    --------
    >>> import dyng.distributed as dd
    >>> part = dd.VertexPartition.from_degrees([1, 1, 1], num_ranks=3)
    >>> routing = dd.route_edges(part, [0, 2], [2, 2])
    >>> [routing.for_rank(r).tolist() for r in range(3)]
    [[0], [], [0, 1]]
    """
    function = "dyng.distributed.route_edges()"
    sources, targets = _ids(src, "src", function), _ids(dst, "dst", function)
    if len(sources) != len(targets):
        raise InvalidArgumentError(
            f"{function}: src has {len(sources)} entries and dst {len(targets)}; pass one "
            "endpoint pair per entry"
        )
    positions = np.arange(len(sources), dtype=np.int64)
    by_source, by_target = partition.owner(sources), partition.owner(targets)
    crossing = by_target != by_source
    ranks = np.concatenate([by_source, by_target[crossing]])
    entries = np.concatenate([positions, positions[crossing]])
    # Sorting by (rank, position) keeps each rank's entries in batch order.
    order = np.lexsort((entries, ranks))
    counts = np.bincount(ranks, minlength=partition.num_ranks)
    offsets = np.zeros(partition.num_ranks + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    return Routing(offsets, entries[order])


def route_batch(partition: VertexPartition, batch) -> BatchRouting:
    """Routes a batch's insertions and deletions to the owners of their endpoints.

    Parameters
    ----------
    partition : VertexPartition
        The vertex ranges of the world.
    batch : EdgeBatch
        The batch; its vertex additions and removals are not routed yet.

    Returns
    -------
    BatchRouting
        The routing of the insertions and of the deletions.

    Raises
    ------
    InvalidArgumentError
        For a negative id in the batch.
    NotSupportedError
        For a batch that adds or removes vertices (no graph applies those yet).

    Examples
    --------
    >>> import dyng, dyng.distributed as dd
    >>> part = dd.VertexPartition.from_degrees([1, 1], num_ranks=2)
    >>> routed = dd.route_batch(part, dyng.EdgeBatch(delete=([0], [1])))
    >>> routed.deletions.for_rank(0).tolist(), routed.deletions.for_rank(1).tolist()
    ([0], [0])
    """
    if batch._has_vertex_changes():
        raise NotSupportedError(
            "dyng.distributed.route_batch(): the batch adds or removes vertices, which dyng "
            "does not apply yet; grow the graph by inserting edges to new ids instead"
        )
    return BatchRouting(
        insertions=route_edges(partition, batch.insert_src, batch.insert_dst),
        deletions=route_edges(partition, batch.delete_src, batch.delete_dst),
    )

"""The batch's all-to-all: each rank sends the entries routed to each peer, and receives its own.

Counts go first (one integer per peer, ``Alltoall``) so that every receive buffer is sized
exactly, then the entries in two ``Alltoallv`` calls on NumPy buffers (no pickling): the
int64 triples (position, src, dst) and the int32 weight rows. MPI delivers the peers' blocks in
rank order and a routing keeps each block in batch order, so what a rank receives is ordered by
sending rank, then by position: the order of the ranks' lists laid end to end, which is the
order the single-process batch would apply them in.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from dyng import _convert
from dyng._errors import InvalidArgumentError
from dyng.distributed import _transports
from dyng.distributed._routing import Routing

FUNCTION = "dyng.distributed.exchange_edges()"


@dataclasses.dataclass(frozen=True, eq=False)
class ReceivedEdges:
    """The entries a rank received in an exchange, ordered by sending rank, then position.

    Attributes
    ----------
    origins : numpy.ndarray
        int32, the rank that sent each entry.
    positions : numpy.ndarray
        int64, each entry's position in its sender's list.
    src, dst : numpy.ndarray
        int64, the entries' endpoints.
    weights : numpy.ndarray
        int32, shape (n, K): the entries' weight rows (K = 0 when unweighted).

    Examples
    --------
    >>> import dyng.distributed as dd
    >>> part = dd.VertexPartition.from_degrees([1, 1], num_ranks=1)
    >>> got = dd.exchange_edges(dd.route_edges(part, [1, 0], [0, 1]), [1, 0], [0, 1])
    >>> got.origins.tolist(), got.positions.tolist(), got.src.tolist()
    ([0, 0], [0, 1], [1, 0])
    """

    origins: np.ndarray
    positions: np.ndarray
    src: np.ndarray
    dst: np.ndarray
    weights: np.ndarray


def _weight_rows(weights, length: int) -> np.ndarray:
    """`weights` as a C-ordered (length, K) int32 array; None is K = 0."""
    if weights is None:
        return np.zeros((length, 0), dtype=np.int32)
    flat, k = _convert.weight_matrix(weights, length, FUNCTION[:-2], "weights")
    return flat.reshape(length, k)


def peer_spans(counts: Sequence[int], row_size: int) -> list[tuple[int, int]]:
    """(offset, length) of each peer's rows, laid end to end in rank order, in the unit of
    `row_size` (a row's elements for MPI's displacements, its bytes for NCCL's pointers)."""
    spans, offset = [], 0
    for count in counts:
        if int(count) < 0:
            raise InvalidArgumentError(
                f"dyng.distributed: a count is {int(count)}; counts are rows per peer, >= 0"
            )
        length = int(count) * row_size
        spans.append((offset, length))
        offset += length
    return spans


def _all_to_all(comm, send: np.ndarray, send_counts: np.ndarray, recv_counts: np.ndarray):
    """One ``Alltoallv`` of the rows of `send` (contiguous per peer), counted in rows."""
    mpi = _transports.mpi()
    width = int(np.prod(send.shape[1:], dtype=np.int64))
    recv = np.empty((int(recv_counts.sum()), *send.shape[1:]), dtype=send.dtype)
    kind = mpi.INT64_T if send.dtype == np.int64 else mpi.INT32_T

    def layout(counts):
        spans = peer_spans(counts, width)
        return [length for _, length in spans], [offset for offset, _ in spans]

    comm.Alltoallv([send, layout(send_counts), kind], [recv, layout(recv_counts), kind])
    return recv


def exchange_edges(routing: Routing, src, dst, weights=None, *, comm=None) -> ReceivedEdges:
    """Sends each rank the entries routed to it and returns the entries this rank received.

    Every rank of `comm` calls it together (a collective), each with its own list and its
    routing. Rank r sends entry i of its list to every rank whose part of `routing` holds i.

    Parameters
    ----------
    routing : Routing
        Which positions of this rank's list go to each rank
        ([`route_edges`][dyng.distributed.route_edges]).
    src, dst : array_like of int
        This rank's list; the routing's positions index it.
    weights : array_like of int32, optional
        One weight, or one row of K weights, per entry; every rank passes the same K.
    comm : mpi4py.MPI.Comm, optional
        The ranks exchanging, ``routing.num_ranks`` of them; None for a world of one (no
        mpi4py needed).

    Returns
    -------
    ReceivedEdges
        What this rank received, ordered by sending rank, then position in its list.

    Raises
    ------
    InvalidArgumentError
        When the routing's world is not `comm`'s (or not one rank without `comm`), or `src`,
        `dst` and `weights` differ in length, or a weight is not an integer in int32's
        range.

    Examples
    --------
    >>> import dyng.distributed as dd
    >>> part = dd.VertexPartition.from_degrees([1, 1, 1], num_ranks=1)
    >>> routing = dd.route_edges(part, [2, 0], [1, 1])
    >>> got = dd.exchange_edges(routing, [2, 0], [1, 1], weights=[7, 8])
    >>> got.dst.tolist(), got.weights.tolist()
    ([1, 1], [[7], [8]])
    """
    size = 1 if comm is None else comm.Get_size()
    if routing.num_ranks != size:
        raise InvalidArgumentError(
            f"{FUNCTION}: the routing is for {routing.num_ranks} ranks but the exchange has "
            f"{size}; route with the partition of this communicator's world"
        )
    sources, targets = np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64)
    if sources.shape != targets.shape or sources.ndim != 1:
        raise InvalidArgumentError(
            f"{FUNCTION}: src and dst have shapes {sources.shape} and {targets.shape}; pass "
            "two flat arrays of one length"
        )
    return _exchange(routing, sources, targets, _weight_rows(weights, len(sources)), comm=comm)


def _exchange(routing: Routing, sources, targets, rows, *, comm) -> ReceivedEdges:
    """exchange_edges() of checked arrays: int64 or int32 ids of one length, their (n, K)
    int32 weight rows, a routing for this communicator's world."""
    chosen = routing.entries
    if comm is None:  # a world of one sends every routed entry to itself, in routing order
        origins = np.zeros(len(chosen), dtype=np.int32)
        src, dst = (np.asarray(a, dtype=np.int64)[chosen] for a in (sources, targets))
        return ReceivedEdges(origins, np.array(chosen, dtype=np.int64), src, dst, rows[chosen])
    size = comm.Get_size()
    triples = np.stack([chosen, sources[chosen], targets[chosen]], axis=1)
    send_counts = np.diff(routing.offsets)
    recv_counts = np.empty(size, dtype=np.int64)
    comm.Alltoall(send_counts.astype(np.int64), recv_counts)
    triples = _all_to_all(comm, triples, send_counts, recv_counts)
    if rows.shape[1]:
        picked = _all_to_all(comm, np.ascontiguousarray(rows[chosen]), send_counts, recv_counts)
    else:  # no weights: nothing to send, so no collective
        picked = np.zeros((int(recv_counts.sum()), 0), dtype=np.int32)
    origins = np.repeat(np.arange(size, dtype=np.int32), recv_counts)
    return ReceivedEdges(origins, triples[:, 0], triples[:, 1], triples[:, 2], picked)

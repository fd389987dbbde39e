"""Distributed graphs (SPMD, issue 47): one process per GPU or per CPU node, each holding one
range of the vertices and their out-edges.

This module holds the pieces every rank computes alike, with no exchange:

* [`init`][dyng.distributed.init] reads the rank, the world size and the rendezvous from the
  launcher (torchrun's variables, ``mpiexec``'s, or an imported mpi4py) and checks that the
  transport is there: MPI (mpi4py) for host graphs, NCCL for device graphs. Without a launcher
  the process is a world of one, so a plain script runs unchanged.
* [`VertexPartition`][dyng.distributed.VertexPartition] splits the vertices into contiguous
  ranges balanced by edges, with a vectorised owner lookup.
* [`shard_edges`][dyng.distributed.shard_edges] takes one rank's edges (those of the vertices
  it owns) and the ghost vertices they reach.
* [`route_edges`][dyng.distributed.route_edges] and
  [`route_batch`][dyng.distributed.route_batch] say which ranks must see each entry of a
  batch: the owners of its endpoints.

and the first pieces that talk between ranks (MPI for host graphs):

* [`exchange_edges`][dyng.distributed.exchange_edges] sends each rank the entries routed to it
  (an all-to-all) and returns what this rank received, ordered by sending rank and position.
* [`vote`][dyng.distributed.vote] makes a change all or nothing: when any rank refuses, every
  rank raises that rank's error before anyone changes anything.
* [`DistributedGraph`][dyng.distributed.DistributedGraph] is a directed host graph spread over
  the ranks, each holding its shard as a [`dyng.Graph`][] over the global ids, with ``apply``
  that keeps one graph's batch semantics and all-or-nothing rule across the ranks.

The algorithms across ranks are not built yet; docs/developer/distributed.md describes the
design and what exists.

Examples
--------
>>> import dyng.distributed as dd
>>> ctx = dd.init(env={})
>>> part = dd.VertexPartition.from_edges([0, 0, 1, 2, 3], 4, num_ranks=2)
>>> shard = dd.shard_edges(part, ctx.rank, [0, 0, 1, 2, 3], [1, 3, 2, 3, 0])
>>> part.starts.tolist(), shard.ghosts.tolist()
([0, 2, 4], [2, 3])
"""

from __future__ import annotations

from dyng.distributed._context import Context, init
from dyng.distributed._exchange import ReceivedEdges, exchange_edges
from dyng.distributed._graph import DistributedGraph
from dyng.distributed._partition import VertexPartition
from dyng.distributed._routing import BatchRouting, Routing, route_batch, route_edges
from dyng.distributed._shards import EdgeShard, shard_edges
from dyng.distributed._vote import vote

__all__ = [
    "init",
    "Context",
    "VertexPartition",
    "EdgeShard",
    "shard_edges",
    "Routing",
    "BatchRouting",
    "route_edges",
    "route_batch",
    "exchange_edges",
    "ReceivedEdges",
    "vote",
    "DistributedGraph",
]

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
* [`DistributedGraph`][dyng.distributed.DistributedGraph] is a directed or undirected graph
  spread over the ranks, each holding its shard as a directed [`dyng.Graph`][] over the global
  ids (an undirected graph's shard holds both directions of its vertices' edges; a device
  world's shards live on the ranks' GPUs), with ``apply`` that keeps one graph's batch
  semantics and all-or-nothing rule across the ranks.
* [`read_edge_list`][dyng.distributed.read_edge_list] and
  [`read_matrix_market`][dyng.distributed.read_matrix_market] build one from a file, each rank
  reading only its shard's edges ([`dyng.io`][]'s ``source_range``).

and the algorithms across ranks:

* [`sssp_compute`][dyng.distributed.sssp_compute] and
  [`sssp_update`][dyng.distributed.sssp_update] keep single-source shortest paths across the
  ranks of a host world, equal bit for bit to [`dyng.sssp`][] on the whole graph; each rank
  holds its vertices' part of the [`SsspResult`][dyng.distributed.SsspResult].
* [`components_compute`][dyng.distributed.components_compute] and
  [`components_update`][dyng.distributed.components_update] keep the weak components of a
  DistributedGraph, each rank holding its vertices' labels
  ([`DistributedComponents`][dyng.distributed.DistributedComponents]), equal bit for bit to
  ``dyng.components.compute(g, kind="weak")`` on the whole graph, in a host or a device world.

docs/developer/distributed.md describes the design and what exists.

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

from dyng.distributed._components import components_compute, components_update
from dyng.distributed._components_result import ComponentsStats, DistributedComponents
from dyng.distributed._context import Context, init
from dyng.distributed._exchange import ReceivedEdges, exchange_edges
from dyng.distributed._files import read_edge_list, read_matrix_market
from dyng.distributed._graph import DistributedGraph
from dyng.distributed._partition import VertexPartition
from dyng.distributed._routing import BatchRouting, Routing, route_batch, route_edges
from dyng.distributed._shards import EdgeShard, shard_edges
from dyng.distributed._sssp import SsspResult, SsspStats, sssp_compute, sssp_update
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
    "sssp_compute",
    "sssp_update",
    "SsspResult",
    "SsspStats",
    "components_compute",
    "components_update",
    "DistributedComponents",
    "ComponentsStats",
    "read_edge_list",
    "read_matrix_market",
]

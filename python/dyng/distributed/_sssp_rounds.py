"""The rounds of distributed sssp: the native per-rank steps, the offers sent to the owners.

A rank holds the distances and parents of the vertices it owns (`_Tree`) and the out-edges of
those vertices (its shard, a `dyng.Graph` read in place through the native steps of
sssp/detail/owned_search.hpp, `_Shard`). Within a round each rank searches (Dijkstra) or walks
the cut down its own part natively; only what crosses ranks goes through the batch exchange
(`_exchange`), routed to the owner of a vertex with `_route_ids`: an offer is the triple
(target, source, candidate distance), the distance carried as the two int32 halves of an int64
in the exchange's weight rows. The rounds thus count the hops between ranks, and a world of one
runs one search.

The parent rule rides on the relaxations: the local search keeps the lower source on a tie, and
an owner keeps, per vertex, the lowest (distance, source) pair it has been sent. Every
in-neighbour u relaxes v at least once at its final distance (a vertex is relaxed after its
last decrease), and a pair from a larger distance of u is above dist[v], so at the fixed point
the kept source is the lowest-id u with dist[u] + w == dist[v]: the canonical parent of one
graph, whatever the partition.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from dyng import _backend
from dyng.distributed._exchange import ReceivedEdges, _exchange
from dyng.distributed._graph import _allreduce
from dyng.distributed._partition import VertexPartition
from dyng.distributed._routing import Routing, _route_ids
from dyng.sssp import INFINITE_DISTANCE


def _owned_range(partition: VertexPartition, rank: int, num_vertices: int) -> tuple[int, int]:
    """The ids `rank` owns in a graph of `num_vertices`: its range, clipped to the graph; the
    last rank's range is open (ids past the partition's end are its own)."""
    starts = partition.starts
    first = min(int(starts[rank]), num_vertices)
    if rank == partition.num_ranks - 1:
        return first, max(first, num_vertices)
    return first, max(first, min(int(starts[rank + 1]), num_vertices))


@dataclasses.dataclass
class _Tree:
    """This rank's part of a shortest-path tree: vertices first .. first + len(dist) - 1."""

    first: int
    dist: np.ndarray  # int64, INFINITE_DISTANCE when unreachable
    par: np.ndarray  # int64, -1 for the source and unreachable vertices

    @classmethod
    def empty(cls, first: int, last: int) -> _Tree:
        size = last - first
        return cls(first, np.full(size, INFINITE_DISTANCE, np.int64), np.full(size, -1, np.int64))

    def resized(self, first: int, last: int) -> _Tree:
        """The tree over [first, last) (the graph grew): kept values where the ranges meet;
        itself when the range is the same."""
        if first == self.first and last - first == len(self.dist):
            return self
        grown = _Tree.empty(first, last)
        low, high = max(first, self.first), min(last, self.first + len(self.dist))
        if low < high:
            grown.dist[low - first : high - first] = self.dist[low - self.first : high - self.first]
            grown.par[low - first : high - first] = self.par[low - self.first : high - self.first]
        return grown


@dataclasses.dataclass(frozen=True)
class _Shard:
    """This rank's shard as the rounds read it: its rows in place, through the native steps
    (``sssp_shard_*``), with the objective column as lengths."""

    local: Any  # the rank's dyng.Graph: the out-edges of its vertices, global ids
    objective: int
    partition: VertexPartition
    comm: Any  # mpi4py.MPI.Comm, or None for a world of one

    @classmethod
    def of(cls, graph, objective: int) -> _Shard:
        return cls(graph.local, objective, graph.partition, graph._comm)

    def lengths(self) -> tuple[int, int, int, int, int, int]:
        """(edges, sum of lengths, largest length, smallest length, its edge's source, its
        edge's target)."""
        return _backend.native().sssp_shard_lengths(self.local._native, self.objective)

    def offers_into(self, tree: _Tree, targets: np.ndarray):
        """The offers (targets, distances, sources) of this shard's edges into `targets` (global
        ids, any rank's) from this rank's vertices with a distance, read from the targets'
        in-rows: what relaxing those vertices' rows would send the targets."""
        ids = np.ascontiguousarray(targets, dtype=np.int64)
        return _backend.native().sssp_shard_offers_into(
            self.local._native, self.objective, tree.first, tree.dist, ids
        )

    def cut(self, tree: _Tree, mask: np.ndarray, roots: np.ndarray, limit: int):
        """Cuts the subtrees below `roots` (positions) on this rank into `mask`, at most
        `limit` vertices: (count, children on other ranks, their cut parents, the positions
        cut)."""
        return _backend.native().sssp_shard_cut(
            self.local._native,
            tree.first,
            tree.par,
            mask,
            np.ascontiguousarray(roots, dtype=np.int64),
            limit,
        )

    def search(self, tree: _Tree, active: np.ndarray, bound: int, longest: int):
        """Dijkstra over the owned vertices from the `active` ones below `bound`, updating
        `tree` and `active` in place; returns the offers to other ranks' vertices, (targets,
        distances, sources). `longest` (0: unknown) is the shard's largest length."""
        return _backend.native().sssp_shard_search(
            self.local._native,
            self.objective,
            tree.first,
            tree.dist,
            tree.par,
            active,
            bound,
            longest,
        )

    def min(self, value) -> int:
        """The smallest `value` over the ranks."""
        return int(_allreduce(self.comm, [value], "MIN")[0])

    def sum(self, value) -> int:
        """The sum of `value` over the ranks."""
        return int(_allreduce(self.comm, [value], "SUM")[0])


def _distance_rows(distances: np.ndarray) -> np.ndarray:
    """int64 distances as the exchange's (n, 2) int32 weight rows (their two halves)."""
    return np.ascontiguousarray(distances, dtype=np.int64).view(np.int32).reshape(-1, 2)


def _to_owners(shard: _Shard, vertices, others, rows) -> ReceivedEdges:
    """Sends (vertices[i], others[i], rows[i]) to the owner of vertices[i]; what arrived here
    (``src``: the vertices, ``dst``: the others), by sending rank, then position."""
    vertices, others = np.asarray(vertices, np.int64), np.asarray(others, np.int64)
    routing = _route_ids(shard.partition, vertices, vertices)
    return _exchange(routing, vertices, others, rows, comm=shard.comm)


def _to_all(count: int, size: int) -> Routing:
    """The routing that sends each of `count` entries to every one of `size` ranks."""
    return Routing(
        np.arange(size + 1, dtype=np.int64) * count,
        np.tile(np.arange(count, dtype=np.int64), size),
    )


def _to_everyone(shard: _Shard, vertices: np.ndarray) -> np.ndarray:
    """Every rank's `vertices`, gathered on every rank through the exchange."""
    ids = np.asarray(vertices, np.int64)
    if shard.comm is None:  # alone, every rank's vertices are these (the exchange's identity)
        return ids
    routing = _to_all(len(ids), shard.partition.num_ranks)
    return _exchange(routing, ids, ids, np.zeros((len(ids), 0), np.int32), comm=shard.comm).src


def _relax(shard: _Shard, tree: _Tree, active: np.ndarray, bound: int, longest: int) -> None:
    """One round on this rank: the native search from the active positions below `bound`
    settles what it can on this rank, and its offers go to the targets' owners, where a lower
    (distance, source) pair is kept and a vertex whose distance fell becomes active."""
    send_offers(shard, tree, active, *shard.search(tree, active, bound, longest))


def send_offers(shard: _Shard, tree: _Tree, active: np.ndarray, targets, candidates, sources):
    """Sends the offers (targets, candidate distances, sources) to the targets' owners, where
    a lower (distance, source) pair is kept and a vertex whose distance fell becomes active."""
    if shard.comm is None:  # alone, no peer waits, and the exchange would return them as they are
        arrived = candidates
    else:
        got = _to_owners(shard, targets, sources, _distance_rows(candidates))
        arrived = np.ascontiguousarray(got.weights).view(np.int64).reshape(-1)
        targets, sources = np.ascontiguousarray(got.src), np.ascontiguousarray(got.dst)
    if len(targets):
        _backend.native().sssp_shard_take_offers(
            tree.first, tree.dist, tree.par, active, targets, arrived, sources
        )


def search(shard: _Shard, tree: _Tree, active: np.ndarray, delta: int, longest: int = 0) -> int:
    """Delta-stepping from the `active` positions until no rank has one left; returns the
    rounds. Each round runs, on every rank, the local search below the bucket's bound; one
    allreduce (the lowest active distance) ends the search or opens the next bucket. A world of
    one has no bucket: its one local search settles every vertex. `longest`, the shard's
    largest length when known (0: not), lets a search near the source use Dial's buckets."""
    bound, rounds = 0, 0
    if shard.partition.num_ranks == 1:  # no offers, no bound: one search settles everything
        _relax(shard, tree, active, INFINITE_DISTANCE, longest)
        return 1
    while True:
        lowest = shard.min(tree.dist[active].min(initial=INFINITE_DISTANCE))
        if lowest >= INFINITE_DISTANCE:
            return rounds
        if lowest >= bound:
            bound = min((lowest // delta + 1) * delta, INFINITE_DISTANCE)
        _relax(shard, tree, active, bound, longest)
        rounds += 1


def cut(shard: _Shard, tree: _Tree, roots: np.ndarray, budget: int) -> tuple[np.ndarray, int]:
    """Cuts the subtrees below `roots` (positions in `tree`): each rank walks down its own
    part of the tree natively, and a child on another rank is sent to its owner, who cuts it
    (and its part below) when the sender is its parent; one round per hop between ranks.
    Returns this rank's cut positions (in no particular order: the walks' lists, not a scan of
    the rank's range) and the number cut over the ranks; the walk stops (every rank alike)
    once that number passes `budget`."""
    mask = np.zeros(len(tree.dist), dtype=bool)
    level, total, walks = roots, 0, []
    while True:
        count, children, parents, positions = shard.cut(tree, mask, level, budget - total + 1)
        walks.append(positions)
        count = shard.sum(count)
        total += count
        # In a world of one no child lives on another rank: the first walk was the whole cut.
        if count == 0 or total > budget or shard.partition.num_ranks == 1:
            return (walks[0] if len(walks) == 1 else np.concatenate(walks)), total
        got = _to_owners(shard, children, parents, np.zeros((len(children), 0), np.int32))
        at = got.src - tree.first
        level = at[tree.par[at] == got.dst]

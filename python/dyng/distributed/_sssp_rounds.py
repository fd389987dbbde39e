"""The rounds of distributed sssp: relaxations sent to the owners, the cut walk, the search.

A rank holds the distances and parents of the vertices it owns (`_Tree`) and the out-edges of
those vertices (its shard's CSR, `_Shard`). Everything that crosses ranks goes through the
batch exchange (`_exchange`), routed to the owner of a vertex with `_route_ids`: a relaxation
is the triple (target, source, candidate distance), the distance carried as the two int32
halves of an int64 in the exchange's weight rows.

The parent rule rides on the relaxations: an owner keeps, per vertex, the lowest (distance,
source) pair it has been sent. Every in-neighbour u relaxes v at least once at its final
distance (a vertex is relaxed after its last decrease), and a pair sent from a larger distance
of u is above dist[v], so at the fixed point the kept source is the lowest-id u with
dist[u] + w == dist[v]: the canonical parent of one graph, whatever the partition.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

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
        """The tree over [first, last) (the graph grew): kept values where the ranges meet."""
        grown = _Tree.empty(first, last)
        low, high = max(first, self.first), min(last, self.first + len(self.dist))
        if low < high:
            grown.dist[low - first : high - first] = self.dist[low - self.first : high - self.first]
            grown.par[low - first : high - first] = self.par[low - self.first : high - self.first]
        return grown


@dataclasses.dataclass(frozen=True)
class _Shard:
    """What the rounds read of this rank's shard: its CSR with the objective column as lengths."""

    row_ptr: np.ndarray  # int64, one row per vertex of the shard (other ranks' rows are empty)
    col: np.ndarray  # int64
    lengths: np.ndarray  # int64, the objective column
    partition: VertexPartition
    comm: Any  # mpi4py.MPI.Comm, or None for a world of one

    @classmethod
    def of(cls, graph, objective: int) -> _Shard:
        csr = graph.local.to_csr()
        lengths = csr.weights[:, objective] if csr.weights is not None else np.zeros(0)
        return cls(
            np.asarray(csr.row_ptr, dtype=np.int64),
            np.asarray(csr.col_ind, dtype=np.int64),
            np.asarray(lengths, dtype=np.int64),
            graph.partition,
            graph._comm,
        )

    def out_edges(self, vertices: np.ndarray):
        """(sources, targets, lengths) of the out-edges of `vertices` (global ids it owns)."""
        rows = vertices[vertices < len(self.row_ptr) - 1]  # past the shard's ids: no edges
        begin, counts = self.row_ptr[rows], self.row_ptr[rows + 1] - self.row_ptr[rows]
        before = np.cumsum(counts) - counts
        picked = np.repeat(begin - before, counts) + np.arange(int(counts.sum()), dtype=np.int64)
        return np.repeat(rows, counts), self.col[picked], self.lengths[picked]

    def sources_into(self, targets: np.ndarray) -> np.ndarray:
        """The sources (global ids, ascending) of this shard's edges into `targets`."""
        hits = np.isin(self.col, targets)
        rows = np.repeat(np.arange(len(self.row_ptr) - 1, dtype=np.int64), np.diff(self.row_ptr))
        return np.unique(rows[hits])

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
    routing = _to_all(len(ids), shard.partition.num_ranks)
    return _exchange(routing, ids, ids, np.zeros((len(ids), 0), np.int32), comm=shard.comm).src


class _Pairs:
    """Scratch of one search: the lowest (distance, source) pair per owned vertex of a round.

    Filled by scatter-minimum (``numpy.minimum.at``, no sort) and put back after each round on
    the positions it touched, so a round costs the relaxations it received, not the range.
    """

    def __init__(self, size: int):
        self.dist = np.full(size, INFINITE_DISTANCE, np.int64)
        self.source = np.full(size, np.iinfo(np.int64).max, np.int64)

    def lowest(self, at: np.ndarray, distances: np.ndarray, sources: np.ndarray):
        """(positions, distance, source): the lowest pair of each position in `at` (positions
        may repeat, with equal pairs)."""
        np.minimum.at(self.dist, at, distances)
        tight = distances == self.dist[at]
        at = at[tight]
        np.minimum.at(self.source, at, sources[tight])
        pairs = at, self.dist[at], self.source[at]
        self.dist[at], self.source[at] = INFINITE_DISTANCE, np.iinfo(np.int64).max
        return pairs


def _relax(shard: _Shard, tree: _Tree, frontier: np.ndarray, pairs: _Pairs) -> np.ndarray:
    """Relaxes the out-edges of `frontier` (positions in `tree`) across the ranks; returns the
    positions whose distance fell (the next frontier's candidates)."""
    sources, targets, lengths = shard.out_edges(frontier + tree.first)
    candidates = tree.dist[sources - tree.first] + lengths
    got = _to_owners(shard, targets, sources, _distance_rows(candidates))
    arrived = np.ascontiguousarray(got.weights).view(np.int64).reshape(-1)
    at, distance, source = pairs.lowest(got.src - tree.first, arrived, got.dst)
    held = tree.dist[at]
    lower = (distance < held) | ((distance == held) & (source < tree.par[at]))
    tree.dist[at[lower]], tree.par[at[lower]] = distance[lower], source[lower]
    return at[lower & (distance < held)]


def search(shard: _Shard, tree: _Tree, active: np.ndarray, delta: int) -> int:
    """Delta-stepping from the `active` positions until no rank has one left; returns the
    rounds. Each round relaxes, on every rank, the active vertices below the bucket's bound;
    one allreduce (the lowest active distance) ends the search or opens the next bucket."""
    bound, rounds, pairs = 0, 0, _Pairs(len(tree.dist))
    while True:
        lowest = shard.min(tree.dist[active].min(initial=INFINITE_DISTANCE))
        if lowest >= INFINITE_DISTANCE:
            return rounds
        if lowest >= bound:
            bound = min((lowest // delta + 1) * delta, INFINITE_DISTANCE)
        frontier = np.flatnonzero(active & (tree.dist < bound))
        active[frontier] = False
        active[_relax(shard, tree, frontier, pairs)] = True
        rounds += 1


def cut(shard: _Shard, tree: _Tree, roots: np.ndarray, budget: int) -> tuple[np.ndarray, int]:
    """Marks the subtrees below `roots` (positions in `tree`), one tree level per round: a cut
    vertex's owner sends it along its out-edges, and a target's owner cuts the target when the
    sender is its parent. Returns the mask and the number cut over the ranks; the walk stops
    (every rank alike) once that number passes `budget`."""
    mask = np.zeros(len(tree.dist), dtype=bool)
    level, total = np.unique(roots), 0
    while True:
        level = level[~mask[level]]
        mask[level] = True
        count = shard.sum(len(level))
        total += count
        if count == 0 or total > budget:
            return mask, total
        sources, targets, _ = shard.out_edges(level + tree.first)
        got = _to_owners(shard, targets, sources, np.zeros((len(targets), 0), np.int32))
        children = got.src - tree.first
        level = np.unique(children[tree.par[children] == got.dst])

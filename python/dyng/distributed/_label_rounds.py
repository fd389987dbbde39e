"""Minimum-label rounds across ranks: the protocol under the distributed weak components.

A rank sees its owned vertices and its ghosts (the targets of its out-edges that other ranks
own); its shard's edges, directions ignored, split that view into local components, found once
per call by hooking and compressing (Shiloach-Vishkin, vectorised over the edge list). A round
then (1) gives every local component the smallest label in it, (2) sends each ghost whose label
that lowered its new label, as a candidate, to the ghost's owner, who keeps the minimum, and
(3) has every owner send the labels it changed to the ranks that hold those vertices as ghosts
(the subscriptions, learnt once by sending each ghost id to its owner). An allreduce of the
number of labels changed ends the rounds when it is 0 on every rank.

Labels only fall and only ever take ids of vertices connected to the vertex, so a start where
every label lies in its vertex's component and every component's smallest vertex is labelled
with itself (all ids: a compute; kept and reset labels: an update) ends at the smallest id of
each component, whatever the partition. Every message is a (vertex, label) pair carried by the
edge exchange (``_exchange``) as an entry (src, dst).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from dyng.distributed._exchange import _exchange
from dyng.distributed._graph import _allreduce
from dyng.distributed._partition import VertexPartition
from dyng.distributed._routing import Routing, _route_ids


def _no_rows(length: int) -> np.ndarray:
    return np.zeros((length, 0), dtype=np.int32)


def _owned_range(partition: VertexPartition, rank: int, num_vertices: int) -> tuple[int, int]:
    """The ids `rank` owns among the graph's `num_vertices`: its partition range, cut at the
    vertex count; the last rank's range is open, so it also owns the ids the graph grew by."""
    starts = partition.starts
    stop = num_vertices if rank == partition.num_ranks - 1 else int(starts[rank + 1])
    return min(int(starts[rank]), num_vertices), min(stop, num_vertices)


@dataclasses.dataclass(frozen=True, eq=False)
class _LocalView:
    """A rank's slots (its owned vertices in id order, then its ghosts in id order) and the
    local component of each: the slot of the component's root."""

    start: int
    stop: int
    ghosts: np.ndarray  # int64, sorted: the ids outside [start, stop) the shard's edges reach
    component: np.ndarray  # int64, per slot

    @property
    def num_owned(self) -> int:
        return self.stop - self.start


def _compress(parent: np.ndarray) -> None:
    """Points every slot at its root (pointer jumping until nothing moves)."""
    while True:
        grand = parent[parent]
        if np.array_equal(grand, parent):
            return
        parent[:] = grand


def _local_components(a: np.ndarray, b: np.ndarray, size: int) -> np.ndarray:
    """Each slot's root slot in the graph of edges (a, b) over `size` slots, directions ignored.

    Roots hook to the smaller root across an edge, then every slot jumps to its root; a pass
    that hooks nothing leaves each edge's ends under one root, so each root is its component's
    smallest slot.
    """
    parent = np.arange(size, dtype=np.int64)
    while True:
        root_a, root_b = parent[a], parent[b]
        differ = root_a != root_b
        if not differ.any():
            return parent
        low, high = np.minimum(root_a, root_b)[differ], np.maximum(root_a, root_b)[differ]
        np.minimum.at(parent, high, low)
        _compress(parent)


def _local_view(shard, start: int, stop: int) -> _LocalView:
    """The slots and local components of this rank's shard (a dyng.Graph of owned out-edges)."""
    src, dst, _ = shard.edges()
    src, dst = src.astype(np.int64), dst.astype(np.int64)
    outside = (dst < start) | (dst >= stop)
    ghosts = np.unique(dst[outside])
    owned = stop - start
    dst_slots = np.where(outside, owned + np.searchsorted(ghosts, dst), dst - start)
    component = _local_components(src - start, dst_slots, owned + len(ghosts))
    return _LocalView(start, stop, ghosts, component)


def _to_owners(partition: VertexPartition, ids: np.ndarray, values: np.ndarray, comm):
    """Sends each (id, value) pair to the id's owner; returns the pairs this rank received."""
    routing = _route_ids(partition, ids, ids)
    return _exchange(routing, ids, values, _no_rows(len(ids)), comm=comm)


@dataclasses.dataclass
class _Rounds:
    """One run of label rounds over a rank's view: the state a round reads and writes."""

    view: _LocalView
    partition: VertexPartition
    comm: object
    labels: np.ndarray  # int64, the owned vertices' labels (written in place)
    ghost_labels: np.ndarray  # int64, this rank's copy of its ghosts' labels
    subscribers: np.ndarray  # int32, the rank holding each subscribed vertex as a ghost
    subscribed: np.ndarray  # int64, the owned vertices other ranks hold as ghosts

    @classmethod
    def subscribe(cls, view, partition, labels, comm) -> _Rounds:
        """Learns who holds this rank's vertices as ghosts, and sends them their labels."""
        asked = _to_owners(partition, view.ghosts, view.ghosts, comm)
        rounds = cls(view, partition, comm, labels, view.ghosts.copy(), asked.origins, asked.src)
        rounds.send_labels(np.ones(view.num_owned, dtype=bool))
        return rounds

    def send_labels(self, changed: np.ndarray) -> None:
        """Sends the labels of the `changed` owned vertices to the ranks that hold them."""
        picked = changed[self.subscribed - self.view.start]
        vertices = self.subscribed[picked]
        # Subscriptions arrive ordered by rank, so picking keeps each rank's entries ascending.
        counts = np.bincount(self.subscribers[picked], minlength=self.partition.num_ranks)
        offsets = np.zeros(len(counts) + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        routing = Routing(offsets, np.arange(len(vertices), dtype=np.int64))
        values = self.labels[vertices - self.view.start]
        got = _exchange(routing, vertices, values, _no_rows(len(vertices)), comm=self.comm)
        self.ghost_labels[np.searchsorted(self.view.ghosts, got.src)] = got.dst

    def step(self) -> int:
        """One round; returns the number of labels this rank's vertices changed in it."""
        view, owned = self.view, self.view.num_owned
        values = np.concatenate([self.labels, self.ghost_labels])
        lowest = values.copy()
        np.minimum.at(lowest, view.component, values)
        best = lowest[view.component]
        before = self.labels.copy()
        np.minimum(self.labels, best[:owned], out=self.labels)
        lowered = best[owned:] < self.ghost_labels
        got = _to_owners(self.partition, view.ghosts[lowered], best[owned:][lowered], self.comm)
        np.minimum.at(self.labels, got.src - view.start, got.dst)
        changed = self.labels != before
        self.send_labels(changed)
        return int(changed.sum())

    def run(self) -> int:
        """Rounds until no rank changes a label; returns how many ran (the same on every rank)."""
        count = 1
        while _allreduce(self.comm, [self.step()], "SUM")[0] > 0:
            count += 1
        return count


def settle_labels(graph, labels: np.ndarray, start: int, stop: int) -> int:
    """Lowers this rank's owned `labels` (ids start..stop-1, in place) to their components'
    smallest ids, given a start that keeps each component's smallest vertex labelled with
    itself and every label within its vertex's component. A collective; returns the rounds."""
    view = _local_view(graph.local, start, stop)
    return _Rounds.subscribe(view, graph.partition, labels, graph._comm).run()


def component_sizes(graph, labels: np.ndarray, start: int) -> np.ndarray:
    """The sizes entry of each owned id (how many vertices, on any rank, carry it as label)."""
    values, counts = np.unique(labels, return_counts=True)
    got = _to_owners(graph.partition, values, counts.astype(np.int64), graph._comm)
    sizes = np.zeros(len(labels), dtype=np.int64)
    np.add.at(sizes, got.src - start, got.dst)
    return sizes


def labels_of(graph, ids: np.ndarray, labels: np.ndarray, start: int) -> np.ndarray:
    """The labels of `ids` (any rank's part, each below this result's vertex count), union of
    all ranks' asks, sorted and the same on every rank: the owners look them up, then every
    rank gathers the answers."""
    got = _to_owners(graph.partition, ids, ids, graph._comm)
    found = np.unique(labels[got.src - start])
    if graph._comm is None:
        return found
    return np.unique(np.concatenate(graph._comm.allgather(found)))

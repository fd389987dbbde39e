"""Minimum-label rounds across ranks: the protocol under the distributed weak components.

A rank sees its owned vertices and its ghosts (the targets of its out-edges that other ranks
own); its shard's edges, directions ignored, split that view into local components, which a
dyng.components result on the shard holds (computed once, repaired by each update), and every
label first falls to its local component's smallest id. Where no rank has a ghost, that is the answer. Otherwise
each rank learns, once, which ranks hold its vertices as ghosts (the subscriptions: every ghost
id is sent to its owner), and a round, as FastSV does for distributed memory:

1. gives every local component its smallest label; a ghost whose label that lowered is sent to
   its owner as a candidate, and so is every lowered slot's old label (hooking: the vertex the
   old label names is in the component too), the owner keeping the minimum;
2. shortcuts: each owned label falls to the label of the vertex it names, asked of its owner;
3. has every owner send the labels it changed to the subscribed ranks.

An allreduce ends the rounds when no rank has a local component whose slots (owned labels and
the ghosts' copies, just sent) disagree: labels are then constant on every component, and so
its smallest id (``_Rounds.unsettled`` says why), without a last round that changes nothing.
Without the hooking of step 1 and the shortcut of step 2, a label would cross one rank boundary per round (a path over
shuffled ids needs hundreds of rounds); with them, about log2(n) in the runs measured
(not a proven bound; _distributed_components_rank.py holds a shuffled path to 2 log2(n)).

Labels only fall and only ever take ids of vertices connected to the vertex, so a start where
every label lies in its vertex's component and every component's smallest vertex is labelled
with itself (all ids: a compute; kept and reset labels: an update) ends at the smallest id of
each component, whatever the partition. Every message is a (vertex, label) pair carried by the
edge exchange (``_exchange``) as an entry (src, dst).
"""

from __future__ import annotations

import dataclasses
import functools

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
    local component of each (the components of the shard's edges alone, directions ignored)."""

    start: int
    stop: int
    ghosts: np.ndarray  # int64, sorted: the ids outside [start, stop) the shard's edges reach
    local_min: np.ndarray  # int64, per slot: the smallest id of its local component
    local_sizes: np.ndarray  # int64, per owned id c: the shard's vertices whose local_min is c

    @property
    def num_owned(self) -> int:
        return self.stop - self.start

    @functools.cached_property
    def component(self) -> np.ndarray:
        """int64, per slot: the slot of its local component's smallest id (which is an owned
        vertex or a ghost, so it has one)."""
        return self.slots_of(self.local_min)

    def slots_of(self, ids: np.ndarray) -> np.ndarray:
        """Each id's slot, or -1 where the id is neither owned nor a ghost."""
        slots = np.full(len(ids), -1, dtype=np.int64)
        owned = (ids >= self.start) & (ids < self.stop)
        slots[owned] = ids[owned] - self.start
        others = np.flatnonzero(~owned)
        at = np.searchsorted(self.ghosts, ids[others])
        found = at < len(self.ghosts)
        found[found] = self.ghosts[at[found]] == ids[others[found]]
        slots[others[found]] = self.num_owned + at[found]
        return slots


def local_view(native, start: int, stop: int) -> _LocalView:
    """This rank's view (owned ids start..stop-1 and its ghosts) from `native`, the shard's
    current dyng.components result (weak: the local components). A vertex the rank does not
    own has no out-edge in the shard, so it is a ghost exactly when its local component holds
    more than itself.
    """
    # Read in place (a host shard) or as one host copy (a device shard: the rounds run on the
    # host yet); every array built below is a new one, so the native update may rewrite it.
    local = np.asarray(native.labels.to_numpy(copy=None), dtype=np.int64)
    sizes = np.asarray(native.sizes.to_numpy(copy=None), dtype=np.int64)
    held = max(min(stop, len(local)) - start, 0)  # the shard may not know the newest owned ids
    others = np.concatenate(
        [np.arange(min(start, len(local))), np.arange(start + held, len(local))]
    )
    ghosts = others[sizes[local[others]] > 1]
    unheld = np.arange(start + held, stop, dtype=np.int64)  # alone: no edge names them yet
    local_min = np.concatenate([local[start : start + held], unheld, local[ghosts]])
    owned_sizes = np.concatenate([sizes[start : start + held], np.ones_like(unheld)])
    return _LocalView(start, stop, ghosts, local_min, owned_sizes)


def _routing_by_rank(ranks: np.ndarray, num_ranks: int) -> Routing:
    """The routing that sends entry i to ranks[i]; `ranks` must be ascending."""
    offsets = np.zeros(num_ranks + 1, dtype=np.int64)
    np.cumsum(np.bincount(ranks, minlength=num_ranks), out=offsets[1:])
    return Routing(offsets, np.arange(len(ranks), dtype=np.int64))


def _lowest_per_id(ids: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each distinct id once, with its smallest value: what its owner would keep anyway."""
    unique, slots = np.unique(ids, return_inverse=True)
    lowest = np.full(len(unique), np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(lowest, slots, values)
    return unique, lowest


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
        routing = _routing_by_rank(self.subscribers[picked], self.partition.num_ranks)
        values = self.labels[vertices - self.view.start]
        got = _exchange(routing, vertices, values, _no_rows(len(vertices)), comm=self.comm)
        self.ghost_labels[np.searchsorted(self.view.ghosts, got.src)] = got.dst

    def lower_and_hook(self) -> None:
        """Gives every local component its smallest label. A ghost lowered so is sent to its
        owner as a candidate; so is every lowered slot's old label (the vertex it names is in
        the component too): hooking that vertex lets all that carry the old label follow it in
        the shortcut, rather than one rank crossing per round."""
        view, owned = self.view, self.view.num_owned
        values = np.concatenate([self.labels, self.ghost_labels])
        lowest = values.copy()
        np.minimum.at(lowest, view.component, values)
        best = lowest[view.component]
        np.minimum(self.labels, best[:owned], out=self.labels)
        lowered = best < values
        ghosts_lowered = lowered[owned:]
        ids = np.concatenate([view.ghosts[ghosts_lowered], values[lowered]])
        candidates = np.concatenate([best[owned:][ghosts_lowered], best[lowered]])
        ids, candidates = _lowest_per_id(ids, candidates)
        got = _to_owners(self.partition, ids, candidates, self.comm)
        np.minimum.at(self.labels, got.src - view.start, got.dst)

    def shortcut(self) -> None:
        """One pointer jump: each owned label falls to the label of the vertex it names, asked
        of that vertex's owner (a request and a reply)."""
        start, stop = self.view.start, self.view.stop
        named = np.unique(self.labels)
        asked = named[(named < start) | (named >= stop)]
        got = _to_owners(self.partition, asked, asked, self.comm)
        routing = _routing_by_rank(got.origins, self.partition.num_ranks)
        answers = self.labels[got.src - start]
        replied = _exchange(routing, got.src, answers, _no_rows(len(answers)), comm=self.comm)
        mine = named[(named >= start) & (named < stop)]
        ids = np.concatenate([mine, replied.src])
        order = np.argsort(ids)
        ids = ids[order]
        values = np.concatenate([self.labels[mine - start], replied.dst])[order]
        np.minimum(self.labels, values[np.searchsorted(ids, self.labels)], out=self.labels)

    def step(self) -> int:
        """One round; returns how many of this rank's slots still differ from the smallest label
        of their local component (0 on every rank: settled)."""
        before = self.labels.copy()
        self.lower_and_hook()
        self.shortcut()
        self.send_labels(self.labels != before)
        return self.unsettled()

    def unsettled(self) -> int:
        """Slots whose label is not their local component's smallest, ghosts' copies current.

        When every rank counts 0, labels are settled without another round: each edge lies in
        one shard's local component, whose slots agree, and a ghost's copy is its owner's
        label, so labels are constant on every component; a label is an id in its vertex's
        component and the smallest vertex keeps its own id, so the constant is that id."""
        values = np.concatenate([self.labels, self.ghost_labels])
        lowest = values.copy()
        np.minimum.at(lowest, self.view.component, values)
        return int(np.count_nonzero(values != lowest[self.view.component]))

    def run(self) -> int:
        """Rounds until every rank's labels are settled; returns how many ran (the same on
        every rank)."""
        count = 1
        while _allreduce(self.comm, [self.step()], "SUM")[0] > 0:
            count += 1
        return count


def settle_labels(graph, view: _LocalView, labels: np.ndarray) -> int:
    """Lowers this rank's owned `labels` (the view's owned ids, in place) to their components'
    smallest ids, given a start that keeps each component's smallest vertex labelled with
    itself and every label within its vertex's component. A collective; returns the rounds.

    A local component's smallest id is in it, so each label first falls to it. Where no rank
    has a ghost (a world of one, or components that never cross ranks) the local components
    are the components, and that is the answer: no round runs.
    """
    np.minimum(labels, view.local_min[: view.num_owned], out=labels)
    if _allreduce(graph._comm, [len(view.ghosts)], "SUM")[0] == 0:
        return 0
    return _Rounds.subscribe(view, graph.partition, labels, graph._comm).run()


def component_sizes(graph, view: _LocalView, labels: np.ndarray, rounds: int) -> np.ndarray:
    """The sizes entry of each owned id (how many vertices, on any rank, carry it as label),
    for `labels` settled in `rounds` rounds (the same number on every rank)."""
    if rounds == 0:  # no rank had a ghost: each component lies in one rank's owned range
        return view.local_sizes.copy()
    start, stop = view.start, view.stop
    counts = np.bincount(labels, minlength=stop)
    sizes = counts[start:stop].astype(np.int64)
    named = np.flatnonzero(counts)
    elsewhere = named[(named < start) | (named >= stop)]
    got = _to_owners(graph.partition, elsewhere, counts[elsewhere].astype(np.int64), graph._comm)
    np.add.at(sizes, got.src - start, got.dst)
    return sizes

"""The demo's stream of batches: what happens to each graph between two updates.

* ``RoadEvents``: streets close (both directions deleted), streets closed in an earlier
  batch open again (re-inserted with their own travel time), and traffic changes travel times
  (an existing street inserted again with a new time: the graph's upsert semantics);
* ``EdgeSetEvents``: edges come and go at random, new ones drawn the way the graph was
  (follows and unfollows; new payments and payments leaving the window).

Each ``next_batch()`` returns a ``dyng.EdgeBatch`` whose deletions and insertions never
name the same edge, so every batch changes the graph by exactly what it lists.
"""

from __future__ import annotations

import collections

import numpy as np

__all__ = ["RoadEvents", "EdgeSetEvents"]


def _edge_batch(insert, delete):
    import dyng

    return dyng.EdgeBatch(insert=insert, delete=delete)


class RoadEvents:
    """Closures, re-openings and travel-time changes on a ``dyng.generators.StreetGrid``.

    Parameters
    ----------
    streets : dyng.generators.StreetGrid
        The two-way streets, each once, with their usual travel times.
    closures, changes : int
        Streets closed, and streets whose travel time changes, per batch.
    rng : numpy.random.Generator
    """

    def __init__(self, streets, *, closures, changes, rng):
        self._streets = streets
        self._usual = streets.seconds
        self._open = np.ones(streets.num_streets, dtype=bool)
        self._closed = collections.deque()  # the streets of each earlier batch's closures
        self._closures = closures
        self._changes = changes
        self._rng = rng

    def next_batch(self):
        rng = self._rng
        reopen = self._closed.popleft() if len(self._closed) >= 2 else np.empty(0, np.int64)
        open_now = np.flatnonzero(self._open)
        picked = rng.choice(
            open_now, size=min(len(open_now), self._closures + self._changes), replace=False
        )
        close, slow = picked[: self._closures], picked[self._closures :]
        self._open[close] = False
        self._open[reopen] = True
        self._closed.append(close)
        # Traffic: a street takes 1x to 3x its usual time (1x: the jam has cleared).
        factor = rng.integers(2, 7, size=len(slow)) / 2
        slow_seconds = np.maximum(1, np.round(self._usual[slow] * factor)).astype(np.int64)
        inserted = self._streets.edges(
            np.concatenate([reopen, slow]), np.concatenate([self._usual[reopen], slow_seconds])
        )
        deleted = self._streets.edges(close)
        return _edge_batch(
            (inserted.src, inserted.dst, inserted.weights), (deleted.src, deleted.dst)
        )


class EdgeSetEvents:
    """Random deletions of existing edges and insertions of new ones drawn by `draw_pairs`.

    Parameters
    ----------
    edges : dyng.generators.EdgeList
        The graph as built.
    draw_pairs : callable
        ``draw_pairs(count, rng) -> (src, dst)``: candidate new edges.
    insertions, deletions : int
        Per batch.
    rng : numpy.random.Generator
    """

    # Candidates drawn per insertion wanted: R-MAT repeats its popular pairs often.
    _OVERDRAW = 4

    def __init__(self, edges, draw_pairs, *, insertions, deletions, rng):
        self._n = edges.num_vertices
        # int64: the ids may be int32, and src * n is not.
        self._keys = np.sort(edges.src.astype(np.int64) * self._n + edges.dst)
        self._draw = draw_pairs
        self._insertions = insertions
        self._deletions = deletions
        self._rng = rng

    def next_batch(self):
        rng, n = self._rng, self._n
        gone_at = rng.choice(
            len(self._keys), size=min(self._deletions, len(self._keys)), replace=False
        )
        gone = self._keys[gone_at]
        kept = np.delete(self._keys, gone_at)
        src, dst = self._draw(self._OVERDRAW * self._insertions, rng)
        candidates = src * n + dst
        candidates = candidates[src != dst]
        # First occurrences in draw order: sorting them would favour small ids.
        _, first = np.unique(candidates, return_index=True)
        candidates = candidates[np.sort(first)]
        fresh = ~_contains(kept, candidates) & ~np.isin(candidates, gone)
        new = candidates[fresh][: self._insertions]
        new.sort()
        self._keys = np.insert(kept, np.searchsorted(kept, new), new)
        return _edge_batch((new // n, new % n), (gone // n, gone % n))


def _contains(sorted_keys, values):
    """Whether each of `values` is in the sorted array `sorted_keys`."""
    at = np.minimum(np.searchsorted(sorted_keys, values), max(len(sorted_keys) - 1, 0))
    return sorted_keys[at] == values if len(sorted_keys) else np.zeros(len(values), bool)

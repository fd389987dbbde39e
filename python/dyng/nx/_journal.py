"""The record of edge changes a ``dyng.nx`` graph has not yet given to dyng.

The graph's mutating methods note every (u, v) they touch, and so does every edge's attribute
dict (``EdgeData``, the graph's ``edge_attr_dict_factory``), which is where a weight change
such as ``G[u][v]["weight"] = 3`` or ``nx.set_edge_attributes`` lands. The journal keeps only
which pairs were touched, in order: what happened to a pair is read from the graph when the
batch is built, so an edge added, reweighted and removed again costs one deletion.

Each edge's dict also carries its creation number, ``seq``: NetworkX keeps neighbours in the
order their edges were created (in both rows of an undirected edge, and in succ and pred), so
the numbers give every row's adjacency order, which NetworkX's searches break ties by.
"""

from __future__ import annotations

from typing import Any, Self

__all__ = ["EdgeData", "Journal"]


class Journal:
    """Touched pairs, in order, from the moment a dyng copy of the graph exists.

    Readers (one per dyng copy) keep the position they have read up to; the journal drops what
    every reader has read.
    """

    def __init__(self):
        self.pairs = []
        self.start = 0  # the position of pairs[0]
        self.readers = {}  # reader key -> position read up to
        self.next_seq = 1
        self.changes = 0  # touches ever: tells whether anything changed since a moment

    def touch(self, u, v):
        self.changes += 1
        if self.readers:
            self.pairs.append((u, v))

    def touch_many(self, pairs):
        self.changes += 1
        if self.readers:
            self.pairs.extend(pairs)

    def add_reader(self, key):
        self.readers[key] = self.start + len(self.pairs)

    def drop_reader(self, key):
        self.readers.pop(key, None)
        if not self.readers:
            self.pairs.clear()

    def read(self, key):
        """The pairs `key` has not read yet; marks them read."""
        begin = self.readers[key] - self.start
        unread = self.pairs[begin:]
        self.readers[key] = self.start + len(self.pairs)
        oldest = min(self.readers.values()) - self.start
        if oldest:
            del self.pairs[:oldest]
            self.start += oldest
        return unread

    def __reduce__(self):
        # A copy (pickle, deepcopy) starts with no dyng copies, so with nothing to record; the
        # creation numbers go on from where they were. Copies of one graph share one journal
        # (pickle and deepcopy memoize it).
        return (_fresh_journal, (self.next_seq,))


def _fresh_journal(next_seq):
    journal = Journal()
    journal.next_seq = next_seq
    return journal


class EdgeData(dict):
    """An edge's attribute dict that tells its graph's journal when it changes.

    NetworkX creates it empty (``edge_attr_dict_factory()``); the graph then gives it its
    journal, pair and creation number. Reads are plain dict reads, so NetworkX's own algorithms
    read it at full speed.
    """

    __slots__ = ("_journal", "_u", "_v", "seq")

    def __init__(self, *args, **kwargs):
        dict.__init__(self, *args, **kwargs)
        self._journal = None
        self._u = self._v = None
        self.seq = 0

    # dict's own methods are called directly (not through super() or a helper): NetworkX calls
    # update twice for every edge it adds, so these lie on the graph-building path.
    def __setitem__(self, key, value):
        dict.__setitem__(self, key, value)
        if self._journal is not None:
            self._journal.touch(self._u, self._v)

    def __delitem__(self, key):
        dict.__delitem__(self, key)
        if self._journal is not None:
            self._journal.touch(self._u, self._v)

    # mypy holds __ior__ to dict's overloaded __or__ (a new dict); |= returns self, as dict's does.
    def __ior__(self, other: Any) -> Self:  # type: ignore[misc]
        dict.update(self, other)
        if self._journal is not None:
            self._journal.touch(self._u, self._v)
        return self

    def update(self, *args, **kwargs):
        dict.update(self, *args, **kwargs)
        if self._journal is not None:
            self._journal.touch(self._u, self._v)

    def pop(self, *args):
        result = dict.pop(self, *args)
        if self._journal is not None:
            self._journal.touch(self._u, self._v)
        return result

    def popitem(self):
        result = dict.popitem(self)
        if self._journal is not None:
            self._journal.touch(self._u, self._v)
        return result

    def clear(self):
        dict.clear(self)
        if self._journal is not None:
            self._journal.touch(self._u, self._v)

    def setdefault(self, key, default=None):
        result = dict.setdefault(self, key, default)
        if self._journal is not None:
            self._journal.touch(self._u, self._v)
        return result

    def __reduce__(self):
        # With its journal (pickle and deepcopy keep one copy per graph), pair and number.
        return (_rebuild, (dict(self), self._journal, self._u, self._v, self.seq))


def _rebuild(items, journal, u, v, seq):
    data = EdgeData(items)
    data._journal, data._u, data._v, data.seq = journal, u, v, seq
    return data

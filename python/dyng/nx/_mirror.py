"""The dyng copy of a ``dyng.nx`` graph for one weight attribute, and the results kept on it.

A mirror is built from the NetworkX dicts the first time a call needs it (a weighted one per
weight attribute, one unweighted for BFS, components and triangles) and from then on reads the
graph's journal: before answering, it turns the pairs touched since its last read into one
``dyng.EdgeBatch`` (each pair's state read from the graph now: an insertion or reweighting, or a
deletion) and hands it to ``dyng.update`` with every result it keeps, so they are all repaired at
once; a result it does not keep could not be repaired later.

Every edge carries its creation number (``EdgeData.seq``) as its last weight column, so the edges
read back from dyng know NetworkX's adjacency order (dyng.nx._orders). An edge whose weight dyng
cannot take stays out of the weighted copy and is listed in ``bad``; while the list is not empty
that copy answers nothing (NetworkX runs instead) and changes keep it current all the same.
"""

from __future__ import annotations

import collections
import itertools

import numpy as np

from dyng.nx import _weights

__all__ = ["Mirror", "BuildFailed"]

#: Results kept per mirror; the least recently used one is dropped beyond this.
MAX_RESULTS = 8
#: Edges with weights dyng cannot take that a mirror keeps track of; past this it is dropped.
MAX_BAD = 10_000


class BuildFailed(Exception):
    """A mirror could not be built; args[0] is the reason."""


class Mirror:
    """A dyng graph that follows one ``dyng.nx`` graph, and the dyng results kept on it."""

    def __init__(self, G, journal, index, attr, stats):
        import dyng

        self.attr = attr
        self.directed = G.is_directed()
        self.index = index
        self.stats = stats
        self.bad = {}
        self.results = collections.OrderedDict()
        src, dst, columns = self._read_graph(G)
        self.graph = dyng.Graph.from_edges(
            src, dst, columns, num_vertices=len(index), directed=self.directed
        )
        self.journal = journal
        journal.add_reader(self)

    def close(self):
        self.journal.drop_reader(self)
        self.results.clear()

    @property
    def problem(self):
        """Why this copy answers nothing now, or None."""
        if not self.bad:
            return None
        return next(iter(self.bad.values()))

    def edges(self):
        """(src, dst, weights or None, creation numbers) of the copy, both directions."""
        src, dst, columns = self.graph.edges()
        if self.attr is None:
            return src, dst, None, columns[:, 0]
        return src, dst, columns[:, 0], columns[:, 1]

    def result(self, key, compute):
        """The result kept under `key`, computed by ``compute(graph)`` the first time."""
        result = self.results.get(key)
        if result is None:
            if len(self.results) >= MAX_RESULTS:
                self.results.popitem(last=False)
            result = self.results[key] = compute(self.graph)
            self.stats.computes += 1
        else:
            self.results.move_to_end(key)
        return result

    def sync(self, G):
        """Applies the pairs touched since the last sync, repairing every kept result."""
        import dyng

        touched = self.journal.read(self)
        if not touched:
            return
        batch = self._batch(G, touched)
        if batch is None:
            return
        self.stats.batches += 1
        if not self.results:
            self.graph.apply(batch)
            return
        for stats in dyng.update(self.graph, batch, *self.results.values()):
            self.stats.updates += 1
            if stats.path == "incremental":
                self.stats.incremental += 1
            else:
                self.stats.recomputed += 1

    def _read_graph(self, G):
        adj = G._adj
        rows = list(adj)
        index = self.index
        degrees = np.fromiter(map(len, adj.values()), dtype=np.int64, count=len(rows))
        src = np.repeat(np.array(index.ids_for(rows), dtype=np.int64), degrees)
        dst = np.array(
            index.ids_for(list(itertools.chain.from_iterable(adj.values()))), dtype=np.int64
        )
        datas = [d for nbrs in adj.values() for d in nbrs.values()]
        if not self.directed:
            # dyng stores an undirected edge once and both directions itself.
            once = np.flatnonzero(src <= dst)
            src, dst = src[once], dst[once]
            datas = [datas[i] for i in once.tolist()]
        seq = np.fromiter((d.seq for d in datas), dtype=np.int64, count=len(datas))
        if self.attr is None:
            return src, dst, seq.astype(np.int32).reshape(-1, 1)
        raw = [d.get(self.attr, 1) for d in datas]
        values, bad = _weights.check_weights([1 if w is None else w for w in raw])
        keep = np.fromiter((w is not None for w in raw), dtype=bool, count=len(raw))
        if bad is not None:
            values = self._sort_out_bad(raw, src, dst, keep)
        keep = np.flatnonzero(keep)
        columns = np.column_stack((values[keep], seq[keep])).astype(np.int32)
        return src[keep], dst[keep], columns

    def _sort_out_bad(self, raw, src, dst, keep):
        """Moves the edges dyng cannot take from `keep` to ``bad``; returns the weights with 1
        in their place."""
        values = np.ones(len(raw), dtype=np.int64)
        for position, value in enumerate(raw):
            if value is None:
                continue
            problem = _weights.weight_problem(value)
            if problem is None:
                values[position] = value
                continue
            keep[position] = False
            u, v = int(src[position]), int(dst[position])
            self._note_bad((u, v), value, problem)
        return values

    def _note_bad(self, pair, value, problem):
        u, v = self.index.label(pair[0]), self.index.label(pair[1])
        self.bad[pair] = _weights.describe(self.attr, u, v, value, problem)
        if len(self.bad) > MAX_BAD:
            raise BuildFailed(self.bad[pair])

    def _batch(self, G, touched):
        import dyng

        adj = G._adj
        ids = self.index.id_for
        insert_src, insert_dst, insert_columns = [], [], []
        delete_src, delete_dst = [], []
        for u, v in dict.fromkeys(touched):
            a, b = ids(u), ids(v)
            pair = (a, b) if self.directed or a <= b else (b, a)
            nbrs = adj.get(u)
            data = None if nbrs is None else nbrs.get(v)
            weight = None
            if data is not None and self.attr is not None:
                weight = data.get(self.attr, 1)
            self.bad.pop(pair, None)
            if data is None or (self.attr is not None and weight is None):
                delete_src.append(pair[0])
                delete_dst.append(pair[1])
                continue
            if self.attr is None:
                insert_columns.append((data.seq,))
            else:
                problem = _weights.weight_problem(weight)
                if problem is not None:
                    self._note_bad(pair, weight, problem)
                    delete_src.append(pair[0])
                    delete_dst.append(pair[1])
                    continue
                insert_columns.append((weight, data.seq))
            insert_src.append(pair[0])
            insert_dst.append(pair[1])
        if not insert_src and not delete_src:
            return None
        width = 1 if self.attr is None else 2
        columns = np.array(insert_columns, dtype=np.int32).reshape(-1, width)
        return dyng.EdgeBatch(
            insert=(
                np.array(insert_src, dtype=np.int64),
                np.array(insert_dst, dtype=np.int64),
                columns,
            ),
            delete=(np.array(delete_src, dtype=np.int64), np.array(delete_dst, dtype=np.int64)),
        )

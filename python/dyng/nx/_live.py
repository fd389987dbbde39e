"""What a ``dyng.nx`` graph keeps besides its NetworkX dicts: the journal of touched pairs, the
node index, one dyng mirror per weight attribute and the counters that say what they did.

``LiveSource`` answers the backend's questions (distances, levels, components, edges,
triangles) for one graph, syncing the mirror it reads first: this is where "the next time a
cached result is asked for" happens.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from dyng.nx._journal import Journal
from dyng.nx._labels import NodeIndex
from dyng.nx._mirror import BuildFailed, Mirror
from dyng.nx._snapshot import PagerankVectors, converged_ranks, snapshot_of

__all__ = ["DyngStats", "LiveState", "LiveSource"]

_INFINITE = 2**61 - 1  # dyng.sssp.INFINITE_DISTANCE, without importing dyng here
_LAST_SEQ = 2**31 - 1  # creation numbers travel as int32 weights


@dataclasses.dataclass
class DyngStats:
    """What a ``dyng.nx`` graph's dyng copies did.

    Attributes
    ----------
    computes : int
        Results computed from scratch (one per new source, attribute and kind).
    batches : int
        Batches of recorded changes applied to a dyng copy.
    updates : int
        Results repaired by ``dyng.update`` (each result of each batch counts once).
    incremental, recomputed : int
        Of those, repaired in place or recomputed by dyng's update policy.
    networkx_calls : int
        Calls that ran NetworkX's own code on the graph because dyng could not run them.
    last_networkx_reason : str
        Why the last of those did not run on dyng.
    """

    computes: int = 0
    batches: int = 0
    updates: int = 0
    incremental: int = 0
    recomputed: int = 0
    networkx_calls: int = 0
    last_networkx_reason: str = ""


class LiveState:
    """The dyng side of one ``dyng.nx`` graph."""

    def __init__(self, journal=None):
        self.journal = journal if journal is not None else Journal()
        self.index = None  # made with the first mirror, from the graph's nodes in order
        self.mirrors = {}
        self.failed = {}  # attr -> (journal.changes when it failed, reason)
        self.stats = DyngStats()

    def __reduce__(self):
        # dyng graphs are not copied or pickled: the copy builds its own on first use.
        return (LiveState, (self.journal,))

    def reset(self):
        """Drops every mirror (after clear(), or when creation numbers run out)."""
        for mirror in self.mirrors.values():
            mirror.close()
        self.mirrors.clear()
        self.failed.clear()
        self.index = None

    def index_of(self, G):
        """The node index, made from the graph's nodes in order the first time."""
        if self.index is None:
            self.index = NodeIndex(G)
        return self.index

    def mirror(self, G, attr):
        """The synced mirror for `attr`, or the reason there is none."""
        if self.journal.next_seq >= _LAST_SEQ:
            _renumber(G, self.journal)
            self.reset()
        mirror = self.mirrors.get(attr)
        try:
            if mirror is None:
                failed = self.failed.get(attr)
                if failed is not None and failed[0] == self.journal.changes:
                    return None, failed[1]
                mirror = Mirror(G, self.journal, self.index_of(G), attr, self.stats)
                self.mirrors[attr] = mirror
            else:
                mirror.sync(G)
        except BuildFailed as failure:
            self._drop(attr, mirror)
            self.failed[attr] = (self.journal.changes, failure.args[0])
            return None, failure.args[0]
        except BaseException:
            # The pairs read from the journal did not all reach dyng (an error, Ctrl-C): this
            # copy may no longer match the graph, so the next call builds it afresh.
            self._drop(attr, mirror)
            raise
        return mirror, mirror.problem

    def _drop(self, attr, mirror):
        if mirror is not None:
            mirror.close()
        self.mirrors.pop(attr, None)


class LiveSource:
    """The backend's view of a ``dyng.nx`` graph: NetworkX's answers come from its mirrors."""

    def __init__(self, G):
        self.G = G
        self.state = G._dyng
        self.directed = G.is_directed()

    @property
    def index(self):
        return self.state.index

    def __contains__(self, node):
        return node in self.G

    def __len__(self):
        return len(self.G)

    def weight_problem(self, attr):
        return self.state.mirror(self.G, attr)[1]

    def hidden_edges_problem(self, attr):
        """None: a ``dyng.nx`` graph's copy leaves an edge whose weight is None out without
        noting it, so pagerank reads it as absent (NetworkX's own pagerank fails on it)."""
        return None

    def source_id(self, node):
        return self.state.index_of(self.G).id_for(node)

    def distances(self, source, attr):
        import dyng

        mirror = self._usable(attr)
        if source >= mirror.graph.num_vertices:
            return self._alone(source, _INFINITE)
        result = mirror.result(("sssp", source), lambda g: dyng.sssp.compute(g, source))
        return self._padded(result.distances.to_numpy(), _INFINITE)

    def levels(self, source):
        import dyng

        mirror = self._usable(None)
        if source >= mirror.graph.num_vertices:
            return self._alone(source, -1)
        result = mirror.result(("bfs", source), lambda g: dyng.dynamic_bfs.compute(g, source))
        return self._padded(result.levels.to_numpy(), -1)

    def node_ids(self):
        """ids of the graph's nodes, in its node order (new nodes get their ids here)."""
        return np.array(self.state.index_of(self.G).ids_for(self.G), dtype=np.int64)

    def components(self, kind):
        import dyng

        mirror = self._usable(None)
        result = mirror.result(
            ("components", kind), lambda g: dyng.components.compute(g, kind=kind)
        )
        labels = result.labels.to_numpy()
        # Ids given since the copy last grew have no edges there: each is its own component.
        missing = np.arange(len(labels), len(self.state.index), dtype=np.int64)
        return np.concatenate((labels, missing)) if len(missing) else labels

    def pagerank(self, alpha, tol, max_iter, attr, dicts=(None, None, None)):
        """(ranks in node order, converged): the result kept for these options and
        (personalization, dangling) `dicts`, repaired by ``dyng.update``, while the copy's
        vertices are exactly the graph's nodes; otherwise (a node without edges yet, a removed
        node still holding its id) n would differ, so a conversion of the graph now answers.
        nstart (the last of `dicts`) starts a result's first compute only."""
        mirror = self._usable(attr)
        ids = self.node_ids()
        vertices = mirror.graph.num_vertices
        if len(ids) != vertices or (vertices and int(ids.max()) >= vertices):
            attrs = {} if attr is None else {attr: 1}
            return snapshot_of(self.G, attrs).pagerank(alpha, tol, max_iter, attr, dicts)
        index = self.state.index_of(self.G)
        vectors = PagerankVectors(
            dicts, lambda node: index.id_for(node) if node in self.G else None
        )
        result = mirror.result(
            ("pagerank", alpha, tol, max_iter, attr) + vectors.key(),
            lambda g: vectors.compute(
                g, alpha=alpha, tol=tol, max_iter=max_iter, weighted=attr is not None
            ),
        )
        ranks, converged = converged_ranks(result, tol)
        return ranks[ids], converged

    def ordered_edges(self, attr):
        return self._usable(attr).edges()

    def triangles(self):
        import dyng

        mirror = self._usable(None)
        return mirror.result(("triangles",), dyng.triangle_delta.compute).count

    def triad_sum(self):
        total = 0
        for node, nbrs in self.G._adj.items():
            degree = len(nbrs) - (node in nbrs)
            total += degree * (degree - 1)
        return total

    def _usable(self, attr):
        mirror, problem = self.state.mirror(self.G, attr)
        if problem is not None:
            raise RuntimeError(
                f"dyng.nx: {problem}; the backend answered a call it had to "
                f"refuse, which is a bug in dyng.nx: please report it"
            )
        return mirror

    def _alone(self, source, unreachable):
        values = np.full(len(self.state.index), unreachable, dtype=np.int64)
        values[source] = 0
        return values

    def _padded(self, values, unreachable):
        missing = len(self.state.index) - len(values)
        if missing <= 0:
            return values
        return np.concatenate((values, np.full(missing, unreachable, dtype=np.int64)))


def _renumber(G, journal):
    """Gives the edges creation numbers 1..m in their present order, so that numbering can go on
    within int32 (after 2**31 edge creations in one graph's life)."""
    datas = {id(d): d for nbrs in G._adj.values() for d in nbrs.values()}
    ordered = sorted(datas.values(), key=lambda d: d.seq)
    for seq, data in enumerate(ordered, start=1):
        data.seq = seq
    journal.next_seq = len(ordered) + 1

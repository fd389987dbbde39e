"""A NetworkX graph converted for dyng once (what ``convert_from_nx`` returns).

The conversion reads the graph in NetworkX's own iteration order and keeps, besides dyng graphs
built from it on demand, the directed edge arrays in that order: ``order`` numbers every edge so
that within a row it follows NetworkX's adjacency order, which is what NetworkX's searches use to
break ties (dyng.nx._orders). An undirected graph is stored as both directions of every edge and
searched as a directed dyng graph; only the triangle count uses an undirected one.

A multigraph becomes a simple graph whose edge (u, v) weighs the least of its parallel edges,
which is exactly how NetworkX's shortest-path code reads it (``_weight_function``); BFS,
components and triangles read only who is adjacent to whom, so nothing is lost for the functions
dyng runs.
"""

from __future__ import annotations

import itertools

import numpy as np

from dyng.nx import _weights
from dyng.nx._labels import NodeIndex

__all__ = ["Snapshot", "snapshot_of", "converged_ranks", "PagerankVectors"]

_MEMO_SIZE = 8


class _Weights:
    """One attribute's weights: the int32 array (hidden edges dropped by `keep`) or the reason
    dyng cannot take them."""

    def __init__(self, values=None, keep=None, problem=None):
        self.values = values
        self.keep = keep
        self.problem = problem


class Snapshot:
    """A converted graph: node labels, directed edge arrays in NetworkX order, weights of the
    converted attributes, and the dyng graphs made from them.

    Examples
    --------
    >>> import networkx as nx
    >>> from dyng.nx._snapshot import snapshot_of
    >>> s = snapshot_of(nx.path_graph(["x", "y", "z"]), {"weight": 1})
    >>> s.levels(s.index.id_of("x")).tolist()
    [0, 1, 2]
    """

    __networkx_backend__ = "dyng"

    def __init__(self, index, directed, multigraph, src, dst, order, weights, nodes=None):
        self.index = index
        # The graph's nodes are ids 0..nodes-1 in its order; a view's adjacency may add more.
        self.nodes = len(index) if nodes is None else nodes
        self.directed = directed
        self.multigraph = multigraph
        self.src, self.dst, self.order = src, dst, order
        self.weights = weights
        self.graph = {}
        self._search_graphs = {}
        self._triangle_graph = None
        self._memo = {}

    def is_directed(self):
        return self.directed

    def is_multigraph(self):
        return self.multigraph

    def __len__(self):
        return self.nodes

    def __contains__(self, node):
        try:
            return self.index.id_of(node) is not None
        except TypeError:  # an unhashable label is in no graph, as NetworkX says
            return False

    def source_id(self, node):
        return self.index.id_of(node)

    def __iter__(self):
        return iter(self.index.labels_of(slice(0, self.nodes)).tolist())

    def weight_problem(self, attr):
        """Why dyng cannot search by `attr`, or None."""
        if attr is None:
            return None
        weights = self.weights.get(attr)
        if weights is None:
            return (
                f"the graph was converted for dyng without the edge attribute {attr!r}; "
                f"convert it with edge_attrs={{{attr!r}: 1}}"
            )
        return weights.problem

    def hidden_edges_problem(self, attr):
        """Why pagerank by `attr` stays in NetworkX when an edge's weight is None, or None:
        NetworkX's shortest paths skip such an edge, but its pagerank reads None into its matrix
        (and fails to converge), so leaving the edge out would not be NetworkX's answer."""
        if attr is None or self.weights[attr].keep is None:
            return None
        return (
            f"an edge has {attr}=None, which NetworkX's pagerank does not skip as its "
            f"searches do; NetworkX runs this call"
        )

    def ordered_edges(self, attr):
        """(src, dst, weights or None, order) of the edges a search by `attr` sees."""
        if attr is None:
            return self.src, self.dst, None, self.order
        weights = self.weights[attr]
        keep = weights.keep
        if keep is None:
            return self.src, self.dst, weights.values, self.order
        return self.src[keep], self.dst[keep], weights.values, self.order[keep]

    def distances(self, source, attr):
        """int64 distances from `source` by `attr` (INFINITE_DISTANCE where unreachable)."""
        return self._remember(("sssp", source, attr), lambda: self._sssp(source, attr))

    def levels(self, source):
        """int64 BFS levels from `source` (-1 where unreachable)."""
        return self._remember(("bfs", source), lambda: self._bfs(source))

    def node_ids(self):
        """ids of the graph's nodes, in its node order."""
        return np.arange(self.nodes, dtype=np.int64)

    def components(self, kind):
        """int64 component labels (``"weak"`` or ``"strong"``) of every id, each the smallest id
        of its component."""
        return self._remember(("components", kind), lambda: self._components(kind))

    def pagerank(self, alpha, tol, max_iter, attr, dicts=(None, None, None)):
        """(float64 ranks of the ids in node order, converged) by ``dyng.pagerank``, with
        transition probabilities by `attr` (every edge 1 when None) and NetworkX's
        (personalization, dangling, nstart) `dicts` by node."""
        vectors = PagerankVectors(dicts, self._node_id)
        return self._remember(
            ("pagerank", alpha, tol, max_iter, attr, vectors.key(nstart=True)),
            lambda: self._pagerank(alpha, tol, max_iter, attr, vectors),
        )

    def _node_id(self, node):
        vertex = self.index.id_of(node)
        return vertex if vertex is not None and vertex < self.nodes else None

    def triangles(self):
        """Triangles of an undirected graph (self-loops ignored)."""
        return self._remember(("triangles",), self._count_triangles)

    def triad_sum(self):
        """Sum over nodes of d(d - 1), d the neighbours other than the node itself: the
        denominator of NetworkX's transitivity."""
        loops = self.src == self.dst
        degrees = np.bincount(self.src[~loops], minlength=len(self.index)).astype(object)
        return int(sum(degrees * (degrees - 1)))

    def _remember(self, key, make):
        value = self._memo.get(key)
        if value is None:
            if len(self._memo) >= _MEMO_SIZE:
                self._memo.pop(next(iter(self._memo)))
            value = self._memo[key] = make()
        return value

    def _search_graph(self, attr):
        graph = self._search_graphs.get(attr)
        if graph is None:
            import dyng

            src, dst, values, _ = self.ordered_edges(attr)
            graph = self._search_graphs[attr] = dyng.Graph.from_edges(
                src, dst, values, num_vertices=len(self.index)
            )
        return graph

    def _sssp(self, source, attr):
        import dyng

        result = dyng.sssp.compute(self._search_graph(attr), source)
        return result.distances.to_numpy()

    def _bfs(self, source):
        import dyng

        result = dyng.dynamic_bfs.compute(self._search_graph(None), source)
        return result.levels.to_numpy()

    def _components(self, kind):
        import dyng

        # An undirected graph is searched with both directions of each edge: its weak components.
        result = dyng.components.compute(self._search_graph(None), kind=kind)
        return result.labels.to_numpy()

    def _pagerank(self, alpha, tol, max_iter, attr, vectors):
        import dyng

        # An undirected graph's edges are both directions here, a self-loop once: NetworkX's
        # adjacency matrix. Ids past the graph's nodes (a view's) are not nodes and would count
        # in n; NetworkX's matrix (over the node list) drops the edges to them, and so does this.
        if len(self.index) == self.nodes:
            graph = self._search_graph(attr)
        else:
            src, dst, values, _ = self.ordered_edges(attr)
            inside = (src < self.nodes) & (dst < self.nodes)
            graph = dyng.Graph.from_edges(
                src[inside],
                dst[inside],
                None if values is None else values[inside],
                num_vertices=self.nodes,
            )
        result = vectors.compute(
            graph, alpha=alpha, tol=tol, max_iter=max_iter, weighted=attr is not None
        )
        return converged_ranks(result, tol)

    def _count_triangles(self):
        import dyng

        once = self.src < self.dst
        graph = dyng.Graph.from_edges(
            self.src[once], self.dst[once], num_vertices=len(self.index), directed=False
        )
        return dyng.triangle_delta.compute(graph).count


class PagerankVectors:
    """NetworkX's pagerank dicts (personalization, dangling, nstart) as float64 weights by dyng
    id, each without trailing zeros (so the same dict gives the same weights as the graph
    grows, and a result kept with them gives the nodes added later 0, as ``dict.get(node, 0)``
    does). `node_id(node)` is a node's id, None for what is not a node. Raises NetworkX's
    ZeroDivisionError when a personalization gives the nodes no weight."""

    def __init__(self, dicts, node_id):
        self.personalization, self.dangling, self.nstart = (
            None if d is None else _weights_by_id(d, node_id) for d in dicts
        )
        if self.personalization is not None and not len(self.personalization):
            raise ZeroDivisionError

    def key(self, nstart=False):
        """What results kept with these vectors are told apart by (nstart only picks where the
        iteration starts, so a kept result answers whatever nstart a later call has)."""
        vectors = (self.personalization, self.dangling) + ((self.nstart,) if nstart else ())
        return tuple(None if v is None else v.tobytes() for v in vectors)

    def compute(self, graph, **options):
        import dyng

        return dyng.pagerank.compute(
            graph,
            personalization=self.personalization,
            dangling=self.dangling,
            nstart=self.nstart,
            **options,
        )


def _weights_by_id(mapping, node_id):
    ids, weights = [], []
    for node, weight in mapping.items():
        vertex = node_id(node)
        if vertex is not None:
            ids.append(vertex)
            weights.append(float(weight))
    dense = np.zeros(max(ids, default=-1) + 1)
    dense[np.array(ids, dtype=np.int64)] = weights
    return np.trim_zeros(dense, "b")


def converged_ranks(result, tol):
    """(ranks, converged) of a dyng.pagerank Result: converged when its last iteration moved
    the ranks by less than ``n * tol``, NetworkX's test."""
    ranks = result.ranks.to_numpy()
    return ranks, result.residual < len(ranks) * tol


def snapshot_of(G, attrs):
    """Converts NetworkX graph `G`, reading the weights of `attrs` ({name: default}).

    Weights dyng cannot take are not an error here: the attribute records why, and can_run
    reports it (a search by another attribute, or BFS, still runs)."""
    adj = G._adj
    rows = list(adj)
    index = NodeIndex(G)
    nodes = len(index)
    index.ids_for(rows)  # a view's adjacency may hold what its node list filters out
    # A view's rows can count more neighbours than they yield (the rows of a multigraph's
    # edge_subgraph count every neighbour the node filter keeps, edges or not), so a view's
    # degrees are counted by iterating, as the edge arrays are read.
    count = len if getattr(G, "_graph", None) is None else _count_yielded
    degrees = np.fromiter(map(count, adj.values()), dtype=np.int64, count=len(rows))
    src = np.repeat(np.array(index.ids_for(rows), dtype=np.int64), degrees)
    dst = np.array(index.ids_for(list(itertools.chain.from_iterable(adj.values()))), dtype=np.int64)
    vertex_type = np.int32 if len(index) <= 2**31 - 1 else np.int64
    src, dst = src.astype(vertex_type), dst.astype(vertex_type)
    # Edges are numbered in NetworkX's iteration order: within each row, its adjacency order.
    order = np.arange(len(dst), dtype=np.int64)
    multigraph = G.is_multigraph()
    weights = {
        attr: _read_weights(adj, attr, default, multigraph, index, src, dst)
        for attr, default in (attrs or {}).items()
    }
    return Snapshot(index, G.is_directed(), multigraph, src, dst, order, weights, nodes)


def _count_yielded(row):
    return sum(1 for _ in row)


def _read_weights(adj, attr, default, multigraph, index, src, dst):
    if multigraph:
        # NetworkX's shortest paths read a multigraph edge as its lightest parallel edge.
        groups = [
            [d.get(attr, default) for d in keyed.values()]
            for nbrs in adj.values()
            for keyed in nbrs.values()
        ]
        flat = [value for group in groups for value in group]
        if any(value is None for value in flat):
            position = next(i for i, group in enumerate(groups) if None in group)
            return _Weights(
                problem=_weights.describe(
                    attr,
                    index.label(int(src[position])),
                    index.label(int(dst[position])),
                    None,
                    "which hides one parallel edge; NetworkX's multigraph searches cannot compare "
                    "it with the others",
                )
            )
        values, bad = _weights.check_weights(flat)
        if bad is not None:
            edge = int(np.searchsorted(np.cumsum([len(g) for g in groups]), bad[0], "right"))
            return _Weights(
                problem=_weights.describe(
                    attr,
                    index.label(int(src[edge])),
                    index.label(int(dst[edge])),
                    flat[bad[0]],
                    bad[1],
                )
            )
        starts = np.concatenate(([0], np.cumsum([len(g) for g in groups])[:-1]))
        lightest = np.minimum.reduceat(values, starts) if len(values) else values
        return _Weights(values=lightest.astype(np.int32))
    raw = [d.get(attr, default) for nbrs in adj.values() for d in nbrs.values()]
    keep = None
    if None in raw:
        # NetworkX skips an edge whose weight is None; so does dyng, by leaving it out.
        keep = np.fromiter((value is not None for value in raw), dtype=bool, count=len(raw))
        positions = np.flatnonzero(keep)
        raw = [raw[i] for i in positions.tolist()]
    else:
        positions = None
    values, bad = _weights.check_weights(raw)
    if bad is not None:
        edge = bad[0] if positions is None else int(positions[bad[0]])
        return _Weights(
            problem=_weights.describe(
                attr, index.label(int(src[edge])), index.label(int(dst[edge])), raw[bad[0]], bad[1]
            )
        )
    return _Weights(values=values, keep=keep)

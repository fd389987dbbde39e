"""``dyng.nx.DiGraph`` and ``dyng.nx.Graph``: NetworkX graphs whose dyng results stay current.

They are ``nx.DiGraph`` and ``nx.Graph`` with the same dicts and methods; the mutating methods
also note the pairs they touch in the graph's journal (dyng.nx._journal), and every edge's
attribute dict is an ``EdgeData`` that notes its own changes. ``__networkx_backend__ = "dyng"``
sends NetworkX's dispatched calls to the dyng backend, which answers the functions it implements
from the graph's mirrors and runs NetworkX's own code on the graph for the rest.

A view of one of these graphs (``G.subgraph(...)``, ``G.reverse(copy=False)``,
``G.to_undirected(as_view=True)``) is of the same class but shares the original's dicts without
its journal, so the backend treats it as a plain NetworkX graph and converts it per call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import networkx as nx

from dyng.nx._journal import EdgeData
from dyng.nx._live import LiveState

__all__ = ["DiGraph", "Graph", "is_live"]


def is_live(G):
    """True for a ``dyng.nx`` graph that keeps its own journal (not a view of one)."""
    return isinstance(G, _Recording) and G.__dict__.get("_graph") is None


if TYPE_CHECKING:
    # The overrides below reach NetworkX's methods through super(): the class that mixes
    # _Recording in (DiGraph, Graph) supplies them, which the type check learns from this base.
    from networkx import Graph as _NetworkXGraph
else:
    _NetworkXGraph = object


class _Recording(_NetworkXGraph):
    """The journal-keeping half of DiGraph and Graph (NetworkX's class is the other half)."""

    __networkx_backend__ = "dyng"
    edge_attr_dict_factory = EdgeData
    """The class of every edge's attribute dict: a dict that notes its own changes (a new
    ``weight``, a deleted attribute) in the graph's journal, so that they reach the next batch."""

    def __init__(self, incoming_graph_data=None, **attr):
        # First: NetworkX's __init__ adds the incoming edges through the methods below.
        self._dyng = LiveState()
        super().__init__(incoming_graph_data, **attr)

    @property
    def dyng_stats(self):
        """What the graph's dyng copies did so far: a DyngStats record (``computes``,
        ``batches``, ``updates``, ``incremental``, ``recomputed``, ``networkx_calls``,
        ``last_networkx_reason``)."""
        return self._dyng.stats

    def _attach(self, edges):
        """Gives every new edge among `edges` (tuples starting (u, v), all in the graph) its
        journal and creation number, and notes them as touched."""
        journal = self._dyng.journal
        adj = self._adj
        seq = journal.next_seq
        for edge in edges:
            u, v = edge[0], edge[1]
            data = adj[u][v]
            if data._journal is None:
                data._journal, data._u, data._v, data.seq = journal, u, v, seq
                seq += 1
        journal.next_seq = seq
        journal.touch_many([(edge[0], edge[1]) for edge in edges] if journal.readers else ())

    def add_edge(self, u_of_edge, v_of_edge, **attr) -> None:
        """NetworkX's ``add_edge``, recorded: the edge (or its new attributes) joins the pending
        batch.

        Parameters
        ----------
        u_of_edge, v_of_edge : hashable
            The edge's nodes (added when new).
        **attr
            Edge attributes, ``weight`` among them.

        Raises
        ------
        ValueError
            A node is None (NetworkX's own check).

        Examples
        --------
        >>> import networkx as nx, dyng.nx
        >>> G = dyng.nx.DiGraph([(0, 1)])
        >>> nx.single_source_shortest_path_length(G, 0)
        {0: 0, 1: 1}
        >>> G.add_edge(1, 2)
        >>> nx.single_source_shortest_path_length(G, 0), G.dyng_stats.updates
        ({0: 0, 1: 1, 2: 2}, 1)
        """
        super().add_edge(u_of_edge, v_of_edge, **attr)
        self._attach([(u_of_edge, v_of_edge)])

    def add_edges_from(self, ebunch_to_add, **attr) -> None:
        """NetworkX's ``add_edges_from``, recorded; a malformed tuple stops it as in NetworkX,
        with the edges before it added and recorded.

        Parameters
        ----------
        ebunch_to_add : iterable of tuple
            ``(u, v)`` or ``(u, v, attributes)`` tuples.
        **attr
            Attributes every edge gets (a tuple's own attributes win).

        Raises
        ------
        networkx.NetworkXError
            A tuple that is not an edge.

        Examples
        --------
        >>> import networkx as nx, dyng.nx
        >>> G = dyng.nx.Graph([(0, 1)])
        >>> nx.number_connected_components(G)
        1
        >>> G.add_edges_from([(2, 3), (4, 5)])
        >>> nx.number_connected_components(G), G.dyng_stats.updates
        (3, 1)
        """
        edges = list(ebunch_to_add)
        try:
            super().add_edges_from(edges, **attr)
        except BaseException:
            # A malformed tuple stops NetworkX midway; the edges before it were added.
            self._attach([e for e in edges if _is_edge(e) and self.has_edge(e[0], e[1])])
            raise
        self._attach(edges)

    def remove_edge(self, u, v) -> None:
        """NetworkX's ``remove_edge``, recorded: the deletion joins the pending batch.

        Parameters
        ----------
        u, v : hashable
            The edge's nodes.

        Raises
        ------
        networkx.NetworkXError
            The edge is not in the graph.

        Examples
        --------
        >>> import networkx as nx, dyng.nx
        >>> G = dyng.nx.DiGraph([(0, 1), (1, 2)])
        >>> nx.single_source_shortest_path_length(G, 0)
        {0: 0, 1: 1, 2: 2}
        >>> G.remove_edge(1, 2)
        >>> nx.single_source_shortest_path_length(G, 0)
        {0: 0, 1: 1}
        """
        super().remove_edge(u, v)
        self._dyng.journal.touch(u, v)

    def remove_edges_from(self, ebunch) -> None:
        """NetworkX's ``remove_edges_from``, recorded (edges not in the graph are skipped, as in
        NetworkX).

        Parameters
        ----------
        ebunch : iterable of tuple
            Edges as tuples whose first two items are the nodes.

        Raises
        ------
        TypeError
            An item is not a sequence of at least two nodes.

        Examples
        --------
        >>> import networkx as nx, dyng.nx
        >>> G = dyng.nx.Graph([(0, 1), (1, 2), (2, 0)])
        >>> nx.transitivity(G)
        1.0
        >>> G.remove_edges_from([(0, 1), (5, 6)])
        >>> nx.transitivity(G)
        0
        """
        edges = [tuple(e[:2]) for e in ebunch]
        super().remove_edges_from(edges)
        self._dyng.journal.touch_many(edges)

    def remove_node(self, n) -> None:
        """NetworkX's ``remove_node``, recorded: the deletions of its edges join the pending
        batch.

        Parameters
        ----------
        n : hashable
            The node.

        Raises
        ------
        networkx.NetworkXError
            The node is not in the graph.

        Examples
        --------
        >>> import networkx as nx, dyng.nx
        >>> G = dyng.nx.Graph([(0, 1), (1, 2)])
        >>> G.remove_node(1)
        >>> nx.number_connected_components(G)
        2
        """
        touched = self._incident(n)
        super().remove_node(n)
        self._dyng.journal.touch_many(touched)

    def remove_nodes_from(self, nodes) -> None:
        """NetworkX's ``remove_nodes_from``, recorded (nodes not in the graph are skipped, as in
        NetworkX).

        Parameters
        ----------
        nodes : iterable of hashable
            The nodes.

        Raises
        ------
        TypeError
            `nodes` is not iterable.

        Examples
        --------
        >>> import networkx as nx, dyng.nx
        >>> G = dyng.nx.Graph([(0, 1), (1, 2), (3, 4)])
        >>> G.remove_nodes_from([1, 9])
        >>> nx.number_connected_components(G)
        3
        """
        nodes = list(nodes)
        touched = [pair for n in nodes for pair in self._incident(n)]
        super().remove_nodes_from(nodes)
        self._dyng.journal.touch_many(touched)

    def clear(self) -> None:
        """NetworkX's ``clear``; the graph's dyng copies go too (the next call computes afresh).

        Examples
        --------
        >>> import dyng.nx
        >>> G = dyng.nx.Graph([(0, 1)])
        >>> G.clear()
        >>> G.number_of_nodes()
        0
        """
        super().clear()
        self._dyng.reset()

    def clear_edges(self) -> None:
        """NetworkX's ``clear_edges``; the graph's dyng copies go too (the next call computes
        afresh).

        Examples
        --------
        >>> import networkx as nx, dyng.nx
        >>> G = dyng.nx.Graph([(0, 1), (1, 2)])
        >>> G.clear_edges()
        >>> nx.number_connected_components(G)
        3
        """
        super().clear_edges()
        self._dyng.reset()

    def _incident(self, n):
        try:
            nbrs = self._adj.get(n)
        except TypeError:  # unhashable: NetworkX raises for it
            return []
        if nbrs is None:
            return []
        pairs = [(n, v) for v in nbrs]
        if self.is_directed():
            pairs += [(u, n) for u in self._pred[n]]
        return pairs


def _is_edge(e):
    try:
        return len(e) in (2, 3) and hash(e[0]) is not None and hash(e[1]) is not None
    except TypeError:
        return False


class DiGraph(_Recording, nx.DiGraph):
    """An ``nx.DiGraph`` whose dyng results stay current while it changes.

    Use it wherever NetworkX takes a DiGraph. Edge changes (``add_edge``, ``remove_edge``,
    ``add_edges_from``, ``remove_edges_from``, node removals and attribute changes such as
    ``G[u][v]["weight"] = 3``) are recorded as a pending batch; the next call to a function dyng
    implements (``nx.single_source_dijkstra_path_length`` and the others of
    ``dyng.nx.get_info()["functions"]``) applies the batch to the graph's dyng copy and repairs
    the results it keeps with [`dyng.update`][] instead of recomputing them. ``dyng_stats``
    counts what happened.

    Attributes
    ----------
    dyng_stats : DyngStats
        What the graph's dyng copies did so far: ``computes`` (results computed from scratch),
        ``batches`` (batches of recorded changes applied), ``updates`` (results repaired, of
        them ``incremental`` in place and ``recomputed``), ``networkx_calls`` (calls that ran
        NetworkX's own code because dyng could not) and ``last_networkx_reason`` (why the last
        of those did not run on dyng).

    Examples
    --------
    >>> import networkx as nx, dyng.nx
    >>> G = dyng.nx.DiGraph([(0, 1, {"weight": 4}), (1, 2, {"weight": 1}), (0, 2, {"weight": 9})])
    >>> nx.single_source_dijkstra_path_length(G, 0)
    {0: 0, 1: 4, 2: 5}
    >>> G[1][2]["weight"] = 7
    >>> nx.single_source_dijkstra_path_length(G, 0)
    {0: 0, 1: 4, 2: 9}
    >>> G.dyng_stats.updates
    1
    """

    def to_undirected_class(self):
        """The class of ``G.to_undirected()``: NetworkX's hook, so that it stays a dyng.nx graph.

        Returns
        -------
        type
            [`dyng.nx.Graph`][].

        Examples
        --------
        >>> import dyng.nx
        >>> type(dyng.nx.DiGraph([(0, 1)]).to_undirected()).__name__
        'Graph'
        """
        return Graph

    def to_directed_class(self):
        """The class of ``G.to_directed()`` and ``G.copy()``: NetworkX's hook, so that they stay
        dyng.nx graphs.

        Returns
        -------
        type
            [`dyng.nx.DiGraph`][].

        Examples
        --------
        >>> import dyng.nx
        >>> type(dyng.nx.DiGraph([(0, 1)]).copy()).__name__
        'DiGraph'
        """
        return DiGraph


class Graph(_Recording, nx.Graph):
    """An ``nx.Graph`` whose dyng results stay current while it changes (see
    [`DiGraph`][dyng.nx.DiGraph]).

    Attributes
    ----------
    dyng_stats : DyngStats
        What the graph's dyng copies did so far (as [`DiGraph`][dyng.nx.DiGraph]'s).

    Examples
    --------
    >>> import networkx as nx, dyng.nx
    >>> G = dyng.nx.Graph([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")])
    >>> nx.transitivity(G)
    0.6
    >>> G.add_edge("a", "d")
    >>> nx.transitivity(G), G.dyng_stats.updates
    (0.75, 1)
    """

    def to_directed_class(self):
        """The class of ``G.to_directed()``: NetworkX's hook, so that it stays a dyng.nx graph.

        Returns
        -------
        type
            [`dyng.nx.DiGraph`][].

        Examples
        --------
        >>> import dyng.nx
        >>> type(dyng.nx.Graph([(0, 1)]).to_directed()).__name__
        'DiGraph'
        """
        return DiGraph

    def to_undirected_class(self):
        """The class of ``G.to_undirected()`` and ``G.copy()``: NetworkX's hook, so that they
        stay dyng.nx graphs.

        Returns
        -------
        type
            [`dyng.nx.Graph`][].

        Examples
        --------
        >>> import dyng.nx
        >>> type(dyng.nx.Graph([(0, 1)]).copy()).__name__
        'Graph'
        """
        return Graph

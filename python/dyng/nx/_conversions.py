"""Plain NetworkX graphs to converted ones and back (``convert_from_nx``, ``convert_to_nx``).

can_run converts a plain graph to check its weights; that conversion is kept (per thread) for
the ``convert_from_nx`` NetworkX calls next for the same graph and attributes, so a call reads
the graph once. A conversion NetworkX has cached on the graph (it drops them when the graph
changes through its methods) is reused as NetworkX itself would.
"""

from __future__ import annotations

import threading
import weakref

import networkx as nx

from dyng.nx._graph_types import _Recording, is_live
from dyng.nx._live import LiveSource
from dyng.nx._snapshot import Snapshot, snapshot_of

__all__ = ["keep", "source_of", "cached_snapshot", "convert_from_nx", "convert_to_nx"]

_kept = threading.local()


def keep(G, attrs, snapshot):
    """Keeps can_run's conversion of `G` for the conversion that follows."""
    _kept.value = (weakref.ref(G), attrs, snapshot)


def _take(G, attrs):
    kept = getattr(_kept, "value", None)
    _kept.value = None
    if kept is not None and kept[0]() is G and kept[1] == attrs:
        return kept[2]
    return None


def cached_snapshot(G, attrs):
    """A conversion of `G` holding `attrs` that NetworkX has cached, or None."""
    cache = getattr(G, "__networkx_cache__", None)
    if not cache:
        return None
    for converted in list(cache.get("backends", {}).get("dyng", {}).values()):
        if isinstance(converted, Snapshot) and all(a in converted.weights for a in attrs):
            return converted
    return None


def source_of(G, attrs):
    """Where dyng's answers for `G` come from: the mirrors of a ``dyng.nx`` graph, or a
    conversion (one already made, else a new one)."""
    if isinstance(G, Snapshot):
        return G
    if is_live(G):
        return LiveSource(G)
    return _take(G, attrs) or cached_snapshot(G, attrs) or snapshot_of(G, attrs)


def convert_from_nx(
    G,
    edge_attrs=None,
    node_attrs=None,
    preserve_edge_attrs=False,
    preserve_node_attrs=False,
    preserve_graph_attrs=False,
    name=None,
    graph_name=None,
):
    """A converted graph holding the weights of `edge_attrs` ({attribute: default})."""
    if isinstance(G, (Snapshot, _Recording)):
        return G
    if edge_attrs is None and preserve_edge_attrs:
        raise NotImplementedError(
            f"convert_from_nx(): dyng keeps one integer weight attribute, not every edge "
            f"attribute (asked for by {name or 'this call'}); name the weight attribute"
        )
    attrs = dict(edge_attrs or {})
    converted = _take(G, attrs) or snapshot_of(G, attrs)
    if preserve_graph_attrs:
        converted.graph = G.graph
    return converted


def convert_to_nx(obj, *, name=None):
    """Results are NetworkX's types already; a converted graph becomes a NetworkX graph again
    (its nodes, edges and converted weights)."""
    if not isinstance(obj, Snapshot):
        return obj
    cls = {
        (True, False): nx.DiGraph,
        (False, False): nx.Graph,
        (True, True): nx.MultiDiGraph,
        (False, True): nx.MultiGraph,
    }[obj.directed, obj.multigraph]
    G = cls()
    G.graph.update(obj.graph)
    labels = obj.index.all_labels()
    G.add_nodes_from(labels)
    for attr, weights in obj.weights.items():
        if weights.problem is not None:
            continue
        src, dst, values, _ = obj.ordered_edges(attr)
        G.add_edges_from(
            (labels[u], labels[v], {attr: w})
            for u, v, w in zip(src.tolist(), dst.tolist(), values.tolist())
        )
    G.add_edges_from(
        (labels[u], labels[v])
        for u, v in zip(obj.src.tolist(), obj.dst.tolist())
        if not G.has_edge(labels[u], labels[v])
    )
    return G

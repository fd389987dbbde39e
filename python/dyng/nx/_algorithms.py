"""NetworkX's answers from dyng's results: the bodies of the dispatched functions.

Each function takes a *source* of dyng results (a converted graph, dyng.nx._snapshot, or the
mirrors of a ``dyng.nx`` graph, dyng.nx._live) with NetworkX's own arguments, already accepted by
can_run, and returns what NetworkX returns: the same errors for missing nodes, dicts keyed by
node with Python ints, paths and predecessor lists as NetworkX's search finds them
(dyng.nx._orders), BFS layers in NetworkX's order, components as sets in NetworkX's order.
NetworkX's decorators refuse directed graphs for the undirected components functions and
undirected ones for the others before the call reaches the backend.
"""

from __future__ import annotations

import numbers

import networkx as nx
import numpy as np

from dyng.nx import _orders

__all__ = [
    "single_source_dijkstra_path_length",
    "single_source_dijkstra",
    "single_source_dijkstra_path",
    "dijkstra_path",
    "dijkstra_path_length",
    "dijkstra_predecessor_and_distance",
    "single_source_shortest_path_length",
    "bfs_layers",
    "pagerank",
    "transitivity",
    "connected_components",
    "number_connected_components",
    "is_connected",
    "node_connected_component",
    "weakly_connected_components",
    "number_weakly_connected_components",
    "is_weakly_connected",
    "strongly_connected_components",
    "number_strongly_connected_components",
    "is_strongly_connected",
]

_INFINITE = 2**61 - 1  # dyng.sssp.INFINITE_DISTANCE
_INT64_SAFE = 2**62
# Before 3.6 NetworkX's Dijkstra filled its paths dict as it pushed nodes, so the keys came in
# first-push order; since then it builds the dict after the search, in pop order.
_PATHS_IN_PUSH_ORDER = tuple(int(part) for part in nx.__version__.split(".")[:2]) < (3, 6)
_NULL_GRAPH = "Connectivity is undefined for the null graph."


def _distances(source, node, weight):
    """(id of `node`, exact distances by `weight`; BFS levels as distances when it is None)."""
    vertex = source.source_id(node)
    if weight is None:
        levels = source.levels(vertex)
        return vertex, np.where(levels >= 0, levels, _INFINITE)
    return vertex, source.distances(vertex, weight)


def _edges(source, weight):
    src, dst, values, order = source.ordered_edges(weight)
    if values is None:  # weight=None: every edge weighs 1, as NetworkX's data.get(None, 1)
        values = np.ones(len(src), dtype=np.int64)
    return src, dst, values.astype(np.int64), order


def _limit(cutoff):
    """`cutoff` as a value int64 distances compare with exactly (None: no limit)."""
    if cutoff is None:
        return np.inf
    if isinstance(cutoff, numbers.Integral):
        return max(-_INT64_SAFE, min(_INT64_SAFE, int(cutoff)))
    return float(cutoff)


def _dijkstra_reached(vertex, dist, cutoff):
    """The ids NetworkX's Dijkstra search pops: reachable, not beyond the cutoff (NetworkX skips
    a push only when ``dist > cutoff``, so a NaN cutoff limits nothing), the source always."""
    reached = dist < _INFINITE
    limit = _limit(cutoff)
    if limit is not np.inf:
        reached &= ~(dist > limit)
    reached[vertex] = True
    return reached


def _popped(source, vertex, dist, cutoff, weight, *, predecessors=False):
    reached = _dijkstra_reached(vertex, dist, cutoff)
    limited = np.where(reached, dist, _INFINITE)
    return _orders.dijkstra_order(
        vertex, limited, _edges(source, weight), _INFINITE - 1, predecessors=predecessors
    )


def _first_pushed(source, vertex, dist, cutoff, weight, popped):
    limited = np.where(_dijkstra_reached(vertex, dist, cutoff), dist, _INFINITE)
    return _orders.first_seen_order(popped, limited, _edges(source, weight), _limit(cutoff))


def _by_distance(source, dist, reached):
    """{node: distance} over `reached`, keys in nondecreasing distance (ties by id)."""
    ids = np.flatnonzero(reached)
    ids = ids[np.argsort(dist[ids], kind="stable")]
    return dict(zip(source.index.labels_of(ids).tolist(), dist[ids].tolist()))


def _paths(source, order):
    """{node: path} in pop order, each path extending its first parent's, as NetworkX does."""
    labels = source.index.labels_of(order.popped).tolist()
    by_id, paths = {}, {}
    parent_of = order.first_parent
    for vertex, label in zip(order.popped, labels):
        parent = parent_of[vertex]
        path = [label] if parent < 0 else by_id[parent] + [label]
        by_id[vertex] = paths[label] = path
    return paths


def single_source_dijkstra_path_length(source, node, cutoff, weight):
    if node not in source:
        raise nx.NodeNotFound(f"Node {node} not found in graph")
    vertex, dist = _distances(source, node, weight)
    return _by_distance(source, dist, _dijkstra_reached(vertex, dist, cutoff))


def single_source_dijkstra(source, node, target, cutoff, weight):
    if node not in source:
        raise nx.NodeNotFound(f"Node {node} not found in graph")
    if target in {node}:
        return (0, [target])
    vertex, dist = _distances(source, node, weight)
    if target is None:
        order = _popped(source, vertex, dist, cutoff, weight)
        ids = order.popped
        lengths = dict(zip(source.index.labels_of(ids).tolist(), dist[ids].tolist()))
        paths = _paths(source, order)
        if _PATHS_IN_PUSH_ORDER:
            pushed = _first_pushed(source, vertex, dist, cutoff, weight, ids)
            paths = {label: paths[label] for label in source.index.labels_of(pushed).tolist()}
        return lengths, paths
    end = source.index.id_of(target) if target in source else None
    reached = _dijkstra_reached(vertex, dist, cutoff)
    if end is None or not reached[end]:
        raise nx.NetworkXNoPath(f"No path to {target}.")
    # Only vertices no farther than the target matter for its first-parent chain.
    order = _popped(source, vertex, dist, int(dist[end]), weight)
    chain = [end]
    while order.first_parent[chain[-1]] >= 0:
        chain.append(order.first_parent[chain[-1]])
    return int(dist[end]), source.index.labels_of(chain[::-1]).tolist()


def single_source_dijkstra_path(source, node, cutoff, weight):
    return single_source_dijkstra(source, node, None, cutoff, weight)[1]


def dijkstra_path(source, node, target, weight):
    return single_source_dijkstra(source, node, target, None, weight)[1]


def dijkstra_path_length(source, node, target, weight):
    if node not in source:
        raise nx.NodeNotFound(f"Node {node} not found in graph")
    if node == target:
        return 0
    _, dist = _distances(source, node, weight)
    end = source.index.id_of(target) if target in source else None
    if end is None or dist[end] >= _INFINITE:
        raise nx.NetworkXNoPath(f"Node {target} not reachable from {node}")
    return int(dist[end])


def dijkstra_predecessor_and_distance(source, node, cutoff, weight):
    if node not in source:
        raise nx.NodeNotFound(f"Node {node} is not found in the graph")
    vertex, dist = _distances(source, node, weight)
    order = _popped(source, vertex, dist, cutoff, weight, predecessors=True)
    index = source.index
    popped = order.popped
    lengths = dict(zip(index.labels_of(popped).tolist(), dist[popped].tolist()))
    seen = _first_pushed(source, vertex, dist, cutoff, weight, popped)
    preds = order.predecessors
    labels = index.all_labels()
    pred = {labels[v]: [labels[p] for p in preds[v]] for v in seen}
    return pred, lengths


def single_source_shortest_path_length(source, node, cutoff):
    if node not in source:
        raise nx.NodeNotFound(f"Source {node} is not in G")
    vertex = source.source_id(node)
    levels = source.levels(vertex)
    reached = levels >= 0
    if cutoff is not None:
        # NetworkX scans level L + 1 while cutoff > L: levels up to ceil(cutoff) are in.
        reached &= (levels == 0) | (levels - 1 < _limit(cutoff))
    return _by_distance(source, levels, reached)


def bfs_layers(source, sources):
    if sources in source:
        sources = [sources]
    starts = list(set(sources))
    for start in starts:
        if start not in source:
            raise nx.NetworkXError(f"The node {start} is not in the graph.")
    if not starts:
        return
    vertex = source.source_id(starts[0])
    levels = source.levels(vertex)
    labels = source.index.labels_of
    for layer in _orders.bfs_layer_order(vertex, levels, _edges(source, None)):
        yield labels(layer).tolist()


def pagerank(source, alpha, personalization, max_iter, tol, nstart, weight, dangling):
    # can_run took the vectors (dicts of non-negative finite weights); a personalization that
    # gives the nodes no weight raises NetworkX's ZeroDivisionError in the source.
    if len(source) == 0:
        return {}
    ranks, converged = source.pagerank(
        alpha, tol, max_iter, weight, (personalization, dangling, nstart)
    )
    if not converged:
        raise nx.PowerIterationFailedConvergence(max_iter)
    return dict(zip(source.index.labels_of(source.node_ids()).tolist(), ranks.tolist()))


def transitivity(source):
    if len(source) == 0:
        return 0
    triangles = source.triangles()
    if triangles == 0:
        return 0
    return 6 * triangles / source.triad_sum()


def _components(source, kind):
    """Each component as a set, in NetworkX's order (dyng.nx._orders)."""
    node_ids = source.node_ids()
    labels = source.components(kind)
    in_order = None
    if kind == "strong":
        in_order = _orders.reverse_topological_order(node_ids, labels, _edges(source, None))
    labels_of = source.index.labels_of
    for ids in _orders.component_groups(node_ids, labels, in_order):
        yield set(labels_of(ids).tolist())


def _count(source, kind):
    node_ids = source.node_ids()
    # Each component has one node labelled with its own id: the smallest.
    return int(np.count_nonzero(source.components(kind)[node_ids] == node_ids))


def _is_connected(source, kind):
    if len(source) == 0:
        raise nx.NetworkXPointlessConcept(_NULL_GRAPH)
    return _count(source, kind) == 1


def connected_components(source):
    return _components(source, "weak")


def number_connected_components(source):
    return _count(source, "weak")


def is_connected(source):
    return _is_connected(source, "weak")


def node_connected_component(source, n):
    if n not in source:
        hash(n)  # an unhashable node raises TypeError, as NetworkX's {n} does
        raise KeyError(n)
    vertex = source.source_id(n)
    node_ids = source.node_ids()
    labels = source.components("weak")
    members = node_ids[labels[node_ids] == labels[vertex]]
    return set(source.index.labels_of(members).tolist())


def weakly_connected_components(source):
    return _components(source, "weak")


def number_weakly_connected_components(source):
    return _count(source, "weak")


def is_weakly_connected(source):
    return _is_connected(source, "weak")


def strongly_connected_components(source):
    return _components(source, "strong")


def number_strongly_connected_components(source):
    return _count(source, "strong")


def is_strongly_connected(source):
    return _is_connected(source, "strong")

"""NetworkX's tie-breaking, rebuilt from dyng's distances.

dyng gives exact distances and levels; NetworkX's answers also carry orders: which of several
shortest paths it returns, the order of a predecessor list, of a BFS layer, of dict keys. Those
orders come from how its searches meet the adjacency dicts, and they follow from the distances
and the adjacency order alone:

- Dijkstra (``_dijkstra_multisource``) pops nodes by distance and, among equal distances, by the
  moment they were last pushed. A node is pushed at its final distance while its first tight
  predecessor (``dist[p] + w(p, v) == dist[v]``) is being scanned, so among equal distances the
  pop order is (pop rank of that predecessor, position of the node in its adjacency). That
  predecessor is also the one whose path NetworkX extends (``pred_dict[v][0]``), and every tight
  predecessor joins ``pred[v]`` in pop order. With weights >= 1 every tight predecessor has a
  smaller distance, so one pass in distance order settles all of it.
- BFS (``bfs_layers``, ``_single_shortest_path_length``) appends a node to the next layer when
  the first node of the current layer adjacent to it is scanned, so a layer is ordered by (rank
  of that node in its layer, adjacency position). Layer by layer, that is a sort of the
  layer-crossing edges.
- Components (``connected_components``, ``weakly_connected_components``) come in the order of
  their first node in the graph's node order. ``strongly_connected_components`` (Tarjan's search)
  yields a component once its search is done, so after every component it reaches; which of the
  orders with that property depends on the search inside each component. dyng gives that of a
  depth-first search of the components themselves, started from them in node order and leaving
  each along its edges in order: NetworkX's own whenever every component is one node (a DAG).

`order` arrays number edges so that, within each row, they follow NetworkX's adjacency order.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "DijkstraOrder",
    "dijkstra_order",
    "bfs_layer_order",
    "component_groups",
    "reverse_topological_order",
]


class DijkstraOrder:
    """What NetworkX's Dijkstra search does on a graph whose distances are known.

    Attributes
    ----------
    popped : list of int
        Vertex ids in pop order (the source first).
    first_parent : dict
        id -> the tight predecessor popped first (the source maps to -1).
    predecessors : dict or None
        id -> tight predecessors in pop order (asked for with ``predecessors=True``).
    """

    def __init__(self, popped, first_parent, predecessors):
        self.popped = popped
        self.first_parent = first_parent
        self.predecessors = predecessors


def dijkstra_order(source, dist, edges, limit, *, predecessors=False):
    """NetworkX's Dijkstra pop order over the vertices with ``dist <= limit`` (the source always).

    Parameters
    ----------
    source : int
    dist : int64 array
        Exact distances (unreachable vertices far above `limit`).
    edges : tuple
        (src, dst, weights, order) arrays of every directed edge the search sees.
    limit : number
        NetworkX's cutoff (inf for none).
    predecessors : bool
        Also collect every tight predecessor list.

    Examples
    --------
    >>> import numpy as np
    >>> from dyng.nx._orders import dijkstra_order
    >>> edges = (np.array([0, 0, 1, 2]), np.array([2, 1, 3, 3]), np.array([1, 1, 1, 1]),
    ...          np.arange(4))
    >>> o = dijkstra_order(0, np.array([0, 1, 1, 2]), edges, np.inf, predecessors=True)
    >>> o.popped, o.first_parent[3], o.predecessors[3]
    ([0, 2, 1, 3], 2, [2, 1])
    """
    src, dst, weights, order = edges
    inside = dist <= limit
    inside[source] = True
    tight = inside[src] & inside[dst] & (src != dst)
    tight &= dist[src] + weights == dist[dst]
    t_src, t_dst, t_order = src[tight], dst[tight], order[tight]
    by_row = np.lexsort((t_order, t_src))
    succ = t_dst[by_row].tolist()
    ends = np.cumsum(np.bincount(t_src, minlength=len(dist))).tolist()
    starts = [0] + ends[:-1]
    distance = dist.tolist()
    first_parent = {source: -1}
    preds = {source: []} if predecessors else None
    buckets = {distance[source]: [source]}
    popped = []
    # A bucket is complete before its turn: every tight predecessor is at a smaller distance.
    for level in np.unique(dist[inside]).tolist():
        for p in buckets.pop(level, ()):
            popped.append(p)
            for j in range(starts[p], ends[p]):
                v = succ[j]
                if v not in first_parent:
                    first_parent[v] = p
                    buckets.setdefault(distance[v], []).append(v)
                    if preds is not None:
                        preds[v] = [p]
                elif preds is not None:
                    preds[v].append(p)
    return DijkstraOrder(popped, first_parent, preds)


def first_seen_order(popped, dist, edges, limit):
    """The order in which NetworkX's Dijkstra search first pushes the popped vertices: the key
    order of the ``pred`` dict of ``dijkstra_predecessor_and_distance``. A vertex is first pushed
    by the first popped in-neighbour that reaches it within `limit`, tight or not."""
    src, dst, weights, order = edges
    rank = np.full(len(dist), -1, dtype=np.int64)
    rank[np.asarray(popped, dtype=np.int64)] = np.arange(len(popped))
    usable = (rank[src] >= 0) & (rank[dst] >= 0) & (rank[src] < rank[dst])
    usable &= ~(dist[src] + weights > limit)  # NetworkX skips a push only past the cutoff
    u_src, u_dst, u_order = src[usable], dst[usable], order[usable]
    first = np.lexsort((u_order, rank[u_src]))
    seen = u_dst[first]
    _, at = np.unique(seen, return_index=True)
    return [popped[0]] + seen[np.sort(at)].tolist()


def bfs_layer_order(source, levels, edges, last_level=None):
    """NetworkX's BFS layers from `source` as lists of ids, up to `last_level` (all for None).

    Examples
    --------
    >>> import numpy as np
    >>> from dyng.nx._orders import bfs_layer_order
    >>> edges = (np.array([0, 0, 1, 2]), np.array([2, 1, 3, 3]), None, np.arange(4))
    >>> bfs_layer_order(0, np.array([0, 1, 1, 2]), edges)
    [[0], [2, 1], [3]]
    """
    src, dst, _, order = edges
    deepest = int(levels.max(initial=0))
    if last_level is not None:
        deepest = min(deepest, last_level)
    crossing = (levels[src] >= 0) & (levels[dst] == levels[src] + 1)
    crossing &= levels[src] < deepest
    c_src, c_dst, c_order = src[crossing], dst[crossing], order[crossing]
    by_layer = np.argsort(levels[c_src], kind="stable")
    c_src, c_dst, c_order = c_src[by_layer], c_dst[by_layer], c_order[by_layer]
    bounds = np.searchsorted(levels[c_src], np.arange(deepest + 1))
    rank = np.zeros(len(levels), dtype=np.int64)
    layer = np.array([source], dtype=np.int64)
    layers = [[source]]
    for depth in range(deepest):
        part = slice(bounds[depth], bounds[depth + 1])
        s, d, o = c_src[part], c_dst[part], c_order[part]
        if len(d) == 0:
            break
        scanned = d[np.lexsort((o, rank[s]))]
        _, at = np.unique(scanned, return_index=True)
        layer = scanned[np.sort(at)]
        rank[layer] = np.arange(len(layer))
        layers.append(layer.tolist())
    return layers


def component_groups(node_ids, labels, component_order=None):
    """The ids of each component, components in `component_order` (labels; default: by first
    node), each component's ids in node order.

    Parameters
    ----------
    node_ids : int64 array
        The graph's nodes in its node order.
    labels : int64 array
        The component label of every id.

    Examples
    --------
    >>> import numpy as np
    >>> from dyng.nx._orders import component_groups
    >>> [g.tolist() for g in component_groups(np.array([3, 0, 1, 2]), np.array([0, 0, 2, 2]))]
    [[3, 2], [0, 1]]
    """
    node_labels = labels[node_ids]
    if component_order is None:
        _, first = np.unique(node_labels, return_index=True)
        component_order = node_labels[np.sort(first)]
    rank = np.empty(len(labels), dtype=np.int64)
    rank[component_order] = np.arange(len(component_order))
    grouped = np.argsort(rank[node_labels], kind="stable")
    bounds = np.flatnonzero(np.diff(rank[node_labels][grouped])) + 1
    return np.split(node_ids[grouped], bounds) if len(node_ids) else []


def reverse_topological_order(node_ids, labels, edges):
    """Component labels with every component after all components it reaches: the finishing
    order of a depth-first search over the components, started from them in node order and
    following each component's out-edges in order (rows by label, then `order`).

    Examples
    --------
    >>> import numpy as np
    >>> from dyng.nx._orders import reverse_topological_order
    >>> edges = (np.array([0, 1, 2, 0]), np.array([1, 0, 3, 2]), None, np.arange(4))
    >>> reverse_topological_order(np.arange(4), np.array([0, 0, 2, 3]), edges)
    [3, 2, 0]
    """
    src, dst, _, order = edges
    s, d = labels[src], labels[dst]
    leaving = s != d
    s, d, o = s[leaving], d[leaving], order[leaving]
    by_row = np.lexsort((o, s))
    succ = d[by_row].tolist()
    ends = np.cumsum(np.bincount(s, minlength=len(labels))).tolist()
    node_labels = labels[node_ids]
    _, first = np.unique(node_labels, return_index=True)
    finished, seen = [], set()
    for root in node_labels[np.sort(first)].tolist():
        if root in seen:
            continue
        seen.add(root)
        stack = [(root, ends[root - 1] if root else 0)]
        while stack:
            component, at = stack[-1]
            while at < ends[component] and succ[at] in seen:
                at += 1
            if at == ends[component]:
                stack.pop()
                finished.append(component)
                continue
            stack[-1] = (component, at + 1)
            seen.add(succ[at])
            stack.append((succ[at], ends[succ[at] - 1] if succ[at] else 0))
    return finished

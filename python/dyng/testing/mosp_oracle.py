"""Pure-Python oracle for mosp (multi-objective shortest paths).

Nothing here touches dyng's native code: Dijkstra is textbook (``heapq``), graphs are lists of
arcs, and every rule is written out where it is used. A disagreement between this module and
``dyng.mosp`` is therefore evidence against one of two independent implementations. Use it on
graphs of at most a few thousand edges.

What mosp computes, for a source s, K' objectives (the first K' weight columns) and preferences
p_0..p_{K'-1} with L = lcm(p):

1. per objective k, the shortest-path tree with edge length = weight column k: distances
   (``INFINITE_DISTANCE`` when unreachable) and canonical parents (the lowest-id in-neighbour
   u != v on a shortest path; -1 for the source and unreachable vertices);
2. the combined graph: an edge (u, v) wherever some tree has u as the parent of v, weighted
   ``L * (K' + 1) - sum(L // p_k for the trees k that use it)``, so that edges shared by more
   (and more preferred) trees are shorter;
3. the shortest-path tree of the combined graph from s (same canonical rule);
4. the path costs: for each vertex, the K' weights summed along its combined-tree path, each
   tree edge (p, v) read from the first stored (p, v) edge of p's row (this matters for the
   parallel edges of ``mosp_compatible`` graphs).
"""

from __future__ import annotations

import dataclasses
import heapq
import math

import numpy as np

from dyng import CSR
from dyng._errors import InvalidArgumentError, NotSupportedError
from dyng.testing.oracles import INFINITE_DISTANCE

__all__ = [
    "MospReference",
    "mosp_reference",
    "combined_graph",
    "mosp_path_costs",
    "MAX_OBJECTIVES",
    "MAX_PREFERENCE_SCALE",
]

MAX_OBJECTIVES = 64
"""The most objectives one mosp result may have (as [`dyng.mosp.MAX_OBJECTIVES`][])."""
MAX_PREFERENCE_SCALE = 2**20
"""The largest lcm(preferences) accepted, so that combined weights stay far inside int32 (as
[`dyng.mosp.MAX_PREFERENCE_SCALE`][])."""


# --- argument checks ---------------------------------------------------------------------------


def _integer(value, fn, name) -> int:
    """A Python int from an int or NumPy integer (bools and floats are refused)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise InvalidArgumentError(f"{fn}(): {name} must be an integer; got {value!r}")
    return int(value)


def _id_vector(values, fn, name) -> np.ndarray:
    """A 1-D integer array from a list, NumPy array or dyng Array."""
    array = np.asarray(values)
    if array.size == 0 and array.dtype.kind == "f":
        array = array.astype(np.int64)  # np.asarray([]) is float64; an empty list is fine
    if array.dtype.kind not in "iu":
        raise InvalidArgumentError(f"{fn}(): {name} must hold integers; got dtype {array.dtype}")
    if array.ndim != 1:
        raise InvalidArgumentError(f"{fn}(): {name} must be 1-D; got shape {array.shape}")
    return array


def _num_objectives(num_objectives, num_weights, fn) -> int:
    """K' from the num_objectives argument: 0 means every weight column."""
    value = _integer(num_objectives, fn, "num_objectives")
    if not 0 <= value <= num_weights:
        raise InvalidArgumentError(
            f"{fn}(): num_objectives={value} is outside [0, {num_weights}] for a graph with "
            f"{num_weights} weight column(s)"
        )
    return value or num_weights


def _check_objective_count(count, fn):
    if not 1 <= count <= MAX_OBJECTIVES:
        raise InvalidArgumentError(
            f"{fn}(): {count} objectives; 1 to {MAX_OBJECTIVES} are supported"
        )


def _preferences(preferences, count, fn) -> list[int]:
    """The preference list (None or empty: all 1), checked: length, each >= 1, lcm bounded."""
    if preferences is None:
        return [1] * count
    values = [_integer(p, fn, f"preferences[{i}]") for i, p in enumerate(preferences)]
    if not values:
        return [1] * count
    if len(values) != count:
        raise InvalidArgumentError(
            f"{fn}(): {len(values)} preferences for {count} objectives; pass one per objective "
            f"or none"
        )
    for i, p in enumerate(values):
        if p < 1:
            raise InvalidArgumentError(f"{fn}(): preferences[{i}]={p} is below 1")
    if math.lcm(*values) > MAX_PREFERENCE_SCALE:
        raise InvalidArgumentError(
            f"{fn}(): lcm(preferences)={math.lcm(*values)} exceeds {MAX_PREFERENCE_SCALE} (2**20)"
        )
    return values


def _weight_rows(weights, count, fn) -> tuple[int, list[list[int]]]:
    """(K, rows) from weights of shape (m, K) or (m,) (K = 1); None means unweighted."""
    if weights is None:
        raise NotSupportedError(f"{fn}(): the graph is unweighted; mosp needs weight columns")
    array = np.asarray(weights)
    if array.ndim == 1:
        array = array.reshape(-1, 1)
    if array.ndim != 2 or array.shape[0] != count:
        raise InvalidArgumentError(
            f"{fn}(): weights of shape {array.shape} for {count} edges; expected ({count}, K)"
        )
    if array.size and array.dtype.kind not in "iu":
        raise InvalidArgumentError(f"{fn}(): weights must be integers; got dtype {array.dtype}")
    return int(array.shape[1]), array.astype(np.int64).tolist()


# --- shortest-path trees -----------------------------------------------------------------------


def _dijkstra(num_vertices, arcs, source) -> list[int]:
    """Shortest distances from source over arcs (u, v, length); INFINITE_DISTANCE if unreachable.
    Parallel arcs need no merging: the shorter one simply relaxes v first."""
    out: list[list[tuple[int, int]]] = [[] for _ in range(num_vertices)]
    for u, v, length in arcs:
        out[u].append((v, length))
    dist = [INFINITE_DISTANCE] * num_vertices
    dist[source] = 0
    heap = [(0, source)]
    done = [False] * num_vertices
    while heap:
        d, u = heapq.heappop(heap)
        if done[u]:
            continue
        done[u] = True
        for v, length in out[u]:
            if d + length < dist[v]:
                dist[v] = d + length
                heapq.heappush(heap, (d + length, v))
    return dist


def _canonical_parents(num_vertices, arcs, dist, source) -> list[int]:
    """For each reachable v != source, the lowest-id u != v with an arc (u, v) such that
    dist[u] + length == dist[v]; -1 for the source and unreachable vertices."""
    parents = [-1] * num_vertices
    for u, v, length in arcs:
        if u == v or v == source or dist[u] == INFINITE_DISTANCE or dist[u] + length != dist[v]:
            continue
        if parents[v] == -1 or u < parents[v]:
            parents[v] = u
    return parents


def _tree(num_vertices, arcs, source) -> tuple[list[int], list[int]]:
    dist = _dijkstra(num_vertices, arcs, source)
    return dist, _canonical_parents(num_vertices, arcs, dist, source)


# --- combined graph ----------------------------------------------------------------------------


def _combined_edges(parents_lists, source, preferences) -> list[tuple[int, int, int]]:
    """(u, v, weight) of the combined graph, sorted by (u, v); parents_lists hold plain ints.

    The source's own entries are skipped (a tree has none there anyway), and a negative entry
    means "no parent", as in dyng 0.2.
    """
    count = len(parents_lists)
    scale = math.lcm(*preferences)
    n = len(parents_lists[0])
    # How much each tree takes off the base weight L * (K' + 1) of the edges it uses.
    discount: dict[tuple[int, int], int] = {}
    for k, parents in enumerate(parents_lists):
        for v, u in enumerate(parents):
            if v == source or u < 0:
                continue
            if u >= n:
                raise InvalidArgumentError(
                    f"combined_graph(): parent {u} of vertex {v} in tree {k} is out of range "
                    f"[0, {n})"
                )
            discount[(u, v)] = discount.get((u, v), 0) + scale // preferences[k]
    base = scale * (count + 1)
    return [(u, v, base - d) for (u, v), d in sorted(discount.items())]


def _csr_lists(num_vertices, edges) -> tuple[list[int], list[int], list[list[int]]]:
    """row_ptr, col and (m, 1) weight rows of edges (u, v, w) already sorted by (u, v)."""
    row_ptr = [0] * (num_vertices + 1)
    for u, _, _ in edges:
        row_ptr[u + 1] += 1
    for u in range(num_vertices):
        row_ptr[u + 1] += row_ptr[u]
    return row_ptr, [v for _, v, _ in edges], [[w] for _, _, w in edges]


def _parents_arrays(parents_list, fn) -> list[np.ndarray]:
    """The trees of parents_list (a sequence of 1-D arrays, or a 2-D array), checked."""
    trees = [_id_vector(tree, fn, f"parents[{k}]") for k, tree in enumerate(parents_list)]
    _check_objective_count(len(trees), fn)
    sizes = sorted({len(tree) for tree in trees})
    if len(sizes) > 1:
        raise InvalidArgumentError(
            f"{fn}(): the trees have different vertex counts {sizes}; they must match"
        )
    return trees


def combined_graph(parents_list, source, preferences=None) -> CSR:
    """The combined graph of K' shortest-path trees, as a CSR.

    Parameters
    ----------
    parents_list : sequence of array_like of int
        One parent array per objective (lists, NumPy arrays or dyng Arrays), all of length n;
        -1 (any negative) marks "no parent".
    source : int
        The common source; its entries are ignored.
    preferences : sequence of int, optional
        One per tree, each >= 1; None or empty means all 1. lcm(preferences) <= 2**20.

    Returns
    -------
    dyng.CSR
        ``row_ptr`` int64 (n + 1), ``col_ind`` in the parents' dtype (sorted within each row),
        ``weights`` int32 of shape (m, 1): ``L * (K' + 1) - sum(L // p_k)`` over the trees k
        in which u is the parent of v.

    Raises
    ------
    InvalidArgumentError
        A parent array that does not hold integers or is not 1-D, trees of different lengths,
        no tree or more than ``MAX_OBJECTIVES``, a `source` or preference that is not an
        integer, a preference count other than K', a preference < 1, or an lcm above
        ``MAX_PREFERENCE_SCALE``.

    Examples
    --------
    >>> c = combined_graph([[-1, 0, 1], [-1, 0, 0]], 0, [1, 2])
    >>> c.row_ptr.tolist(), c.col_ind.tolist(), c.weights.tolist()
    ([0, 2, 3, 3], [1, 2, 2], [[3], [5], [4]])
    """
    fn = "combined_graph"
    trees = _parents_arrays(parents_list, fn)
    source = _integer(source, fn, "source")
    prefs = _preferences(preferences, len(trees), fn)
    n = len(trees[0])
    edges = _combined_edges([tree.tolist() for tree in trees], source, prefs)
    row_ptr, col, weights = _csr_lists(n, edges)
    col_dtype = np.result_type(*(tree.dtype for tree in trees))
    return CSR(
        np.asarray(row_ptr, dtype=np.int64),
        np.asarray(col, dtype=col_dtype),
        np.asarray(weights, dtype=np.int32).reshape(len(edges), 1),
    )


# --- path costs --------------------------------------------------------------------------------


def _check_acyclic(parents, source):
    """Raises InvalidArgumentError if following parents from some vertex loops."""
    state = [0] * len(parents)  # 0 unseen, 1 on the current walk, 2 known to end
    for start in range(len(parents)):
        walk, v = [], start
        while v >= 0 and state[v] == 0:
            state[v] = 1
            walk.append(v)
            v = -1 if v == source else parents[v]
        if v >= 0 and state[v] == 1:
            raise InvalidArgumentError(
                f"mosp_path_costs(): the tree has a cycle through vertex {v}"
            )
        for u in walk:
            state[u] = 2


def _path_costs(num_vertices, src, dst, rows, parents, source, count) -> list[list[int]]:
    """Per vertex, the first `count` weights summed along its parent path from source, each
    tree edge (p, v) read from the FIRST stored (p, v) edge; INFINITE_DISTANCE in every column
    for a vertex whose path does not reach the source."""
    for v, p in enumerate(parents):
        if p >= num_vertices:
            raise InvalidArgumentError(
                f"mosp_path_costs(): parent {p} of vertex {v} is out of range [0, {num_vertices})"
            )
    _check_acyclic(parents, source)
    first_edge: dict[tuple[int, int], int] = {}
    for i, key in enumerate(zip(src, dst)):
        first_edge.setdefault(key, i)
    unreachable = [INFINITE_DISTANCE] * count
    costs: list[list[int] | None] = [None] * num_vertices
    costs[source] = [0] * count

    def cost_of(start):
        # Walk up to the first vertex whose cost is known (or past a missing parent), then
        # fill the walk back down. Real costs stay far below INFINITE_DISTANCE, so a first
        # column at INFINITE_DISTANCE means "unreachable", and below an unreachable parent no
        # tree edge is looked up (0.2 does not require it to exist).
        walk, v = [], start
        while v >= 0 and costs[v] is None:
            walk.append(v)
            v = parents[v]
        known = unreachable if v < 0 else costs[v]
        for u in reversed(walk):
            if known[0] != INFINITE_DISTANCE:
                edge = first_edge.get((parents[u], u))
                if edge is None:
                    raise InvalidArgumentError(
                        f"mosp_path_costs(): the tree edge ({parents[u]}, {u}) is not an edge "
                        f"of the graph"
                    )
                known = [c + w for c, w in zip(known, rows[edge][:count])]
            costs[u] = known
        return costs[start]

    return [list(cost_of(v)) for v in range(num_vertices)]


def mosp_path_costs(graph, parents, source, *, num_objectives=0) -> np.ndarray:
    """The path costs of a tree of `graph`: each vertex's first K' weights summed along its path.

    Parameters
    ----------
    graph : dyng.Graph
        Read through ``graph.edges()`` (CSR order: row by row, each row as stored).
    parents : array_like of int
        A tree of length ``graph.num_vertices`` (typically the combined parents); negative
        entries mean "no parent"; the source's entry is ignored.
    source : int
        The tree's source vertex.
    num_objectives : int, optional
        K'; 0 means all weight columns.

    Returns
    -------
    numpy.ndarray
        (n, K') int64: 0 at the source; ``cost[p] + weights of the first stored (p, v) edge``
        for a vertex v with parent p; ``INFINITE_DISTANCE`` in every column where the path
        does not reach the source.

    Raises
    ------
    TypeError
        `graph` has no ``edges()`` and ``num_vertices``.
    NotSupportedError
        The graph is unweighted.
    InvalidArgumentError
        `num_objectives` or `source` is out of range, `parents` has the wrong length or a
        parent out of range, the tree has a cycle, or a tree edge is not an edge of the graph.

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 0, 1], [1, 1, 2], [[5, 1], [2, 7], [1, 1]],
    ...                           properties="mosp_compatible")
    >>> mosp_path_costs(g, [-1, 0, 1], 0).tolist()  # the first stored 0 -> 1 edge counts
    [[0, 0], [5, 1], [6, 2]]
    """
    fn = "mosp_path_costs"
    if not (hasattr(graph, "edges") and hasattr(graph, "num_vertices")):
        raise TypeError(f"{fn}(): graph must be a dyng.Graph; got {type(graph).__name__}")
    src, dst, weights = graph.edges()
    src, dst = np.asarray(src).tolist(), np.asarray(dst).tolist()
    num_weights, rows = _weight_rows(weights, len(src), fn)
    count = _num_objectives(num_objectives, num_weights, fn)
    n = int(graph.num_vertices)
    source = _check_source(source, n, fn)
    tree = _id_vector(parents, fn, "parents")
    if len(tree) != n:
        raise InvalidArgumentError(f"{fn}(): {len(tree)} parents for {n} vertices")
    costs = _path_costs(n, src, dst, rows, tree.tolist(), source, count)
    return np.asarray(costs, dtype=np.int64).reshape(n, count)


def _check_source(source, num_vertices, fn) -> int:
    value = _integer(source, fn, "source")
    if not 0 <= value < num_vertices:
        raise InvalidArgumentError(f"{fn}(): source {value} is out of range [0, {num_vertices})")
    return value


# --- the whole computation ---------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class MospReference:
    """Everything mosp computes, as plain lists (compare with ``.tolist()`` of the arrays).

    Attributes
    ----------
    distances, parents : list of K' lists
        Per objective, the shortest distances and canonical parents.
    preference_scale : int
        L = lcm(preferences).
    combined : tuple of (row_ptr, col, weights)
        The combined graph as lists; weights are (m, 1) rows.
    combined_distances, combined_parents : list of int
        The shortest-path tree of the combined graph.
    path_costs : list of n lists of K' ints
        Each vertex's K' costs along its combined-tree path.

    Examples
    --------
    >>> ref = mosp_reference(([0, 1], [1, 2], [[1, 2], [3, 4]]), 3, 0)
    >>> ref.distances, ref.combined[0], ref.path_costs[2]
    ([[0, 1, 4], [0, 2, 6]], [0, 1, 2, 2], [4, 6])
    """

    distances: list
    parents: list
    preference_scale: int
    combined: tuple
    combined_distances: list
    combined_parents: list
    path_costs: list


def mosp_reference(edges, num_vertices, source, preferences=None, num_objectives=0):
    """mosp from scratch on an edge list.

    Parameters
    ----------
    edges : tuple (src, dst, weights)
        As ``Graph.edges()`` returns it (CSR order; weights (m, K) with K >= 1). The order
        matters only for the path costs of parallel edges: the first stored (u, v) counts.
    num_vertices : int
        n: ids lie in [0, n).
    source : int
        The source vertex.
    preferences : sequence of int, optional
        One per objective (each >= 1, lcm <= 2**20); None or empty means all 1.
    num_objectives : int, optional
        K'; 0 means all K weight columns, otherwise the first K'.

    Returns
    -------
    MospReference
        The trees, the combined graph and tree, and the path costs.

    Raises
    ------
    dyng.InvalidArgumentError
        A bad source, num_objectives, preference, id, or a weight < 1 in a used column.
    dyng.NotSupportedError
        Unweighted edges (weights None).

    Examples
    --------
    >>> ref = mosp_reference(([0, 0, 1], [1, 2, 2], [[1, 4], [3, 1], [1, 1]]), 3, 0)
    >>> ref.parents, ref.preference_scale
    ([[-1, 0, 1], [-1, 0, 0]], 1)
    >>> ref.combined_distances, ref.combined_parents, ref.path_costs
    ([0, 1, 2], [-1, 0, 0], [[0, 0], [1, 4], [3, 1]])
    """
    fn = "mosp_reference"
    src_array, dst_array, weights = edges
    src = _id_vector(src_array, fn, "src").tolist()
    dst = _id_vector(dst_array, fn, "dst").tolist()
    if len(src) != len(dst):
        raise InvalidArgumentError(f"{fn}(): {len(src)} sources but {len(dst)} destinations")
    num_weights, rows = _weight_rows(weights, len(src), fn)
    n = _integer(num_vertices, fn, "num_vertices")
    source = _check_source(source, n, fn)
    count = _num_objectives(num_objectives, num_weights, fn)
    _check_objective_count(count, fn)
    prefs = _preferences(preferences, count, fn)
    _check_edges(src, dst, rows, n, count, fn)

    distances, parents = [], []
    for k in range(count):
        dist, par = _tree(n, [(u, v, w[k]) for u, v, w in zip(src, dst, rows)], source)
        distances.append(dist)
        parents.append(par)
    combined_edges = _combined_edges(parents, source, prefs)
    combined_dist, combined_par = _tree(n, combined_edges, source)
    costs = _path_costs(n, src, dst, rows, combined_par, source, count)
    return MospReference(
        distances,
        parents,
        math.lcm(*prefs),
        _csr_lists(n, combined_edges),
        combined_dist,
        combined_par,
        costs,
    )


def _check_edges(src, dst, rows, num_vertices, count, fn):
    """Ids inside [0, n) and weights >= 1 in the used columns."""
    for i, (u, v, w) in enumerate(zip(src, dst, rows)):
        if not (0 <= u < num_vertices and 0 <= v < num_vertices):
            raise InvalidArgumentError(
                f"{fn}(): edge {i} ({u}, {v}) has an id outside [0, {num_vertices})"
            )
        low = min(w[:count])
        if low < 1:
            raise InvalidArgumentError(
                f"{fn}(): edge {i} ({u}, {v}) has weight {low} < 1 in a used column"
            )

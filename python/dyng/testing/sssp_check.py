"""Oracles for sssp results on real dyng graphs.

``dijkstra`` runs the library's serial reference Dijkstra (native code, but a separate and
deliberately simple implementation from the sssp kernels). ``check_sssp_tree`` verifies a
tree with NumPy over ``graph.to_csr()`` alone, so it shares no code with the library's search:
it recomputes exact distances by frontier Bellman-Ford in int64 and canonical parents (the
lowest-id tight in-neighbour) by a vectorised minimum over the tight edges.
"""

from __future__ import annotations

import dataclasses

import numpy as np

__all__ = ["dijkstra", "check_sssp_tree", "SsspTreeCheck"]

_INF = 2**61 - 1


def dijkstra(graph, source, *, objective=0):
    """Distances and canonical parents from the native reference Dijkstra.

    Parameters
    ----------
    graph : dyng.Graph
        A weighted graph with in-edges.
    source : int
        Source vertex.
    objective : int
        Weight column used as the edge length.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        int64 distances (``INFINITE_DISTANCE`` when unreachable) and parents in the graph's
        vertex dtype (-1 for the source and unreachable vertices).

    Raises
    ------
    NotSupportedError
        The graph is unweighted.
    InvalidArgumentError
        `source` is not a vertex, `objective` is not a weight column, or a weight is < 1.

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1], [1, 2], [3, 4])
    >>> d, p = dyng.testing.dijkstra(g, 0)
    >>> d.tolist(), p.tolist()
    ([0, 3, 7], [-1, 0, 1])
    """
    from dyng import _backend

    dist, parents = _backend.native().sssp_reference_dijkstra(graph._native, source, objective)
    return np.asarray(dist), np.asarray(parents)


@dataclasses.dataclass(frozen=True)
class SsspTreeCheck:
    """Outcome of [`check_sssp_tree`][dyng.testing.check_sssp_tree]; truthy exactly when ``ok``.

    Attributes
    ----------
    distance_mismatches : tuple of int
        Vertices whose distance differs from the exact one.
    inconsistent_parents : tuple of int
        Vertices whose parent is not a tight in-neighbour under the tree's own distances, or is
        set where it must be -1, or missing where it must be set.
    non_canonical_parents : tuple of int
        Vertices whose parent is tight but not the lowest-id tight in-neighbour under the tree's
        distances.
    parent_mismatches : tuple of int
        Vertices whose parent differs from the canonical parent under the exact distances.
    require_canonical : bool
        Whether the check required canonical parents.
    ok : bool
        No distance mismatch and no inconsistent parent (nor, with `require_canonical`, a
        non-canonical or mismatched parent).
    summary : str
        One line: the counts of each kind and the first mismatches.

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1], [1, 2], [1, 1])
    >>> check = dyng.testing.check_sssp_tree(g, (0, [0, 1, 3], [-1, 0, 1]))
    >>> bool(check), check.distance_mismatches, check.inconsistent_parents
    (False, (2,), (2,))
    """

    distance_mismatches: tuple
    inconsistent_parents: tuple
    non_canonical_parents: tuple
    parent_mismatches: tuple
    require_canonical: bool
    ok: bool
    summary: str

    def __bool__(self) -> bool:
        return self.ok


def _csr_arrays(graph, objective):
    csr = graph.to_csr()
    row_ptr = np.asarray(csr.row_ptr, dtype=np.int64)
    col = np.asarray(csr.col_ind, dtype=np.int64)
    n = row_ptr.size - 1
    if csr.weights is None:
        raise ValueError("check_sssp_tree(): the graph is unweighted; sssp needs weights")
    weights = np.asarray(csr.weights)
    if weights.ndim == 1:
        weights = weights[:, None]
    if not 0 <= objective < weights.shape[1]:
        raise ValueError(
            f"check_sssp_tree(): objective {objective} outside [0, {weights.shape[1]})"
        )
    w = weights[:, objective].astype(np.int64)
    if w.size and w.min() < 1:
        raise ValueError(f"check_sssp_tree(): weight {int(w.min())} < 1; sssp needs weights >= 1")
    src = np.repeat(np.arange(n, dtype=np.int64), np.diff(row_ptr))
    return n, row_ptr, src, col, w


def _exact_distances(n, row_ptr, col, w, source):
    """Frontier Bellman-Ford: each round relaxes the out-edges of the vertices improved last round."""
    dist = np.full(n, _INF, dtype=np.int64)
    dist[source] = 0
    frontier = np.array([source], dtype=np.int64)
    while frontier.size:
        starts, ends = row_ptr[frontier], row_ptr[frontier + 1]
        counts = ends - starts
        if counts.sum() == 0:
            break
        # Slot indices of all out-edges of the frontier, without a Python loop.
        offsets = np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())
        cand = np.repeat(dist[frontier], counts) + w[offsets]
        targets = col[offsets]
        before = dist.copy()
        np.minimum.at(dist, targets, cand)
        frontier = np.flatnonzero(dist < before)
    return dist


def _canonical_parents(n, src, col, w, dist, source):
    """Lowest-id in-neighbour u != v with dist[u] + w == dist[v], -1 for source/unreachable."""
    parents = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
    finite = dist[src] < _INF
    tight = finite & (src != col) & (dist[src] + np.where(finite, w, 0) == dist[col])
    np.minimum.at(parents, col[tight], src[tight])
    parents[parents == np.iinfo(np.int64).max] = -1
    parents[source] = -1
    parents[dist >= _INF] = -1
    return parents


def _ids(mask):
    return tuple(int(v) for v in np.flatnonzero(mask))


def check_sssp_tree(graph, tree, *, require_canonical=True, objective=None):
    """Checks an sssp tree against exact distances computed from ``graph.to_csr()`` with NumPy.

    Parameters
    ----------
    graph : dyng.Graph
        The graph the tree claims to describe (weights >= 1 in the objective column).
    tree : dyng.sssp.Result or tuple
        A result (``source``, ``distances``, ``parents``; its ``options.objective`` is used), or a
        tuple ``(source, distances, parents)``.
    require_canonical : bool
        When True, parents must be the canonical ones (lowest-id tight in-neighbour); when False
        any tight in-neighbour is accepted.
    objective : int, optional
        Weight column; defaults to the result's ``options.objective`` or 0.

    Returns
    -------
    SsspTreeCheck
        The mismatches found; truthy when the tree passes.

    Raises
    ------
    ValueError
        The graph is unweighted, `objective` is not a weight column, a weight is < 1, or the
        tree's arrays or source do not fit the graph.

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 0, 1], [1, 2, 2], [1, 2, 1])
    >>> r = dyng.sssp.compute(g, 0)
    >>> bool(dyng.testing.check_sssp_tree(g, r))
    True
    >>> dyng.testing.check_sssp_tree(g, (0, [0, 1, 2], [-1, 0, 1])).non_canonical_parents
    (2,)
    """
    if isinstance(tree, tuple):
        source, distances, parents = tree
    else:
        source, distances, parents = tree.source, tree.distances, tree.parents
        if objective is None and getattr(tree, "options", None) is not None:
            objective = tree.options.objective
    objective = 0 if objective is None else int(objective)
    source = int(source)
    n, row_ptr, src, col, w = _csr_arrays(graph, objective)
    dist = np.asarray(distances, dtype=np.int64).reshape(-1)
    par = np.asarray(parents).astype(np.int64).reshape(-1)
    if dist.size != n or par.size != n or not 0 <= source < n:
        raise ValueError(
            f"check_sssp_tree(): graph has {n} vertices but the tree has {dist.size} "
            f"distances, {par.size} parents and source {source}"
        )

    exact = _exact_distances(n, row_ptr, col, w, source)
    # Anything at or above INF/2 means unreachable, as in Result.from_arrays.
    dist_norm = np.where(dist >= _INF // 2, _INF, dist)
    distance_bad = dist_norm != exact

    # Consistency under the tree's own distances: the parent must be a tight in-neighbour.
    must_be_root = (np.arange(n) == source) | (dist_norm >= _INF)
    own_canonical = _canonical_parents(n, src, col, w, dist_norm, source)
    in_range = (par >= 0) & (par < n)
    finite = dist_norm[src] < _INF
    tight = finite & (src != col) & (dist_norm[src] + np.where(finite, w, 0) == dist_norm[col])
    # Encode (u, v) as u * n + v so that "is (parent[v], v) a tight edge" is one np.isin.
    tight_keys = src[tight] * n + col[tight]
    claimed = np.where(in_range, par, 0) * n + np.arange(n, dtype=np.int64)
    has_tight_parent = in_range & np.isin(claimed, tight_keys)
    inconsistent = np.where(must_be_root, par != -1, ~has_tight_parent)
    non_canonical = ~inconsistent & ~must_be_root & (par != own_canonical)
    parent_bad = par != _canonical_parents(n, src, col, w, exact, source)

    result = dict(
        distance_mismatches=_ids(distance_bad),
        inconsistent_parents=_ids(inconsistent),
        non_canonical_parents=_ids(non_canonical),
        parent_mismatches=_ids(parent_bad),
    )
    problems = result["distance_mismatches"] or result["inconsistent_parents"]
    if require_canonical:
        problems = problems or result["non_canonical_parents"] or result["parent_mismatches"]
    ok = not problems
    parts = [f"{len(v)} {k.replace('_', ' ')}" for k, v in result.items()]
    summary = f"{'ok' if ok else 'FAILED'}: {n} vertices, source {source}: " + ", ".join(parts)
    if result["distance_mismatches"]:
        v = result["distance_mismatches"][0]
        summary += (
            f"; first distance mismatch: vertex {v} has {int(dist[v])}, exact {int(exact[v])}"
        )
    if result["inconsistent_parents"]:
        v = result["inconsistent_parents"][0]
        summary += f"; first inconsistent parent: vertex {v} has parent {int(par[v])}"
    return SsspTreeCheck(
        **result, require_canonical=bool(require_canonical), ok=ok, summary=summary
    )

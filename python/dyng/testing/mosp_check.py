"""Native helpers for mosp results (spec section 8): the combined graph of K parent arrays and the
path costs along a tree, from the library's own construction (fast on large graphs).
``dyng.testing.mosp_oracle`` holds the pure-Python oracle that shares no code with them.
"""

from __future__ import annotations

import numpy as np

from dyng._convert import as_int, id_array

__all__ = ["combined_graph", "mosp_path_costs"]


def combined_graph(parents_list, source, preferences=None):
    """The combined graph of K parent arrays (one per objective) as a sorted CSR.

    Edge (u, v) is in it when some tree's parent of v is u; it weighs ``L*(K+1)`` minus
    ``L/preferences[i]`` for every such tree i, ``L = lcm(preferences)`` (all 1 by default).

    Parameters
    ----------
    parents_list : sequence of array_like
        K parent arrays of the same length (-1 for no parent).
    source : int
        The trees' source vertex.
    preferences : sequence of int, optional
        One per objective, each >= 1; None for all 1.

    Returns
    -------
    dyng.CSR
        ``row_ptr`` int64 (n + 1), ``col_ind`` in the parents' dtype, ``weights`` int32 (m, 1).

    Raises
    ------
    InvalidArgumentError
        The parent arrays differ in length or hold an id that is not a vertex, `source` is not
        a vertex, or a preference is < 1.

    Examples
    --------
    >>> import dyng
    >>> c = dyng.testing.combined_graph([[-1, 0, 1], [-1, 0, 0]], 0, [1, 2])
    >>> (c.row_ptr.tolist(), c.col_ind.tolist(), c.weights.ravel().tolist())
    ([0, 2, 3, 3], [1, 2, 2], [3, 5, 4])
    """
    from dyng import _backend
    from dyng._graph import CSR

    fn = "testing.combined_graph"
    arrays = [id_array(p, fn, "parents", allow_minus_one=True) for p in parents_list]
    if any(a.dtype == np.int64 for a in arrays):
        arrays = [a.astype(np.int64) for a in arrays]
    prefs = [as_int(p, fn, "preferences", minimum=1) for p in (preferences or [])]
    row_ptr, col, weights = _backend.native().mosp_combined_graph(
        arrays, as_int(source, fn, "source"), prefs
    )
    return CSR(np.asarray(row_ptr), np.asarray(col), np.asarray(weights).reshape(-1, 1))


def mosp_path_costs(graph, parents, source, *, num_objectives=0):
    """The K path costs of every vertex along `parents` (a tree of `graph`): (n, K) int64.

    The weights of a tree edge (p, v) are those of the first stored (p, v) edge in p's row;
    unreachable vertices get ``INFINITE_DISTANCE`` in every column.

    Parameters
    ----------
    graph : dyng.Graph
        A weighted graph with in-edges.
    parents : array_like
        One parent per vertex (-1 for the source and unreachable vertices).
    source : int
        The tree's source vertex.
    num_objectives : int
        K: the first K weight columns; 0 uses them all.

    Returns
    -------
    numpy.ndarray
        (n, K) int64 path costs.

    Raises
    ------
    InvalidArgumentError
        `parents` has the wrong length or an id that is not a vertex, `source` is not a vertex,
        `num_objectives` exceeds the weight columns, or `parents` is not a tree of `graph` (a
        parent without the edge to its child, or a cycle).

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1], [1, 2], [[1, 2], [3, 4]])
    >>> dyng.testing.mosp_path_costs(g, [-1, 0, 1], 0).tolist()
    [[0, 0], [1, 2], [4, 6]]
    """
    from dyng import _backend
    from dyng._convert import cast_ids

    fn = "testing.mosp_path_costs"
    par = cast_ids(
        id_array(parents, fn, "parents", allow_minus_one=True, for_graph=True),
        graph._native.vertex_dtype,
        fn,
        "parents",
    )
    costs, k = _backend.native().mosp_path_costs(
        graph._native,
        par,
        as_int(source, fn, "source"),
        as_int(num_objectives, fn, "num_objectives"),
    )
    return np.asarray(costs).reshape(-1, k)

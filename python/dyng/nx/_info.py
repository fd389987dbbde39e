"""What NetworkX learns about the dyng backend without loading it.

NetworkX calls ``get_info`` (the ``networkx.backend_info`` entry point) while ``import
networkx`` runs, for every installed backend. So this module imports nothing: no NetworkX (it is
half-imported at that moment), no NumPy, no native module. The names below are the one list of
functions the backend implements; ``dyng.nx._interface`` binds each of them and the tests hold the
two equal.
"""

from __future__ import annotations

__all__ = ["FUNCTIONS", "get_info"]

_WEIGHTS = (
    "Runs on dyng when every edge weight (the ``weight`` attribute, 1 where missing) is "
    "an integer in [1, 2**31 - 1]; ``None`` hides an edge, as in NetworkX. Callable "
    "weights, floats and weights < 1 stay in NetworkX."
)
_SINGLE_SOURCE = "One source; the result is kept current on a ``dyng.nx`` graph."
_COMPONENTS = (
    "dyng labels the components (``dyng.components``); on a ``dyng.nx`` graph the "
    "labels are kept current."
)

#: name -> the note NetworkX appends to that function's docstring under "Backends".
FUNCTIONS = {
    "single_source_dijkstra_path_length": f"{_WEIGHTS} Keys come in nondecreasing distance; "
    "ties may come in another order than NetworkX's.",
    "single_source_dijkstra": f"{_WEIGHTS} Paths, and the order of the keys, are NetworkX's "
    "own (the first shortest path its Dijkstra search finds).",
    "single_source_dijkstra_path": f"{_WEIGHTS} The paths NetworkX's Dijkstra search finds.",
    "dijkstra_path": f"{_WEIGHTS} The path NetworkX's Dijkstra search finds.",
    "dijkstra_path_length": _WEIGHTS,
    "dijkstra_predecessor_and_distance": f"{_WEIGHTS} Every predecessor list is NetworkX's, "
    "in its order.",
    "single_source_shortest_path_length": f"{_SINGLE_SOURCE} Keys come in nondecreasing "
    "level; ties may come in another order than "
    "NetworkX's.",
    "bfs_layers": f"{_SINGLE_SOURCE} Several sources stay in NetworkX. Each layer is in "
    "NetworkX's order.",
    **{
        name: f"{_COMPONENTS} {note}".rstrip()
        for name, note in {
            "connected_components": "Sets in NetworkX's order (by first node).",
            "number_connected_components": "",
            "is_connected": "",
            "node_connected_component": "",
            "weakly_connected_components": "Sets in NetworkX's order (by first node).",
            "number_weakly_connected_components": "",
            "is_weakly_connected": "",
            "strongly_connected_components": "Sets with every component after the components it "
            "reaches, as Tarjan's search yields them; NetworkX's "
            "own order when every component is one node.",
            "number_strongly_connected_components": "",
            "is_strongly_connected": "",
        }.items()
    },
    "pagerank": "dyng's power iteration (``dyng.pagerank``), within ``2 * n * tol / (1 - alpha)`` "
    "in L1 of NetworkX's ranks; kept current on a ``dyng.nx`` graph while its nodes "
    "stay the same. Weights as for the shortest paths (integers in [1, 2**31 - 1]); "
    "personalization, dangling and nstart as dicts of non-negative weights; "
    "multigraphs stay in NetworkX.",
    "transitivity": "Undirected graphs: the triangle count comes from dyng (kept current on a "
    "``dyng.nx.Graph``), the triads from the degrees. Directed graphs stay in "
    "NetworkX.",
}


def get_info():
    """The ``networkx.backend_info`` entry point: what NetworkX learns about the backend without
    loading it.

    Returns
    -------
    dict
        The backend's name, project and package, a short summary, the functions it implements
        (``{name: {"additional_docs": note}}``: NetworkX adds each note to that function's
        docstring) and its default settings (``nx.config.backends.dyng``: ``min_edges``, the
        size from which a plain NetworkX graph is worth converting).

    Examples
    --------
    >>> from dyng.nx import get_info
    >>> info = get_info()
    >>> info["backend_name"], "bfs_layers" in info["functions"]
    ('dyng', True)
    """
    return {
        "backend_name": "dyng",
        "project": "dyng",
        "package": "dyng",
        "short_summary": "Shortest paths, BFS, connected components, PageRank and triangles "
        "that stay current while the graph changes (dyng.nx.DiGraph, "
        "dyng.nx.Graph).",
        "functions": {name: {"additional_docs": note} for name, note in FUNCTIONS.items()},
        # should_run sends a plain NetworkX graph to dyng's shortest-path lengths only from this
        # many edges on (other functions from a multiple of it): below, converting the graph
        # costs more than NetworkX's own search.
        "default_config": {"min_edges": 10_000},
    }

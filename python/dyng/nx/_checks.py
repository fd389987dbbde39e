"""When dyng answers a dispatched call: ``can_run`` (exactly, with these arguments) and
``should_run`` (worth converting a plain graph for).

can_run refuses what dyng lacks: weights that are not integers in [1, 2**31 - 1] (the reason
names the first such edge), a callable weight, a cutoff that is not a number, several BFS
sources, transitivity of directed graphs and multigraphs, pagerank vectors that are not dicts
of non-negative finite numbers (or a dangling or nstart dict that gives the nodes no weight,
where NetworkX divides by 0 and fails to converge). A ``dyng.nx`` graph is always
accepted: what dyng cannot answer runs NetworkX's own code on it (dyng.nx._networkx_code).
"""

from __future__ import annotations

import inspect
import math
import numbers
from collections.abc import Iterator, Mapping

import networkx as nx

from dyng.nx import _conversions, _info
from dyng.nx._graph_types import _Recording
from dyng.nx._snapshot import Snapshot, snapshot_of

__all__ = ["weight_attrs", "argument_problem", "source_problem", "can_run", "should_run"]


def weight_attrs(arguments):
    """{attribute: default} a call reads weights from (none for weight=None or no weight)."""
    weight = arguments.get("weight")
    return {weight: 1} if weight is not None else {}


def argument_problem(name, arguments):
    """Why dyng cannot take these arguments, or None."""
    weight = arguments.get("weight")
    if callable(weight):
        return (
            "weight is a function; dyng reads integer weights from one edge attribute, so "
            "NetworkX runs this call (store the weights as an attribute to use dyng)"
        )
    cutoff = arguments.get("cutoff")
    if cutoff is not None and not isinstance(cutoff, numbers.Real):
        return f"cutoff={cutoff!r} is not a number"
    if name == "bfs_layers":
        return _sources_problem(arguments["G"], arguments["sources"])
    if name == "pagerank":
        return _pagerank_problem(arguments)
    if name == "transitivity":
        if arguments["G"].is_directed():
            return (
                "transitivity of a directed graph counts NetworkX's successor triads, not "
                "dyng's undirected triangles"
            )
        if arguments["G"].is_multigraph():
            return "NetworkX's transitivity refuses multigraphs; it raises its own error"
    return None


def _pagerank_problem(arguments):
    for vector in ("personalization", "nstart", "dangling"):
        problem = _vector_problem(vector, arguments[vector], arguments["G"])
        if problem is not None:
            return problem
    if arguments["G"].is_multigraph():
        return (
            "the graph is a multigraph: NetworkX's pagerank adds up parallel edges, which "
            "dyng's conversion keeps as one"
        )
    alpha, tol, max_iter = arguments["alpha"], arguments["tol"], arguments["max_iter"]
    if not isinstance(alpha, numbers.Real) or not 0 <= alpha < 1:
        return f"alpha={alpha!r} is not a number in [0, 1), which dyng.pagerank needs"
    if not isinstance(tol, numbers.Real) or not tol > 0:
        return f"tol={tol!r} is not a positive number, which dyng.pagerank needs"
    if isinstance(max_iter, bool) or not isinstance(max_iter, numbers.Integral) or max_iter < 1:
        return f"max_iter={max_iter!r} is not an int >= 1, which dyng.pagerank needs"
    return None


def _vector_problem(name, vector, G):
    """Why dyng.pagerank cannot take NetworkX's `name` dict, or None. NetworkX reads it with
    ``vector.get(node, 0)`` over the nodes, so keys that are not nodes do not count. A
    personalization that gives the nodes no weight is taken: the body raises NetworkX's
    ZeroDivisionError."""
    if vector is None:
        return None
    if not isinstance(vector, Mapping):
        return f"{name} is a {type(vector).__name__}, not a dict, so NetworkX runs this call"
    total = 0.0
    for node, weight in vector.items():
        if node not in G:
            continue
        if not isinstance(weight, numbers.Real) or not (math.isfinite(weight) and weight >= 0):
            return (
                f"{name}[{node!r}] is {weight!r}; dyng.pagerank takes non-negative finite "
                f"weights, so NetworkX runs this call"
            )
        total += weight
    if total == 0 and name != "personalization":
        return (
            f"{name} gives the graph's nodes no weight, which NetworkX divides by (and then "
            f"fails to converge), so NetworkX runs this call"
        )
    return None


def _sources_problem(G, sources):
    if sources in G:
        return None
    if isinstance(sources, Iterator):
        return (
            "sources is an iterator, which dyng cannot look into without using it up; pass "
            "a list of sources"
        )
    try:
        count = len(set(sources))
    except TypeError:
        return "sources is neither a node nor a collection of nodes"
    if count > 1:
        return f"{count} sources: dyng's BFS has one source, so NetworkX runs multi-source BFS"
    return None


def can_run(name, function, args, kwargs):
    """True when dyng answers `name` (with NetworkX's signature `function`) exactly."""
    try:
        bound = inspect.signature(function).bind(*args, **kwargs)
    except TypeError as error:
        return f"the arguments do not fit {name}(): {error}"
    bound.apply_defaults()
    arguments = bound.arguments
    G = arguments["G"]
    if isinstance(G, _Recording):
        return True  # dyng, or NetworkX's own code on the graph when dyng cannot
    if not isinstance(G, (Snapshot, nx.Graph)):
        return f"G is a {type(G).__name__}, not a NetworkX graph"
    problem = argument_problem(name, arguments)
    if problem is not None:
        return problem
    attrs = weight_attrs(arguments)
    if not attrs:
        return True
    source = G if isinstance(G, Snapshot) else _conversions.cached_snapshot(G, attrs)
    if source is None:
        source = snapshot_of(G, attrs)
        _conversions.keep(G, attrs, source)
    return source_problem(name, source, attrs) or True


def source_problem(name, source, attrs):
    """Why dyng cannot answer `name` from `source`'s weights of `attrs`, or None."""
    for attr in attrs:
        problem = source.weight_problem(attr)
        if problem is None and name == "pagerank":
            problem = source.hidden_edges_problem(attr)
        if problem is not None:
            return problem
    return None


# From how many edges converting a plain graph for one call pays, in units of
# nx.config.backends.dyng.min_edges (measured against NetworkX 3.7 on random graphs: the
# conversion is a pass over NetworkX's dicts; answers with paths or predecessor lists also cost
# Python work per node; NetworkX's pagerank makes its own pass, to a SciPy matrix, so dyng's
# pays from any size: bench/README.md). None: never, because NetworkX's own code does less than the conversion.
_PAYS_FROM = {
    "single_source_dijkstra_path_length": 1,
    "single_source_dijkstra": 3,
    "single_source_dijkstra_path": 3,
    "dijkstra_predecessor_and_distance": 10,
    "transitivity": 0.02,
    "pagerank": 0,
    "dijkstra_path": None,
    "dijkstra_path_length": None,
    "single_source_shortest_path_length": None,
    "bfs_layers": None,
    "number_strongly_connected_components": 1,
}
_STOPS_AT_TARGET = "NetworkX's search stops at the target"
_BFS = "NetworkX's BFS costs less than converting the graph"
# NetworkX's components searches cost less than the conversion (its weak ones stop once every
# node is seen, its is_* functions at the first component); only counting strong components
# pays, and every answer that builds sets costs as much Python work per node as NetworkX.
_SEARCH = "NetworkX's components search costs less than converting the graph"
_WHY_NOT = {
    "dijkstra_path": _STOPS_AT_TARGET,
    "dijkstra_path_length": _STOPS_AT_TARGET,
    "single_source_shortest_path_length": _BFS,
    "bfs_layers": _BFS,
    **{
        name: _SEARCH
        for name in (
            "connected_components",
            "number_connected_components",
            "is_connected",
            "node_connected_component",
            "weakly_connected_components",
            "number_weakly_connected_components",
            "is_weakly_connected",
            "strongly_connected_components",
            "is_strongly_connected",
        )
    },
}


def should_run(name, function, args, kwargs):
    """For a plain graph: True when converting it for dyng pays, else the reason."""
    G = args[0] if args else kwargs.get("G")
    if not isinstance(G, nx.Graph) or isinstance(G, _Recording):
        return True
    if _conversions.cached_snapshot(G, {}) is not None:
        return True  # converted before and unchanged since: only dyng's search is left
    why = _WHY_NOT.get(name)
    factor = _PAYS_FROM.get(name, None if why else 1)
    if name == "single_source_dijkstra" and _target(function, args, kwargs) is not None:
        factor, why = None, _STOPS_AT_TARGET
    if factor is None:
        return (
            f"{why}, so a single call on a plain graph is faster in NetworkX (a dyng.nx "
            f"graph keeps the result instead)"
        )
    least = int(factor * min_edges())
    edges = G.number_of_edges()
    if edges < least:
        return (
            f"the graph has {edges} edges, fewer than the {least} from which converting it "
            f"for dyng pays for {name} (nx.config.backends.dyng.min_edges scales it)"
        )
    return True


def _target(function, args, kwargs):
    try:
        return inspect.signature(function).bind(*args, **kwargs).arguments.get("target")
    except TypeError:
        return None


def min_edges():
    """nx.config.backends.dyng.min_edges (its default where NetworkX has no config for it)."""
    try:
        return nx.config.backends.dyng.min_edges
    except AttributeError:
        return _info.get_info()["default_config"]["min_edges"]

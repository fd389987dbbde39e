"""NetworkX's own code for the calls on a ``dyng.nx`` graph that dyng does not answer.

A ``dyng.nx`` graph is a NetworkX graph, so every dispatched call on it comes to the dyng
backend, which runs NetworkX's implementation on the graph itself when dyng cannot answer (a
function dyng lacks, weights it cannot take): no conversion, no configuration. Each such call
counts in ``G.dyng_stats.networkx_calls`` with its reason; only the outermost one, since
NetworkX's functions call other dispatched functions, which come back here.
"""

from __future__ import annotations

import threading

import networkx as nx

from dyng import _log
from dyng.nx._graph_types import _Recording

__all__ = ["registered", "run_networkx", "pass_through"]

_inside = threading.local()  # depth of NetworkX's own code running for a dyng.nx graph


def registered():
    """NetworkX's registry of dispatched functions (a private name, hence the fallback)."""
    return getattr(nx.utils.backends, "_registered_algorithms", {})


def run_networkx(name, graphs, reason, args, kwargs):
    """NetworkX's implementation of `name` on the `graphs` it was called with."""
    depth = getattr(_inside, "depth", 0)
    if depth == 0:
        for G in graphs:
            G._dyng.stats.networkx_calls += 1
            G._dyng.stats.last_networkx_reason = reason
        _log.log("info", lambda: f"dyng.nx: {name}() runs NetworkX's own code: {reason}")
    _inside.depth = depth + 1
    try:
        return registered()[name].orig_func(*args, **kwargs)
    finally:
        _inside.depth = depth


def pass_through(name):
    """The backend's function for a dispatched name dyng does not implement."""

    def networkx_code(*args, **kwargs):
        graphs = [value for value in (*args, *kwargs.values()) if isinstance(value, _Recording)]
        return run_networkx(name, graphs, f"dyng does not implement {name}", args, kwargs)

    networkx_code.__name__ = name
    return networkx_code


def accepts(name, args, kwargs):
    """can_run for a function dyng lacks: True when a ``dyng.nx`` graph is among the graphs."""
    dispatched = registered().get(name)
    if dispatched is None:
        return f"{name} is not a function NetworkX dispatches"
    graphs = [
        args[position] if position < len(args) else kwargs.get(graph)
        for graph, position in dispatched.graphs.items()
    ]
    if any(isinstance(g, _Recording) for g in graphs):
        return True
    return f"dyng does not implement {name}; NetworkX runs it"

"""The object NetworkX loads as the dyng backend (the ``networkx.backends`` entry point).

Per dispatched call NetworkX asks it ``can_run`` (dyng.nx._checks), for a plain graph
``should_run``, then ``convert_from_nx`` (dyng.nx._conversions) and the function below with
NetworkX's signature; results pass through ``convert_to_nx``.

- A plain NetworkX graph is converted and answered by dyng when can_run finds nothing dyng
  lacks; otherwise can_run says why, and NetworkX runs its own code where it is configured to
  fall back (``nx.config.fallback_to_nx``) or raises NotImplementedError.
- A ``dyng.nx`` graph is always accepted: what dyng cannot answer (unusable weights, a callable
  weight, a function dyng lacks) runs NetworkX's own code on the graph itself
  (dyng.nx._networkx_code), which this object offers under every name NetworkX dispatches.
"""

from __future__ import annotations

from dyng.nx import _algorithms, _checks, _conversions, _info, _networkx_code, _suite_counts
from dyng.nx._graph_types import _Recording

__all__ = ["BackendInterface"]


def _call(name, arguments):
    """Runs `name` on dyng with NetworkX's `arguments` (a dict by parameter name)."""
    G = arguments["G"]
    attrs = _checks.weight_attrs(arguments)
    problem = _checks.argument_problem(name, arguments)
    source = None
    if problem is None:
        source = _conversions.source_of(G, attrs)
        problem = _checks.source_problem(name, source, attrs)
    if problem is not None:
        if isinstance(G, _Recording):
            return _networkx_code.run_networkx(name, [G], problem, (), arguments)
        raise NotImplementedError(f"{name}(): dyng cannot run this call: {problem}")
    _suite_counts.note_call(name)
    inputs = {
        ("node" if key == "source" else key): value
        for key, value in arguments.items()
        if key != "G"
    }
    return getattr(_algorithms, name)(source, **inputs)


# The dispatched functions dyng implements, with NetworkX's signatures (can_run binds to them).


def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
    return _call("single_source_dijkstra_path_length", locals())


def single_source_dijkstra(G, source, target=None, cutoff=None, weight="weight"):
    return _call("single_source_dijkstra", locals())


def single_source_dijkstra_path(G, source, cutoff=None, weight="weight"):
    return _call("single_source_dijkstra_path", locals())


def dijkstra_path(G, source, target, weight="weight"):
    return _call("dijkstra_path", locals())


def dijkstra_path_length(G, source, target, weight="weight"):
    return _call("dijkstra_path_length", locals())


def dijkstra_predecessor_and_distance(G, source, cutoff=None, weight="weight"):
    return _call("dijkstra_predecessor_and_distance", locals())


def single_source_shortest_path_length(G, source, cutoff=None):
    return _call("single_source_shortest_path_length", locals())


def bfs_layers(G, sources):
    # A generator, as NetworkX's: nothing runs (nor raises) before the first layer is asked for.
    yield from _call("bfs_layers", locals())


def pagerank(
    G,
    alpha=0.85,
    personalization=None,
    max_iter=100,
    tol=1e-06,
    nstart=None,
    weight="weight",
    dangling=None,
):
    return _call("pagerank", locals())


def transitivity(G):
    return _call("transitivity", locals())


# The components generators, as NetworkX's, compute nothing before the first set is asked for.


def connected_components(G):
    yield from _call("connected_components", locals())


def number_connected_components(G):
    return _call("number_connected_components", locals())


def is_connected(G):
    return _call("is_connected", locals())


def node_connected_component(G, n):
    return _call("node_connected_component", locals())


def weakly_connected_components(G):
    yield from _call("weakly_connected_components", locals())


def number_weakly_connected_components(G):
    return _call("number_weakly_connected_components", locals())


def is_weakly_connected(G):
    return _call("is_weakly_connected", locals())


def strongly_connected_components(G):
    yield from _call("strongly_connected_components", locals())


def number_strongly_connected_components(G):
    return _call("number_strongly_connected_components", locals())


def is_strongly_connected(G):
    return _call("is_strongly_connected", locals())


_FUNCTIONS = {name: globals()[name] for name in _info.FUNCTIONS}


def can_run(name, args, kwargs):
    """True when dyng answers `name` with these arguments, else the reason it cannot."""
    function = _FUNCTIONS.get(name)
    if function is None:
        return _networkx_code.accepts(name, args, kwargs)
    answer = _checks.can_run(name, function, args, kwargs)
    if answer is not True:
        _suite_counts.note_refusal(name, answer)
    return answer


def should_run(name, args, kwargs):
    """True when dyng should answer `name` (converting a plain graph pays), else the reason."""
    return _checks.should_run(name, _FUNCTIONS.get(name), args, kwargs)


class _Backend:
    """The backend object: dyng's functions, the conversions, can_run and should_run, and
    NetworkX's own code under every other dispatched name (for ``dyng.nx`` graphs).

    Examples
    --------
    >>> import networkx as nx
    >>> from dyng.nx import BackendInterface
    >>> BackendInterface
    <the dyng NetworkX backend>
    >>> G = nx.path_graph(3)
    >>> BackendInterface.can_run("connected_components", (G,), {})
    True
    >>> sorted(map(sorted, nx.connected_components(G, backend="dyng")))
    [[0, 1, 2]]
    """

    convert_from_nx = staticmethod(_conversions.convert_from_nx)
    convert_to_nx = staticmethod(_conversions.convert_to_nx)
    can_run = staticmethod(can_run)
    should_run = staticmethod(should_run)

    def __getattr__(self, name):
        if name.startswith("_") or name not in _networkx_code.registered():
            raise AttributeError(f"the dyng backend has no attribute {name!r}")
        return _networkx_code.pass_through(name)

    def __repr__(self):
        return "<the dyng NetworkX backend>"


for _name, _function in _FUNCTIONS.items():
    setattr(_Backend, _name, staticmethod(_function))

BackendInterface = _Backend()
"""The backend object NetworkX dispatches to (the ``networkx.backends`` entry point).

It has dyng's implementation of every function ``get_info()["functions"]`` lists (each with
NetworkX's signature), ``convert_from_nx`` and ``convert_to_nx``, ``can_run`` and ``should_run``
(True, or the reason dyng does not answer a call), and NetworkX's own code under every other
dispatched name, which a ``dyng.nx`` graph needs. Users reach it through NetworkX
(``backend="dyng"``), not directly.
"""

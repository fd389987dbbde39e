"""dyng.update: one batch, applied once, repairing several results (spec section 6)."""

from __future__ import annotations

from dyng import _resources
from dyng._batch import EdgeBatch
from dyng._errors import InvalidArgumentError
from dyng._graph import Graph

__all__ = ["update"]


def _result_types():
    from dyng import sssp

    return (sssp.Result,)


def update(graph, batch, *results, resources=None, _function="dyng.update"):
    """Applies `batch` to `graph` once and repairs every result; returns their Stats in order.

    Everything is checked before the graph changes (batch conversion, each algorithm's batch
    rules, staleness), so a bad batch or a stale result leaves the graph and all results as they
    were.

    Parameters
    ----------
    graph : Graph
    batch : EdgeBatch
    *results
        Current results of `graph` (sssp results in this version), each at most once.
    resources : Resources, optional
        Defaults to each result's own resources (those it was computed with).

    Returns
    -------
    tuple of Stats

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1], [1, 2], [1, 1])
    >>> a, b = dyng.sssp.compute(g, 0), dyng.sssp.compute(g, 1)
    >>> stats = dyng.update(g, dyng.EdgeBatch(insert=([2], [0], [1])), a, b)
    >>> (len(stats), g.version, b.distances.tolist())
    (2, 1, [2, 0, 1])
    """
    fn = _function
    if not isinstance(graph, Graph):
        raise TypeError(f"{fn}(): graph must be a dyng.Graph; got {type(graph).__name__}")
    if not isinstance(batch, EdgeBatch):
        raise TypeError(f"{fn}(): batch must be a dyng.EdgeBatch; got {type(batch).__name__}")
    if not results:
        raise InvalidArgumentError(
            f"{fn}(): no results given; pass at least one result, or use graph.apply(batch) to "
            f"change the graph alone"
        )
    supported = _result_types()
    seen = set()
    for position, result in enumerate(results):
        if not isinstance(result, supported):
            raise TypeError(
                f"{fn}(): results[{position}] is a {type(result).__name__}; only sssp results "
                f"can be updated in this version"
            )
        if id(result) in seen:
            raise InvalidArgumentError(
                f"{fn}(): results[{position}] is passed more than once; pass each result once"
            )
        seen.add(id(result))
    for result in results:
        result._check_current(graph, fn)
    # Each result keeps the resources it was computed with, unless the call names others.
    explicit = _resources.resolve(resources, None, fn)
    executions = [(explicit or result._resources)._execution() for result in results]
    resolved = graph._resolve_batch(batch, fn)
    for result in results:
        result._validate_batch(resolved)
    summary, log = graph._apply(batch, fn, log=True, resolved=resolved)
    return tuple(
        result._apply_log(graph, log, execution, summary)
        for result, execution in zip(results, executions)
    )

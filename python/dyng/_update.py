"""dyng.update: one batch, applied once, repairing several results (spec section 6).

Every algorithm's own ``update(graph, batch, result)`` is this function with one result, so the
checks, their order and their messages exist once. It works on the protocol of
``dyng._result.ResultBase`` and imports no algorithm module.
"""

from __future__ import annotations

from dyng import _profiler, _registry, _resources
from dyng._batch import EdgeBatch
from dyng._errors import InvalidArgumentError
from dyng._graph import Graph
from dyng._interrupts import deferred_interrupts
from dyng._result import ResultBase

__all__ = ["update"]


def update(graph, batch, *results, resources=None, _function="dyng.update"):
    """Applies `batch` to `graph` once and repairs every result; returns their Stats in order.

    Everything is checked before the graph changes (batch conversion, each algorithm's batch
    rules, staleness), so a bad batch or a stale result leaves the graph and all results as they
    were. Calls that change one graph (this, ``<algorithm>.update``, ``Graph.apply``) run one at a
    time. Ctrl-C stops the call within a fraction of a second (as does an error raised by a
    repair): the graph and every result are then as they were before it.

    Parameters
    ----------
    graph : Graph
        The graph every result was computed on.
    batch : EdgeBatch
        The changes, read under the graph's [`dyng.BatchSemantics`][].
    *results
        Current results of `graph` (of any dyng algorithm), each at most once.
    resources : Resources, optional
        Where to run; defaults to each result's own resources (those it was computed with).

    Returns
    -------
    tuple of Stats
        One per result, in the order given: the ``Stats`` of that result's algorithm (what
        the repair did, e.g. [`dyng.sssp.Stats`][]).

    Raises
    ------
    TypeError
        When `graph` is not a Graph, `batch` not an EdgeBatch, or a result is not a result of
        dyng's algorithms.
    InvalidArgumentError
        When no result is given, a result is given twice, or `graph` or an algorithm refuses
        the batch (an id out of range, a weight count that does not match, ...).
    StaleResultError
        When a result does not match the graph as it is now (it missed a batch, or it belongs
        to another graph).
    NotSupportedError
        When `resources` name a backend this build or the graph's storage does not offer.
    KeyboardInterrupt
        On Ctrl-C; the graph and every result are left as they were.

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
    seen = set()
    for position, result in enumerate(results):
        if not isinstance(result, ResultBase):
            raise TypeError(
                f"{fn}(): results[{position}] is a {type(result).__name__}, not a result of "
                f"dyng's algorithms ({', '.join(_registry.ALGORITHM_MODULES)})"
            )
        if id(result) in seen:
            raise InvalidArgumentError(
                f"{fn}(): results[{position}] is passed more than once; pass each result once"
            )
        seen.add(id(result))
    # Each result keeps the resources it was computed with, unless the call names others.
    explicit = _resources.resolve(resources, None, fn)
    executions = [(explicit or result._resources)._execution() for result in results]
    # One writer of this graph at a time, from the staleness check to the last repair: another
    # thread's batch cannot land between this call's check and its apply, or its apply and its
    # repairs.
    with graph._write_lock:
        for result in results:
            result._check_current(graph, fn)
        resolved = graph._resolve_batch(batch, fn)
        for result in results:
            result._validate_batch(resolved)
        # The profile stage spans the apply and every repair (their own stages nest inside).
        apply_execution = (explicit or graph._resources)._execution()
        with _profiler.stage(apply_execution, fn):
            return _apply_and_repair(graph, batch, resolved, explicit, results, executions, fn)


def _apply_and_repair(graph, batch, resolved, explicit, results, executions, fn):
    """Applies the batch and repairs every result, or, when anything raises on the way (Ctrl-C
    included: each native step stops within a fraction of a second), leaves the graph and every
    result as they were and raises it.

    The graph keeps an undo record of the apply until the last repair is done. A repair that
    fails puts its own result back (the native update policy's undo); the results repaired before
    it go back to deep copies taken before their repairs (not needed for the last result, so a
    single result costs no copy).
    """
    version = graph.version
    kept = []  # (result, saved state) of each result but the last, taken before its repair
    try:
        summary, log = graph._apply(
            batch, fn, log=True, resolved=resolved, resources=explicit, revertible=True
        )
        stats = []
        last = len(results) - 1
        for position, (result, execution) in enumerate(zip(results, executions)):
            if position < last:
                kept.append((result, result._saved_state()))
            stats.append(result._apply_log(graph, log, execution, summary))
    except BaseException:
        _put_back_holding_interrupts(graph, version, results, kept)
        raise
    graph._forget_revert()
    return tuple(stats)


def _put_back_holding_interrupts(graph, version, results, kept):
    """_put_back() with SIGINT held; a Ctrl-C that lands before the hold starts it again (it
    does nothing a second time)."""
    while True:
        try:
            with deferred_interrupts():
                _put_back(graph, version, results, kept)
            return
        except KeyboardInterrupt:
            continue


def _put_back(graph, version, results, kept):
    """Takes the batch back, unless it never reached the graph or every result is repaired
    already (an exception raised after the last repair: the update is complete). A result is
    repaired exactly when it matches the new version (stamped natively by its update)."""
    if graph.version == version or results[-1].graph_version == graph.version:
        return
    for result, saved in kept:
        if result.graph_version == graph.version:
            result._restore_state(saved)
    graph._revert_apply(version)


def update_one(module_name, result_type, graph, batch, result, resources):
    """`<algorithm>.update(graph, batch, result)`: dyng.update with one result of that type."""
    if not isinstance(result, result_type):
        raise TypeError(
            f"{module_name}.update(): result must be a dyng.{module_name}.Result; got "
            f"{type(result).__name__}"
        )
    return update(graph, batch, result, resources=resources, _function=f"{module_name}.update")[0]

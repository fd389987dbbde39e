"""Dynamic breadth-first search levels (the tutorial algorithm, spec section 6).

``compute`` finds the BFS level of every vertex (edges on a shortest path from the source; -1
when unreachable; weights are ignored); ``update`` applies a batch and repairs the levels to what a
fresh compute gives. It is also the smallest complete example of a dyng algorithm: see
docs/developer/adding-an-algorithm.md.

Examples
--------
>>> import dyng
>>> g = dyng.Graph.from_edges([0, 0, 1], [1, 2, 3])
>>> r = dyng.dynamic_bfs.compute(g, 0)
>>> r.levels.tolist()
[0, 1, 1, 2]
>>> stats = dyng.dynamic_bfs.update(g, dyng.EdgeBatch(delete=([0], [1]), insert=([2], [1])), r)
>>> r.levels.tolist(), stats.affected
([0, 2, 1, 3], 2)
"""

from __future__ import annotations

import dataclasses

import numpy as np

from dyng import _convert, _update
from dyng._registry import Algorithm
from dyng._result import (
    OptionsBase,
    SingleSourceResult,
    StatsBase,
    check_graph_argument,
    make_options,
    run_compute,
)

__all__ = ["Options", "Stats", "Result", "compute", "update"]

ALGORITHM = Algorithm(
    name="dynamic_bfs",
    title="Dynamic breadth-first search levels (tutorial)",
    family="fixed_point",
    maturity="tutorial",
    determinism="exact_value",
)


@dataclasses.dataclass
class Options(OptionsBase):
    """Options of dynamic_bfs.

    Attributes
    ----------
    source : int
        The vertex the levels count from (``compute``'s `source` argument overrides it).

    Examples
    --------
    >>> import dyng
    >>> dyng.dynamic_bfs.Options(source=3).source
    3
    """

    source: int = 0

    def validate(self) -> None:
        """Checks `source` (an integer; whether it is a vertex is checked by the compute).

        Raises
        ------
        InvalidArgumentError
            `source` is not an integer.

        Examples
        --------
        >>> import dyng
        >>> try:
        ...     dyng.dynamic_bfs.Options(source="a")
        ... except dyng.InvalidArgumentError as error:
        ...     print(error)
        dynamic_bfs.Options(): source='a' is not an integer; pass an integer
        """
        self.source = _convert.as_int(
            self.source, "dynamic_bfs.Options", "source", minimum=-(2**63), maximum=2**63 - 1
        )

    def _to_native(self, native):
        return native.BfsOptions()


@dataclasses.dataclass(frozen=True)
class Stats(StatsBase):
    """What one dynamic_bfs compute or update did.

    The common fields are those of every algorithm's Stats (see
    [`StatsBase`][dyng._result.StatsBase]); ``method`` is ``"queue"`` or ``"frontier"``.

    Attributes
    ----------
    invalidated : int
        Vertices whose level a deletion took away (their levels were searched again).
    invalidation_rounds : int
        Rounds the invalidation needed.

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1], [1, 2])
    >>> r = dyng.dynamic_bfs.compute(g, 0)
    >>> s = dyng.dynamic_bfs.update(g, dyng.EdgeBatch(delete=([0], [1])), r)
    >>> s.affected, r.levels.tolist()
    (2, [0, -1, -1])
    """

    invalidated: int = 0
    invalidation_rounds: int = 0


class Result(SingleSourceResult):
    """BFS levels kept current by [`update`][dyng.dynamic_bfs.update].

    Attributes
    ----------
    source : int
        The vertex the levels count from.
    levels : Array
        int64 hops from the source, -1 for unreachable vertices.
    graph_version : int
        The graph version the result matches.

    Examples
    --------
    >>> import dyng
    >>> r = dyng.dynamic_bfs.compute(dyng.Graph.from_edges([0, 1], [1, 2]), 0)
    >>> r
    dynamic_bfs.Result(source=0, num_vertices=3, graph_version=0)
    >>> r.levels.tolist()
    [0, 1, 2]
    """

    _ALGORITHM = ALGORITHM
    _STATS = Stats
    _HOST_STATE = "BfsState"
    _DEVICE_STATE = "BfsDeviceState"
    _FIXED_FIELDS = ("source",)

    @property
    def levels(self):
        """int64 levels as a read-only Array (-1: unreachable)."""
        return self._array("levels", np.int64, "dynamic_bfs levels")


def compute(graph, source=None, *, options=None, resources=None, **fields):
    """BFS levels from `source` (default: ``options.source``).

    Parameters
    ----------
    graph : Graph
        Directed graphs need their in-edges (``store_transposed=True``, the default).
    source : int, optional
        The vertex the levels count from; overrides ``options.source``.
    options : Options, optional
        Default: ``Options()``.
    resources : Resources, optional
        Defaults to the graph's resources.
    **fields
        Override fields of `options` (source).

    Returns
    -------
    Result
        The levels, at the graph's current version; keep them current with
        [`update`][dyng.dynamic_bfs.update].

    Raises
    ------
    TypeError
        `graph` is not a [`dyng.Graph`][], `options` not an [`Options`][dyng.dynamic_bfs.Options],
        `resources` neither a [`dyng.Resources`][] nor a backend name, or a field name is unknown.
    InvalidArgumentError
        `source` is not a vertex, or a directed graph has no in-edges.

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1], [1, 2], directed=False)
    >>> dyng.dynamic_bfs.compute(g, 2).levels.tolist()
    [2, 1, 0]
    """
    fn = "dynamic_bfs.compute"
    if source is not None:
        fields = {**fields, "source": source}
    opts = make_options(fn, Options, options, fields)
    check_graph_argument(fn, graph)
    return run_compute(Result, fn, graph, opts, resources, opts.source)


def update(graph, batch, result, *, resources=None):
    """Applies `batch` to `graph` and repairs `result`; equal to a fresh compute afterwards.

    [`dyng.update`][] with one result: an invalid batch or a stale result raises and changes
    neither the graph nor the result.

    Parameters
    ----------
    graph : Graph
        The graph `result` was computed on.
    batch : EdgeBatch
        The changes (weights are ignored).
    result : Result
        A current dynamic_bfs result of `graph` (at its version).
    resources : Resources, optional
        Default: the result's own (those it was computed with).

    Returns
    -------
    Stats
        What the update did; ``result.stats`` holds it too.

    Raises
    ------
    TypeError
        `graph`, `batch`, `result` or `resources` has the wrong type.
    StaleResultError
        `result` belongs to another graph or to another version of `graph`.
    InvalidArgumentError
        The batch is not valid for `graph`.

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1], [1, 2])
    >>> r = dyng.dynamic_bfs.compute(g, 0)
    >>> dyng.dynamic_bfs.update(g, dyng.EdgeBatch(insert=([0], [2])), r).affected
    1
    >>> r.levels.tolist()
    [0, 1, 1]
    """
    return _update.update_one("dynamic_bfs", Result, graph, batch, result, resources)

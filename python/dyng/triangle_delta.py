"""Triangle counts of an undirected graph, kept current under batches (a tutorial; spec section
6).

``compute`` counts the triangles (three distinct, pairwise adjacent vertices); self-loops and
weights are ignored. ``update`` applies a batch and changes the count by the triangles through
its changed edges only: those through deleted edges counted on the graph before the batch, those
through inserted edges on the graph after it, each triangle once however many changed edges it
holds. The graph must be undirected with sorted rows and without parallel edges (the default
properties with ``directed=False``).

Examples
--------
>>> import dyng
>>> g = dyng.Graph.from_edges([0, 1, 2, 0], [1, 2, 0, 3], directed=False)
>>> r = dyng.triangle_delta.compute(g)
>>> r.count
1
>>> s = dyng.triangle_delta.update(g, dyng.EdgeBatch(insert=([1, 3], [3, 2]), delete=([0], [1])), r)
>>> r.count, s.triangles_removed, s.triangles_added
(2, 1, 2)
"""

from __future__ import annotations

import dataclasses

from dyng import _update
from dyng._registry import Algorithm
from dyng._result import (
    OptionsBase,
    ResultBase,
    StatsBase,
    check_graph_argument,
    make_options,
    run_compute,
)

__all__ = ["Options", "Stats", "Result", "compute", "update"]

ALGORITHM = Algorithm(
    name="triangle_delta",
    title="Dynamic triangle count (tutorial)",
    family="aggregate_delta",
    maturity="tutorial",
    determinism="exact_value",
)


@dataclasses.dataclass
class Options(OptionsBase):
    """Options of triangle_delta (it has none; the class exists so that every algorithm takes
    the same arguments).

    Examples
    --------
    >>> import dyng
    >>> dyng.triangle_delta.Options()
    Options()
    """

    def validate(self) -> None:
        """Nothing to check: there are no fields.

        Examples
        --------
        >>> import dyng
        >>> dyng.triangle_delta.Options().validate()
        """

    def _to_native(self, native):
        return native.TriangleDeltaOptions()


@dataclasses.dataclass(frozen=True)
class Stats(StatsBase):
    """What one triangle_delta compute or update did.

    The common fields are those of every algorithm's Stats (see
    [`StatsBase`][dyng._result.StatsBase]); ``affected`` is 1 if the count changed,
    ``frontier_visits`` counts the changed edges intersected (the vertices, for a compute).

    Attributes
    ----------
    deletions : int
        The batch's deleted undirected edges.
    insertions : int
        The batch's inserted undirected edges, net of edges it also deleted.
    triangles_removed : int
        Triangles through the deleted edges (counted on the graph before the batch).
    triangles_added : int
        Triangles through the inserted edges (counted on the graph after the batch).

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1, 2], [1, 2, 0], directed=False)
    >>> r = dyng.triangle_delta.compute(g)
    >>> s = dyng.triangle_delta.update(g, dyng.EdgeBatch(delete=([0], [1])), r)
    >>> s.deletions, s.triangles_removed, r.count
    (1, 1, 0)
    """

    deletions: int = 0
    insertions: int = 0
    triangles_removed: int = 0
    triangles_added: int = 0


class Result(ResultBase):
    """The number of triangles of a graph, kept current by [`update`][dyng.triangle_delta.update].

    Attributes
    ----------
    count : int
        The number of triangles.
    graph_version : int
        The graph version the result matches.

    Examples
    --------
    >>> import dyng
    >>> dyng.triangle_delta.compute(dyng.Graph.from_edges([0, 1, 2], [1, 2, 0], directed=False))
    triangle_delta.Result(count=1, num_vertices=3, graph_version=0)
    """

    _ALGORITHM = ALGORITHM
    _STATS = Stats
    _HOST_STATE = "TriangleDeltaState"
    _DEVICE_STATE = "TriangleDeltaDeviceState"
    _FIXED_FIELDS = ()

    @property
    def count(self):
        """The number of triangles, as a Python int."""
        return int(self._state.count)

    def _repr_fields(self):
        return (("count", self.count),)


def compute(graph, *, options=None, resources=None, **fields):
    """The number of triangles of `graph`.

    Parameters
    ----------
    graph : Graph
        Undirected, sorted rows, no parallel edges; weights are ignored.
    options : Options, optional
        Default: ``Options()``.
    resources : Resources, optional
        Defaults to the graph's resources.
    **fields
        Override fields of `options` (it has none, so any name raises TypeError).

    Returns
    -------
    Result
        The count, at the graph's current version; keep it current with
        [`update`][dyng.triangle_delta.update].

    Raises
    ------
    TypeError
        `graph` is not a [`dyng.Graph`][], `options` not an
        [`Options`][dyng.triangle_delta.Options], `resources` neither a [`dyng.Resources`][] nor a
        backend name, or a field is given.
    InvalidArgumentError
        The graph is directed, its rows are not sorted or it may have parallel edges.

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 0, 0, 1, 1, 2], [1, 2, 3, 2, 3, 3], directed=False)
    >>> dyng.triangle_delta.compute(g).count  # K4
    4
    """
    fn = "triangle_delta.compute"
    opts = make_options(fn, Options, options, fields)
    check_graph_argument(fn, graph)
    return run_compute(Result, fn, graph, opts, resources)


def update(graph, batch, result, *, resources=None):
    """Applies `batch` to `graph` and updates `result`'s count; equal to a fresh compute.

    [`dyng.update`][] with one result: an invalid batch or a stale result raises and changes
    neither the graph nor the result.

    Parameters
    ----------
    graph : Graph
        The graph `result` was computed on.
    batch : EdgeBatch
        The changes (each edge in either direction; weights are ignored).
    result : Result
        A current triangle_delta result of `graph` (at its version).
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
    >>> g = dyng.Graph.from_edges([0, 1], [1, 2], directed=False)
    >>> r = dyng.triangle_delta.compute(g)
    >>> s = dyng.triangle_delta.update(g, dyng.EdgeBatch(insert=([2], [0])), r)
    >>> r.count, s.triangles_added, s.affected
    (1, 1, 1)
    """
    return _update.update_one("triangle_delta", Result, graph, batch, result, resources)

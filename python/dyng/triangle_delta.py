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

    def validate(self):
        """Nothing to check."""

    def _to_native(self, native):
        return native.TriangleDeltaOptions()


@dataclasses.dataclass(frozen=True)
class Stats(StatsBase):
    """What one compute or update did: the common fields (``affected``: 1 if the count changed;
    ``frontier_visits``: changed edges intersected, or vertices for a compute) and the batch's
    counters (undirected ``deletions`` and ``insertions``, the latter net of edges also deleted,
    and the triangles they removed and added)."""

    deletions: int = 0
    insertions: int = 0
    triangles_removed: int = 0
    triangles_added: int = 0


class Result(ResultBase):
    """The number of triangles of a graph, kept current by :func:`update`.

    Attributes
    ----------
    count : int
    graph_version : int
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
        Undirected, sorted rows, no parallel edges (InvalidArgumentError otherwise); weights are
        ignored.
    options : Options, optional
    resources : Resources, optional
        Defaults to the graph's resources.

    Returns
    -------
    Result

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

    An invalid batch or a stale result raises and changes neither the graph nor the result.

    Returns
    -------
    Stats

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

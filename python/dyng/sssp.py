"""Dynamic single-source shortest paths (spec section 6).

``compute`` builds a shortest-path tree once; ``update`` applies a batch to the graph and repairs
the tree, with the same result as a fresh compute: int64 distances (``INFINITE_DISTANCE`` when
unreachable) and canonical parents (the lowest-id in-neighbour on a shortest path; -1 for the
source and unreachable vertices).

Examples
--------
>>> import dyng
>>> g = dyng.Graph.from_edges([0, 0, 1], [1, 2, 2], [1, 5, 1])
>>> r = dyng.sssp.compute(g, 0)
>>> r.distances.tolist(), r.parents.tolist()
([0, 1, 2], [-1, 0, 1])
>>> stats = dyng.sssp.update(g, dyng.EdgeBatch(delete=([1], [2])), r)
>>> r.distances.tolist(), r.parents.tolist()
([0, 1, 5], [-1, 0, 0])
"""

from __future__ import annotations

import dataclasses

import numpy as np

from dyng import _backend, _convert, _resources, _update
from dyng._errors import InvalidArgumentError
from dyng._registry import Algorithm
from dyng._result import (
    OptionsBase,
    SingleSourceResult,
    StatsBase,
    check_graph_argument,
    make_options,
    run_compute,
)

__all__ = ["INFINITE_DISTANCE", "Options", "Stats", "Result", "compute", "update"]

INFINITE_DISTANCE = 2**61 - 1
_ENGINES = ("automatic", "fused", "operators")

ALGORITHM = Algorithm(
    name="sssp",
    title="Dynamic single-source shortest paths",
    family="fixed_point",
    maturity="stable",
    determinism="bitwise",
    cite=("dynamosp2025", "dynamosptpds2025"),
)


@dataclasses.dataclass
class Options(OptionsBase):
    """Options of sssp.

    Attributes
    ----------
    delta : int
        Bucket width of delta-stepping; 0 picks one from the weights.
    objective : int
        The weight column used as the edge length.
    cuda_engine : {"automatic", "fused", "operators"}
        Accepted as in 0.2, and checked. The CUDA backend has one method, the persistent near-far
        kernel, so every value runs it and Stats report engine_used "fused", method "near_far".
    validate_inputs : bool
        Check weights (>= 1) and the source before running.

    Examples
    --------
    >>> import dyng
    >>> dyng.sssp.Options(delta=4).delta
    4
    """

    delta: int = 0
    objective: int = 0
    cuda_engine: str = "automatic"
    validate_inputs: bool = True

    def validate(self):
        """Raises InvalidArgumentError naming the first bad field."""
        fn = "sssp.Options"
        self.delta = _convert.as_int(self.delta, fn, "delta", minimum=0, maximum=2**62)
        self.objective = _convert.as_int(self.objective, fn, "objective", minimum=0, maximum=63)
        if not isinstance(self.cuda_engine, str) or self.cuda_engine not in _ENGINES:
            raise InvalidArgumentError(
                f"{fn}(): cuda_engine={self.cuda_engine!r} is not valid; use 'automatic', "
                f"'fused' or 'operators'"
            )
        if not isinstance(self.validate_inputs, (bool, np.bool_)):
            raise InvalidArgumentError(
                f"{fn}(): validate_inputs={self.validate_inputs!r} is not a bool; pass True or "
                f"False"
            )
        self.validate_inputs = bool(self.validate_inputs)

    def _to_native(self, native):
        return native.SsspOptions(self.delta, self.objective, self.validate_inputs)


@dataclasses.dataclass(frozen=True)
class Stats(StatsBase):
    """What one compute or update did: the common fields (see ``dyng.update``'s Stats) and sssp's
    own counters (``invalidated``: vertices whose tree path the batch cut; ``pushes``: queue
    insertions). ``method`` is "dijkstra", "delta_stepping" or "near_far"."""

    invalidated: int = 0
    epochs: int = 0
    pushes: int = 0
    packed_parents: bool = False


class Result(SingleSourceResult):
    """A shortest-path tree kept current by :func:`update`.

    Attributes
    ----------
    source : int
    distances : Array
        int64, ``INFINITE_DISTANCE`` for unreachable vertices.
    parents : Array
        Vertex dtype; -1 for the source and unreachable vertices.
    graph_version : int
        The graph version the result matches.
    """

    _ALGORITHM = ALGORITHM
    _STATS = Stats
    _HOST_STATE = "SsspState"
    _DEVICE_STATE = "SsspDeviceState"
    _FIXED_FIELDS = ("objective",)

    def __init__(self, *args, **kwargs):
        raise TypeError(
            "sssp.Result cannot be created directly; use sssp.compute() or "
            "sssp.Result.from_arrays()"
        )

    @classmethod
    def from_arrays(
        cls,
        graph,
        source,
        distances,
        parents,
        *,
        canonicalize=True,
        options=None,
        resources=None,
        **fields,
    ):
        """A result from given distances and parents (e.g. read from files).

        Distances >= INFINITE_DISTANCE / 2 mean unreachable. With ``canonicalize`` every parent
        is rewritten to the canonical one for the given distances; without it the parents are
        kept. With ``validate_inputs`` (the default) one pass over the in-edges checks that the
        distances are exactly the shortest ones from `source` and every parent is a tight
        in-neighbour (-1 for the source and unreachable vertices), and raises
        InvalidArgumentError naming the first vertex that is not: later updates could not match
        a fresh compute otherwise.

        Examples
        --------
        >>> import dyng
        >>> g = dyng.Graph.from_edges([0, 0, 1], [1, 2, 2], [1, 2, 1])
        >>> r = dyng.sssp.Result.from_arrays(g, 0, [0, 1, 2], [-1, 0, 1])
        >>> r.parents.tolist()  # 0 -> 2 is tight too and 0 < 1
        [-1, 0, 0]
        """
        fn = "sssp.Result.from_arrays"
        opts = make_options(fn, Options, options, fields)
        check_graph_argument(fn, graph)
        source = _convert.as_int(source, fn, "source")
        res = _resources.resolve(resources, graph.resources, fn)
        native = _backend.native()
        # The graph's shape and the source first (and the weights with validate_inputs).
        native.sssp_validate_graph(graph._native, source, opts._to_native(native))
        dist, par = _tree_arrays(fn, graph, distances, parents)
        return cls._wrap_built_on_host(
            graph,
            lambda execution: native.SsspState.from_arrays(
                graph._native,
                source,
                dist,
                par,
                bool(canonicalize),
                opts._to_native(native),
                execution,
            ),
            opts,
            res,
            fn,
        )

    @property
    def distances(self):
        """int64 distances as a read-only Array."""
        return self._array("distances", np.int64, "sssp distances")

    @property
    def parents(self):
        """Parents as a read-only Array in the vertex dtype."""
        return self._array("parents", self.vertex_dtype, "sssp parents")

    def __reduce_ex__(self, protocol):
        raise TypeError(
            "sssp.Result cannot be pickled; save distances and parents (to_numpy()) and rebuild "
            "with sssp.Result.from_arrays()"
        )

    def _validate_batch(self, resolved):
        native = _backend.native()
        if resolved.staged is not None:
            native.sssp_validate_staged(resolved.staged, self._options._to_native(native))
            return
        native.sssp_validate_batch(
            resolved.insert_src,
            resolved.insert_dst,
            resolved.insert_weights,
            resolved.num_weights,
            self._options._to_native(native),
        )


def _tree_arrays(fn, graph, distances, parents, which=""):
    """One shortest-path tree given as arrays, checked and converted for `graph`: int64 distances
    (>= INFINITE_DISTANCE / 2 read as unreachable) and parents in the graph's id type. `which`
    names the tree in messages (mosp's objectives)."""
    n = graph.num_vertices
    dist = _convert.to_numpy(distances, fn, "distances")
    if dist.dtype.kind not in "iu" and not (dist.size == 0 and dist.dtype.kind == "f"):
        raise InvalidArgumentError(
            f"{fn}(): {which}distances has dtype {dist.dtype}; distances must be integers"
        )
    if dist.ndim != 1 or len(dist) != n:
        raise InvalidArgumentError(
            f"{fn}(): {which}distances has shape {dist.shape} but the graph has {n} vertices; "
            f"pass one distance per vertex"
        )
    if dist.dtype == np.uint64:
        dist = np.minimum(dist, np.uint64(INFINITE_DISTANCE))
    dist = np.array(dist, dtype=np.int64)
    if dist.size and dist.min() < 0:
        position = int(np.argmax(dist < 0))
        raise InvalidArgumentError(
            f"{fn}(): {which}distances[{position}] = {int(dist[position])} is negative; "
            f"distances must be >= 0"
        )
    dist[dist >= INFINITE_DISTANCE // 2] = INFINITE_DISTANCE
    par = _convert.id_array(parents, fn, "parents", allow_minus_one=True, for_graph=True)
    _convert.check_same_length(fn, "distances", dist, "parents", par)
    if par.size and par.max() >= n:
        position = int(np.argmax(par >= n))
        raise InvalidArgumentError(
            f"{fn}(): {which}parents[{position}] = {int(par[position])} is not a vertex "
            f"(num_vertices={n}); use -1 for 'no parent'"
        )
    par = _convert.cast_ids(par, graph._native.vertex_dtype, fn, "parents")
    return dist, par


def compute(graph, source, *, options=None, resources=None, **fields):
    """Shortest-path distances and canonical parents from `source`.

    Parameters
    ----------
    graph : Graph
        Weighted (weights >= 1 in the objective column), with in-edges.
    source : int
    options : Options, optional
    resources : Resources, optional
        Defaults to the graph's resources.
    **fields
        Override fields of `options` (delta, objective, cuda_engine, validate_inputs).

    Returns
    -------
    Result

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1], [1, 2], [[3, 1], [4, 1]])
    >>> dyng.sssp.compute(g, 0, objective=1).distances.tolist()
    [0, 1, 2]
    """
    fn = "sssp.compute"
    opts = make_options(fn, Options, options, fields)
    check_graph_argument(fn, graph)
    return run_compute(Result, fn, graph, opts, resources, _convert.as_int(source, fn, "source"))


def update(graph, batch, result, *, resources=None):
    """Applies `batch` to `graph` and repairs `result`; equal to a fresh compute afterwards.

    An invalid batch or a stale result raises and changes neither the graph nor the result.
    `resources` defaults to the result's own (those it was computed with).

    Returns
    -------
    Stats

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1], [1, 2], [5, 5])
    >>> r = dyng.sssp.compute(g, 0)
    >>> dyng.sssp.update(g, dyng.EdgeBatch(insert=([0], [2], [3])), r).batch.inserted_edges
    1
    >>> r.distances.tolist()
    [0, 5, 3]
    """
    return _update.update_one("sssp", Result, graph, batch, result, resources)

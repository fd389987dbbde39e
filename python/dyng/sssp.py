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
"""The distance of an unreachable vertex (2**61 - 1): far above any sum of int32 weights along
a path, and far enough below the int64 limit that adding a weight to it cannot overflow."""
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

    def validate(self) -> None:
        """Checks every field (see [`OptionsBase.validate`][dyng._result.OptionsBase.validate]).

        Raises
        ------
        InvalidArgumentError
            Naming the first field whose value is not valid.

        Examples
        --------
        >>> import dyng
        >>> try:
        ...     dyng.sssp.Options(cuda_engine="fast")
        ... except dyng.InvalidArgumentError as error:
        ...     print(error)
        sssp.Options(): cuda_engine='fast' is not valid; use 'automatic', 'fused' or 'operators'
        """
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
    """What one sssp compute or update did.

    The common fields are those of every algorithm's Stats (``affected``, ``iterations``,
    ``path``, ``batch``, ...: see [`StatsBase`][dyng._result.StatsBase]); ``method`` is
    ``"dijkstra"``, ``"delta_stepping"`` or ``"near_far"``.

    Attributes
    ----------
    invalidated : int
        Vertices whose tree path the batch cut (their distances were searched again).
    epochs : int
        Bucket epochs of the delta-stepping or near-far search.
    pushes : int
        Queue insertions of the search.
    packed_parents : bool
        Whether the search kept distance and parent packed in one word (the CUDA kernel's
        layout for small enough distances).

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1], [1, 2], [1, 1])
    >>> r = dyng.sssp.compute(g, 0)
    >>> s = dyng.sssp.update(g, dyng.EdgeBatch(insert=([0], [2], [1])), r)
    >>> s.affected, s.batch.inserted_edges, r.distances.tolist()
    (1, 1, [0, 1, 1])
    """

    invalidated: int = 0
    epochs: int = 0
    pushes: int = 0
    packed_parents: bool = False


class Result(SingleSourceResult):
    """A shortest-path tree kept current by [`update`][dyng.sssp.update].

    Made by [`compute`][dyng.sssp.compute] or [`Result.from_arrays`][dyng.sssp.Result.from_arrays];
    the members every result has (``options``, ``set_options``, ``clone``, ``stats``, ...) are
    [`ResultBase`][dyng._result.ResultBase]'s.

    Attributes
    ----------
    source : int
        The source vertex.
    distances : Array
        int64, ``INFINITE_DISTANCE`` for unreachable vertices.
    parents : Array
        Vertex dtype; -1 for the source and unreachable vertices.
    graph_version : int
        The graph version the result matches.

    Examples
    --------
    >>> import dyng
    >>> r = dyng.sssp.compute(dyng.Graph.from_edges([0, 1], [1, 2], [2, 3]), 0)
    >>> r
    sssp.Result(source=0, num_vertices=3, graph_version=0)
    >>> r.distances.tolist(), r.parents.tolist()
    ([0, 2, 5], [-1, 0, 1])
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

        With ``validate_inputs`` (the default) one pass over the in-edges checks that the
        distances are exactly the shortest ones from `source` and every parent is a tight
        in-neighbour (-1 for the source and unreachable vertices): later updates could not match
        a fresh compute otherwise.

        Parameters
        ----------
        graph : Graph
            The graph the tree belongs to, as for [`compute`][dyng.sssp.compute].
        source : int
            The source vertex.
        distances : array_like
            One integer distance per vertex; values >= ``INFINITE_DISTANCE / 2`` mean
            unreachable.
        parents : array_like
            One parent per vertex; -1 for the source and unreachable vertices.
        canonicalize : bool, optional
            Rewrite every parent to the canonical one for the distances (the lowest-id tight
            in-neighbour; default); False keeps the given parents.
        options : Options, optional
            The options later updates use.
        resources : Resources, optional
            Where the result lives; default: the graph's resources.
        **fields
            Override fields of `options`.

        Returns
        -------
        Result
            A result at the graph's current version, without Stats (``stats`` is None).

        Raises
        ------
        TypeError
            `graph` is not a [`dyng.Graph`][], `options` not an [`Options`][dyng.sssp.Options],
            or a field name is unknown.
        InvalidArgumentError
            An array has the wrong dtype or length, a distance is negative, a parent is not a
            vertex, a weight is < 1, or (with ``validate_inputs``) the first vertex whose
            distance is not the shortest or whose parent is not tight.
        NotSupportedError
            The graph is unweighted.

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
        """int64 distances as a read-only Array (``INFINITE_DISTANCE`` when unreachable)."""
        return self._array("distances", np.int64, "sssp distances")

    @property
    def parents(self):
        """Canonical parents as a read-only Array in the vertex dtype (-1: none)."""
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
        The vertex the distances count from.
    options : Options, optional
        Default: ``Options()``.
    resources : Resources, optional
        Defaults to the graph's resources.
    **fields
        Override fields of `options` (delta, objective, cuda_engine, validate_inputs).

    Returns
    -------
    Result
        The tree, at the graph's current version; keep it current with
        [`update`][dyng.sssp.update].

    Raises
    ------
    TypeError
        `graph` is not a [`dyng.Graph`][], `options` not an [`Options`][dyng.sssp.Options],
        `resources` neither a [`dyng.Resources`][] nor a backend name, or a field name is unknown.
    InvalidArgumentError
        A field value is not valid, `source` is not a vertex, the graph keeps no in-edges or has
        no `objective` column, or (with ``validate_inputs``) a weight in the objective column
        is < 1.
    NotSupportedError
        The graph is unweighted.

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

    [`dyng.update`][] with one result: an invalid batch or a stale result raises and changes
    neither the graph nor the result.

    Parameters
    ----------
    graph : Graph
        The graph `result` was computed on.
    batch : EdgeBatch
        The changes; inserted weights must be >= 1 in the objective column.
    result : Result
        A current sssp result of `graph` (at its version).
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
        The batch is not valid for `graph` (an id, a weight column count, a weight < 1).

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

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
import weakref
from typing import Optional

import numpy as np

from dyng import _backend, _convert, _resources
from dyng._array import Array, _Epoch
from dyng._device_array import DeviceData
from dyng._batch import ApplySummary
from dyng._errors import InvalidArgumentError, NotSupportedError, StaleResultError
from dyng._graph import Graph

__all__ = ["INFINITE_DISTANCE", "Options", "Stats", "Result", "compute", "update"]

INFINITE_DISTANCE = 2**61 - 1
_ENGINES = ("automatic", "fused", "operators")
#: Fields that define what a result means; set_options() must not change them.
_FIXED_FIELDS = ("objective",)


@dataclasses.dataclass
class Options:
    """Options of sssp.

    Attributes
    ----------
    delta : int
        Bucket width of delta-stepping; 0 picks one from the weights.
    objective : int
        The weight column used as the edge length.
    cuda_engine : {"automatic", "fused", "operators"}
        CUDA kernel strategy (ignored on the host backends).
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

    def __post_init__(self):
        self.validate()

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
class Stats:
    """What one compute or update did.

    ``path`` says which way an update ran: "compute" (a compute), "incremental" (repaired the
    affected region) or "recompute" (fell back to a full compute; ``fallback_used`` is then
    True). ``batch`` is the ApplySummary of the update's batch (None after a compute).
    """

    affected: int = 0
    iterations: int = 0
    frontier_visits: int = 0
    fallback_used: bool = False
    converged: bool = True
    engine_used: str = ""
    batch: Optional[ApplySummary] = None
    invalidated: int = 0
    epochs: int = 0
    pushes: int = 0
    packed_parents: bool = False
    path: str = "compute"


def _make_options(fn, options, fields):
    if options is None:
        base = Options()
    elif isinstance(options, Options):
        base = options
    else:
        raise TypeError(f"{fn}(): options must be a dyng.sssp.Options; got {type(options).__name__}")
    unknown = sorted(set(fields) - {f.name for f in dataclasses.fields(Options)})
    if unknown:
        raise TypeError(
            f"{fn}(): unknown option(s) {', '.join(unknown)}; valid options are delta, "
            f"objective, cuda_engine, validate_inputs"
        )
    return dataclasses.replace(base, **fields)


def _check_graph(fn, graph, source, options):
    if not isinstance(graph, Graph):
        raise TypeError(f"{fn}(): graph must be a dyng.Graph; got {type(graph).__name__}")
    n = graph.num_vertices
    source = _convert.as_int(source, fn, "source")
    if not 0 <= source < n:
        raise InvalidArgumentError(
            f"{fn}(): source={source} is not a vertex of the graph (num_vertices={n}); pass a "
            f"source in [0, {n})"
        )
    k = graph.num_weights
    if k == 0:
        raise NotSupportedError(
            f"{fn}(): sssp needs a weighted graph but this graph is unweighted; build it with "
            f"weights"
        )
    if options.objective >= k:
        raise InvalidArgumentError(
            f"{fn}(): objective={options.objective} but the graph has {k} weight column(s); pass "
            f"an objective in [0, {k})"
        )
    if not graph.has_transposed:
        raise NotSupportedError(
            f"{fn}(): sssp needs in-edges but the graph was built with store_transposed=False; "
            f"rebuild it with store_transposed=True"
        )
    return source


class Result:
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

    def __init__(self, *args, **kwargs):
        raise TypeError("sssp.Result cannot be created directly; use sssp.compute() or "
                        "sssp.Result.from_arrays()")

    @classmethod
    def _wrap(cls, graph, state, options, resources, stats):
        self = object.__new__(cls)
        self._graph_identity = graph._identity
        self._state = state
        self._options = options
        self._resources = resources
        self._graph_version = graph.version
        self._epoch = _Epoch("an sssp result")
        self._arrays = {}
        self._exported = weakref.WeakSet()
        self._stats = stats
        return self

    @classmethod
    def from_arrays(cls, graph, source, distances, parents, *, canonicalize=True, options=None,
                    resources=None, **fields):
        """A result from given distances and parents (e.g. read from files).

        Distances >= INFINITE_DISTANCE / 2 mean unreachable. With ``canonicalize`` every parent
        is rewritten to the canonical one for the given distances.

        Examples
        --------
        >>> import dyng
        >>> g = dyng.Graph.from_edges([0, 0, 1], [1, 2, 2], [1, 2, 1])
        >>> r = dyng.sssp.Result.from_arrays(g, 0, [0, 1, 2], [-1, 0, 1])
        >>> r.parents.tolist()  # 0 -> 2 is tight too and 0 < 1
        [-1, 0, 0]
        """
        fn = "sssp.Result.from_arrays"
        opts = _make_options(fn, options, fields)
        source = _check_graph(fn, graph, source, opts)
        res = _resources.resolve(resources, graph.resources, fn)
        n = graph.num_vertices
        dist = _convert.to_numpy(distances, fn, "distances")
        if dist.dtype.kind not in "iu" and not (dist.size == 0 and dist.dtype.kind == "f"):
            raise InvalidArgumentError(
                f"{fn}(): distances has dtype {dist.dtype}; distances must be integers"
            )
        if dist.ndim != 1 or len(dist) != n:
            raise InvalidArgumentError(
                f"{fn}(): distances has shape {dist.shape} but the graph has {n} vertices; pass "
                f"one distance per vertex"
            )
        if dist.dtype == np.uint64:
            dist = np.minimum(dist, np.uint64(INFINITE_DISTANCE))
        dist = np.array(dist, dtype=np.int64)
        if dist.size and dist.min() < 0:
            position = int(np.argmax(dist < 0))
            raise InvalidArgumentError(
                f"{fn}(): distances[{position}] = {int(dist[position])} is negative; distances "
                f"must be >= 0"
            )
        dist[dist >= INFINITE_DISTANCE // 2] = INFINITE_DISTANCE
        par = _convert.id_array(parents, fn, "parents", allow_minus_one=True)
        _convert.check_same_length(fn, "distances", dist, "parents", par)
        if par.size and par.max() >= n:
            position = int(np.argmax(par >= n))
            raise InvalidArgumentError(
                f"{fn}(): parents[{position}] = {int(par[position])} is not a vertex (num_vertices="
                f"{n}); use -1 for 'no parent'"
            )
        par = _convert.cast_ids(par, graph._native.vertex_dtype, fn, "parents")
        native = _backend.native()
        if opts.validate_inputs:
            native.sssp_validate_graph(graph._native, source, opts._to_native(native))
        host_res = res if res.backend != "cuda" else _resources.Resources("sequential")
        state = native.SsspState.from_arrays(graph._native, source, dist, par, bool(canonicalize),
                                             opts._to_native(native), host_res._execution())
        if res.backend == "cuda":
            graph._ensure_device(res, fn)
            state = native.SsspDeviceState.from_host(state, res._execution())
        return cls._wrap(graph, state, opts, res, None)

    @property
    def source(self):
        """The source vertex."""
        return self._state.source

    @property
    def vertex_dtype(self):
        """NumPy dtype of the parents (the graph's vertex dtype)."""
        return np.dtype(self._state.vertex_dtype)

    def _on_device(self):
        return _is_device_state(self._state)

    def _array(self, name):
        array = self._arrays.get(name)
        if array is None:
            state = self._state
            if _is_device_state(state):
                res = self._resources
                dtype = np.int64 if name == "distances" else np.dtype(state.vertex_dtype)
                data = DeviceData(getattr(state, name)(), dtype, state.num_vertices, state.device,
                                  fetch=lambda: getattr(state.to_host(), name)(),
                                  private_copy=lambda: getattr(state.clone(), name)()[0],
                                  policy=lambda: res.copy_policy)
            else:
                data = getattr(state, name)()
            array = Array._wrap(data, self._epoch, f"sssp {name}")
            self._arrays[name] = array
            self._exported.add(array)
        return array

    @property
    def distances(self):
        """int64 distances as a read-only Array."""
        return self._array("distances")

    @property
    def parents(self):
        """Parents as a read-only Array in the vertex dtype."""
        return self._array("parents")

    @property
    def options(self):
        """A copy of the options this result is kept with."""
        return dataclasses.replace(self._options)

    def set_options(self, options=None, **fields):
        """Changes the options used by later updates; ``objective`` is fixed.

        Examples
        --------
        >>> import dyng
        >>> r = dyng.sssp.compute(dyng.Graph.from_edges([0], [1], [1]), 0)
        >>> r.set_options(delta=8); r.options.delta
        8
        """
        fn = "sssp.Result.set_options"
        new = _make_options(fn, options if options is not None else self._options, fields)
        for name in _FIXED_FIELDS:
            if getattr(new, name) != getattr(self._options, name):
                raise InvalidArgumentError(
                    f"{fn}(): {name} cannot change from {getattr(self._options, name)!r} to "
                    f"{getattr(new, name)!r} on an existing result; compute a new result instead"
                )
        self._options = new

    @property
    def graph_version(self):
        """The graph version this result matches."""
        return self._graph_version

    @property
    def space(self):
        """Where the arrays live: "host" or "device"."""
        return "device" if self._on_device() else "host"

    @property
    def stats(self):
        """Stats of the last compute or update (None for a result made by from_arrays)."""
        return self._stats

    def clone(self, resources=None):
        """An independent copy tied to the same graph and version.

        Examples
        --------
        >>> import dyng
        >>> r = dyng.sssp.compute(dyng.Graph.from_edges([0], [1], [1]), 0)
        >>> r.clone().distances.tolist()
        [0, 1]
        """
        res = _resources.resolve(resources, self._resources, "sssp.Result.clone")
        other = object.__new__(Result)
        other.__dict__.update(self.__dict__)
        native = _backend.native()
        if res.backend == "cuda" and not self._on_device():
            other._state = native.SsspDeviceState.from_host(self._state, res._execution())
        elif res.backend != "cuda" and self._on_device():
            other._state = self._state.to_host()
        elif self._on_device() and self._state.device != res.device:
            other._state = native.SsspDeviceState.from_host(self._state.to_host(),
                                                            res._execution())
        else:
            other._state = self._state.clone()
        other._options = self.options
        other._resources = res
        other._epoch = _Epoch("an sssp result")
        other._arrays = {}
        other._exported = weakref.WeakSet()
        return other

    def __reduce_ex__(self, protocol):
        raise TypeError(
            "sssp.Result cannot be pickled; save distances and parents (to_numpy()) and rebuild "
            "with sssp.Result.from_arrays()"
        )

    def __repr__(self):
        return (f"sssp.Result(source={self.source}, num_vertices={self._state.num_vertices}, "
                f"graph_version={self._graph_version})")

    # The protocol dyng.update() drives; every algorithm's Result offers these three.
    def _check_current(self, graph, fn):
        if self._graph_identity is not graph._identity:
            raise StaleResultError(
                f"{fn}(): the result belongs to another graph (result at version "
                f"{self._graph_version}, this graph at version {graph.version}); pass the graph "
                f"it was computed on"
            )
        if self._graph_version != graph.version:
            raise StaleResultError(
                f"{fn}(): the result matches graph version {self._graph_version} but the graph is "
                f"at version {graph.version}; update results with every batch (dyng.update) or "
                f"compute a new one"
            )

    def _validate_batch(self, resolved):
        native = _backend.native()
        native.sssp_validate_batch(resolved.insert_src, resolved.insert_dst,
                                   resolved.insert_weights, resolved.num_weights,
                                   self._options._to_native(native))

    def _apply_log(self, graph, log, execution, summary):
        native = _backend.native()
        if self._on_device():
            graph._ensure_device_for(execution)
        self._invalidate_arrays()
        counters = self._state.update(graph._native, log, self._options._to_native(native),
                                      execution)
        self._graph_version = graph.version
        self._stats = Stats(batch=summary, **counters)
        return self._stats

    def _invalidate_arrays(self):
        # Stale first, then drop the views, so the native update can work in place.
        self._epoch.value += 1
        self._arrays.clear()
        for array in list(self._exported):
            array._release()
        self._exported = weakref.WeakSet()


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
    opts = _make_options(fn, options, fields)
    source = _check_graph(fn, graph, source, opts)
    res = _resources.resolve(resources, graph.resources, fn)
    native = _backend.native()
    if res.backend == "cuda":
        graph._ensure_device(res, fn)
        state_type = native.SsspDeviceState
    else:
        state_type = native.SsspState
    state, counters = state_type.compute(graph._native, source, opts._to_native(native),
                                         res._execution())
    return Result._wrap(graph, state, opts, res, Stats(**counters))


def _is_device_state(state):
    return type(state).__name__ == "SsspDeviceState"


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
    from dyng._update import update as update_all

    if not isinstance(result, Result):
        raise TypeError(f"sssp.update(): result must be a dyng.sssp.Result; got "
                        f"{type(result).__name__}")
    return update_all(graph, batch, result, resources=resources, _function="sssp.update")[0]

"""What every algorithm's Options, Stats and Result share (spec section 6).

An algorithm module keeps only its specifics: an ``Options`` dataclass (with ``validate`` and
``_to_native``), a ``Stats`` dataclass deriving from ``StatsBase``, a ``Result`` deriving from
``ResultBase`` (its arrays and fixed fields), ``compute`` and ``update``, and its ``ALGORITHM``
record for the registry. Everything below works the same for all of them: option merging, the
staleness checks, host and device result states, copy-on-write arrays, clones, and the protocol
that [`dyng.update`][] drives.

Examples
--------
>>> import dyng
>>> r = dyng.sssp.compute(dyng.Graph.from_edges([0], [1], [1]), 0)
>>> isinstance(r, ResultBase), isinstance(r.stats, StatsBase), isinstance(r.options, OptionsBase)
(True, True, True)
"""

from __future__ import annotations

import dataclasses
import weakref
from typing import ClassVar

import numpy as np

from dyng import _backend, _log, _resources
from dyng._array import Array, _Epoch
from dyng._batch import ApplySummary
from dyng._device_array import DeviceData
from dyng._errors import InvalidArgumentError, NotSupportedError, StaleResultError
from dyng._graph import Graph
from dyng._registry import Algorithm

__all__ = [
    "OptionsBase",
    "StatsBase",
    "ResultBase",
    "SingleSourceResult",
    "make_options",
    "run_compute",
    "check_graph_argument",
]


class OptionsBase:
    """Base of every algorithm's Options dataclass.

    The fields are checked (and normalised) by the subclass's ``validate()`` at construction
    and by ``dataclasses.replace``, so an Options object always holds valid values.

    Examples
    --------
    >>> import dataclasses, dyng
    >>> dataclasses.replace(dyng.sssp.Options(), delta=4).delta
    4
    >>> try:
    ...     dyng.sssp.Options(delta=-1)
    ... except dyng.InvalidArgumentError as error:
    ...     print(error)
    sssp.Options(): delta=-1 is below 0; pass a value >= 0
    """

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Checks every field and normalises it (NumPy scalars to Python values, ...).

        Construction and ``dataclasses.replace`` call it; call it again after assigning a field
        directly.

        Raises
        ------
        InvalidArgumentError
            Naming the first field whose value is not valid, and what to pass instead.

        Examples
        --------
        >>> import dyng
        >>> options = dyng.sssp.Options()
        >>> options.delta = "four"
        >>> try:
        ...     options.validate()
        ... except dyng.InvalidArgumentError as error:
        ...     print(error)
        sssp.Options(): delta='four' is not an integer; pass an integer
        """


# Each Stats class's fields that come from the native stats (all but `batch`), by class.
_NATIVE_STATS_FIELDS: dict[type, tuple[str, ...]] = {}


@dataclasses.dataclass(frozen=True)
class StatsBase:
    """What one compute or update did (the fields every algorithm reports).

    Each algorithm's ``Stats`` derives from it and adds its own counters; the values are
    frozen (a Stats object is a record of one call). Each field below has its own description.

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1], [1, 2], [1, 1])
    >>> r = dyng.sssp.compute(g, 0)
    >>> r.stats.path, r.stats.batch is None
    ('compute', True)
    >>> s = dyng.sssp.update(g, dyng.EdgeBatch(insert=([0], [2], [1])), r)
    >>> s.batch.inserted_edges, s.fallback_used == (s.path == "recompute")
    (1, True)
    """

    affected: int = 0
    """The vertices (or, for the aggregate algorithms, the entries) whose answer the call
    changed; each algorithm's Stats says what it counts."""
    iterations: int = 0
    """Rounds (or iterations) the call ran."""
    frontier_visits: int = 0
    """Frontier entries (or edges) the call examined."""
    fallback_used: bool = False
    """True when an update fell back to a full compute (``path == "recompute"``)."""
    converged: bool = True
    """False only when an iterative method stopped at its iteration limit."""
    engine_used: str = ""
    """``"operators"`` (sequential steps) or ``"fused"`` (one parallel pass: an OpenMP team, one
    persistent GPU kernel), as in 0.2."""
    method: str = ""
    """The kernel that ran (each algorithm's Stats says which it has)."""
    batch: ApplySummary | None = None
    """The [`dyng.ApplySummary`][] of the update's batch; None after a compute."""
    path: str = "compute"
    """Which way the call ran: ``"compute"`` (a compute), ``"incremental"`` (an update that
    repaired the affected region) or ``"recompute"`` (an update that fell back to a full
    compute)."""

    @classmethod
    def _from_native(cls, native, batch=None):
        # The native stats class (UpdateStats and its algorithm subclass) has a field of the same
        # name for every field here except `batch`; tests hold the two lists equal. The names
        # are listed once per class: every update makes a Stats.
        names = _NATIVE_STATS_FIELDS.get(cls)
        if names is None:
            names = tuple(f.name for f in dataclasses.fields(cls) if f.name != "batch")
            _NATIVE_STATS_FIELDS[cls] = names
        return cls(batch=batch, **{name: getattr(native, name) for name in names})


def make_options(fn, options_type, options, fields):
    """`options` (or the defaults) with `fields` replaced, validated."""
    if options is None:
        base = options_type()
    elif isinstance(options, options_type):
        base = options
    else:
        raise TypeError(
            f"{fn}(): options must be a {_qualified(options_type)}; got {type(options).__name__}"
        )
    names = [f.name for f in dataclasses.fields(options_type)]
    unknown = sorted(set(fields) - set(names))
    if unknown:
        raise TypeError(
            f"{fn}(): unknown option(s) {', '.join(unknown)}; valid options are {', '.join(names)}"
        )
    return dataclasses.replace(base, **fields)


def _qualified(cls):
    return f"dyng.{cls.__module__.rsplit('.', 1)[-1]}.{cls.__name__}"


def check_graph_argument(fn, graph):
    if not isinstance(graph, Graph):
        raise TypeError(f"{fn}(): graph must be a dyng.Graph; got {type(graph).__name__}")


def run_compute(result_type, fn, graph, options, resources, *args, entry="compute"):
    """A fresh result: the algorithm's native state class (host or device, by the resources)
    computes it from `args` by its static method `entry` (pagerank's compute_from takes a start
    vector); native checks raise before anything is created."""
    res = _resources.resolve(resources, graph.resources, fn)
    res = _host_when_automatic(result_type, res, fn)
    _check_backend(result_type, res, fn)
    native = _backend.native()
    if res.backend == "cuda":
        graph._ensure_device(res, fn)
        state_type = getattr(native, result_type._DEVICE_STATE)
    else:
        state_type = getattr(native, result_type._HOST_STATE)
    if not hasattr(state_type, entry):
        raise NotSupportedError(
            f"{fn}(): {entry} does not run on the {res.backend} backend in "
            f"this release; pass resources=dyng.Resources.openmp()"
        )
    state, stats = getattr(state_type, entry)(
        graph._native, *args, options._to_native(native), res._execution()
    )
    _log.log(
        "debug",
        lambda: (
            f"{fn}(): on {res.backend} ({stats.engine_used}, {stats.method}): "
            f"{stats.affected} affected"
        ),
    )
    return result_type._wrap(graph, state, options, res, result_type._STATS._from_native(stats))


def _host_when_automatic(result_type, res, fn):
    """`res`, or host resources when `res` is the automatic choice (nobody named its backend)
    and the algorithm has no such backend yet: a script that never asked for the GPU runs
    wherever the algorithm can. A backend someone named is kept, and refused if missing."""
    backends = result_type._ALGORITHM.backends
    if res.backend in backends or not res._automatic:
        return res
    host = _resources.host_resources_for(backends)
    if host is None:
        return res
    _log.log(
        "info",
        lambda: (
            f"{fn}(): {result_type._ALGORITHM.name} has no {res.backend} "
            f"backend yet; running on {host.backend}"
        ),
    )
    return host


def _check_backend(result_type, res, fn):
    """Refuses a backend the algorithm does not have yet (its registry record says which)."""
    backends = result_type._ALGORITHM.backends
    if res.backend not in backends:
        raise NotSupportedError(
            f"{fn}(): {result_type._ALGORITHM.name} runs on the {', '.join(backends)} backends "
            f"in this release, not on {res.backend}; pass resources=dyng.Resources.openmp() or "
            f"a host graph"
        )


def _same_value(a, b):
    """Whether two option values are equal; arrays (pagerank's vectors) by shape and content."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and np.array_equal(a, b)
    return a == b


class ResultBase:
    """A result kept current by its algorithm's ``update`` (and [`dyng.update`][]).

    Every algorithm's ``Result`` derives from it; results are made by the algorithm's
    ``compute`` (or ``Result.from_arrays``), never directly, and cannot be pickled (save their
    arrays instead).

    Attributes
    ----------
    graph_version : int
        The graph version the result matches.
    space : {"host", "device"}
        Where the arrays live.
    stats : Stats or None
        Stats of the last compute or update.

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0], [1], [1])
    >>> r = dyng.sssp.compute(g, 0)
    >>> r.graph_version, r.space, r.stats.path
    (0, 'host', 'compute')
    >>> dyng.sssp.Result()
    Traceback (most recent call last):
    ...
    TypeError: sssp.Result cannot be created directly; use sssp.compute() or sssp.Result.from_arrays()
    """

    #: The algorithm's registry record, Stats class and native state classes (set by subclasses;
    #: the base has no algorithm, so no record).
    _ALGORITHM: ClassVar[Algorithm]
    _STATS: ClassVar[type] = StatsBase
    _HOST_STATE: ClassVar[str] = ""
    _DEVICE_STATE: ClassVar[str] = ""
    #: Option fields that define what a result means; set_options() must not change them.
    _FIXED_FIELDS: ClassVar[tuple[str, ...]] = ()
    #: The options later updates use (set by _wrap, changed by set_options).
    _options: OptionsBase

    def __init__(self, *args, **kwargs):
        name = self._ALGORITHM.name
        raise TypeError(f"{name}.Result cannot be created directly; use {name}.compute()")

    @classmethod
    def _wrap_built_on_host(cls, graph, build, options, res, fn):
        """A result whose native state ``build(execution)`` makes on the host (from_arrays): on
        the requested host backend, or sequentially and then copied to the device for CUDA."""
        _check_backend(cls, res, fn)
        if res.backend != "cuda":
            return cls._wrap(graph, build(res._execution()), options, res, None)
        state = build(_resources.Resources.sequential()._execution())
        graph._ensure_device(res, fn)
        native = _backend.native()
        state = getattr(native, cls._DEVICE_STATE).from_host(state, res._execution())
        return cls._wrap(graph, state, options, res, None)

    @classmethod
    def _wrap(cls, graph, state, options, resources, stats):
        self = object.__new__(cls)
        self._graph_identity = graph._identity
        self._state = state
        self._options = options
        self._resources = resources
        self._epoch = _Epoch(f"a {cls._ALGORITHM.name} result")
        self._arrays = {}
        self._exported = weakref.WeakSet()
        self._stats = stats
        return self

    @property
    def vertex_dtype(self):
        """NumPy dtype of vertex ids (the graph's)."""
        return np.dtype(self._state.vertex_dtype)

    @property
    def options(self):
        """A copy of the options this result is kept with."""
        return dataclasses.replace(self._options)

    def set_options(self, options=None, **fields) -> None:
        """Changes the options used by later updates; the fixed fields cannot change.

        The fixed fields are those that define what the result means (sssp's ``objective``,
        components' ``kind``, ...): a result with other values is a new compute.

        Parameters
        ----------
        options : Options, optional
            The algorithm's Options to start from; default: the result's current options.
        **fields
            Fields of the options to replace.

        Raises
        ------
        TypeError
            `options` is not this algorithm's Options, or a field name is unknown.
        InvalidArgumentError
            A field value is not valid, or the call would change a fixed field.

        Examples
        --------
        >>> import dyng
        >>> r = dyng.sssp.compute(dyng.Graph.from_edges([0], [1], [1]), 0)
        >>> r.set_options(delta=8); r.options.delta
        8
        >>> try:
        ...     r.set_options(objective=1)
        ... except dyng.InvalidArgumentError as error:
        ...     print(error)
        sssp.Result.set_options(): objective cannot change from 0 to 1 on an existing result; compute a new result instead
        """
        fn = f"{self._ALGORITHM.name}.Result.set_options"
        new = make_options(
            fn, type(self._options), options if options is not None else self._options, fields
        )
        for name in self._FIXED_FIELDS:
            if not _same_value(getattr(new, name), getattr(self._options, name)):
                raise InvalidArgumentError(
                    f"{fn}(): {name} cannot change from {getattr(self._options, name)!r} to "
                    f"{getattr(new, name)!r} on an existing result; compute a new result instead"
                )
        self._options = new

    @property
    def graph_version(self):
        """The graph version this result matches."""
        # Stamped natively, under the graph's lock, by compute, from_arrays and update.
        return self._state.graph_version

    @property
    def space(self):
        """Where the arrays live: "host" or "device"."""
        return "device" if self._on_device() else "host"

    @property
    def stats(self):
        """Stats of the last compute or update (None for a result made from arrays)."""
        return self._stats

    def clone(self, resources=None):
        """An independent copy tied to the same graph and version, on `resources`.

        The copy is updated on its own from then on (pass it to ``update`` with the graph's
        batches as any result); its arrays are copied between host and device as needed.

        Parameters
        ----------
        resources : Resources, optional
            Where the copy lives; default: this result's own resources.

        Returns
        -------
        Result
            A result of the same algorithm, type and options.

        Raises
        ------
        TypeError
            `resources` is neither a [`dyng.Resources`][] nor a backend name.
        NotSupportedError
            The algorithm does not run on the backend `resources` names.

        Examples
        --------
        >>> import dyng
        >>> r = dyng.sssp.compute(dyng.Graph.from_edges([0], [1], [1]), 0)
        >>> r.clone().distances.tolist()
        [0, 1]
        """
        fn = f"{self._ALGORITHM.name}.Result.clone"
        res = _resources.resolve(resources, self._resources, fn)
        _check_backend(type(self), res, fn)
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._state = self._state_on(res)
        other._options = self.options
        other._resources = res
        other._epoch = _Epoch(f"a {self._ALGORITHM.name} result")
        other._arrays = {}
        other._exported = weakref.WeakSet()
        return other

    def _state_on(self, res):
        """A private copy of the native state in `res`'s space."""
        native = _backend.native()
        state = self._state
        if res.backend == "cuda":
            device_type = getattr(native, self._DEVICE_STATE)
            if not self._on_device():
                return device_type.from_host(state, res._execution())
            if state.device != res.device:
                return device_type.from_host(state.to_host(), res._execution())
            return state.clone()
        return state.to_host() if self._on_device() else state.clone()

    def __reduce_ex__(self, protocol):
        name = self._ALGORITHM.name
        raise TypeError(
            f"{name}.Result cannot be pickled; save its arrays (to_numpy()) and "
            f"compute or rebuild the result from them"
        )

    def __repr__(self):
        fields = "".join(f"{name}={value!r}, " for name, value in self._repr_fields())
        return (
            f"{self._ALGORITHM.name}.Result({fields}num_vertices={self._state.num_vertices}, "
            f"graph_version={self.graph_version})"
        )

    def _repr_fields(self):
        return ()

    def _on_device(self):
        return type(self._state).__name__ == self._DEVICE_STATE

    def _array(self, name, dtype, what, view=None, host_only=False):
        """The current Array of native view `name` (host view or device tensor). `view(state)`
        makes the view when it is not a plain method of the state (mosp's per-objective ones),
        from a host or a device state alike; `host_only` views are host memory in either space
        (mosp's path costs)."""
        array = self._arrays.get(name)
        if array is None:
            state = self._state
            if view is None:
                view = lambda s: getattr(s, name)()  # noqa: E731
            if self._on_device() and not host_only:
                res = self._resources
                data = DeviceData(
                    view(state),
                    dtype,
                    state.num_vertices,
                    state.device,
                    private_copy=lambda: view(state.clone())[0],
                    policy=lambda: res.copy_policy,
                )
            else:
                data = view(state)
            array = Array._wrap(data, self._epoch, what)
            self._arrays[name] = array
            self._exported.add(array)
        return array

    # The protocol dyng.update() drives: checks before the batch, then the repair after it.
    def _check_current(self, graph, fn):
        version = self.graph_version
        if self._graph_identity is not graph._identity:
            raise StaleResultError(
                f"{fn}(): the result belongs to another graph (result at version "
                f"{version}, this graph at version {graph.version}); pass the graph "
                f"it was computed on"
            )
        if version != graph.version:
            raise StaleResultError(
                f"{fn}(): the result matches graph version {version} but the graph is "
                f"at version {graph.version}; update results with every batch (dyng.update) or "
                f"compute a new one"
            )

    def _validate_batch(self, resolved):
        """Raises for a batch this algorithm cannot take, before the graph changes."""

    def _saved_state(self):
        """What _restore_state() needs to put this result back as it is now (a deep copy: the
        update repairs the state in place)."""
        return self._state.clone(), self._stats

    def _restore_state(self, saved):
        """Puts back a state kept by _saved_state() (dyng.update taking its batch back)."""
        self._state, self._stats = saved
        self._invalidate_arrays()

    def _apply_log(self, graph, log, execution, summary):
        native = _backend.native()
        if self._on_device():
            graph._ensure_device_for(execution)
        self._invalidate_arrays()
        stats = self._state.update(graph._native, log, self._options._to_native(native), execution)
        self._stats = self._STATS._from_native(stats, summary)
        return self._stats

    def _invalidate_arrays(self):
        # Stale first, then drop the views, so the native update can work in place. Most updates
        # follow one that nobody read: nothing to drop, and no new set to make.
        self._epoch.value += 1
        if self._arrays:
            self._arrays.clear()
        if self._exported:
            for array in list(self._exported):
                array._release()
            self._exported = weakref.WeakSet()


class SingleSourceResult(ResultBase):
    """A result computed from one source vertex (the traversals: sssp, mosp, dynamic_bfs).

    Examples
    --------
    >>> import dyng
    >>> dyng.dynamic_bfs.compute(dyng.Graph.from_edges([0, 1], [1, 2]), 1).source
    1
    """

    @property
    def source(self):
        """The source vertex."""
        return self._state.source

    def _repr_fields(self):
        return (("source", self.source),)

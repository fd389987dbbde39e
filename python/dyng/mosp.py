"""Dynamic multi-objective shortest paths (spec section 6).

For K objectives (the first K weight columns) ``compute`` builds one shortest-path tree per
objective, a combined graph on the union of their edges (edge (u, v) weighs ``L*(K+1)`` minus
``L/pref_i`` for every tree i that contains it, ``L = lcm(preferences)``; a lower preference is
a higher priority), its canonical shortest-path tree (the MOSP tree) and every vertex's K path
costs along that tree. ``update`` applies a batch and repairs all of it to what a fresh compute
gives, bit for bit: each tree by sssp's update, then only the combined edges of the vertices
whose tree parents moved, then the MOSP tree, then the costs below the vertices whose MOSP path
changed.

Examples
--------
>>> import dyng
>>> g = dyng.Graph.from_edges([0, 0, 1], [1, 2, 2], [[1, 5], [4, 1], [1, 1]])
>>> r = dyng.mosp.compute(g, 0, preferences=[1, 2])
>>> r.combined_distances.tolist(), r.combined_parents.tolist()
([0, 3, 5], [-1, 0, 0])
>>> r.path_costs.tolist()
[[0, 0], [1, 5], [4, 1]]
>>> stats = dyng.mosp.update(g, dyng.EdgeBatch(delete=([0], [2])), r)
>>> r.combined_parents.tolist(), r.path_costs.tolist()
([-1, 0, 1], [[0, 0], [1, 5], [2, 6]])
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from dyng import _backend, _convert, _resources, _update, sssp
from dyng._errors import InvalidArgumentError, StaleResultError
from dyng._registry import Algorithm
from dyng._result import (
    OptionsBase,
    SingleSourceResult,
    StatsBase,
    check_graph_argument,
    make_options,
    run_compute,
)

__all__ = [
    "INFINITE_DISTANCE",
    "MAX_OBJECTIVES",
    "MAX_PREFERENCE_SCALE",
    "Options",
    "Stats",
    "Result",
    "compute",
    "update",
]

INFINITE_DISTANCE = sssp.INFINITE_DISTANCE
"""The distance (and path cost) of an unreachable vertex: [`dyng.sssp.INFINITE_DISTANCE`][]."""
MAX_OBJECTIVES = 64
"""The most objectives (weight columns) one result follows."""
MAX_PREFERENCE_SCALE = 2**20
"""The largest allowed lcm(preferences): it scales the combined weights, which must not
overflow."""
_ENGINES = ("automatic", "fused", "operators")

ALGORITHM = Algorithm(
    name="mosp",
    title="Dynamic multi-objective shortest paths",
    family="fixed_point",
    maturity="stable",
    determinism="bitwise",
    backends=("sequential", "openmp", "cuda"),
    cite=("dynamosp2025", "dynamosptpds2025"),
)


@dataclasses.dataclass
class Options(OptionsBase):
    """Options of mosp.

    Attributes
    ----------
    preferences : list of int
        One per objective, each >= 1 (lower = higher priority), or empty for all 1. Their least
        common multiple L (<= MAX_PREFERENCE_SCALE) scales the combined weights.
    delta : int
        Bucket width of the per-objective searches; 0 picks one from the weights.
    cuda_engine : {"automatic", "fused", "operators"}
        Accepted and checked as in 0.2 (every engine runs the same kernels).
    compute_path_costs : bool
        Whether compute and update keep ``Result.path_costs``.
    validate_inputs : bool
        Check weights (>= 1 in every objective column) and the source before running.
    num_objectives : int
        The objectives are the first `num_objectives` weight columns; 0 uses them all.

    Examples
    --------
    >>> import dyng
    >>> dyng.mosp.Options(preferences=[2, 1]).preferences
    [2, 1]
    """

    preferences: list[int] = dataclasses.field(default_factory=list)
    delta: int = 0
    cuda_engine: str = "automatic"
    compute_path_costs: bool = True
    validate_inputs: bool = True
    num_objectives: int = 0

    def validate(self) -> None:
        """Checks every field and normalises it (preferences to a list of Python ints).

        Raises
        ------
        InvalidArgumentError
            Naming the first field whose value is not valid (a preference < 1, more than
            ``MAX_OBJECTIVES`` of them, an lcm above ``MAX_PREFERENCE_SCALE``, ...).

        Examples
        --------
        >>> import dyng
        >>> try:
        ...     dyng.mosp.Options(preferences=[1, 0])
        ... except dyng.InvalidArgumentError as error:
        ...     print(error)
        mosp.Options(): preferences[1]=0 is below 1; pass a value >= 1
        """
        fn = "mosp.Options"
        if isinstance(self.preferences, (str, bytes)) or not hasattr(self.preferences, "__iter__"):
            raise InvalidArgumentError(
                f"{fn}(): preferences={self.preferences!r} is not a sequence of integers; pass "
                f"one integer >= 1 per objective, or []"
            )
        self.preferences = [
            _convert.as_int(p, fn, f"preferences[{i}]", minimum=1, maximum=2**31 - 1)
            for i, p in enumerate(self.preferences)
        ]
        if len(self.preferences) > MAX_OBJECTIVES:
            raise InvalidArgumentError(
                f"{fn}(): {len(self.preferences)} preferences for at most {MAX_OBJECTIVES} "
                f"objectives; pass one per objective"
            )
        scale = math.lcm(*self.preferences) if self.preferences else 1
        if scale > MAX_PREFERENCE_SCALE:
            raise InvalidArgumentError(
                f"{fn}(): lcm(preferences) = {scale} exceeds 2^20 = {MAX_PREFERENCE_SCALE} (the "
                f"combined weights are scaled by it); pass preferences with a smaller least "
                f"common multiple"
            )
        self.delta = _convert.as_int(self.delta, fn, "delta", minimum=0, maximum=2**62)
        self.num_objectives = _convert.as_int(
            self.num_objectives, fn, "num_objectives", minimum=0, maximum=MAX_OBJECTIVES
        )
        if not isinstance(self.cuda_engine, str) or self.cuda_engine not in _ENGINES:
            raise InvalidArgumentError(
                f"{fn}(): cuda_engine={self.cuda_engine!r} is not valid; use 'automatic', "
                f"'fused' or 'operators'"
            )
        for name in ("compute_path_costs", "validate_inputs"):
            value = getattr(self, name)
            if not isinstance(value, (bool, np.bool_)):
                raise InvalidArgumentError(
                    f"{fn}(): {name}={value!r} is not a bool; pass True or False"
                )
            setattr(self, name, bool(value))

    def _to_native(self, native):
        return native.MospOptions(
            list(self.preferences),
            self.delta,
            self.compute_path_costs,
            self.validate_inputs,
            self.num_objectives,
        )


@dataclasses.dataclass(frozen=True)
class Stats(StatsBase):
    """What one mosp compute or update did.

    The common fields are those of every algorithm's Stats (see
    [`StatsBase`][dyng._result.StatsBase]); ``affected`` counts the vertices whose MOSP distance
    or parent changed, ``iterations`` and ``frontier_visits`` are summed over every search.

    Attributes
    ----------
    objectives : tuple of dyng.sssp.Stats
        Each objective's shortest-path search, in objective order.
    combined_edges : int
        Edges of the combined graph (the union of the objectives' tree edges).
    preference_scale : int
        L = lcm(preferences), the scale of the combined weights.

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1, 0], [1, 2, 2], [[1, 1], [1, 1], [3, 1]])
    >>> s = dyng.mosp.compute(g, 0, preferences=[1, 2]).stats
    >>> len(s.objectives), s.combined_edges, s.preference_scale
    (2, 3, 2)
    """

    objectives: tuple[sssp.Stats, ...] = ()
    combined_edges: int = 0
    preference_scale: int = 1

    @classmethod
    def _from_native(cls, native, batch=None):
        parts = tuple(sssp.Stats._from_native(s, batch) for s in native.objectives)
        values = {
            f.name: getattr(native, f.name)
            for f in dataclasses.fields(cls)
            if f.name not in ("batch", "objectives")
        }
        return cls(batch=batch, objectives=parts, **values)


class Result(SingleSourceResult):
    """K shortest-path trees, the MOSP tree and the path costs, kept current by
    [`update`][dyng.mosp.update].

    Made by [`compute`][dyng.mosp.compute] or [`Result.from_arrays`][dyng.mosp.Result.from_arrays].
    Every array raises StaleResultError after an update that failed part-way (the result then
    holds no consistent answer; compute it again).

    Attributes
    ----------
    source : int
        The source vertex.
    num_objectives : int
        K, the objectives followed.
    preference_scale : int
        L = lcm(preferences): combined distances are in units of 1/L.
    combined_distances, combined_parents : Array
        The MOSP tree (int64 distances, INFINITE_DISTANCE when unreachable; canonical parents).
    path_costs : Array
        (n, K) int64: each objective's cost along the MOSP tree path.
    graph_version : int
        The graph version the result matches.

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1, 0], [1, 2, 2], [[1, 1], [1, 1], [3, 1]])
    >>> r = dyng.mosp.compute(g, 0)
    >>> r.num_objectives, r.preference_scale, r.combined_parents.tolist()
    (2, 1, [-1, 0, 0])
    """

    _ALGORITHM = ALGORITHM
    _STATS = Stats
    _HOST_STATE = "MospState"
    _DEVICE_STATE = "MospDeviceState"
    _FIXED_FIELDS = ("preferences", "num_objectives")

    def __init__(self, *args, **kwargs):
        raise TypeError(
            "mosp.Result cannot be created directly; use mosp.compute() or "
            "mosp.Result.from_arrays()"
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
        """A result from given per-objective trees; the combined graph, the MOSP tree and the
        path costs are computed from them.

        Each tree is checked and converted as [`dyng.sssp.Result.from_arrays`][] does
        (canonicalized when asked; with ``validate_inputs`` it must be exactly a shortest-path
        tree).

        Parameters
        ----------
        graph : Graph
            The graph the trees belong to, as for [`compute`][dyng.mosp.compute].
        source : int
            The source vertex of every tree.
        distances : sequence of array_like
            One distance array per objective (values >= ``INFINITE_DISTANCE / 2`` mean
            unreachable).
        parents : sequence of array_like
            One parent array per objective (-1 for the source and unreachable vertices).
        canonicalize : bool, optional
            Rewrite every parent to the canonical one (default); False keeps them.
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
            `graph` is not a [`dyng.Graph`][], `options` not an [`Options`][dyng.mosp.Options],
            or a field name is unknown.
        InvalidArgumentError
            The distance and parent arrays differ in number, an array has the wrong dtype or
            length, a weight is < 1, or (with ``validate_inputs``) a tree is not a shortest-path
            tree.
        NotSupportedError
            The graph is unweighted.

        Examples
        --------
        >>> import dyng
        >>> g = dyng.Graph.from_edges([0, 1], [1, 2], [[1, 2], [1, 2]])
        >>> r = dyng.mosp.Result.from_arrays(g, 0, [[0, 1, 2], [0, 2, 4]], [[-1, 0, 1]] * 2)
        >>> r.combined_distances.tolist()
        [0, 1, 2]
        """
        fn = "mosp.Result.from_arrays"
        opts = make_options(fn, Options, options, fields)
        check_graph_argument(fn, graph)
        source = _convert.as_int(source, fn, "source")
        res = _resources.resolve(resources, graph.resources, fn)
        distances, parents = list(distances), list(parents)
        if len(distances) != len(parents):
            raise InvalidArgumentError(
                f"{fn}(): got {len(distances)} distance arrays and {len(parents)} parent arrays; "
                f"pass one of each per objective"
            )
        trees = [
            sssp._tree_arrays(fn, graph, d, p, which=f"objective {i}: ")
            for i, (d, p) in enumerate(zip(distances, parents))
        ]
        native = _backend.native()
        # The trees are checked and combined on the host; a CUDA result then moves there.
        return cls._wrap_built_on_host(
            graph,
            lambda execution: native.MospState.from_arrays(
                graph._native,
                source,
                [d for d, _ in trees],
                [p for _, p in trees],
                bool(canonicalize),
                opts._to_native(native),
                execution,
            ),
            opts,
            res,
            fn,
        )

    @property
    def num_objectives(self):
        """K: the objectives (weight columns) this result follows."""
        return self._state.num_objectives

    @property
    def preference_scale(self):
        """L = lcm(preferences)."""
        return self._state.preference_scale

    def distances(self, objective):
        """Objective `objective`'s shortest distances (int64) as a read-only Array.

        Parameters
        ----------
        objective : int
            An objective in ``[0, num_objectives)``.

        Returns
        -------
        Array
            int64 distances, ``INFINITE_DISTANCE`` when unreachable.

        Raises
        ------
        InvalidArgumentError
            `objective` is not an integer in range.
        StaleResultError
            An update of this result failed part-way.

        Examples
        --------
        >>> import dyng
        >>> g = dyng.Graph.from_edges([0, 1, 0], [1, 2, 2], [[1, 1], [1, 1], [3, 1]])
        >>> dyng.mosp.compute(g, 0).distances(0).tolist()
        [0, 1, 2]
        """
        k = self._objective(objective, "distances")
        return self._array(
            f"distances[{k}]",
            np.int64,
            f"mosp distances({k})",
            view=lambda state: state.distances(k),
        )

    def parents(self, objective):
        """Objective `objective`'s canonical parents (vertex dtype) as a read-only Array.

        Parameters
        ----------
        objective : int
            An objective in ``[0, num_objectives)``.

        Returns
        -------
        Array
            Parents in the vertex dtype, -1 for the source and unreachable vertices.

        Raises
        ------
        InvalidArgumentError
            `objective` is not an integer in range.
        StaleResultError
            An update of this result failed part-way.

        Examples
        --------
        >>> import dyng
        >>> g = dyng.Graph.from_edges([0, 1, 0], [1, 2, 2], [[1, 1], [1, 1], [3, 1]])
        >>> dyng.mosp.compute(g, 0).parents(1).tolist()
        [-1, 0, 0]
        """
        k = self._objective(objective, "parents")
        return self._array(
            f"parents[{k}]",
            self.vertex_dtype,
            f"mosp parents({k})",
            view=lambda state: state.parents(k),
        )

    @property
    def combined_distances(self):
        """The MOSP tree's int64 distances, in units of 1/preference_scale."""
        return self._array("combined_distances", np.int64, "mosp combined_distances")

    @property
    def combined_parents(self):
        """The MOSP tree's canonical parents (vertex dtype)."""
        return self._array("combined_parents", self.vertex_dtype, "mosp combined_parents")

    @property
    def path_costs(self):
        """(n, K) int64 costs along the MOSP tree; INFINITE_DISTANCE where unreachable (raises
        InvalidArgumentError when ``compute_path_costs`` was False)."""
        if not self._state.has_path_costs:
            raise InvalidArgumentError(
                "mosp.Result.path_costs: the path costs were not computed (compute_path_costs "
                "was False at the last compute or update); set it with "
                "result.set_options(compute_path_costs=True) and update, or compute again"
            )
        k = self.num_objectives
        return self._array(
            "path_costs",
            np.int64,
            "mosp path_costs",
            view=lambda state: state.path_costs().reshape(-1, k),
            host_only=True,
        )

    def __reduce_ex__(self, protocol):
        raise TypeError(
            "mosp.Result cannot be pickled; save each objective's distances and parents "
            "(to_numpy()) and rebuild with mosp.Result.from_arrays()"
        )

    def _objective(self, objective, what):
        k = _convert.as_int(objective, f"mosp.Result.{what}", "objective")
        if not 0 <= k < self.num_objectives:
            raise InvalidArgumentError(
                f"mosp.Result.{what}(): the objective {k} is out of range [0, "
                f"{self.num_objectives}); pass an objective below num_objectives"
            )
        return k

    def _array(self, name, dtype, what, view=None, host_only=False):
        if not self._state.consistent:
            raise StaleResultError(
                f"mosp.Result: {what} cannot be read: an update of this result failed part-way "
                f"(the exception it raised says why), so it holds no consistent answer; compute "
                f"it again"
            )
        return super()._array(name, dtype, what, view, host_only)

    def _validate_batch(self, resolved):
        native = _backend.native()
        if resolved.staged is not None:
            native.mosp_validate_staged(resolved.staged, self._options._to_native(native))
            return
        native.mosp_validate_batch(
            resolved.insert_src,
            resolved.insert_dst,
            resolved.insert_weights,
            resolved.num_weights,
            self._options._to_native(native),
        )


def compute(graph, source, *, options=None, resources=None, **fields):
    """The K shortest-path trees from `source`, their MOSP tree and its path costs.

    Parameters
    ----------
    graph : Graph
        Weighted (weights >= 1 in every objective column), with in-edges; parallel edges are
        fine (``properties="mosp_compatible"``): path costs follow the first stored copy.
    source : int
        The vertex every tree starts from.
    options : Options, optional
        Default: ``Options()``.
    resources : Resources, optional
        Defaults to the graph's resources.
    **fields
        Override fields of `options` (preferences, delta, cuda_engine, compute_path_costs,
        validate_inputs, num_objectives).

    Returns
    -------
    Result
        The trees, at the graph's current version; keep them current with
        [`update`][dyng.mosp.update].

    Raises
    ------
    TypeError
        `graph` is not a [`dyng.Graph`][], `options` not an [`Options`][dyng.mosp.Options],
        `resources` neither a [`dyng.Resources`][] nor a backend name, or a field name is unknown.
    InvalidArgumentError
        A field value is not valid, `source` is not a vertex, the graph keeps no in-edges or has
        fewer weight columns than objectives or preferences, or (with ``validate_inputs``) a
        weight is < 1.
    NotSupportedError
        The graph is unweighted.

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1, 0], [1, 2, 2], [[1, 1], [1, 1], [3, 1]])
    >>> r = dyng.mosp.compute(g, 0)
    >>> [r.distances(k).tolist() for k in range(r.num_objectives)]
    [[0, 1, 2], [0, 1, 1]]
    """
    fn = "mosp.compute"
    opts = make_options(fn, Options, options, fields)
    check_graph_argument(fn, graph)
    return run_compute(Result, fn, graph, opts, resources, _convert.as_int(source, fn, "source"))


def update(graph, batch, result, *, resources=None):
    """Applies `batch` to `graph` and repairs `result`; equal to a fresh compute afterwards.

    [`dyng.update`][] with one result: an invalid batch (a weight < 1 in an objective column,
    ...) or a stale result raises and changes neither the graph nor the result.

    Parameters
    ----------
    graph : Graph
        The graph `result` was computed on.
    batch : EdgeBatch
        The changes; inserted weights must be >= 1 in every objective column.
    result : Result
        A current mosp result of `graph` (at its version).
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
    >>> g = dyng.Graph.from_edges([0, 1], [1, 2], [[5, 5], [5, 5]])
    >>> r = dyng.mosp.compute(g, 0)
    >>> dyng.mosp.update(g, dyng.EdgeBatch(insert=([0], [2], [[3, 3]])), r).affected
    1
    >>> r.path_costs.tolist()
    [[0, 0], [5, 5], [3, 3]]
    """
    return _update.update_one("mosp", Result, graph, batch, result, resources)

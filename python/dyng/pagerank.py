"""PageRank kept current under batches, with NetworkX's definition.

``compute`` runs the power iteration of ``networkx.pagerank``: a surfer follows an out-edge with
probability ``alpha`` (uniformly, or in proportion to the first edge weight when ``weighted``)
and otherwise jumps to a vertex drawn from ``personalization`` (uniformly when it is None); a
vertex without out-edges (or whose out-weights sum to 0) steps to a vertex drawn from
``dangling`` (``personalization`` when None)::

    x'[v] = alpha * (sum over u->v of x[u] * w(u, v) / W(u) + D * d[v]) + (1 - alpha) * p[v]

with ``D`` the rank of the dangling vertices and ``p``, ``d`` the vectors scaled to sum 1. It
starts from the uniform vector (or ``nstart``) and stops when one iteration moves the ranks by
less than ``n * tol`` in L1; the ranks sum to 1.

The answer is iterative, so ``update`` does not give the same bits as a fresh ``compute``: its
ranks meet the same convergence test and lie within ``2 * n * tol / (1 - alpha)`` in L1 of a
fresh compute's. Each backend is deterministic: the same input gives the same bits for any
thread count, and the sequential and OpenMP backends give the same bits. ``update`` starts from
the previous ranks (new vertices at their teleport share ``(1 - alpha) * p[v]``: 0 for a vertex
a short ``personalization`` does not name), recomputes the ranks of a frontier around the
changed edges (and the vertices ``dangling`` feeds, when vertices may have become or stopped
being dangling) that grows only where the change an out-neighbour sees exceeds ``tol``, and
keeps a bound on the change one more full iteration would make; when that bound is below
``n * tol`` the test holds without one (``residual`` is then the bound), otherwise full
iterations run until it holds. A batch so large that the frontier's first round would read more
than a share of one full iteration's reads (0.4 of them on the host, 0.3 on the GPU, and at
least 2^16 in-edges, since a round gathers each listed vertex's in-edges) runs full iterations
from the previous ranks instead (``method`` "warm_power_iteration").

On CUDA the ranks stay in device memory (``Result.ranks`` is a device array that CuPy and
PyTorch read in place); the GPU sums every row and every vector in a fixed order, so it too
gives the same bits run after run, within the same bound of the host's.

Examples
--------
>>> import dyng
>>> g = dyng.Graph.from_edges([0, 1], [1, 2])
>>> r = dyng.pagerank.compute(g)
>>> r.ranks.to_numpy().round(4).tolist()
[0.1844, 0.3412, 0.4744]
>>> s = dyng.pagerank.update(g, dyng.EdgeBatch(insert=([2], [0])), r)
>>> r.ranks.to_numpy().round(3).tolist(), s.converged
([0.333, 0.333, 0.333], True)
"""

from __future__ import annotations

import dataclasses

import numpy as np

from dyng import _update
from dyng._errors import InvalidArgumentError
from dyng._registry import Algorithm
from dyng._result import (
    OptionsBase,
    ResultBase,
    StatsBase,
    check_graph_argument,
    make_options,
    run_compute,
)

# Dict keys are vertex ids; past this one no graph's vector fits in memory.
_MAX_VECTOR_KEY = 2**40

__all__ = ["Options", "Stats", "Result", "compute", "update"]

ALGORITHM = Algorithm(
    name="pagerank",
    title="Dynamic PageRank (NetworkX's definition)",
    family="fixed_point",
    maturity="stable",
    determinism="tolerance",
    backends=("sequential", "openmp", "cuda"),
)


@dataclasses.dataclass
class Options(OptionsBase):
    """Options of pagerank (``networkx.pagerank``'s names and defaults). ``alpha``,
    ``weighted``, ``personalization`` and ``dangling`` define the ranks, so they are fixed for a
    result (``Result.set_options`` refuses them); ``tol`` and ``max_iter`` may change.

    Attributes
    ----------
    alpha : float
        Damping factor in [0, 1): the probability of following an out-edge.
    tol : float
        Converged when one iteration changes the ranks by less than ``n * tol`` in L1.
    max_iter : int
        Iterations before giving up (``Stats.converged`` is then False).
    weighted : bool
        Transition probabilities in proportion to the graph's first weight column (weights must
        be non-negative); otherwise every out-edge counts 1.
    personalization : array_like or dict, optional
        Where a jump lands, by vertex id: a sequence or 1-d array of non-negative finite weights
        (at most one per vertex) or a dict ``{vertex id: weight}``. Vertices it does not name
        get 0 (so do vertices added later); it is scaled to sum 1, so its sum must be positive.
        None: uniform. Stored as a read-only float64 array.
    dangling : array_like or dict, optional
        Where a vertex without out-edges steps, as ``personalization``; None: personalization.

    Examples
    --------
    >>> import dyng
    >>> dyng.pagerank.Options(alpha=0.9).alpha
    0.9
    >>> dyng.pagerank.Options(personalization={2: 1.0}).personalization.tolist()
    [0.0, 0.0, 1.0]
    """

    alpha: float = 0.85
    tol: float = 1e-6
    max_iter: int = 100
    weighted: bool = False
    personalization: object = None
    dangling: object = None

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return all(
            _same_value(getattr(self, f.name), getattr(other, f.name))
            for f in dataclasses.fields(self)
        )

    def validate(self) -> None:
        """Checks every field; `personalization` and `dangling` become read-only float64 arrays.

        Raises
        ------
        InvalidArgumentError
            Naming the first field whose value is not valid (an `alpha` outside [0, 1), a `tol`
            that is not positive, a negative weight in a vector, ...).

        Examples
        --------
        >>> import dyng
        >>> try:
        ...     dyng.pagerank.Options(alpha=1.0)
        ... except dyng.InvalidArgumentError as error:
        ...     print(error)
        pagerank.Options(): alpha must be a number in [0, 1); got 1.0
        """
        fn = "pagerank.Options()"
        if not isinstance(self.alpha, (int, float)) or not 0.0 <= self.alpha < 1.0:
            raise InvalidArgumentError(
                f"{fn}: alpha must be a number in [0, 1); got {self.alpha!r}"
            )
        if not isinstance(self.tol, (int, float)) or not self.tol > 0.0:
            raise InvalidArgumentError(f"{fn}: tol must be a positive number; got {self.tol!r}")
        if (
            isinstance(self.max_iter, bool)
            or not isinstance(self.max_iter, (int, np.integer))
            or self.max_iter < 1
        ):
            raise InvalidArgumentError(f"{fn}: max_iter must be an int >= 1; got {self.max_iter!r}")
        if not isinstance(self.weighted, (bool, np.bool_)):
            raise InvalidArgumentError(
                f"{fn}: weighted must be True or False; got {self.weighted!r}"
            )
        self.personalization = vertex_vector(fn, "personalization", self.personalization)
        self.dangling = vertex_vector(fn, "dangling", self.dangling)

    def _to_native(self, native):
        options = native.PagerankOptions()
        options.alpha = float(self.alpha)
        options.tol = float(self.tol)
        options.max_iter = int(self.max_iter)
        options.weighted = bool(self.weighted)
        empty = np.empty(0, dtype=np.float64)
        options.personalization = empty if self.personalization is None else self.personalization
        options.dangling = empty if self.dangling is None else self.dangling
        return options


def _same_value(a, b):
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and np.array_equal(a, b)
    return a == b


def vertex_vector(fn, name, value):
    """`value` (None, a sequence or 1-d array of weights, or a dict {vertex id: weight}) as a
    read-only float64 array by vertex id, or None; raises InvalidArgumentError naming `name`
    for anything else, a negative or non-finite weight, or a sum that is not positive. The
    native call checks its length against the graph.

    >>> vertex_vector("f()", "dangling", {1: 2}).tolist()
    [0.0, 2.0]
    """
    if value is None:
        return None
    if isinstance(value, dict):
        array = _dense_from_dict(fn, name, value)
    else:
        try:
            array = np.array(value, dtype=np.float64)
        except (TypeError, ValueError) as error:
            raise InvalidArgumentError(
                f"{fn}: {name} must be a sequence of numbers or a dict "
                f"{{vertex id: weight}}; got {type(value).__name__} "
                f"({error})"
            ) from None
    if array.ndim != 1:
        raise InvalidArgumentError(
            f"{fn}: {name} must be 1-d (one weight per vertex id); got shape {array.shape}"
        )
    bad = np.flatnonzero(~(np.isfinite(array) & (array >= 0)))
    if len(bad):
        raise InvalidArgumentError(
            f"{fn}: {name}[{bad[0]}] is {float(array[bad[0]])!r}; pass non-negative finite weights"
        )
    with np.errstate(over="ignore"):  # an infinite sum is refused below
        total = float(array.sum())
    if not (total > 0 and np.isfinite(total)):
        raise InvalidArgumentError(
            f"{fn}: {name} sums to {total!r}; give some vertex a "
            f"positive weight (and keep the sum finite)"
        )
    array.flags.writeable = False
    return array


def _dense_from_dict(fn, name, mapping):
    keys = list(mapping)
    for key in keys:
        if (
            isinstance(key, (bool, np.bool_))
            or not isinstance(key, (int, np.integer))
            or not 0 <= key < _MAX_VECTOR_KEY
        ):
            raise InvalidArgumentError(
                f"{fn}: {name} has key {key!r}; keys must be vertex ids (ints >= 0)"
            )
    try:
        weights = np.array([mapping[key] for key in keys], dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise InvalidArgumentError(
            f"{fn}: {name} has a weight that is not a number ({error}); pass numbers"
        ) from None
    array = np.zeros(max(keys, default=-1) + 1, dtype=np.float64)
    array[np.array(keys, dtype=np.int64)] = weights
    return array


@dataclasses.dataclass(frozen=True)
class Stats(StatsBase):
    """What one pagerank compute or update did.

    The common fields are those of every algorithm's Stats (see
    [`StatsBase`][dyng._result.StatsBase]): ``affected`` counts the vertices whose rank changed
    (all vertices, for a compute), ``frontier_visits`` the edges read, ``iterations`` of an
    update its frontier rounds and its full iterations. ``method`` is "pull_power_iteration"
    for a compute, "frontier_power_iteration" for a repair, "warm_power_iteration" for the
    fallback (full iterations from the previous ranks).

    Attributes
    ----------
    vertices_touched : int
        Rank computations of every iteration together.
    frontier_size : int
        The frontier's seeds (all vertices, for a compute).
    residual : float
        The L1 change of the last iteration.
    touched_per_iteration : tuple of int
        The vertices each iteration computed, in order: an update's frontier rounds, then its
        full iterations (n each); its sum is `vertices_touched`.

    Examples
    --------
    >>> import dyng
    >>> s = dyng.pagerank.compute(dyng.Graph.from_edges([0, 1, 2], [1, 2, 0])).stats
    >>> s.method, s.frontier_size, s.vertices_touched == sum(s.touched_per_iteration)
    ('pull_power_iteration', 3, True)
    """

    vertices_touched: int = 0
    frontier_size: int = 0
    residual: float = 0.0
    touched_per_iteration: tuple[int, ...] = ()

    @classmethod
    def _from_native(cls, native, batch=None):
        stats = super()._from_native(native, batch)
        return dataclasses.replace(stats, touched_per_iteration=tuple(stats.touched_per_iteration))


class Result(ResultBase):
    """PageRank of a graph's vertices, kept current by [`update`][dyng.pagerank.update].

    Attributes
    ----------
    ranks : Array
        float64, per vertex; they sum to 1.
    iterations : int
        Iterations of the call that produced the ranks.
    residual : float
        L1 change of the last full iteration or, after an update that needed none, a bound on
        the change one more would make (below ``n * tol`` when converged).
    graph_version : int
        The graph version the result matches.

    Examples
    --------
    >>> import dyng
    >>> r = dyng.pagerank.compute(dyng.Graph.from_edges([0, 1, 2], [1, 2, 0]))
    >>> r.ranks.to_numpy().round(4).tolist(), r.residual < 3 * r.options.tol
    ([0.3333, 0.3333, 0.3333], True)
    """

    _ALGORITHM = ALGORITHM
    _STATS = Stats
    _HOST_STATE = "PagerankState"
    _DEVICE_STATE = "PagerankDeviceState"
    # They define the ranks, and an update starts from the last one's residual as a bound for
    # that definition: a result with others is a new compute.
    _FIXED_FIELDS = ("alpha", "weighted", "personalization", "dangling")

    @property
    def ranks(self):
        """float64 ranks as a read-only Array."""
        return self._array("ranks", np.float64, "pagerank ranks")

    @property
    def iterations(self):
        """Iterations of the last compute or update, as a Python int."""
        return int(self._state.iterations)

    @property
    def residual(self):
        """L1 change of the last full iteration (or an update's bound on it), a Python float."""
        return float(self._state.residual)

    def _repr_fields(self):
        return (("iterations", self.iterations), ("residual", self.residual))


def compute(graph, *, options=None, resources=None, nstart=None, **fields):
    """The PageRank of `graph`'s vertices.

    Parameters
    ----------
    graph : Graph
        Directed graphs need their in-edges (``store_transposed=True``, the default); an
        undirected edge is followed both ways; parallel edges add up.
    options : Options, optional
        Default: ``Options()``.
    resources : Resources, optional
        Defaults to the graph's resources; the host backends give the same bits, CUDA its own
        (within the bound of theirs).
    nstart : array_like or dict, optional
        The starting vector (``networkx.pagerank``'s nstart), given and checked as
        ``Options.personalization`` and scaled to sum 1; None: uniform. It changes where the
        iteration starts, so the iterations it takes, not the bound the ranks meet.
    **fields
        Override fields of `options` (``alpha``, ``tol``, ``max_iter``, ``weighted``,
        ``personalization``, ``dangling``).

    Returns
    -------
    Result
        The ranks, at the graph's current version; keep them current with
        [`update`][dyng.pagerank.update].

    Raises
    ------
    TypeError
        `graph` is not a [`dyng.Graph`][], `options` not an [`Options`][dyng.pagerank.Options],
        `resources` neither a [`dyng.Resources`][] nor a backend name, or a field name is unknown.
    InvalidArgumentError
        A field value or `nstart` is not valid, a vector is longer than the graph has vertices,
        a directed graph has no in-edges, or (``weighted``) the graph has no weights or a
        negative one.

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1, 2], [1, 2, 0])
    >>> dyng.pagerank.compute(g, alpha=0.5).ranks.to_numpy().round(4).tolist()
    [0.3333, 0.3333, 0.3333]
    >>> r = dyng.pagerank.compute(dyng.Graph.from_edges([0, 1], [1, 2]), personalization=[1, 0, 0])
    >>> r.ranks.to_numpy().round(4).tolist()
    [0.3887, 0.3304, 0.2809]
    """
    fn = "pagerank.compute"
    opts = make_options(fn, Options, options, fields)
    check_graph_argument(fn, graph)
    if nstart is None:
        return run_compute(Result, fn, graph, opts, resources)
    start = vertex_vector(f"{fn}()", "nstart", nstart)
    return run_compute(Result, fn, graph, opts, resources, start, entry="compute_from")


def update(graph, batch, result, *, resources=None):
    """Applies `batch` to `graph` and brings `result`'s ranks up to date, starting from them;
    within ``2 * n * tol / (1 - alpha)`` in L1 of a fresh compute.

    [`dyng.update`][] with one result: an invalid batch or a stale result raises and changes
    neither the graph nor the result. ``Stats.converged`` is False when ``max_iter`` full
    iterations did not meet the convergence test.

    Parameters
    ----------
    graph : Graph
        The graph `result` was computed on.
    batch : EdgeBatch
        The changes; with ``weighted``, inserted weights must be non-negative.
    result : Result
        A current pagerank result of `graph` (at its version).
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
        The batch is not valid for `graph`, or (``weighted``) it inserts a negative weight.

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1, 2, 2, 0], [1, 2, 0, 1, 2], num_vertices=5)
    >>> r = dyng.pagerank.compute(g)
    >>> s = dyng.pagerank.update(g, dyng.EdgeBatch(insert=([4], [0])), r)
    >>> s.path, s.converged, round(float(r.ranks.to_numpy().sum()), 9)
    ('incremental', True, 1.0)
    """
    return _update.update_one("pagerank", Result, graph, batch, result, resources)

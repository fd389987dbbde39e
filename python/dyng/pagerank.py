"""PageRank kept current under batches, with NetworkX's definition.

``compute`` runs the power iteration of ``networkx.pagerank``: a surfer follows an out-edge with
probability ``alpha`` (uniformly, or in proportion to the first edge weight when ``weighted``)
and jumps to a uniformly chosen vertex otherwise; a vertex without out-edges jumps uniformly. It
stops when one iteration moves the ranks by less than ``n * tol`` in L1; the ranks sum to 1.

The answer is iterative, so ``update`` does not give the same bits as a fresh ``compute``: its
ranks meet the same convergence test and lie within ``2 * n * tol / (1 - alpha)`` in L1 of a
fresh compute's. Each backend is deterministic: the same input gives the same bits for any
thread count, and the sequential and OpenMP backends give the same bits. ``update`` starts from
the previous ranks (new vertices at their teleport share ``(1 - alpha) / n``), recomputes the
ranks of a frontier around the changed edges that grows only where a rank moves by more than
``tol``, then runs full iterations until the convergence test holds.

On CUDA the ranks stay in device memory (``Result.ranks`` is a device array that CuPy and
PyTorch read in place); the GPU sums every row and every vector in a fixed order, so it too
gives the same bits run after run, within the same bound of the host's.

Not yet here: ``personalization`` and ``dangling`` vectors.

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
from dyng._result import OptionsBase, ResultBase, StatsBase, check_graph_argument, make_options
from dyng._result import run_compute

__all__ = ["Options", "Stats", "Result", "compute", "update"]

ALGORITHM = Algorithm(name="pagerank", title="Dynamic PageRank (NetworkX's definition)",
                      family="fixed_point", maturity="stable", determinism="tolerance",
                      backends=("sequential", "openmp", "cuda"))


@dataclasses.dataclass
class Options(OptionsBase):
    """Options of pagerank (``networkx.pagerank``'s names and defaults).

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

    Examples
    --------
    >>> import dyng
    >>> dyng.pagerank.Options(alpha=0.9).alpha
    0.9
    """

    alpha: float = 0.85
    tol: float = 1e-6
    max_iter: int = 100
    weighted: bool = False

    def validate(self):
        """Raises InvalidArgumentError naming the first bad field."""
        fn = "pagerank.Options()"
        if not isinstance(self.alpha, (int, float)) or not 0.0 <= self.alpha < 1.0:
            raise InvalidArgumentError(f"{fn}: alpha must be a number in [0, 1); got "
                                       f"{self.alpha!r}")
        if not isinstance(self.tol, (int, float)) or not self.tol > 0.0:
            raise InvalidArgumentError(f"{fn}: tol must be a positive number; got {self.tol!r}")
        if isinstance(self.max_iter, bool) or not isinstance(self.max_iter, (int, np.integer)) \
                or self.max_iter < 1:
            raise InvalidArgumentError(f"{fn}: max_iter must be an int >= 1; got {self.max_iter!r}")
        if not isinstance(self.weighted, (bool, np.bool_)):
            raise InvalidArgumentError(f"{fn}: weighted must be True or False; got "
                                       f"{self.weighted!r}")

    def _to_native(self, native):
        options = native.PagerankOptions()
        options.alpha = float(self.alpha)
        options.tol = float(self.tol)
        options.max_iter = int(self.max_iter)
        options.weighted = bool(self.weighted)
        return options


@dataclasses.dataclass(frozen=True)
class Stats(StatsBase):
    """What one compute or update did: the common fields (``affected``: vertices whose rank
    changed, all vertices for a compute; ``iterations``; ``frontier_visits``: edges read;
    ``converged``; ``iterations`` of an update counts its frontier rounds and its full
    iterations), the rank computations of all of them together (``vertices_touched``), the
    frontier's seeds (``frontier_size``; all vertices for a compute) and the L1 change of the
    last iteration (``residual``). ``method`` is "pull_power_iteration" for a compute,
    "frontier_power_iteration" for a repair."""

    vertices_touched: int = 0
    frontier_size: int = 0
    residual: float = 0.0


class Result(ResultBase):
    """PageRank of a graph's vertices, kept current by :func:`update`.

    Attributes
    ----------
    ranks : Array
        float64, per vertex; they sum to 1.
    iterations : int
        Iterations of the call that produced the ranks.
    residual : float
        L1 change of the last of them (below ``n * tol`` when converged).
    graph_version : int
    """

    _ALGORITHM = ALGORITHM
    _STATS = Stats
    _HOST_STATE = "PagerankState"
    _DEVICE_STATE = "PagerankDeviceState"
    _FIXED_FIELDS = ("weighted",)

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
        """L1 change of the last iteration, as a Python float."""
        return float(self._state.residual)

    def _repr_fields(self):
        return (("iterations", self.iterations), ("residual", self.residual))


def compute(graph, *, options=None, resources=None, **fields):
    """The PageRank of `graph`'s vertices.

    Parameters
    ----------
    graph : Graph
        Directed graphs need their in-edges (``store_transposed=True``, the default); an
        undirected edge is followed both ways; parallel edges add up.
    options : Options, optional
    resources : Resources, optional
        Defaults to the graph's resources; the host backends give the same bits, CUDA its own
        (within the bound of theirs).
    **fields
        Override fields of `options` (``alpha``, ``tol``, ``max_iter``, ``weighted``).

    Returns
    -------
    Result

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1, 2], [1, 2, 0])
    >>> dyng.pagerank.compute(g, alpha=0.5).ranks.to_numpy().round(4).tolist()
    [0.3333, 0.3333, 0.3333]
    """
    fn = "pagerank.compute"
    opts = make_options(fn, Options, options, fields)
    check_graph_argument(fn, graph)
    return run_compute(Result, fn, graph, opts, resources)


def update(graph, batch, result, *, resources=None):
    """Applies `batch` to `graph` and brings `result`'s ranks up to date, starting from them;
    within ``2 * n * tol / (1 - alpha)`` in L1 of a fresh compute.

    An invalid batch or a stale result raises and changes neither the graph nor the result.

    Returns
    -------
    Stats

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

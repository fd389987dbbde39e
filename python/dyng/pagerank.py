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
ranks of a frontier around the changed edges that grows only where the change an out-neighbour
sees exceeds ``tol``, and keeps a bound on the change one more full iteration would make; when
that bound is below ``n * tol`` the test holds without one (``residual`` is then the bound),
otherwise full iterations run until it holds.

Not yet here: ``personalization`` and ``dangling`` vectors, and the CUDA backend.

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
from typing import Tuple

import numpy as np

from dyng import _update
from dyng._errors import InvalidArgumentError
from dyng._registry import Algorithm
from dyng._result import OptionsBase, ResultBase, StatsBase, check_graph_argument, make_options
from dyng._result import run_compute

__all__ = ["Options", "Stats", "Result", "compute", "update"]

ALGORITHM = Algorithm(name="pagerank", title="Dynamic PageRank (NetworkX's definition)",
                      family="fixed_point", maturity="stable", determinism="tolerance",
                      backends=("sequential", "openmp"))


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
    frontier's seeds (``frontier_size``; all vertices for a compute), the L1 change of the
    last iteration (``residual``) and the vertices each iteration computed, in order
    (``touched_per_iteration``: an update's frontier rounds, then its full iterations, n each;
    its sum is ``vertices_touched``). ``method`` is "pull_power_iteration" for a compute,
    "frontier_power_iteration" for a repair, "warm_power_iteration" for the fallback (full
    iterations from the previous ranks)."""

    vertices_touched: int = 0
    frontier_size: int = 0
    residual: float = 0.0
    touched_per_iteration: Tuple[int, ...] = ()

    @classmethod
    def _from_native(cls, native, batch=None):
        stats = super()._from_native(native, batch)
        return dataclasses.replace(stats,
                                   touched_per_iteration=tuple(stats.touched_per_iteration))


class Result(ResultBase):
    """PageRank of a graph's vertices, kept current by :func:`update`.

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
        """L1 change of the last full iteration (or an update's bound on it), a Python float."""
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
        Defaults to the graph's resources; the host backends give the same bits.
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

"""Connected components kept current under batches.

``compute`` labels every vertex with the smallest vertex id of its component: weakly connected
components (``kind="weak"``, the default: edge directions ignored; on an undirected graph its
connected components) or strongly connected ones (``kind="strong"``: u and v reach each other;
directed graphs only). The labels are canonical, so ``update`` gives exactly what a fresh
``compute`` gives. ``update`` applies a batch and repairs only the components it touches:
insertions merge components, a deletion searches for another path (for ``"weak"``, from both
ends at once, so it costs about the smaller side) and splits a component only when there is none.

Examples
--------
>>> import dyng
>>> g = dyng.Graph.from_edges([0, 1, 3], [1, 2, 4], directed=False)
>>> r = dyng.components.compute(g)
>>> r.labels.tolist(), r.count
([0, 0, 0, 3, 3], 2)
>>> s = dyng.components.update(g, dyng.EdgeBatch(insert=([2], [3]), delete=([0], [1])), r)
>>> r.labels.tolist(), r.count
([0, 1, 1, 1, 1], 2)
>>> r.component(4).tolist()
[1, 2, 3, 4]
"""

from __future__ import annotations

import dataclasses

import numpy as np

from dyng import _convert, _update
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

__all__ = ["Options", "Stats", "Result", "compute", "update"]

ALGORITHM = Algorithm(
    name="components",
    title="Dynamic connected components (weak and strong)",
    family="fixed_point",
    maturity="stable",
    determinism="bitwise",
    backends=("sequential", "openmp", "cuda"),
)

KINDS = ("weak", "strong")
"""The values of ``Options.kind``."""


@dataclasses.dataclass
class Options(OptionsBase):
    """Options of components.

    Attributes
    ----------
    kind : {"weak", "strong"}
        ``"weak"``: weakly connected components (connected components of an undirected graph);
        ``"strong"``: strongly connected components of a directed graph. Fixed for a result.

    Examples
    --------
    >>> import dyng
    >>> dyng.components.Options(kind="strong").kind
    'strong'
    """

    kind: str = "weak"

    def validate(self) -> None:
        """Checks `kind`.

        Raises
        ------
        InvalidArgumentError
            `kind` is not ``"weak"`` or ``"strong"``.

        Examples
        --------
        >>> import dyng
        >>> try:
        ...     dyng.components.Options(kind="both")
        ... except dyng.InvalidArgumentError as error:
        ...     print(error)
        components.Options(): kind must be "weak" or "strong"; got 'both'
        """
        if self.kind not in KINDS:
            raise InvalidArgumentError(
                f'components.Options(): kind must be "weak" or "strong"; got {self.kind!r}'
            )

    def _to_native(self, native):
        options = native.ComponentsOptions()
        options.kind = self.kind
        return options


@dataclasses.dataclass(frozen=True)
class Stats(StatsBase):
    """What one components compute or update did.

    The common fields are those of every algorithm's Stats (see
    [`StatsBase`][dyng._result.StatsBase]); ``affected`` counts the vertices whose label or
    size entry changed (all vertices, for a compute), ``frontier_visits`` the edges examined.
    ``method`` is "union_find" or "tarjan" for a compute, "two_sided_search" or
    "restricted_tarjan" for a repair on the host; "afforest" or "signatures" for a compute,
    "relink" or "restricted_signatures" for a repair on CUDA.

    Attributes
    ----------
    merged : int
        Components the update merged into others (0 after a fallback to a recompute).
    split : int
        Components the update split off (0 after a fallback to a recompute).
    relabelled : int
        Vertices whose label changed.
    searches : int
        Searches the update ran for another path after deletions.
    search_size : int
        Vertices those searches visited.

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 2], [1, 3], num_vertices=100, directed=False)
    >>> r = dyng.components.compute(g)
    >>> s = dyng.components.update(g, dyng.EdgeBatch(insert=([1], [2])), r)
    >>> s.path, s.merged, s.relabelled, r.count
    ('incremental', 1, 2, 97)
    """

    merged: int = 0
    split: int = 0
    relabelled: int = 0
    searches: int = 0
    search_size: int = 0


class Result(ResultBase):
    """Component labels of a graph, kept current by [`update`][dyng.components.update].

    Attributes
    ----------
    labels : Array
        int64, per vertex: the smallest vertex id of its component.
    sizes : Array
        int64, per vertex id c: the number of vertices labelled c (0 when c is not a label).
    count : int
        The number of components.
    kind : str
        ``"weak"`` or ``"strong"``.
    graph_version : int
        The graph version the result matches.

    Examples
    --------
    >>> import dyng
    >>> r = dyng.components.compute(dyng.Graph.from_edges([0, 2], [1, 3], directed=False))
    >>> r
    components.Result(kind='weak', count=2, num_vertices=4, graph_version=0)
    >>> r.labels.tolist(), r.sizes.tolist()
    ([0, 0, 2, 2], [2, 0, 2, 0])
    """

    _ALGORITHM = ALGORITHM
    _STATS = Stats
    _HOST_STATE = "ComponentsState"
    _DEVICE_STATE = "ComponentsDeviceState"
    _FIXED_FIELDS = ("kind",)

    @property
    def labels(self):
        """int64 labels as a read-only Array."""
        return self._array("labels", np.int64, "components labels")

    @property
    def sizes(self):
        """int64 component sizes, indexed by label, as a read-only Array."""
        return self._array("sizes", np.int64, "components sizes")

    @property
    def count(self):
        """The number of components, as a Python int."""
        return int(self._state.count)

    @property
    def kind(self):
        """``"weak"`` or ``"strong"``."""
        return self._options.kind

    def component(self, v):
        """The vertices of `v`'s component, sorted, as an int64 NumPy array.

        Parameters
        ----------
        v : int
            A vertex of the result.

        Returns
        -------
        numpy.ndarray
            int64 vertex ids, sorted (`v` among them).

        Raises
        ------
        InvalidArgumentError
            `v` is not an integer or not a vertex.

        Examples
        --------
        >>> import dyng
        >>> g = dyng.Graph.from_edges([0, 1, 2], [1, 0, 3])
        >>> dyng.components.compute(g, kind="strong").component(1).tolist()
        [0, 1]
        """
        fn = "components.Result.component"
        n = int(self._state.num_vertices)
        vertex = _convert.as_int(v, fn, "v", minimum=-(2**63), maximum=2**63 - 1)
        if not 0 <= vertex < n:
            raise InvalidArgumentError(
                f"{fn}(): v={vertex} is not a vertex of this result ({n} vertices); pass a vertex "
                f"id in [0, {n})"
            )
        labels = self.labels.to_numpy()
        return np.flatnonzero(labels == labels[vertex]).astype(np.int64)

    def _repr_fields(self):
        return (("kind", self.kind), ("count", self.count))


def compute(graph, *, kind=None, options=None, resources=None, **fields):
    """The components of `graph`.

    Parameters
    ----------
    graph : Graph
        Directed graphs need their in-edges (``store_transposed=True``, the default); weights
        are ignored.
    kind : {"weak", "strong"}, optional
        Overrides ``options.kind`` (default ``"weak"``). ``"strong"`` on an undirected graph
        raises InvalidArgumentError, as NetworkX refuses it: use ``"weak"`` there.
    options : Options, optional
        Default: ``Options()``.
    resources : Resources, optional
        Defaults to the graph's resources; every backend gives the same labels. On CUDA, labels
        and sizes stay in device memory (CuPy and PyTorch read them in place).
    **fields
        Override fields of `options`.

    Returns
    -------
    Result
        The labels, at the graph's current version; keep them current with
        [`update`][dyng.components.update].

    Raises
    ------
    TypeError
        `graph` is not a [`dyng.Graph`][], `options` not an [`Options`][dyng.components.Options],
        `resources` neither a [`dyng.Resources`][] nor a backend name, or a field name is unknown.
    InvalidArgumentError
        `kind` is not valid, ``"strong"`` on an undirected graph, or a directed graph has no
        in-edges.

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1, 2, 3], [1, 2, 0, 4])
    >>> dyng.components.compute(g).labels.tolist()
    [0, 0, 0, 3, 3]
    >>> r = dyng.components.compute(g, kind="strong")
    >>> r.labels.tolist(), r.count, r.sizes.tolist()
    ([0, 0, 0, 3, 4], 3, [3, 0, 0, 1, 1])
    """
    fn = "components.compute"
    if kind is not None:
        fields = {**fields, "kind": kind}
    opts = make_options(fn, Options, options, fields)
    check_graph_argument(fn, graph)
    return run_compute(Result, fn, graph, opts, resources)


def update(graph, batch, result, *, resources=None):
    """Applies `batch` to `graph` and repairs `result`'s labels, sizes and count; equal to a
    fresh compute, bit for bit.

    [`dyng.update`][] with one result: an invalid batch or a stale result raises and changes
    neither the graph nor the result.

    Parameters
    ----------
    graph : Graph
        The graph `result` was computed on.
    batch : EdgeBatch
        The changes (weights are ignored).
    result : Result
        A current components result of `graph` (at its version).
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
    >>> g = dyng.Graph.from_edges([0, 1, 2], [1, 2, 0], num_vertices=100)
    >>> r = dyng.components.compute(g, kind="strong")
    >>> s = dyng.components.update(g, dyng.EdgeBatch(delete=([2], [0])), r)
    >>> r.labels.tolist()[:4], r.count, s.split, s.path
    ([0, 1, 2, 3], 100, 2, 'incremental')

    On a graph this small a repair is dearer than a recompute, which the update then runs
    (``s.path == "recompute"``; the repair's counters stay 0):

    >>> g = dyng.Graph.from_edges([0, 1, 2], [1, 2, 0])
    >>> r = dyng.components.compute(g, kind="strong")
    >>> s = dyng.components.update(g, dyng.EdgeBatch(delete=([2], [0])), r)
    >>> r.labels.tolist(), s.path, s.split
    ([0, 1, 2], 'recompute', 0)
    """
    return _update.update_one("components", Result, graph, batch, result, resources)

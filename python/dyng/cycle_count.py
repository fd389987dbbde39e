"""Exact histograms of directed simple cycles, kept current under batches (spec section 6).

``compute`` counts the simple directed cycles of every length 2..bound, each cycle once; a
2-cycle is a pair of opposite edges, self-loops are ignored, weights too. ``update`` applies a
batch and changes the counts by the cycles through its changed edges only: those through deleted
edges counted on the graph before the batch, those through inserted edges on the graph after
it, each cycle once however many changed edges it holds.

Examples
--------
>>> import dyng
>>> g = dyng.Graph.from_edges([0, 1, 2, 1], [1, 2, 0, 0], properties="cycle_enum_compatible")
>>> r = dyng.cycle_count.compute(g)
>>> r.to_dict(), r.total
({2: 1, 3: 1}, 2)
>>> stats = dyng.cycle_count.update(g, dyng.EdgeBatch(insert=([2], [1])), r)
>>> r.to_dict(), stats.cycles_added
({2: 2, 3: 1}, 1)
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

__all__ = ["UNBOUNDED", "Options", "Stats", "Result", "compute", "update"]

UNBOUNDED = -1
"""``max_length`` for no limit (the bound is then max(n, 2))."""

ALGORITHM = Algorithm(
    name="cycle_count",
    title="Dynamic simple-cycle histograms",
    family="aggregate_delta",
    maturity="stable",
    determinism="exact_value",
    backends=("sequential", "openmp", "cuda"),
    cite=("trucy2026",),
)

_CHOICES = {
    "method": ("johnson",),
    "mode": ("simple",),
    "cuda_engine": ("automatic", "fused", "operators"),
    "scheduler": ("work_queue", "naive"),
    "work_items": ("automatic", "roots", "edges", "two_hop"),
}


@dataclasses.dataclass
class Options(OptionsBase):
    """Options of cycle_count.

    Attributes
    ----------
    max_length : int
        The longest cycle counted (>= 2), or -1 (UNBOUNDED) for every length up to n. The CUDA
        backend counts cycles of up to 64 edges (NotSupportedError beyond).
    method : {"johnson"}
        The enumeration: Johnson's simple-cycle search from each cycle's smallest vertex.
    mode : {"simple"}
        What is counted: simple cycles.
    cuda_engine : {"automatic", "fused", "operators"}
        Accepted and checked as in 0.2 (see `work_items`).
    scheduler : {"work_queue", "naive"}
        Accepted and checked as in 0.2 (see `work_items`).
    work_items : {"automatic", "roots", "edges", "two_hop"}
        Accepted and checked as in 0.2; every backend counts each cycle from its smallest vertex
        and balances the work its own way (the host backends by roots and their first edges, the
        CUDA backend by paths of two edges and a shared work queue), whatever `cuda_engine`,
        `scheduler` and `work_items` say.

    Examples
    --------
    >>> import dyng
    >>> dyng.cycle_count.Options(max_length=5).max_length
    5
    """

    max_length: int = UNBOUNDED
    method: str = "johnson"
    mode: str = "simple"
    cuda_engine: str = "automatic"
    scheduler: str = "work_queue"
    work_items: str = "automatic"

    def validate(self) -> None:
        """Checks every field.

        Raises
        ------
        InvalidArgumentError
            Naming the first field whose value is not valid (a `max_length` of 0 or 1, a choice
            that is not one of the listed strings).

        Examples
        --------
        >>> import dyng
        >>> try:
        ...     dyng.cycle_count.Options(max_length=1)
        ... except dyng.InvalidArgumentError as error:
        ...     print(error)
        cycle_count.Options(): max_length=1 is not valid; pass -1 (no limit) or a length >= 2
        """
        fn = "cycle_count.Options"
        self.max_length = _convert.as_int(
            self.max_length, fn, "max_length", minimum=-1, maximum=2**62
        )
        if self.max_length in (0, 1):
            raise InvalidArgumentError(
                f"{fn}(): max_length={self.max_length} is not valid; pass -1 (no limit) or a "
                f"length >= 2"
            )
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if not isinstance(value, str) or value not in allowed:
                raise InvalidArgumentError(
                    f"{fn}(): {name}={value!r} is not valid; use "
                    + " or ".join(repr(a) for a in allowed)
                )

    def _to_native(self, native):
        return native.CycleCountOptions(self.max_length)


@dataclasses.dataclass(frozen=True)
class Stats(StatsBase):
    """What one cycle_count compute or update did.

    The common fields are those of every algorithm's Stats (see
    [`StatsBase`][dyng._result.StatsBase]); ``affected`` counts the lengths whose count changed,
    ``frontier_visits`` the changed edges searched (the roots, for a compute).

    Attributes
    ----------
    deletions : int
        The batch's deleted edges.
    insertions : int
        The batch's inserted edges, net of edges it also deleted.
    cycles_removed : int
        Cycles through the deleted edges (counted on the graph before the batch).
    cycles_added : int
        Cycles through the inserted edges (counted on the graph after the batch).

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1], [1, 2])
    >>> r = dyng.cycle_count.compute(g)
    >>> s = dyng.cycle_count.update(g, dyng.EdgeBatch(insert=([2, 1], [0, 0])), r)
    >>> s.insertions, s.cycles_added, r.to_dict()
    (2, 2, {2: 1, 3: 1})
    """

    deletions: int = 0
    insertions: int = 0
    cycles_removed: int = 0
    cycles_added: int = 0


class Result(ResultBase):
    """A histogram of simple cycles by length, kept current by [`update`][dyng.cycle_count.update].

    Attributes
    ----------
    counts : Array
        uint64, ``bound + 1`` entries; ``counts[l]`` is the number of cycles of length l
        (``counts[0] == counts[1] == 0``).
    bound : int
        The longest length counted: min(max_length, max(n, 2)), or max(n, 2) without a limit.
    total : int
        Cycles of every length.
    graph_version : int
        The graph version the result matches.

    Examples
    --------
    >>> import dyng
    >>> r = dyng.cycle_count.compute(dyng.Graph.from_edges([0, 1, 2, 1], [1, 2, 0, 0]))
    >>> r
    cycle_count.Result(counts={2: 1, 3: 1}, num_vertices=3, graph_version=0)
    >>> r.bound, r.total
    (3, 2)
    """

    _ALGORITHM = ALGORITHM
    _STATS = Stats
    _HOST_STATE = "CycleCountState"
    _DEVICE_STATE = "CycleCountDeviceState"
    _FIXED_FIELDS = ("max_length",)

    @property
    def counts(self):
        """The uint64 histogram as a read-only Array (in host memory for every backend: it is
        bound + 1 numbers, which every reader wants on the host)."""
        return self._array("counts", np.uint64, "cycle_count counts", host_only=True)

    @property
    def bound(self):
        """The longest cycle length the histogram covers."""
        return len(self.counts) - 1

    def count(self, length):
        """Cycles of `length` edges.

        Parameters
        ----------
        length : int
            A cycle length; any integer (0 outside 2..bound).

        Returns
        -------
        int
            The count, as a Python int.

        Raises
        ------
        InvalidArgumentError
            `length` is not an integer.

        Examples
        --------
        >>> import dyng
        >>> r = dyng.cycle_count.compute(dyng.Graph.from_edges([0, 1, 2, 1], [1, 2, 0, 0]))
        >>> r.count(2), r.count(3), r.count(7)
        (1, 1, 0)
        """
        length = _convert.as_int(length, "cycle_count.Result.count", "length")
        counts = self.counts.to_numpy(copy=False)
        return int(counts[length]) if 0 <= length < len(counts) else 0

    @property
    def total(self):
        """Cycles of every length, as a Python int (no wrap-around)."""
        return sum(int(c) for c in self.counts.to_numpy(copy=False))

    def to_dict(self):
        """The histogram as a dict, without the lengths that have no cycle.

        Returns
        -------
        dict of int to int
            {length: count} for the lengths with at least one cycle, in increasing length.

        Examples
        --------
        >>> import dyng
        >>> dyng.cycle_count.compute(dyng.Graph.from_edges([0, 1], [1, 0])).to_dict()
        {2: 1}
        """
        counts = self.counts.to_numpy(copy=False)
        return {int(length): int(counts[length]) for length in np.flatnonzero(counts)}

    def _repr_fields(self):
        return (("counts", self.to_dict()),)


def compute(graph, *, options=None, resources=None, **fields):
    """The histogram of simple directed cycles of `graph`.

    Parameters
    ----------
    graph : Graph
        int32 ids, sorted rows, no parallel edges (``properties="cycle_enum_compatible"`` or the
        default properties); weights are ignored.
    options : Options, optional
        Default: ``Options()``.
    resources : Resources, optional
        Defaults to the graph's resources.
    **fields
        Override fields of `options` (max_length, ...).

    Returns
    -------
    Result
        The histogram, at the graph's current version; keep it current with
        [`update`][dyng.cycle_count.update].

    Raises
    ------
    TypeError
        `graph` is not a [`dyng.Graph`][], `options` not an [`Options`][dyng.cycle_count.Options],
        `resources` neither a [`dyng.Resources`][] nor a backend name, or a field name is unknown.
    InvalidArgumentError
        A field value is not valid, or the graph's rows are not sorted or it may have parallel
        edges.
    NotSupportedError
        The graph has 64-bit ids, or (on the CUDA backend) the bound is above 64 edges.
    CapacityError
        A count exceeds 2**64 - 1.

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1, 1, 2, 2, 3], [1, 2, 0, 3, 0, 0])
    >>> dyng.cycle_count.compute(g).to_dict()
    {2: 1, 3: 1, 4: 1}
    >>> dyng.cycle_count.compute(g, max_length=3).counts.tolist()
    [0, 0, 1, 1]
    """
    fn = "cycle_count.compute"
    opts = make_options(fn, Options, options, fields)
    check_graph_argument(fn, graph)
    return run_compute(Result, fn, graph, opts, resources)


def update(graph, batch, result, *, resources=None):
    """Applies `batch` to `graph` and updates `result`'s counts; equal to a fresh compute.

    [`dyng.update`][] with one result: an invalid batch or a stale result raises and changes
    neither the graph nor the result.

    Parameters
    ----------
    graph : Graph
        The graph `result` was computed on.
    batch : EdgeBatch
        The changes (weights are ignored).
    result : Result
        A current cycle_count result of `graph` (at its version).
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
    NotSupportedError
        On the CUDA backend, a bound above 64 edges (a batch that adds vertices to an unbounded
        result).
    CapacityError
        A count exceeds 2**64 - 1.

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1], [1, 0])
    >>> r = dyng.cycle_count.compute(g)
    >>> s = dyng.cycle_count.update(g, dyng.EdgeBatch(insert=([1, 2], [2, 0])), r)
    >>> r.to_dict(), r.bound, (s.cycles_removed, s.cycles_added)
    ({2: 1, 3: 1}, 3, (0, 1))
    """
    return _update.update_one("cycle_count", Result, graph, batch, result, resources)

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

#: ``max_length`` for no limit (the bound is then max(n, 2)).
UNBOUNDED = -1

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
        The longest cycle counted (>= 2), or -1 (UNBOUNDED) for every length up to n.
    method : {"johnson"}
    mode : {"simple"}
    cuda_engine : {"automatic", "fused", "operators"}
    scheduler : {"work_queue", "naive"}
    work_items : {"automatic", "roots", "edges", "two_hop"}
        Accepted and checked as in 0.2; every backend counts each cycle from its smallest vertex
        and balances the work its own way (the host backends by roots and their first edges, the
        CUDA backend by paths of two edges and a shared work queue), whatever they say. The CUDA
        backend counts cycles of up to 64 edges (NotSupportedError beyond).

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

    def validate(self):
        """Raises InvalidArgumentError naming the first bad field."""
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
    """What one compute or update did: the common fields (``affected``: lengths whose count
    changed; ``frontier_visits``: changed edges searched, or roots for a compute) and the
    batch's counters (``deletions``, ``insertions`` net of edges also deleted, and the cycles
    they removed and added)."""

    deletions: int = 0
    insertions: int = 0
    cycles_removed: int = 0
    cycles_added: int = 0


class Result(ResultBase):
    """A histogram of simple cycles by length, kept current by :func:`update`.

    Attributes
    ----------
    counts : Array
        uint64, ``bound + 1`` entries; ``counts[l]`` is the number of cycles of length l
        (``counts[0] == counts[1] == 0``).
    bound : int
        The longest length counted: min(max_length, max(n, 2)), or max(n, 2) without a limit.
    total : int
    graph_version : int
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
        """Cycles of `length` edges (0 for a length outside 2..bound)."""
        length = _convert.as_int(length, "cycle_count.Result.count", "length")
        counts = self.counts.to_numpy(copy=False)
        return int(counts[length]) if 0 <= length < len(counts) else 0

    @property
    def total(self):
        """Cycles of every length, as a Python int (no wrap-around)."""
        return sum(int(c) for c in self.counts.to_numpy(copy=False))

    def to_dict(self):
        """{length: count} for the lengths with at least one cycle."""
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
    resources : Resources, optional
        Defaults to the graph's resources.
    **fields
        Override fields of `options` (max_length, ...).

    Returns
    -------
    Result

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

    An invalid batch or a stale result raises and changes neither the graph nor the result.

    Returns
    -------
    Stats

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

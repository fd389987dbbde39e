"""The original tools' seeded batch generators, batch for batch (spec section 8).

Benchmarks of MOSP-OpenMP/MOSP-CUDA and CycleEnumeration-GPU were run on batches that their
generators draw from a seed. These functions replay the same std::mt19937 / std::mt19937_64
streams through the same standard distributions, so the same graph, arguments and seed give the
same batch, edge for edge and in the same order, as the tools and as dyng 0.2.0.

Both read the graph's rows in [`dyng.Graph.to_csr`][] order, as the tools read their CSR files.

Examples
--------
>>> import dyng
>>> from dyng.generators import legacy
>>> g = dyng.Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 0], [3, 4, 5, 6])
>>> batch, report = legacy.mosp_changes(g, num_changes=2)
>>> report.summary
'inserts=1 reweights=0 deletes=1'
"""

from __future__ import annotations

import dataclasses
from typing import Literal

import numpy as np

from dyng import _backend
from dyng._batch import EdgeBatch
from dyng._errors import InvalidArgumentError, NotSupportedError
from dyng._graph import Graph

__all__ = ["MospChangeReport", "mosp_changes", "cycle_enum_batch"]

_MODES = ("uniform", "targeted", "reweight", "increase")
_INT32 = (-(2**31), 2**31 - 1)
_INT64 = (-(2**63), 2**63 - 1)
_UINT32 = (0, 2**32 - 1)
_UINT64 = (0, 2**64 - 1)


@dataclasses.dataclass(frozen=True)
class MospChangeReport:
    """What mospPrep's change generator reports about a batch.

    Attributes
    ----------
    inserts : int
        Insertions of drawn vertex pairs.
    reweights : int
        Insertions that overwrite the weights of an existing edge (modes reweight, increase).
    deletes : int
        Deletions in the batch.
    requested_deletes : int
        Deletions drawn, before ``safe_deletions`` dropped any.
    safe_rounds : int
        Rounds of the safety filter (0 without it).
    safe : bool
        Whether ``safe_deletions`` was on.
    centre : int
        The drawn centre of the local region, -1 without ``local_hops``.
    local_hops : int
        The region's radius, 0 without one.
    region : int
        Vertices in the region, 0 without one.
    summary : str
        The tool's one-line report, e.g. ``inserts=2 reweights=0 deletes=2``.

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 0], [3, 4, 5, 6])
    >>> _, report = dyng.generators.legacy.mosp_changes(g, num_changes=3, mode="reweight")
    >>> (report.inserts, report.reweights, report.deletes)
    (0, 3, 0)
    """

    inserts: int
    reweights: int
    deletes: int
    requested_deletes: int
    safe_rounds: int
    safe: bool
    centre: int
    local_hops: int
    region: int
    summary: str


def _check_graph(fn, graph):
    if not isinstance(graph, Graph):
        raise TypeError(f"{fn}(): graph must be a dyng.Graph; got {type(graph).__name__}")


def _integer(fn, name, value, bounds):
    """An exact int; outside the tool's type (`bounds`) it is a TypeError, as in 0.2.0."""
    if isinstance(value, (bool, np.bool_)):
        raise InvalidArgumentError(f"{fn}(): {name}={value!r} is a bool; pass an integer")
    try:
        result = int(value.__index__())
    except (AttributeError, TypeError):
        raise InvalidArgumentError(
            f"{fn}(): {name}={value!r} is a {type(value).__name__}, not an integer; pass an integer"
        ) from None
    low, high = bounds
    if not low <= result <= high:
        raise TypeError(
            f"{fn}(): {name}={result} does not fit the generator's range [{low}, {high}]; pass a "
            f"value inside it"
        )
    return result


def _flag(fn, name, value):
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidArgumentError(
            f"{fn}(): {name}={value!r} is a {type(value).__name__}; pass True or False"
        )
    return bool(value)


def _percentage(fn, value):
    # Whatever float() takes, as in 0.2.0 (numbers and strings that spell one); a string that
    # does not is a ValueError there, anything else a TypeError.
    hint = f"{fn}(): insertion_percentage={value!r} is not a number; pass a percentage such as 50.0"
    try:
        return float(value)
    except ValueError:
        raise InvalidArgumentError(hint) from None
    except TypeError:
        raise TypeError(hint) from None


def mosp_changes(
    graph: Graph,
    *,
    num_changes: int,
    insertion_percentage: float = 50.0,
    mode: Literal["uniform", "targeted", "reweight", "increase"] = "uniform",
    weight_min: int = 1,
    weight_max: int = 100,
    seed: int = 1,
    local_hops: int = 0,
    safe_deletions: bool = False,
    source: int = 0,
) -> tuple[EdgeBatch, MospChangeReport]:
    """A batch as mospPrep's ``changes`` draws it (MOSP-OpenMP / MOSP-CUDA change generator).

    Parameters
    ----------
    graph : Graph
        A weighted graph (K >= 1 objectives) with at least 2 vertices.
    num_changes : int
        Changes to draw (>= 0).
    insertion_percentage : float
        Modes uniform and targeted: the share of insertions, rounded to the nearest count; the
        rest are deletions.
    mode : {"uniform", "targeted", "reweight", "increase"}
        uniform: random vertex pairs with weights in [weight_min, weight_max], deletions of
        existing edges drawn with replacement. targeted: insertions lighter than the graph's
        average weight, deletions of distinct shortest-path-tree edges from ``source``. reweight:
        new random weights on existing edges, drawn with replacement. increase: every weight of
        a distinct tree edge raised by a random amount in [1, weight_max].
    weight_min, weight_max : int
        Weight range (1 <= weight_min <= weight_max).
    seed : int
        Seed of the std::mt19937 stream, in [0, 2**32).
    local_hops : int
        > 0: every endpoint lies within this many hops (either direction) of a random centre.
    safe_deletions : bool
        Drop deletions until no vertex reachable from ``source`` is cut off by the batch.
    source : int
        The vertex of the shortest-path trees and of the safety filter.

    Returns
    -------
    (EdgeBatch, MospChangeReport)
        Insertions first the drawn pairs, then the re-weighted edges; ids in the graph's vertex
        dtype, weights (n, K) int32.

    Raises
    ------
    NotSupportedError
        The graph is unweighted.
    InvalidArgumentError
        An argument outside the tool's domain, a local region of fewer than 2 vertices, or no
        edge to delete or re-weight.
    TypeError
        `graph` is not a [`dyng.Graph`][], or an integer is outside the tool's type (seed
        outside [0, 2**32), weights outside int32).

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 0], [3, 4, 5, 6])
    >>> batch, report = dyng.generators.legacy.mosp_changes(g, num_changes=2, seed=1)
    >>> batch.insert_src.tolist(), batch.insert_dst.tolist(), batch.insert_weights.tolist()
    ([1], [3], [[94]])
    >>> batch.delete_src.tolist(), batch.delete_dst.tolist()
    ([2], [3])
    """
    fn = "mosp_changes"
    _check_graph(fn, graph)
    k = graph.num_weights
    if k == 0:  # refused before any argument is looked at, as 0.2.0 does
        raise NotSupportedError(
            f"{fn}(): the graph is unweighted but MOSP's generator draws weights for its "
            f"objectives; build the graph with weights"
        )
    num_changes = _integer(fn, "num_changes", num_changes, _INT64)
    percentage = _percentage(fn, insertion_percentage)
    if not isinstance(mode, str) or mode not in _MODES:
        raise InvalidArgumentError(
            f"{fn}(): mode={mode!r} is not a mode; use one of {', '.join(map(repr, _MODES))}"
        )
    weight_min = _integer(fn, "weight_min", weight_min, _INT32)
    weight_max = _integer(fn, "weight_max", weight_max, _INT32)
    seed = _integer(fn, "seed", seed, _UINT32)
    local_hops = _integer(fn, "local_hops", local_hops, _INT64)
    safe = _flag(fn, "safe_deletions", safe_deletions)
    source = _integer(fn, "source", source, _INT64)
    ins_src, ins_dst, ins_w, del_src, del_dst, counts = _backend.native().legacy_mosp_changes(
        graph._native,
        num_changes,
        percentage,
        mode,
        weight_min,
        weight_max,
        seed,
        local_hops,
        safe,
        source,
    )
    batch = EdgeBatch(insert=(ins_src, ins_dst, ins_w.reshape(-1, k)), delete=(del_src, del_dst))
    report = MospChangeReport(
        inserts=counts.inserts,
        reweights=counts.reweights,
        deletes=counts.deletes,
        requested_deletes=counts.requested_deletes,
        safe_rounds=counts.safe_rounds,
        safe=safe,
        centre=counts.centre,
        local_hops=local_hops if counts.centre >= 0 else 0,
        region=counts.region,
        summary=counts.summary,
    )
    return batch, report


def cycle_enum_batch(
    graph: Graph,
    *,
    num_deletions: int = 0,
    num_insertions: int = 0,
    seed: int = 0,
    locality_window: int | None = None,
) -> EdgeBatch:
    """A batch as CycleEnumeration-GPU's batch generator draws it.

    Parameters
    ----------
    graph : Graph
        Any graph; with changes asked for, at least 2 vertices.
    num_deletions : int
        Distinct stored edges to delete (>= 0), drawn by one shuffle of the edges.
    num_insertions : int
        Distinct non-edges to insert (>= 0), self-loops excluded.
    seed : int
        Seed of the std::mt19937_64 stream, in [0, 2**64).
    locality_window : int, optional
        Confine both endpoints of every change to a seeded window of this many consecutive ids
        (at least 2); None, a negative value or one >= n for all ids.

    Returns
    -------
    EdgeBatch
        Deletions and insertions, each sorted by (src, dst); ids in the graph's vertex dtype;
        on a weighted graph every insertion has weight 1 in each of the K columns.

    Raises
    ------
    InvalidArgumentError
        A negative count, fewer than 2 vertices, or too few edges or non-edges in the window.
    TypeError
        `graph` is not a [`dyng.Graph`][], or an integer is outside the tool's type (seed
        outside [0, 2**64)).

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 0])
    >>> b = dyng.generators.legacy.cycle_enum_batch(g, num_deletions=1, num_insertions=1)
    >>> b.delete_src.tolist(), b.delete_dst.tolist(), b.insert_src.tolist(), b.insert_dst.tolist()
    ([1], [2], [0], [2])
    """
    fn = "cycle_enum_batch"
    _check_graph(fn, graph)
    num_deletions = _integer(fn, "num_deletions", num_deletions, _INT64)
    num_insertions = _integer(fn, "num_insertions", num_insertions, _INT64)
    seed = _integer(fn, "seed", seed, _UINT64)
    if locality_window is not None:
        locality_window = _integer(fn, "locality_window", locality_window, _INT64)
    ins_src, ins_dst, del_src, del_dst = _backend.native().legacy_cycle_enum_batch(
        graph._native, num_deletions, num_insertions, seed, locality_window
    )
    k = graph.num_weights
    if k == 0:
        return EdgeBatch(insert=(ins_src, ins_dst), delete=(del_src, del_dst))
    weights = np.ones((len(ins_src), k), dtype=np.int32)
    return EdgeBatch(insert=(ins_src, ins_dst, weights), delete=(del_src, del_dst))

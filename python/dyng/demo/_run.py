"""The demo's loop: per batch and graph, one ``dyng.update`` repairs every result on the graph
(one apply), then each result is checked against a fresh compute on the changed graph.

Times come from dyng's profiler (the C++ core's stages), so an update's time is its own repair
(``<algorithm>.repair``), a recompute's its ``<algorithm>.compute``, and the batch's apply
(``graph.apply``, which a recompute needs as much as an update) is kept apart. On CUDA each stage
waits for its device work, so the times include it.
"""

from __future__ import annotations

import dataclasses

from dyng.demo import _checks

__all__ = ["Series", "Measurements", "run"]


@dataclasses.dataclass
class Series:
    """One tracked result over the batches."""

    label: str
    workload: str
    update_ms: list = dataclasses.field(default_factory=list)
    recompute_ms: list = dataclasses.field(default_factory=list)
    failures: list = dataclasses.field(default_factory=list)  # "batch i: what differs"
    fell_back: list = dataclasses.field(default_factory=list)  # batches whose update recomputed

    @property
    def all_equal(self):
        return not self.failures


@dataclasses.dataclass
class Measurements:
    series: list
    apply_ms: dict  # workload name: ms per batch
    first_compute_ms: dict  # label: ms of the compute before the first batch
    batch_sizes: dict  # workload name: changes per batch (insertions + deletions)


def run(workloads, batches, bar, *, sync_device):
    """Streams `batches` batches into every workload; returns the ``Measurements``.

    `bar` is advanced once per batch (all graphs); `sync_device` makes each profiled stage
    wait for the device (CUDA), so its time includes the device work.
    """
    import dyng

    measurements = Measurements([], {}, {}, {})
    current = []
    for workload in workloads:
        results = []
        for tracked in workload.tracked:
            with dyng.profile(sync_stages=sync_device) as prof:
                results.append(tracked.compute(workload.graph))
            measurements.first_compute_ms[tracked.label] = _stage_ms(prof, tracked, "compute")[0]
            measurements.series.append(Series(tracked.label, workload.name))
        measurements.apply_ms[workload.name] = []
        measurements.batch_sizes[workload.name] = []
        current.append(results)
    for index in range(batches):
        position = 0
        for workload, results in zip(workloads, current):
            count = len(workload.tracked)
            _step(
                workload,
                results,
                measurements,
                measurements.series[position : position + count],
                index,
                sync_device,
            )
            position += count
        bar.advance()
    return measurements


def _step(workload, results, measurements, series, index, sync_device):
    """One batch on one graph: the update of all its results, then a fresh compute of each."""
    import dyng

    batch = workload.events.next_batch()
    measurements.batch_sizes[workload.name].append(batch.num_insertions + batch.num_deletions)
    with dyng.profile(sync_stages=sync_device) as prof:
        stats = dyng.update(workload.graph, batch, *results)
    measurements.apply_ms[workload.name].append(sum(_named_ms(prof, "graph.apply")))
    repairs = _repair_ms(prof, workload.tracked)
    for tracked, result, row, repair_ms, done in zip(
        workload.tracked, results, series, repairs, stats
    ):
        if done.fallback_used:  # over the repair's work budget: the update recomputed
            row.fell_back.append(index + 1)
        with dyng.profile(sync_stages=sync_device) as prof:
            fresh = tracked.compute(workload.graph)
        row.update_ms.append(repair_ms)
        row.recompute_ms.append(_stage_ms(prof, tracked, "compute")[0])
        bound = tracked.l1_bound(workload.graph, fresh) if tracked.l1_bound else None
        problem = _checks.differences(
            _checks.host_answers(tracked, result), _checks.host_answers(tracked, fresh), bound
        )
        if problem is not None:
            row.failures.append(f"batch {index + 1}: {problem}")


def _named_ms(prof, name):
    return [sample.host_ms for sample in prof.samples if sample.name == name]


def _stage_ms(prof, tracked, step):
    """The times of the outermost ``<algorithm>.<step>`` stages, in the order they ran."""
    name = f"{tracked.algorithm}.{step}"
    samples = [s for s in prof.samples if s.name == name]
    depth = min((s.depth for s in samples), default=0)
    times = [s.host_ms for s in samples if s.depth == depth]
    if not times:
        raise RuntimeError(
            f"dyng demo: the profile holds no {name} stage; the stage names "
            f"changed, so dyng/demo/_run.py must follow them"
        )
    return times


def _repair_ms(prof, tracked_list):
    """Each result's repair time within one dyng.update: the k-th result of an algorithm owns
    the k-th ``<algorithm>.repair`` stage (dyng.update repairs them in the order given)."""
    by_algorithm = {}
    times = []
    for tracked in tracked_list:
        if tracked.algorithm not in by_algorithm:
            by_algorithm[tracked.algorithm] = _stage_ms(prof, tracked, "repair")
        times.append(by_algorithm[tracked.algorithm].pop(0))
    return times

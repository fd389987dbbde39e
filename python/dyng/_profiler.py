"""dyng.profile(): stage timings of the calls one thread makes with one Resources (spec section 8).

The stages are recorded by the C++ core (src/dyng/backend/profile.hpp) for every backend: a
profile attaches a native session to the execution handle that the Resources (and all its
copies) keep for the thread that opened the profile, and every native call that thread makes
with them records its stages there. Calls of other threads are not recorded, so threads that
profile the same resources at the same time each see their own stages. Profiles nest: the
innermost one a thread has open on a Resources receives the stages, the outer ones resume when
it closes.

Examples
--------
>>> import dyng
>>> g = dyng.Graph.from_edges([0, 1], [1, 2], [1, 1])
>>> with dyng.profile() as prof:
...     result = dyng.sssp.compute(g, 0)
>>> [stage.name for stage in prof.stages if stage.depth == 0]
['sssp.compute']
>>> prof.total_host_ms("sssp.compute") > 0
True
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Iterator

from dyng import _backend, _log, _resources

__all__ = ["Profiler", "StageRecord", "StageSample", "profile"]


@dataclasses.dataclass(frozen=True)
class StageRecord:
    """One stage summed over its calls: a (name, depth) pair, in the order stages first began."""

    name: str
    depth: int
    calls: int
    host_ms: float
    device_ms: float


@dataclasses.dataclass(frozen=True)
class StageSample:
    """One run of a stage. ``start_ms`` counts from the profile's start (or last reset)."""

    name: str
    depth: int
    host_ms: float
    device_ms: float
    start_ms: float = dataclasses.field(default=0.0, kw_only=True)


class Profiler:
    """What one ``dyng.profile()`` block collected (it keeps it after the block ends).

    Parameters
    ----------
    sync_stages : bool
        Wait for the CUDA stream at the end of each stage, so ``host_ms`` includes its device
        work (slower; host backends ignore it).
    nvtx : bool
        Push an NVTX range per stage, so the stages show in Nsight Systems (CUDA plugin builds).
    cuda_events : bool
        Time each stage of a CUDA call with events on its stream (``device_ms``).
    """

    def __init__(self, *, sync_stages=False, nvtx=False, cuda_events=False):
        self._options = (bool(sync_stages), bool(nvtx), bool(cuda_events))
        self._native = None
        self._module = None

    # The native session is made on first use, from the native module chosen then.
    def _session(self):
        if self._native is None:
            self._module = _backend.native()
            sync_stages, nvtx, cuda_events = self._options
            self._native = self._module.ProfileSession(
                sync_stages=sync_stages, nvtx=nvtx, cuda_events=cuda_events
            )
            if nvtx and not self._module.nvtx_available():
                _log.log(
                    "warn",
                    lambda: (
                        "profile(nvtx=True): this native module emits no NVTX ranges (NVTX comes "
                        'with the CUDA plugins: pip install "dyng[cu13]"); the stages are timed '
                        "without them"
                    ),
                )
        return self._native

    @property
    def samples(self):
        """list of StageSample, in the order the stages ended."""
        if self._native is None:
            return []
        return [
            StageSample(name, depth, host_ms, device_ms, start_ms=start_ms)
            for name, depth, _, start_ms, host_ms, device_ms in self._native.samples()
        ]

    @property
    def stages(self):
        """list of StageRecord: the samples summed per (name, depth), in first-begin order."""
        if self._native is None:
            return []
        totals = {}
        for name, depth, begin_index, _, host_ms, device_ms in self._native.samples():
            key = (name, depth)
            first, calls, host, device = totals.get(key, (begin_index, 0, 0.0, 0.0))
            totals[key] = (min(first, begin_index), calls + 1, host + host_ms, device + device_ms)
        ordered = sorted(totals.items(), key=lambda item: item[1][0])
        return [
            StageRecord(name, depth, calls, host, device)
            for (name, depth), (_, calls, host, device) in ordered
        ]

    @property
    def counters(self):
        """dict of counter name to total (e.g. ``graph.apply.entries``, ``update.recomputes``)."""
        if self._native is None:
            return {}
        return dict(self._native.counters())

    def total_host_ms(self, name):
        """Host milliseconds of every run of stage `name`, at any depth (0 if it never ran)."""
        return sum(record.host_ms for record in self.stages if record.name == name)

    def reset(self):
        """Forgets every sample and counter; the clock of ``start_ms`` starts again."""
        if self._native is not None:
            self._native.reset()

    def to_csv(self):
        """``kind,name,value`` lines: one ``stage`` line per sample (host ms), then counters."""
        lines = ["kind,name,value"]
        lines += [f"stage,{s.name},{s.host_ms:.6f}" for s in self.samples]
        lines += [f"counter,{name},{value}" for name, value in self.counters.items()]
        return "\n".join(lines) + "\n"

    def to_json(self):
        """The stage records and counters as a JSON object (milliseconds with 6 decimals)."""
        stages = ", ".join(
            f'{{"name": {json.dumps(r.name)}, "depth": {r.depth}, "calls": {r.calls}, '
            f'"host_ms": {r.host_ms:.6f}, "device_ms": {r.device_ms:.6f}}}'
            for r in self.stages
        )
        counters = ", ".join(
            f'{{"name": {json.dumps(name)}, "value": {value}}}'
            for name, value in self.counters.items()
        )
        return f'{{"stages": [{stages}], "counters": [{counters}]}}'

    def to_dataframe(self):
        """The stage records as a pandas DataFrame (needs pandas)."""
        try:
            import pandas
        except ImportError:
            raise ImportError("Profiler.to_dataframe() needs pandas (pip install pandas)") from None
        return pandas.DataFrame(
            [dataclasses.asdict(r) for r in self.stages],
            columns=["name", "depth", "calls", "host_ms", "device_ms"],
        )

    def plot(self, *, ax=None, path=None, title=None):
        """A timeline of the samples (one row per depth) as a matplotlib Figure; with `path`,
        also written there as PNG. Needs matplotlib (``pip install "dyng[plot]"``)."""
        from dyng import _plots

        return _plots.stage_timeline(self.samples, ax=ax, path=path, title=title)

    def __repr__(self):
        return f"dyng.Profiler({len(self.stages)} stages)"


@contextlib.contextmanager
def profile(
    resources=None, *, sync_stages=False, nvtx=False, cuda_events=False
) -> Iterator[Profiler]:
    """Records the stages of every call this thread makes with `resources` inside the block.

    Parameters
    ----------
    resources : Resources, optional
        Whose calls to record (all copies of it), when this thread makes them; default: the
        process default resources, which graphs and results made without ``resources=`` use.
    sync_stages, nvtx, cuda_events : bool
        As for :class:`Profiler`.

    Yields
    ------
    Profiler
    """
    if resources is None:
        resources = _resources.get_default_resources()
    elif not isinstance(resources, _resources.Resources):
        raise TypeError("resources must be a dyng.Resources")
    profiler = Profiler(sync_stages=sync_stages, nvtx=nvtx, cuda_events=cuda_events)
    session = profiler._session()
    resources._attach_profiler(session)
    try:
        yield profiler
    finally:
        resources._detach_profiler(session)


def stage(execution, name):
    """A Python-level stage on `execution`'s profile (a no-op context when none is attached)."""
    if not execution.profiling:
        return contextlib.nullcontext()
    return _backend.native().ProfileStage(execution, name)

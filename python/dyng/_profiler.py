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
    """One stage summed over its calls: a (name, depth) pair, in the order stages first began.

    [`dyng.Profiler.stages`][] lists them.

    Attributes
    ----------
    name : str
        The stage, ``<algorithm or graph>.<step>`` (``sssp.compute``, ``graph.apply``, ...).
    depth : int
        How deep it nests: 0 for a call of the API, 1 for a stage inside one, and so on.
    calls : int
        How many times it ran.
    host_ms : float
        Host milliseconds, summed over its runs.
    device_ms : float
        Device milliseconds measured with CUDA events, summed (0 unless
        ``profile(cuda_events=True)`` on the CUDA backend).

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1], [1, 2], [1, 1])
    >>> with dyng.profile() as prof:
    ...     for source in (0, 1):
    ...         _ = dyng.sssp.compute(g, source)
    >>> record = prof.stages[0]
    >>> record.name, record.depth, record.calls
    ('sssp.compute', 0, 2)
    """

    name: str
    depth: int
    calls: int
    host_ms: float
    device_ms: float


@dataclasses.dataclass(frozen=True)
class StageSample:
    """One run of a stage. ``start_ms`` counts from the profile's start (or last reset).

    [`dyng.Profiler.samples`][] lists them.

    Attributes
    ----------
    name : str
        The stage (see [`dyng.StageRecord`][]).
    depth : int
        How deep it nests: 0 for a call of the API.
    host_ms : float
        Host milliseconds of this run.
    device_ms : float
        Device milliseconds measured with CUDA events (0 without them).
    start_ms : float
        When it began, in milliseconds since the profile began (or was last reset).

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1], [1, 2], [1, 1])
    >>> with dyng.profile() as prof:
    ...     _ = dyng.sssp.compute(g, 0)
    >>> sample = prof.samples[-1]  # samples are listed as they end: the call's own stage last
    >>> sample.name, sample.depth, sample.start_ms >= 0, sample.host_ms > 0
    ('sssp.compute', 0, True, True)
    """

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

    Examples
    --------
    [`dyng.profile`][] makes one and yields it:

    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1], [1, 2], [1, 1])
    >>> with dyng.profile() as prof:
    ...     _ = dyng.sssp.compute(g, 0)
    >>> prof
    dyng.Profiler(... stages)
    >>> prof.total_host_ms("sssp.compute") > 0
    True
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
        """The runs of the stages, as [`dyng.StageSample`][] records, in the order they ended."""
        if self._native is None:
            return []
        return [
            StageSample(name, depth, host_ms, device_ms, start_ms=start_ms)
            for name, depth, _, start_ms, host_ms, device_ms in self._native.samples()
        ]

    @property
    def stages(self):
        """The samples summed per (name, depth), as [`dyng.StageRecord`][] records, in the order
        the stages first began."""
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
        """Host milliseconds of every run of stage `name`, at any depth (0 if it never ran).

        Parameters
        ----------
        name : str
            A stage name, such as ``"sssp.compute"``.

        Returns
        -------
        float
            The sum of ``host_ms`` over the stage's runs.

        Raises
        ------
        TypeError
            When `name` is not a str (a stage record, say, would match nothing).

        Examples
        --------
        >>> import dyng
        >>> g = dyng.Graph.from_edges([0, 1], [1, 2], [1, 1])
        >>> with dyng.profile() as prof:
        ...     _ = dyng.sssp.compute(g, 0)
        >>> prof.total_host_ms("sssp.compute") > 0, prof.total_host_ms("no.such.stage")
        (True, 0)
        """
        if not isinstance(name, str):
            raise TypeError(
                f"Profiler.total_host_ms(): name must be a str (a stage name such as "
                f"'sssp.compute'); got {type(name).__name__}"
            )
        return sum(record.host_ms for record in self.stages if record.name == name)

    def reset(self) -> None:
        """Forgets every sample and counter; the clock of ``start_ms`` starts again.

        Examples
        --------
        >>> import dyng
        >>> g = dyng.Graph.from_edges([0, 1], [1, 2], [1, 1])
        >>> with dyng.profile() as prof:
        ...     _ = dyng.sssp.compute(g, 0)
        ...     prof.reset()
        ...     _ = dyng.sssp.compute(g, 1)
        >>> [record.calls for record in prof.stages if record.name == "sssp.compute"]
        [1]
        """
        if self._native is not None:
            self._native.reset()

    def to_csv(self):
        """``kind,name,value`` lines: one ``stage`` line per sample (host ms), then counters.

        Returns
        -------
        str
            CSV text with a header line, ending with a newline.

        Examples
        --------
        >>> import dyng
        >>> g = dyng.Graph.from_edges([0, 1], [1, 2], [1, 1])
        >>> with dyng.profile() as prof:
        ...     _ = dyng.sssp.compute(g, 0)
        >>> lines = prof.to_csv().splitlines()
        >>> lines[0], lines[-1].startswith(("stage,", "counter,"))
        ('kind,name,value', True)
        """
        lines = ["kind,name,value"]
        lines += [f"stage,{s.name},{s.host_ms:.6f}" for s in self.samples]
        lines += [f"counter,{name},{value}" for name, value in self.counters.items()]
        return "\n".join(lines) + "\n"

    def to_json(self):
        """The stage records and counters as a JSON object (milliseconds with 6 decimals).

        Returns
        -------
        str
            ``{"stages": [{"name", "depth", "calls", "host_ms", "device_ms"}, ...],
            "counters": [{"name", "value"}, ...]}``.

        Examples
        --------
        >>> import json, dyng
        >>> g = dyng.Graph.from_edges([0, 1], [1, 2], [1, 1])
        >>> with dyng.profile() as prof:
        ...     _ = dyng.sssp.compute(g, 0)
        >>> document = json.loads(prof.to_json())
        >>> sorted(document), document["stages"][0]["name"]
        (['counters', 'stages'], 'sssp.compute')
        """
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
        """The stage records as a pandas DataFrame (needs pandas).

        Returns
        -------
        pandas.DataFrame
            One row per [`dyng.StageRecord`][]; columns name, depth, calls, host_ms and
            device_ms.

        Raises
        ------
        ImportError
            When pandas is not installed.

        Examples
        --------
        >>> import dyng
        >>> with dyng.profile() as prof:
        ...     _ = dyng.sssp.compute(dyng.Graph.from_edges([0], [1], [1]), 0)
        >>> list(prof.to_dataframe().columns)  # doctest: +SKIP
        ['name', 'depth', 'calls', 'host_ms', 'device_ms']
        """
        try:
            import pandas
        except ImportError:
            raise ImportError("Profiler.to_dataframe() needs pandas (pip install pandas)") from None
        return pandas.DataFrame(
            [dataclasses.asdict(r) for r in self.stages],
            columns=["name", "depth", "calls", "host_ms", "device_ms"],
        )

    def plot(self, *, ax=None, path=None, title=None):
        """A timeline of the samples (one row per depth) as a matplotlib Figure.

        Needs matplotlib (``pip install "dyng[plot]"``).

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
            Axes to draw on; by default a new figure of its own is made.
        path : str or os.PathLike, optional
            Where to save the figure as well; the format follows the suffix (``.png``, ...).
        title : str, optional
            Axes title (default ``"dyng stage timeline"``).

        Returns
        -------
        matplotlib.figure.Figure
            The figure drawn on (that of `ax` when given).

        Raises
        ------
        ImportError
            When matplotlib is not installed.

        Examples
        --------
        >>> import dyng
        >>> with dyng.profile() as prof:
        ...     _ = dyng.sssp.compute(dyng.Graph.from_edges([0], [1], [1]), 0)
        >>> figure = prof.plot(title="one compute")  # doctest: +SKIP
        """
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
        As for [`dyng.Profiler`][].

    Yields
    ------
    Profiler
        The profile, filled in as the calls in the block run; it keeps its records after the
        block ends.

    Raises
    ------
    TypeError
        When `resources` is not a Resources.

    Examples
    --------
    >>> import dyng
    >>> g = dyng.Graph.from_edges([0, 1], [1, 2], [1, 1])
    >>> with dyng.profile(dyng.get_default_resources()) as prof:
    ...     result = dyng.sssp.compute(g, 0)
    >>> [stage.name for stage in prof.stages if stage.depth == 0]
    ['sssp.compute']
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

"""Interleaved timing of peers (A B C A B C ...), one warm-up round first, medians reported.

Each peer is a ``Peer(name, setup, run)``: ``setup()`` builds a fresh input outside the timer
(graph clones, results), ``run(state)`` is the only thing timed. Interleaving spreads slow
drifts of a shared machine (other jobs, thermal, page cache) evenly over the peers instead of
charging them to whichever ran last.
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any


@dataclasses.dataclass(frozen=True)
class Peer:
    name: str
    setup: Callable[[], Any]
    run: Callable[[Any], Any]


@dataclasses.dataclass
class Samples:
    """Milliseconds per repeat for one peer; ``warmup_ms`` is not part of the median."""

    name: str
    warmup_ms: list[float] = dataclasses.field(default_factory=list)
    ms: list[float] = dataclasses.field(default_factory=list)

    @property
    def median_ms(self) -> float:
        return statistics.median(self.ms)


def run_interleaved(
    peers: list[Peer],
    repeats: int,
    *,
    warmup: int = 1,
    check: Callable[[int, dict[str, Any]], None] | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Samples]:
    """Runs ``warmup + repeats`` rounds; each round runs every peer once, in order.

    ``check(round, outputs)`` sees each round's outputs keyed by peer name (warm-up included),
    so a wrong answer fails the benchmark instead of being timed.

    Examples
    --------
    >>> out = run_interleaved([Peer("a", lambda: 2, lambda x: x * x)], 3)
    >>> len(out["a"].ms), len(out["a"].warmup_ms)
    (3, 1)
    """
    if repeats < 1:
        raise ValueError(f"run_interleaved(): repeats={repeats}; pass at least 1")
    samples = {peer.name: Samples(peer.name) for peer in peers}
    for round_index in range(warmup + repeats):
        if progress is not None:
            progress(
                "warm-up"
                if round_index < warmup
                else f"repeat {round_index - warmup + 1}/{repeats}"
            )
        outputs = {}
        for peer in peers:
            state = peer.setup()
            elapsed_ms, outputs[peer.name] = quiet_ms(functools.partial(peer.run, state))
            del state
            target = samples[peer.name].warmup_ms if round_index < warmup else samples[peer.name].ms
            target.append(elapsed_ms)
        if check is not None:
            check(round_index, outputs)
        del outputs
    return samples


class Progress:
    """Timestamped progress lines on stderr (stdout is kept for the report).

    ``throttle=True`` lines (per-round ticks) are dropped when the previous line is under
    ``min_gap`` seconds old, so small graphs stay quiet and slow ones still show a heartbeat.
    """

    def __init__(self, stream=None, min_gap: float = 2.0):
        self._stream = stream if stream is not None else sys.stderr
        self._start = self._last = time.perf_counter()
        self._min_gap = min_gap

    def __call__(self, message: str, *, throttle: bool = False) -> None:
        now = time.perf_counter()
        if throttle and now - self._last < self._min_gap:
            return
        self._last = now
        print(f"[bench {now - self._start:7.1f}s] {message}", file=self._stream, flush=True)


def quiet_ms(call: Callable[[], Any]) -> tuple[float, Any]:
    """(milliseconds, value) of one call with the garbage collector held off: a collection
    inside the timed call would be charged to whichever call hit it."""
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        value = call()
        return (time.perf_counter() - start) * 1e3, value
    finally:
        gc.enable()


def back_to_back_ms(
    call: Callable[[Any], Any], inputs, start: Callable[[], Any] | None = None
) -> list[float]:
    """Milliseconds of call(x) for each x of `inputs`, one call straight after the other: the
    collector runs once before the series and is held off during it, and nothing else runs
    between the calls (quiet_ms collects before each call, and a GPU left idle that long runs
    the next call slower; bench/README.md). `start`, when given, runs untimed after the
    collection, so that the first call follows it as closely as each call follows the one before
    (an update series' compute: a collection in between would be such a pause).

    >>> len(back_to_back_ms(lambda x: x * 2, [1, 2, 3]))
    3
    >>> seen = []
    >>> back_to_back_ms(seen.append, [2], start=lambda: seen.append(1)) and seen
    [1, 2]
    """
    gc.collect()
    gc.disable()
    try:
        if start is not None:
            start()
        times = []
        for x in inputs:
            began = time.perf_counter()
            call(x)
            times.append((time.perf_counter() - began) * 1e3)
        return times
    finally:
        gc.enable()


def timed_ms(call: Callable[[], Any]) -> tuple[float, Any]:
    """(milliseconds, value) of one call: the GPU scripts' single measurements."""
    start = time.perf_counter()
    value = call()
    return (time.perf_counter() - start) * 1e3, value


def median_ms(call: Callable[[], Any], repeats: int = 5) -> float:
    """Median milliseconds of `repeats` calls."""
    return statistics.median(timed_ms(call)[0] for _ in range(repeats))

"""Progress on stderr: one line for a step that takes longer than about a second
(``step``), or a bar for a run of known length (``Bar``, the demo's batches).

Either shows only when stderr is a terminal and ``--quiet`` was not given, so piped output and
scripts see nothing from it.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time

_DELAY_S = 1.0
_enabled = False


def configure(*, quiet=False, stream=None):
    """Turns the progress line on or off for this process (off when quiet or not a terminal)."""
    global _enabled
    stream = sys.stderr if stream is None else stream
    _enabled = not quiet and hasattr(stream, "isatty") and stream.isatty()


@contextlib.contextmanager
def step(what):
    """Shows ``dyng: <what> ...`` once the step has run for a second, then its time when done."""
    if not _enabled:
        yield
        return
    start = time.perf_counter()
    shown = threading.Event()
    lock = threading.Lock()

    def show():
        with lock:
            sys.stderr.write(f"dyng: {what} ...")
            sys.stderr.flush()
            shown.set()

    timer = threading.Timer(_DELAY_S, show)
    timer.daemon = True
    timer.start()
    ending = " failed\n"
    try:
        yield
        ending = None
    finally:
        timer.cancel()
        with lock:
            if shown.is_set():
                if ending is None:
                    ending = f" done in {time.perf_counter() - start:.1f} s\n"
                sys.stderr.write(ending)
                sys.stderr.flush()


class Bar:
    """A bar of `total` steps, ``dyng: <what> [#####.....] 5/10``, redrawn in place on stderr;
    nothing shows while the progress line is off (see ``configure``)."""

    _WIDTH = 30

    def __init__(self, what, total):
        self._what = what
        self._total = max(int(total), 1)
        self._done = 0
        self._shown = _enabled
        self._draw()

    def advance(self):
        """Counts one more step done."""
        self._done = min(self._done + 1, self._total)
        self._draw()

    def close(self):
        """Ends the bar's line (the next output starts on a line of its own)."""
        if self._shown:
            sys.stderr.write("\n")
            sys.stderr.flush()
            self._shown = False

    def _draw(self):
        if not self._shown:
            return
        filled = self._WIDTH * self._done // self._total
        sys.stderr.write(
            f"\rdyng: {self._what} [{'#' * filled}{'.' * (self._WIDTH - filled)}] "
            f"{self._done}/{self._total}"
        )
        sys.stderr.flush()

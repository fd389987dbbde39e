"""One progress line on stderr for steps that take longer than about a second.

It shows only when stderr is a terminal and ``--quiet`` was not given, so piped output and
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

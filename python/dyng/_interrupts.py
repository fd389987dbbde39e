"""Holding Ctrl-C while a batch is taken back.

Ctrl-C stops a long native call within a fraction of a second (python/bindings/interrupts.hpp:
the native loops poll a flag that SIGINT sets while the call runs, and the call leaves everything
as it found it). ``dyng.update`` applies a batch and repairs each result; when one of those steps
is stopped, or fails, it takes the batch back, graph and results together (dyng/_update.py). That
taking back must itself run to its end: a KeyboardInterrupt in the middle of it would leave the
graph at one version and a result at another, which can then never be updated again. Python raises
KeyboardInterrupt only in the main thread, from its SIGINT handler, so while it runs the main thread
holds SIGINT and delivers it, to whatever handler was installed, as soon as it is done.
"""

from __future__ import annotations

import contextlib
import signal
import threading

__all__ = ["deferred_interrupts"]


@contextlib.contextmanager
def deferred_interrupts():
    """Holds SIGINT for the duration of the block, then delivers it once."""
    if threading.current_thread() is not threading.main_thread():
        yield  # other threads never receive KeyboardInterrupt
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous is None or previous is signal.SIG_IGN:  # not Python's, or ignored
        yield
        return
    held = []
    signal.signal(signal.SIGINT, lambda signum, frame: held.append(frame))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if held:
            if previous is signal.SIG_DFL:
                signal.raise_signal(signal.SIGINT)
            else:
                previous(signal.SIGINT, held[-1])

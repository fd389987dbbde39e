"""Ctrl-C during a batch: the graph and its results change together or not at all.

``dyng.update`` applies a batch and then repairs each result. A KeyboardInterrupt raised between
those steps would leave the graph at the new version and a result at the old one, which can then
never be updated again. Python raises KeyboardInterrupt only in the main thread, from its SIGINT
handler, so while those steps run the main thread holds SIGINT and delivers it, to whatever
handler was installed, as soon as the last repair is done. Native calls that run without the GIL
are not cut short by Ctrl-C either way: they finish, then the interrupt is raised.
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

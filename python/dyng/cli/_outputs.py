"""All-or-nothing outputs: a command's files appear together when it succeeds, and none of them
when it fails or is interrupted.

Every file the command line writes goes through dyng's native writers, and they put a finished
file in place through the write group open on their thread (src/dyng/io/write_group.hpp).
``run`` opens one around a whole command: each output is written in full to a temporary
file beside its target (with the missing folders made for it), and only when the command has
returned success are they all put in place, in one native call during which SIGINT is held
(``dyng._interrupts.deferred_interrupts``). A failure or a Ctrl-C before that removes every
temporary file and every folder made for them, so the final names hold the previous run's files
as they were. Files in an output folder that the command does not write are never touched.

After an interrupt, ``interrupt_outcome`` says which of the two states was left.
"""

from __future__ import annotations

from dyng._interrupts import deferred_interrupts

__all__ = ["reset", "run", "interrupt_outcome", "write_text", "write_bytes", "write_vertex_values"]

_NOTHING_WRITTEN = "no output was written; files from before the run are as they were"
_ALL_WRITTEN = "every output had been written in full"

# Whether the current command's outputs were put in place (the command line runs one command
# at a time, in the main thread).
_written = False


def _native():
    from dyng import _backend

    return _backend.native()


def reset():
    """Starts a command line run: nothing of it is written yet."""
    global _written
    _written = False


def run(command, args):
    """Runs ``command(args)`` with every file it writes held back until it returns success
    (None or 0); returns its exit status."""
    global _written
    _written = False
    try:
        native = _native()
    except Exception:
        # No native module, so no native writer either: the command reports the failure as it
        # would have (dyng config describes a broken install rather than failing).
        return command(args)
    try:
        with deferred_interrupts():
            native.io_write_group_open()
        status = command(args)
    except BaseException:
        with deferred_interrupts():  # a second Ctrl-C must not cut the clean-up short
            native.io_write_group_discard()
        raise
    with deferred_interrupts():
        if status in (None, 0):
            native.io_write_group_commit()
            _written = True
        else:
            native.io_write_group_discard()
    return status


def interrupt_outcome():
    """What an interrupt of the current command left under the outputs' names."""
    return _ALL_WRITTEN if _written else _NOTHING_WRITTEN


def write_text(path, text, function):
    """Writes `text` to `path` through the native writers (so it joins the command's group)."""
    _native().io_write_text(str(path), function, text)


def write_bytes(path, data, function):
    """Writes `data` to `path` through the native writers (so it joins the command's group)."""
    _native().io_write_bytes(str(path), function, bytes(data))


def write_vertex_values(path, values, function):
    """Writes ``v value`` per entry of the integer array `values` (the layout of the distance
    and parent files, never INF) through the native writers."""
    import numpy as np

    _native().io_write_vertex_values(
        str(path), function, np.ascontiguousarray(values, dtype=np.int64), 0
    )

"""The Python layer's log: the same levels, sink and line form as the C++ core's
(src/dyng/core/log.hpp), so ``dyng.set_log_level`` governs both. A message is built only when
its level is on.

This module owns the current level and imports nothing from dyng, so every module can log
without an import circle: ``dyng._config`` checks a requested level and hands it here.

Examples
--------
>>> import contextlib, io, dyng
>>> from dyng import _log
>>> err = io.StringIO()
>>> with contextlib.redirect_stderr(err):
...     _log.log("info", lambda: "shown only at info and below")
>>> err.getvalue()
''
"""

from __future__ import annotations

import sys

#: The level names, quietest first (the C++ core's ranks are the positions).
LEVELS = ("off", "error", "warn", "info", "debug", "trace")
_RANK = {name: rank for rank, name in enumerate(LEVELS)}
_level = "warn"
_LINE_NAMES = {
    "error": "error",
    "warn": "warning",
    "info": "info",
    "debug": "debug",
    "trace": "trace",
}


def level():
    """The current level name."""
    return _level


def set_level(name):
    """Makes `name` (one of LEVELS, checked by the caller) the current level; the caller passes
    it on to the loaded native module (sync_native)."""
    global _level
    if name not in _RANK:
        raise ValueError(f"dyng._log.set_level(): {name!r} is not one of {LEVELS}")
    _level = name


def enabled(level):
    """True when messages of `level` are written at the current level."""
    return level != "off" and _RANK[level] <= _RANK[_level]


def log(level, make):
    """Writes ``dyng: <level>: make()`` to stderr when `level` is on."""
    if enabled(level):
        print(f"dyng: {_LINE_NAMES[level]}: {make()}", file=sys.stderr, flush=True)


def sync_native(module):
    """Gives a native module the current level (at selection, and on every change)."""
    setter = getattr(module, "set_log_level", None)
    if setter is not None:
        setter(_RANK[_level])

"""The Python layer's log: the same levels, sink and line form as the C++ core's
(src/dyng/core/log.hpp), so ``dyng.set_log_level`` governs both. A message is built only when
its level is on.

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

LEVELS = ("off", "error", "warn", "info", "debug", "trace")
_RANK = {name: rank for rank, name in enumerate(LEVELS)}
_LINE_NAMES = {"error": "error", "warn": "warning", "info": "info", "debug": "debug",
               "trace": "trace"}


def enabled(level):
    """True when messages of `level` are written at the current level."""
    from dyng import _config

    return level != "off" and _RANK[level] <= _RANK[_config.get_log_level()]


def log(level, make):
    """Writes ``dyng: <level>: make()`` to stderr when `level` is on."""
    if enabled(level):
        print(f"dyng: {_LINE_NAMES[level]}: {make()}", file=sys.stderr, flush=True)


def sync_native(module):
    """Gives a native module the current level (at selection, and on every change)."""
    from dyng import _config

    setter = getattr(module, "set_log_level", None)
    if setter is not None:
        setter(_RANK[_config.get_log_level()])

"""The one place that hands out the native module, and where it is chosen.

Nothing else in dyng imports a native module: every caller goes through ``native()``. On its
first call in a process it selects one, exactly once and under a lock: the CPU module
``dyng._core``, or a CUDA plugin's ``dyng_cu<N>._core`` found through the entry-point group
``dyng.backends`` (the rules are in ``dyng._plugins``). ``import dyng`` selects nothing,
imports no plugin and loads no CUDA library; the first graph, Resources, ``dyng.__version__`` or
``dyng.config()`` does.

The CPU module is used without looking at any plugin when DYNG_CPU_ONLY is true (1, true, yes,
on; 0, false, no, off and empty are false; any case, blanks trimmed; other values are ignored
with a BackendWarning) or after ``request_cpu_only()``. When plugins are installed and none is
usable, the CPU module is used and one BackendWarning lists every plugin and why.
"""

from __future__ import annotations

import importlib
import os
import threading
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import NamedTuple

from dyng import _errors, _log, _plugins

__all__ = [
    "native",
    "selection",
    "on_activate",
    "native_module_name",
    "request_cpu_only",
    "parse_cpu_only",
    "Selection",
    "CPU_MODULE",
    "CPU_ONLY_VARIABLE",
    "ENTRY_POINT_GROUP",
]

CPU_MODULE = "dyng._core"
CPU_ONLY_VARIABLE = "DYNG_CPU_ONLY"
ENTRY_POINT_GROUP = _plugins.GROUP

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off", "")

# Warnings point at the user's line, not at whichever dyng function happened to select first.
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


class Selection(NamedTuple):
    """What this process runs on, and why.

    Attributes
    ----------
    module : module
        The native module: ``dyng._core`` or ``dyng_cu<N>._core``.
    reason : str
        Why that module was chosen.
    plugins : tuple of dyng._plugins.PluginReport
        Every entry point of ``dyng.backends`` with its state and reason.
    errors : tuple of str
        Plugins that failed to load or probe, with the error.
    cpu_only : str or None
        Why the CPU module was requested (DYNG_CPU_ONLY or use_cpu_only()); None otherwise.
    """

    module: ModuleType
    reason: str
    plugins: tuple
    errors: tuple
    cpu_only: str | None


_lock = threading.RLock()
_selection = None
_native = None
_selecting = False
_cpu_only_requested = False
_hooks: list[Callable[[ModuleType], object]] = []


def _reset_lock_after_fork():
    # A fork taken while another thread held the lock leaves the child's copy locked forever.
    global _lock, _selecting
    _lock = threading.RLock()
    _selecting = False


os.register_at_fork(after_in_child=_reset_lock_after_fork)


def on_activate(hook):
    """Runs ``hook(module)`` on the chosen native module (now, if one is already chosen).

    Parameters
    ----------
    hook : callable
        Called once with the native module, under the selection lock.

    Examples
    --------
    >>> from dyng import _backend
    >>> seen = []
    >>> _backend.on_activate(lambda m: seen.append(m.__name__))
    >>> seen == [_backend.native().__name__]
    True
    """
    with _lock:
        _hooks.append(hook)
        if _native is not None:
            hook(_native)


def native():
    """The native module of this process, selected and imported on first call.

    Returns
    -------
    module
        ``dyng._core``, or a CUDA plugin's ``dyng_cu<N>._core``.

    Examples
    --------
    >>> from dyng import _backend
    >>> _backend.native().__name__ in ("dyng._core", "dyng_cu12._core", "dyng_cu13._core")
    True
    """
    module = _native
    if module is not None:
        return module
    return selection().module


def selection():
    """The ``Selection`` of this process, made on first call.

    Examples
    --------
    >>> from dyng import _backend
    >>> chosen = _backend.selection()
    >>> chosen.module is _backend.native() and bool(chosen.reason)
    True
    """
    made = _selection
    if made is not None:
        return made
    return _select()


def loaded_native():
    """The native module if one was selected already, else None (selects nothing)."""
    return _native


def native_module_name():
    """Name of the chosen native module, or None before the first use."""
    made = _selection
    return made.module.__name__ if made is not None else None


def request_cpu_only(function="use_cpu_only"):
    """Asks for the CPU module; see ``dyng.use_cpu_only()``.

    Raises
    ------
    RuntimeError
        When a CUDA plugin was already chosen in this process.
    """
    global _cpu_only_requested
    with _lock:
        made = _selection
        if made is None:
            _cpu_only_requested = True
        elif made.module.__name__ != CPU_MODULE:
            raise RuntimeError(
                f"{function}(): dyng already runs on the CUDA plugin {made.module.__name__}, "
                f"chosen at its first use in this process; call {function}() before the first "
                f"graph, Resources, dyng.__version__ or dyng.config(), or start Python with "
                f"{CPU_ONLY_VARIABLE}=1"
            )


def parse_cpu_only(raw):
    """DYNG_CPU_ONLY's reading: True, False, or None for a value that is neither.

    Examples
    --------
    >>> from dyng._backend import parse_cpu_only
    >>> parse_cpu_only(" Yes "), parse_cpu_only(""), parse_cpu_only("maybe")
    (True, False, None)
    """
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    return None


def _select():
    global _selection, _native, _selecting
    with _lock:
        if _selection is not None:  # another thread selected while this one waited
            return _selection
        if _selecting:
            raise RuntimeError(
                "dyng's backend selection was re-entered while a native module was being "
                "loaded; a plugin's module must not use dyng at import time"
            )
        _selecting = True
        try:
            made, notices = _decide()
            _selection, _native = made, made.module
        finally:
            _selecting = False
    # Warned outside the lock and after the choice is final, so that a warning filter that turns
    # it into an exception (or a showwarning hook that uses dyng) cannot undo or deadlock it.
    for text in notices:
        warnings.warn(text, _errors.BackendWarning, skip_file_prefixes=(_PACKAGE_DIR,))
    _log.sync_native(made.module)
    _log.log("info", lambda: f"native module {made.module.__name__}: {made.reason}")
    return made


def _decide():
    """(Selection, warning texts) for this process; runs once, under the lock."""
    notices = []
    cpu_only = _cpu_only_reason(notices)
    errors = []
    try:
        entries = _plugins.discover()
    except Exception as exc:  # broken metadata must not stop dyng; it is reported instead
        entries = []
        errors.append(
            f"reading the {ENTRY_POINT_GROUP} entry points failed: {type(exc).__name__}: {exc}"
        )
    if cpu_only is not None:
        module = _load_cpu()
        return Selection(
            module,
            f"the CPU module was requested ({cpu_only})",
            _plugins.not_considered(entries, cpu_only),
            tuple(errors),
            cpu_only,
        ), notices
    try:
        outcome = _plugins.choose(entries, _plugins.dyng_version(), _activate)
    except Exception as exc:  # a bug in selection still leaves a working dyng
        outcome = _plugins.Outcome(None, (), (), "the CPU module: plugin selection failed")
        errors.append(
            f"plugin selection failed: {type(exc).__name__}: {exc}; please report "
            f"this to dyng's issue tracker"
        )
        notices.append(f"{errors[-1]}; dyng runs on its CPU module {CPU_MODULE}")
    errors.extend(outcome.errors)
    if outcome.module is not None:
        return Selection(
            outcome.module, outcome.reason, outcome.plugins, tuple(errors), None
        ), notices
    module = _load_cpu()
    plugins = [report for report in outcome.plugins if report.state != _plugins.IGNORED]
    if plugins:
        notices.append(
            f"no CUDA plugin is usable, so dyng runs on its CPU module {CPU_MODULE} (set "
            f"{CPU_ONLY_VARIABLE}=1 to choose it without looking at the plugins and without "
            f"this warning; dyng.show_config() shows the details):"
            + "".join(f"\n  {report.describe()}" for report in outcome.plugins)
        )
    return Selection(module, outcome.reason, outcome.plugins, tuple(errors), None), notices


def _cpu_only_reason(notices):
    """Why the CPU module is requested, or None; an unreadable DYNG_CPU_ONLY adds a notice."""
    raw = os.environ.get(CPU_ONLY_VARIABLE)
    wanted = None if raw is None else parse_cpu_only(raw)
    if raw is not None and wanted is None:
        notices.append(
            f"{CPU_ONLY_VARIABLE}={raw!r} is neither true ({', '.join(_TRUE)}) nor false "
            f"({', '.join(_FALSE[:-1])} or empty); it is ignored and the CUDA plugins are "
            f"considered"
        )
    if _cpu_only_requested:
        return "use_cpu_only() was called"
    if wanted:
        return f"{CPU_ONLY_VARIABLE}={raw!r}"
    return None


def _load_cpu():
    module = importlib.import_module(CPU_MODULE)
    _activate(module)
    return module


def _activate(module):
    module._register_error_classes(_errors.error_classes())
    for hook in _hooks:
        hook(module)

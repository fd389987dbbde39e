"""The one place that hands out the native module.

Nothing else in dyng imports ``dyng._core``: every caller goes through :func:`native`, so the
backend-selection step (CUDA plugins found through the ``dyng.backends`` entry-point group) can
later choose another module without touching them. Selection happens on first use, not at
``import dyng``, and is thread safe. Today the CPU module ``dyng._core`` is always chosen.
"""

from __future__ import annotations

import importlib
import threading

from dyng import _errors

__all__ = ["native", "on_activate", "native_module_name", "installed_plugins", "ENTRY_POINT_GROUP"]

ENTRY_POINT_GROUP = "dyng.backends"

_lock = threading.RLock()
_native = None
_native_name = None
_hooks = []


def _register_errors(module):
    module._register_error_classes(_errors.error_classes())


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
    >>> _ = _backend.native()
    >>> seen
    ['dyng._core']
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
        ``dyng._core`` (a CUDA plugin's ``_core`` once plugin selection exists).

    Examples
    --------
    >>> from dyng import _backend
    >>> _backend.native().__name__
    'dyng._core'
    """
    module = _native
    if module is not None:
        return module
    return _select()


def _select():
    global _native, _native_name
    with _lock:
        if _native is None:
            module = importlib.import_module("dyng._core")
            _register_errors(module)
            for hook in _hooks:
                hook(module)
            _native_name = module.__name__
            _native = module
        return _native


def native_module_name():
    """Name of the chosen native module, or None before the first use."""
    return _native_name


def installed_plugins():
    """Entry points of the ``dyng.backends`` group as (name, module, distribution) tuples.

    Reads installed metadata only; no plugin is imported.
    """
    from importlib import metadata

    found = []
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        dist = getattr(ep, "dist", None)
        found.append((ep.name, ep.value, dist.metadata["Name"] if dist is not None else ""))
    return sorted(found)

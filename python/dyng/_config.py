"""dyng.config(), show_config(), the log level and use_cpu_only() (spec sections 8 and 11)."""

from __future__ import annotations

import platform
import sys
import threading

from dyng import _backend, _log
from dyng._errors import InvalidArgumentError

__all__ = ["config", "show_config", "set_log_level", "get_log_level", "use_cpu_only"]

# Held from a level's change to the native module's, so that two threads setting levels leave
# the Python layer and the native module at the same one.
_log_lock = threading.Lock()


def config():
    """What this installation of dyng is, which native module it runs on and why, as a dict.

    Keys: version, native_module, selection (why that module), plugins (one dict per entry point
    of ``dyng.backends``: name, module, distribution, version, cuda_major, driver_version,
    device_count, state, reason), backends, default_backend, openmp_max_threads, build, python,
    platform, numpy, plugin_errors. Calling it selects the native module if nothing has yet.

    Returns
    -------
    dict
        The keys above; plain values, lists and dicts only (it serializes as JSON).

    Examples
    --------
    >>> import dyng
    >>> c = dyng.config()
    >>> c["backends"]["sequential"], c["native_module"].endswith("._core")
    (True, True)
    >>> all(p["state"] and p["reason"] for p in c["plugins"])
    True
    """
    import numpy

    from dyng._resources import Resources

    chosen = _backend.selection()
    native = chosen.module
    build = dict(native.build_config)
    return {
        "version": native.__version__,
        "native_module": native.__name__,
        "selection": chosen.reason,
        "plugins": [report._asdict() for report in chosen.plugins],
        "backends": {
            "sequential": True,
            "openmp": bool(build["openmp"]),
            "cuda": bool(build["cuda"]),
        },
        "default_backend": Resources().backend,
        "openmp_max_threads": native.openmp_max_threads(),
        "build": {
            key: build.get(key)
            for key in (
                "openmp",
                "cuda",
                "build_type",
                "compiler",
                "plugin",
                "cuda_toolkit",
                "cuda_architectures",
                "cuda_runtime",
                "openmp_version",
            )
        },
        "python": platform.python_version(),
        "platform": platform.platform(),
        "numpy": numpy.__version__,
        "plugin_errors": list(chosen.errors),
    }


def _lines(prefix, value):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _lines(f"{prefix}.{key}" if prefix else key, item)
    elif isinstance(value, list):
        if not value:
            yield prefix, "(none)"
        for index, item in enumerate(value):
            yield from _lines(f"{prefix}[{index}]", item)
    else:
        yield prefix, "" if value is None else str(value)


def show_config(file=None) -> None:
    """Prints [`dyng.config`][] as aligned ``key: value`` lines (to stdout by default).

    Nested keys are joined with dots (``build.openmp``), list items numbered
    (``plugins[0].name``).

    Parameters
    ----------
    file : file-like, optional
        Where to write (anything with ``write``); None for ``sys.stdout``.

    Raises
    ------
    OSError
        When writing to `file` fails (as ``print`` raises it).

    Examples
    --------
    >>> import io, dyng
    >>> out = io.StringIO(); dyng.show_config(file=out)
    >>> "native_module" in out.getvalue()
    True
    """
    lines = list(_lines("", config()))
    width = max(len(key) for key, _ in lines)
    stream = sys.stdout if file is None else file
    for key, value in lines:
        print(f"{key + ':':<{width + 1}} {value}", file=stream)


def set_log_level(level) -> None:
    """Sets the log level: "off", "error", "warn" (default), "info", "debug" or "trace".

    Messages go to stderr as ``dyng: <level>: <message>`` lines, from the Python layer and the
    C++ core alike. ``info`` tells what costs time or memory behind a call (a repair given up
    for a recompute, graph storage re-laid out, a graph uploaded to a device, the plugin chosen),
    ``debug`` the route each call took (backend, method, path); the default ``warn`` is quiet in
    normal use.

    Parameters
    ----------
    level : str
        One of the names above, in any case, surrounding spaces ignored.

    Raises
    ------
    InvalidArgumentError
        When `level` is not one of the names (the level is left as it was).

    Examples
    --------
    >>> import dyng
    >>> dyng.set_log_level("debug"); dyng.get_log_level()
    'debug'
    >>> try:
    ...     dyng.set_log_level("loud")
    ... except dyng.InvalidArgumentError as error:
    ...     print(error)
    set_log_level(): level='loud' is not a level; use one of 'off', 'error', ...
    >>> dyng.set_log_level("warn")
    """
    name = level.lower().strip() if isinstance(level, str) else level
    if name not in _log.LEVELS:
        raise InvalidArgumentError(
            f"set_log_level(): level={level!r} is not a level; use one of "
            + ", ".join(repr(v) for v in _log.LEVELS)
        )
    with _log_lock:
        _log.set_level(name)
        module = _backend.loaded_native()
        if module is not None:
            _log.sync_native(module)


def get_log_level():
    """The current log level name.

    Returns
    -------
    str
        One of "off", "error", "warn", "info", "debug" and "trace"; see
        [`dyng.set_log_level`][].

    Examples
    --------
    >>> import dyng
    >>> dyng.get_log_level() in ("off", "error", "warn", "info", "debug", "trace")
    True
    """
    return _log.level()


def use_cpu_only() -> None:
    """Runs dyng on its CPU module (``dyng._core``) even when a CUDA plugin is installed.

    Call it before dyng's first use in the process (the first graph, Resources,
    ``dyng.__version__`` or [`dyng.config`][]): the plugins are then neither probed nor
    imported, and [`dyng.config`][] reports them "not considered". Setting the environment variable
    ``DYNG_CPU_ONLY=1`` does the same for a whole run. Calling it after the CPU module was
    chosen anyway changes nothing.

    Raises
    ------
    RuntimeError
        When a CUDA plugin was already chosen in this process (the choice is made once).

    Examples
    --------
    A fresh process, since the choice is made once per process:

    >>> import subprocess, sys
    >>> code = "import dyng; dyng.use_cpu_only(); print(dyng.config()['native_module'])"
    >>> subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip()
    'dyng._core'
    """
    _backend.request_cpu_only("use_cpu_only")

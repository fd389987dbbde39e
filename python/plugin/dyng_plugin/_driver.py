"""The NVIDIA driver's CUDA version, read without initialising CUDA.

``cuDriverGetVersion`` is the one driver entry point that works before ``cuInit``; nothing else
in ``libcuda.so.1`` is called from the probing process. The answer is cached for the process.
"""

from __future__ import annotations

import ctypes
import threading

from ._devices import load_library

__all__ = ["LIBRARY", "DRIVER_FLOORS", "version", "format_version", "too_old"]

LIBRARY = "libcuda.so.1"

# Oldest Linux driver of each CUDA major (the CUDA Toolkit release notes, "CUDA Toolkit and
# Corresponding Driver Versions"): the number a user needs when their driver is too old.
DRIVER_FLOORS = {12: "525.60.13", 13: "580.65.06"}

_lock = threading.Lock()
_answer = None


def version():
    """The driver's CUDA version, asked once per process.

    Returns
    -------
    tuple
        ``(version, None)`` with ``version`` encoded as ``1000 * major + 10 * minor`` (13000 is
        CUDA 13.0), or ``(None, problem)`` where ``problem`` says why there is none.

    Examples
    --------
    >>> from dyng_cu13 import _driver
    >>> found, problem = _driver.version()
    >>> (found is None) != (problem is None)
    True
    """
    global _answer
    with _lock:
        if _answer is None:
            _answer = _ask()
        return _answer


def _ask():
    lib, problem = load_library(LIBRARY)
    if lib is None:
        if problem is None:
            return None, f"no NVIDIA driver found ({LIBRARY})"
        return None, f"the NVIDIA driver library {LIBRARY} could not be loaded: {problem}"
    get_version = getattr(lib, "cuDriverGetVersion", None)
    if get_version is None:
        return None, f"{LIBRARY} has no cuDriverGetVersion; it is not an NVIDIA driver library"
    found = ctypes.c_int(0)
    status = get_version(ctypes.byref(found))
    if status != 0:
        return None, f"cuDriverGetVersion() failed with CUresult {status}"
    return found.value, None


def format_version(encoded):
    """``13020`` -> ``"13.2"``.

    Examples
    --------
    >>> from dyng_cu13._driver import format_version
    >>> format_version(12080)
    '12.8'
    """
    return f"{encoded // 1000}.{encoded % 1000 // 10}"


def too_old(encoded, cuda_major, distribution):
    """Why a driver cannot run a plugin built for ``cuda_major``, or None when it can.

    CUDA's minor-version compatibility lets a plugin built with any 13.x toolkit run on every
    CUDA 13.0+ driver, so only the major matters; a newer major's driver runs it too.

    Examples
    --------
    >>> from dyng_cu13._driver import too_old
    >>> too_old(13000, 13, "dyng-cu13") is None
    True
    >>> print(too_old(12080, 13, "dyng-cu13"))  # doctest: +ELLIPSIS
    the NVIDIA driver supports CUDA 12.8 (12080) but dyng-cu13 needs CUDA 13.0 ...
    """
    if cuda_major is None or encoded >= 1000 * cuda_major:
        return None
    floor = DRIVER_FLOORS.get(cuda_major)
    upgrade = (
        f"update the NVIDIA driver to {floor} or newer"
        if floor
        else f"update the NVIDIA driver to one that supports CUDA {cuda_major}.0"
    )
    older = encoded // 1000
    instead = f", or install dyng-cu{older} instead" if older in DRIVER_FLOORS else ""
    return (
        f"the NVIDIA driver supports CUDA {format_version(encoded)} ({encoded}) but "
        f"{distribution or 'this plugin'} needs CUDA {cuda_major}.0 or newer; "
        f"{upgrade}{instead}"
    )

"""Counts CUDA devices as the driver itself sees them, in a process of its own.

The plugin's probe runs this file as ``python -I -S _devices.py`` when NVML cannot say which
devices CUDA will show (no NVML, MIG, or ordinals whose meaning depends on CUDA's own ordering).
Asking the driver needs ``cuInit``, and ``cuInit`` in the probing process would create CUDA state
there before dyng has chosen a backend (and breaks a later ``fork``), so it happens here, in a
child that inherits the environment (``CUDA_VISIBLE_DEVICES`` and ``CUDA_DEVICE_ORDER`` apply as
they would in the parent) and exits.

The script stands alone (standard library only, no package imports) so that ``-I -S`` can run it
from any installation. It prints one JSON line: ``{"capabilities": [[major, minor], ...]}`` in
CUDA ordinal order, or ``{"error": "<what failed>"}``; it never raises.

:func:`load_library` lives here, rather than in the package's driver module, for the same reason:
the child needs it and can import nothing; the parent's modules import it from here.
"""

from __future__ import annotations

import ctypes
import json
import os
import sys

__all__ = ["load_library", "query", "main", "WSL_LIBRARY_DIR"]

# Windows Subsystem for Linux puts the driver's libraries here, outside the loader's usual path.
WSL_LIBRARY_DIR = "/usr/lib/wsl/lib"

CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75
CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76
CUDA_ERROR_NO_DEVICE = 100
CUDA_ERROR_INVALID_DEVICE = 101


def load_library(soname):
    """Loads a driver library by its versioned soname, as the CUDA runtime would find it.

    Parameters
    ----------
    soname : str
        ``"libcuda.so.1"`` or ``"libnvidia-ml.so.1"``. Always the versioned name: the unversioned
        ``libcuda.so`` is a development symlink, and the toolkit's ``stubs/libcuda.so`` it often
        resolves to is a stub that fails every call.

    Returns
    -------
    tuple
        ``(library, None)`` on success; ``(None, problem)`` otherwise, where ``problem`` is None
        when the library exists nowhere and the loader's message when a copy failed to load.

    Examples
    --------
    >>> from dyng_cu13._devices import load_library
    >>> library, problem = load_library("libdoes-not-exist.so.1")
    >>> library is None and problem is None
    True
    """
    problem = None
    for candidate in (soname, os.path.join(WSL_LIBRARY_DIR, soname)):
        if candidate != soname and not os.path.exists(candidate):
            continue
        try:
            return ctypes.CDLL(candidate), None
        except OSError as exc:
            message = str(exc)
            # The loader reports a missing library as "<name>: cannot open shared object file";
            # anything else (a missing dependency, a wrong architecture) is worth showing.
            if not message.startswith(f"{candidate}: cannot open shared object file"):
                problem = message
    return None, problem


def _error_name(lib, code):
    describe = getattr(lib, "cuGetErrorName", None)
    if describe is None:
        return f"CUresult {code}"
    name = ctypes.c_char_p()
    if describe(code, ctypes.byref(name)) != 0 or not name.value:
        return f"CUresult {code}"
    return f"{name.value.decode(errors='replace')} ({code})"


def query():
    """Asks the driver for the visible devices' compute capabilities (calls ``cuInit``).

    Returns
    -------
    dict
        ``{"capabilities": [[major, minor], ...]}`` or ``{"error": "<what failed>"}``.

    Examples
    --------
    >>> from dyng_cu13 import _devices
    >>> answer = _devices.query()  # doctest: +SKIP
    >>> sorted(answer)  # doctest: +SKIP
    ['capabilities']
    """
    lib, problem = load_library("libcuda.so.1")
    if lib is None:
        detail = f": {problem}" if problem else ""
        return {"error": f"no NVIDIA driver found (libcuda.so.1){detail}"}
    status = lib.cuInit(0)
    # Every device hidden is an answer, not a failure: cuInit reports CUDA_ERROR_NO_DEVICE for an
    # empty CUDA_VISIBLE_DEVICES or an invalid first entry, and CUDA_ERROR_INVALID_DEVICE for a
    # device listed twice (which leaves CUDA unusable in every process of this environment).
    if status in (CUDA_ERROR_NO_DEVICE, CUDA_ERROR_INVALID_DEVICE):
        return {"capabilities": []}
    if status != 0:
        return {"error": f"cuInit(0) failed: {_error_name(lib, status)}"}
    count = ctypes.c_int(0)
    status = lib.cuDeviceGetCount(ctypes.byref(count))
    if status != 0:
        return {"error": f"cuDeviceGetCount() failed: {_error_name(lib, status)}"}
    capabilities = []
    for ordinal in range(count.value):
        device = ctypes.c_int(0)
        status = lib.cuDeviceGet(ctypes.byref(device), ordinal)
        if status != 0:
            return {"error": f"cuDeviceGet({ordinal}) failed: {_error_name(lib, status)}"}
        pair = []
        for attribute in (
            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
        ):
            value = ctypes.c_int(0)
            status = lib.cuDeviceGetAttribute(ctypes.byref(value), attribute, device)
            if status != 0:
                return {
                    "error": f"cuDeviceGetAttribute({attribute}, device {ordinal}) failed: "
                    f"{_error_name(lib, status)}"
                }
            pair.append(value.value)
        capabilities.append(pair)
    return {"capabilities": capabilities}


def main():
    """Prints :func:`query`'s answer as one JSON line; the exit status is always 0."""
    try:
        answer = query()
    except Exception as exc:  # the parent reads the answer from stdout, so report, never raise
        answer = {"error": f"the device query raised {exc!r}"}
    print(json.dumps(answer), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

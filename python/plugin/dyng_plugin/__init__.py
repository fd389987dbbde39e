"""A CUDA backend for dyng, installed by the ``dyng-cu12`` / ``dyng-cu13`` wheels.

Both wheels are built from this one package, renamed ``dyng_cu12`` or ``dyng_cu13``; it learns
which it is from its name. dyng finds it through the ``dyng.backends`` entry point and decides
with :func:`available` and :func:`status` whether to use it; users rarely import it themselves.

Importing the package loads no CUDA library and no extension module: :func:`status` asks the
driver and NVML on first call (never initialising CUDA in this process), ``native`` (the
CUDA-enabled extension ``_core``) is imported on first access, and ``__version__`` (the version
of the distribution ``dyng-cu<N>``, None when none is installed) is read on first access.

Environment: ``CUDA_VISIBLE_DEVICES`` and ``CUDA_DEVICE_ORDER`` are honoured as CUDA honours
them; ``DYNG_PLUGIN_PROBE_TIMEOUT`` (seconds, default 120) bounds the child process that asks the
driver when NVML cannot tell which devices CUDA will show.

Examples
--------
>>> import dyng_cu13
>>> dyng_cu13.PLUGIN, dyng_cu13.CUDA_MAJOR, dyng_cu13.DISTRIBUTION
('cu13', 13, 'dyng-cu13')
>>> dyng_cu13.ARCHITECTURE_FLOOR
(7, 5)
"""

from __future__ import annotations

import importlib

from . import _driver, _status
from ._identity import CUDA_MAJOR, DISTRIBUTION, PLUGIN, distribution_version
from ._status import ARCHITECTURE_FLOOR, Status

# ``native`` is public but not listed: ``from dyng_cu13 import *`` would otherwise import it.
__all__ = [
    "PLUGIN",
    "CUDA_MAJOR",
    "DISTRIBUTION",
    "ARCHITECTURE_FLOOR",
    "Status",
    "__version__",
    "available",
    "status",
    "driver_version",
]


def driver_version():
    """The NVIDIA driver's CUDA version, without probing devices.

    Returns
    -------
    int or None
        ``1000 * major + 10 * minor`` (13000 is CUDA 13.0); None when no driver is found.

    Examples
    --------
    >>> import dyng_cu13
    >>> found = dyng_cu13.driver_version()
    >>> found is None or found >= 1000
    True
    """
    return _driver.version()[0]


def status():
    """Whether this plugin can run here, and why not; probed once per process, never raises.

    Returns
    -------
    Status
        ``(usable, driver_version, device_count, reason, capabilities, probe)``; see
        :class:`Status`.

    Examples
    --------
    >>> import dyng_cu13
    >>> found = dyng_cu13.status()
    >>> found.usable == dyng_cu13.available()
    True
    >>> found.usable or bool(found.reason)  # an unusable plugin always says why
    True
    """
    return _status.status()


def available():
    """True when :func:`status` finds a usable driver and device.

    Examples
    --------
    >>> import dyng_cu13
    >>> isinstance(dyng_cu13.available(), bool)
    True
    """
    return status().usable


def __getattr__(name):
    # ``native`` is imported on first access so that asking the plugin whether it is available
    # loads neither the extension module nor the CUDA runtime linked into it. ``__version__``
    # waits too: importlib.metadata is a slow import, and dyng has usually loaded it already.
    if name == "native":
        value = importlib.import_module(f"{__name__}._core")
    elif name == "__version__":
        value = distribution_version()
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | {"native", "__version__"})

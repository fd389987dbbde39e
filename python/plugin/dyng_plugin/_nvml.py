"""Every GPU of the machine through NVML, which answers without creating any CUDA state.

NVML (``libnvidia-ml.so.1``, shipped with the driver) sees all GPUs regardless of
CUDA_VISIBLE_DEVICES; :mod:`._visible` then applies CUDA's rules to the list returned here.
"""

from __future__ import annotations

import ctypes

from ._devices import load_library
from ._visible import Device

__all__ = ["LIBRARY", "NvmlError", "devices"]

LIBRARY = "libnvidia-ml.so.1"

NVML_ERROR_NOT_SUPPORTED = 3
NVML_DEVICE_MIG_ENABLE = 1
# NVML_DEVICE_UUID_V2_BUFFER_SIZE: room for a GPU UUID and any future longer form.
UUID_BUFFER_SIZE = 96


class NvmlError(Exception):
    """NVML is missing or failed; the message says which call and why."""


class _PciInfo(ctypes.Structure):
    # nvmlPciInfo_t (nvml.h), identical in nvmlDeviceGetPciInfo's v1 to v3.
    _fields_ = [
        ("busIdLegacy", ctypes.c_char * 16),
        ("domain", ctypes.c_uint),
        ("bus", ctypes.c_uint),
        ("device", ctypes.c_uint),
        ("pciDeviceId", ctypes.c_uint),
        ("pciSubSystemId", ctypes.c_uint),
        ("busId", ctypes.c_char * 32),
    ]


def devices():
    """Every GPU NVML sees, in PCI bus order (CUDA's ``PCI_BUS_ID`` order).

    Returns
    -------
    tuple of Device

    Raises
    ------
    NvmlError
        When NVML is missing or any call fails; the caller then asks the driver instead.

    Examples
    --------
    >>> from dyng_cu13 import _nvml
    >>> try:
    ...     found = _nvml.devices()
    ... except _nvml.NvmlError as exc:
    ...     found = str(exc)
    """
    lib, problem = load_library(LIBRARY)
    if lib is None:
        raise NvmlError(
            f"{LIBRARY} could not be loaded: {problem}" if problem else f"{LIBRARY} not found"
        )
    _call(lib, "nvmlInit_v2")
    try:
        count = ctypes.c_uint(0)
        _call(lib, "nvmlDeviceGetCount_v2", ctypes.byref(count))
        found = [_describe(lib, index) for index in range(count.value)]
    finally:
        shutdown = getattr(lib, "nvmlShutdown", None)
        if shutdown is not None:
            shutdown()
    # NVML's enumeration order is not promised to be the bus order; the bus address is.
    if all(bus is not None for bus, _ in found):
        found.sort(key=lambda pair: pair[0])
    return tuple(device for _, device in found)


def _describe(lib, index):
    """((domain, bus, device) or None, Device) for NVML's device ``index``."""
    handle = ctypes.c_void_p()
    _call(lib, "nvmlDeviceGetHandleByIndex_v2", ctypes.c_uint(index), ctypes.byref(handle))
    major, minor = ctypes.c_int(0), ctypes.c_int(0)
    _call(
        lib, "nvmlDeviceGetCudaComputeCapability", handle, ctypes.byref(major), ctypes.byref(minor)
    )
    uuid = ctypes.create_string_buffer(UUID_BUFFER_SIZE)
    _call(lib, "nvmlDeviceGetUUID", handle, uuid, ctypes.c_uint(UUID_BUFFER_SIZE))
    mig = False
    if hasattr(lib, "nvmlDeviceGetMigMode"):
        current, pending = ctypes.c_uint(0), ctypes.c_uint(0)
        status = lib.nvmlDeviceGetMigMode(handle, ctypes.byref(current), ctypes.byref(pending))
        # GPUs without MIG support answer NOT_SUPPORTED: they are simply not in MIG mode.
        if status not in (0, NVML_ERROR_NOT_SUPPORTED):
            raise NvmlError(
                f"nvmlDeviceGetMigMode() failed for GPU {index}: {_error_string(lib, status)}"
            )
        mig = status == 0 and current.value == NVML_DEVICE_MIG_ENABLE
    bus = None
    for name in ("nvmlDeviceGetPciInfo_v3", "nvmlDeviceGetPciInfo"):
        if hasattr(lib, name):
            info = _PciInfo()
            _call(lib, name, handle, ctypes.byref(info))
            bus = (info.domain, info.bus, info.device)
            break
    device = Device(uuid.value.decode("ascii", errors="replace"), (major.value, minor.value), mig)
    return bus, device


def _call(lib, name, *args):
    function = getattr(lib, name, None)
    if function is None:
        raise NvmlError(f"{LIBRARY} has no {name}; the driver is older than NVML's v2 interface")
    status = function(*args)
    if status != 0:
        raise NvmlError(f"{name}() failed: {_error_string(lib, status)}")


def _error_string(lib, status):
    describe = getattr(lib, "nvmlErrorString", None)
    if describe is None:
        return f"nvmlReturn_t {status}"
    describe.restype = ctypes.c_char_p
    text = describe(status)
    return f"{text.decode(errors='replace')} ({status})" if text else f"nvmlReturn_t {status}"

"""Whether this plugin can run here: driver, visible devices, their compute capabilities.

The probe runs once per process, under a lock, and never raises: a plugin that cannot answer is
reported unusable with the reason, and dyng's backend selection falls back to another backend.
It never calls ``cuInit`` in this process (see :mod:`._devices` for why): the driver version
comes from ``cuDriverGetVersion``, the devices from NVML, and where NVML cannot tell what CUDA
will show, from a child process that asks the driver.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import threading
from typing import NamedTuple

from . import _driver, _nvml, _visible
from ._identity import CUDA_MAJOR, DISTRIBUTION

__all__ = ["Status", "ARCHITECTURE_FLOOR", "TIMEOUT_VARIABLE", "DEFAULT_TIMEOUT_S", "status"]

# dyng's release builds carry SASS from sm_75 (Turing) upwards; older GPUs cannot run them.
ARCHITECTURE_FLOOR = (7, 5)

# The child can take long on a machine with many GPUs (cuInit initialises each of them).
TIMEOUT_VARIABLE = "DYNG_PLUGIN_PROBE_TIMEOUT"
DEFAULT_TIMEOUT_S = 120.0


class Status(NamedTuple):
    """What the probe found.

    Attributes
    ----------
    usable : bool
        A recent enough driver and at least one visible device of compute capability 7.5+.
    driver_version : int or None
        The driver's CUDA version, ``1000 * major + 10 * minor``; None without a driver.
    device_count : int or None
        Devices CUDA will show in this process; None when the probe could not count them.
    reason : str
        Why the plugin is unusable, or a remark on a usable one (devices below the floor);
        empty otherwise.
    capabilities : tuple of (int, int)
        Compute capability of each visible device, in CUDA ordinal order where known.
    probe : str
        What answered: ``"driver"`` (no usable driver, devices not asked), ``"nvml"``,
        ``"child"`` (a child process asked the driver) or ``"error"`` (the probe itself failed).
    """

    usable: bool
    driver_version: int | None
    device_count: int | None
    reason: str
    capabilities: tuple[tuple[int, int], ...]
    probe: str


_lock = threading.Lock()
_answer = None


def status():
    """The probe's answer, computed on the first call of the process.

    Returns
    -------
    Status

    Examples
    --------
    >>> from dyng_cu13 import _status
    >>> _status.status() is _status.status()
    True
    """
    global _answer
    with _lock:
        if _answer is None:
            try:
                _answer = _probe()
            except Exception as exc:  # never raise: an unexplained failure still means "unusable"
                _answer = Status(
                    False,
                    None,
                    None,
                    f"the plugin's probe failed: {exc!r}; please "
                    "report this to dyng's issue tracker",
                    (),
                    "error",
                )
        return _answer


def _probe():
    version, problem = _driver.version()
    if version is None:
        return Status(
            False, None, None, f"{problem}; install the NVIDIA driver{_floor_hint()}", (), "driver"
        )
    problem = _driver.too_old(version, CUDA_MAJOR, DISTRIBUTION)
    if problem is not None:
        return Status(False, version, None, problem, (), "driver")
    capabilities, probe, problem = _visible_capabilities()
    if capabilities is None:
        return Status(False, version, None, problem, (), probe)
    return _judge(version, capabilities, probe)


def _floor_hint():
    floor = _driver.DRIVER_FLOORS.get(CUDA_MAJOR)
    return f" ({floor} or newer for {DISTRIBUTION})" if floor else ""


def _visible_capabilities():
    """(capabilities, probe, None) or (None, probe, problem)."""
    try:
        every = _nvml.devices()
    except _nvml.NvmlError as exc:
        why = f"NVML could not list the GPUs ({exc})"
    else:
        order = _visible.device_order(os.environ.get("CUDA_DEVICE_ORDER"))
        chosen = _visible.select(os.environ.get("CUDA_VISIBLE_DEVICES"), every, order)
        if chosen.ambiguous is None:
            return tuple(every[index].capability for index in chosen.indices), "nvml", None
        why = chosen.ambiguous
    capabilities, problem = _ask_child(_timeout())
    if capabilities is None:
        return (
            None,
            "child",
            (f"{problem}; the driver was asked because {why}; check the driver with nvidia-smi"),
        )
    return capabilities, "child", None


def _timeout():
    try:
        value = float(os.environ.get(TIMEOUT_VARIABLE, DEFAULT_TIMEOUT_S))
    except ValueError:
        return DEFAULT_TIMEOUT_S
    return value if 0 < value < math.inf else DEFAULT_TIMEOUT_S


def _ask_child(timeout):
    """Runs ``_devices.py`` in a child process: (capabilities, None) or (None, problem)."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_devices.py")
    if not sys.executable:
        return None, "could not count the CUDA devices: no Python executable to run the child"
    try:
        child = subprocess.Popen(
            [sys.executable, "-I", "-S", script],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            errors="replace",
        )
    except OSError as exc:
        return None, f"could not start the device probe {script}: {exc}"
    try:
        out, err = child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        child.kill()
        try:
            child.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            pass  # a child stuck inside the kernel driver cannot be reaped; waiting would hang us
        return None, (
            f"the device probe {script} did not answer within {timeout:g} s (the driver "
            f"may be hung); set {TIMEOUT_VARIABLE} to wait longer"
        )
    lines = out.strip().splitlines()
    try:
        answer = json.loads(lines[-1])
        if "error" in answer:
            return None, f"the device probe found no answer: {answer['error']}"
        return tuple((int(major), int(minor)) for major, minor in answer["capabilities"]), None
    except (IndexError, ValueError, TypeError, KeyError):
        tail = (err.strip().splitlines() or ["no output"])[-1]
        return None, (
            f"the device probe {script} exited with status {child.returncode} "
            f"without an answer: {tail}"
        )


def _judge(version, capabilities, probe):
    count = len(capabilities)
    if count == 0:
        shown = os.environ.get("CUDA_VISIBLE_DEVICES")
        setting = f" (CUDA_VISIBLE_DEVICES={shown!r})" if shown is not None else ""
        return Status(
            False,
            version,
            0,
            f"no visible CUDA device{setting}; check CUDA_VISIBLE_DEVICES and nvidia-smi",
            (),
            probe,
        )
    floor = "sm_{}{}".format(*ARCHITECTURE_FLOOR)
    below = [
        f"{ordinal} (sm_{major}{minor})"
        for ordinal, (major, minor) in enumerate(capabilities)
        if (major, minor) < ARCHITECTURE_FLOOR
    ]
    named = f"device{'s' if len(below) > 1 else ''} {', '.join(below)}"
    if len(below) == count:
        return Status(
            False,
            version,
            count,
            f"every visible device is older than {floor} "
            f"({named}); dyng's CUDA kernels need {floor} (Turing) or newer",
            capabilities,
            probe,
        )
    remark = (
        f"{named} cannot run dyng's CUDA kernels (older than {floor}); hide "
        f"{'them' if len(below) > 1 else 'it'} with CUDA_VISIBLE_DEVICES"
        if below
        else ""
    )
    return Status(True, version, count, remark, capabilities, probe)

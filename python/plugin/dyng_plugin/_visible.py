"""Which of NVML's devices CUDA will show, from CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER.

Pure functions over NVML's device list (in PCI bus order); nothing here touches a library.

The rules, as the CUDA driver applies them (checked against driver 580.159 on one GPU, see
tests/plugin/test_plugin_real_driver.py):

* unset: every device; empty: none (like any value whose first entry names no device).
* otherwise a comma-separated list read left to right. An entry is either a device ordinal, read
  like C's ``strtol``: blanks, a sign and decimal digits, the rest ignored (``" 1"``, ``"+1"``,
  ``"1:x"`` all name device 1); or a UUID prefix: ``GPU-`` or ``MIG-`` right at the start, then
  at least one hex digit (either case; dashes ignored) up to the UUID's 32, which must begin
  exactly one device's UUID (anything after the 32nd digit is ignored).
* the first entry that names no device (an ordinal out of range, ``-1``, an unknown or ambiguous
  prefix, anything else) hides itself and every entry after it.
* a device named twice by ordinals, or twice by UUIDs, hides every device (cuInit then fails).
* ordinals count in CUDA_DEVICE_ORDER: ``PCI_BUS_ID`` (NVML's order) or ``FASTEST_FIRST`` (the
  default, and the reading of any other value), a driver heuristic NVML cannot reproduce.

What NVML cannot settle is reported as ambiguous, and the caller asks the driver instead (a child
process): a GPU in MIG mode (CUDA then shows MIG instances, not GPUs); a device named once by
ordinal and once by UUID (the driver then shows it once, but what it does with the entries after
is not known here); ordinals choosing a subset of devices that differ in compute capability under
FASTEST_FIRST; and ordinals mixed with UUIDs under FASTEST_FIRST (whether both name the same
device depends on the heuristic). Among devices of one compute capability the heuristic's order
cannot change the answer, since a device is described by its compute capability alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

__all__ = ["Device", "Selection", "PCI_BUS_ID", "FASTEST_FIRST", "device_order", "select"]

PCI_BUS_ID = "PCI_BUS_ID"
FASTEST_FIRST = "FASTEST_FIRST"

_ORDINAL = re.compile(r"[ \t\n\v\f\r]*([+-]?[0-9]+)")  # strtol's blanks are ASCII only
_HEX_DIGITS = frozenset("0123456789abcdef")
_UUID_DIGITS = 32


class Device(NamedTuple):
    """One GPU as NVML describes it."""

    uuid: str
    capability: tuple[int, int]
    mig: bool = False


class Selection(NamedTuple):
    """The devices CUDA will show, or why NVML cannot tell.

    ``indices`` are positions in the device list given to :func:`select`, in CUDA ordinal order
    where that order is known (in list order otherwise); ``ambiguous`` is None when they are
    right, else the reason to ask the driver (and ``indices`` is empty).
    """

    indices: tuple[int, ...]
    ambiguous: str | None = None


def device_order(value):
    """CUDA's reading of CUDA_DEVICE_ORDER.

    Examples
    --------
    >>> from dyng_cu13._visible import device_order
    >>> device_order("PCI_BUS_ID"), device_order(None), device_order("pci")
    ('PCI_BUS_ID', 'FASTEST_FIRST', 'FASTEST_FIRST')
    """
    return PCI_BUS_ID if value is not None and value.strip() == PCI_BUS_ID else FASTEST_FIRST


def select(visible, devices: Sequence[Device], order):
    """Applies CUDA_VISIBLE_DEVICES to NVML's devices.

    Parameters
    ----------
    visible : str or None
        The value of CUDA_VISIBLE_DEVICES; None when it is unset.
    devices : sequence of Device
        Every GPU, in PCI bus order.
    order : str
        :data:`PCI_BUS_ID` or :data:`FASTEST_FIRST` (see :func:`device_order`).

    Returns
    -------
    Selection

    Examples
    --------
    >>> from dyng_cu13._visible import Device, select, PCI_BUS_ID
    >>> gpus = [Device("GPU-aa11", (9, 0)), Device("GPU-bb22", (8, 6))]
    >>> select("1,GPU-aa", gpus, PCI_BUS_ID)
    Selection(indices=(1, 0), ambiguous=None)
    >>> select("0,7,1", gpus, PCI_BUS_ID).indices  # 7 names no device: it and "1" are hidden
    (0,)
    >>> select("1", gpus, "FASTEST_FIRST").ambiguous is not None
    True
    """
    in_mig = [index for index, device in enumerate(devices) if device.mig]
    if in_mig:
        return Selection(
            (),
            f"MIG mode is enabled on GPU {in_mig[0]}, so CUDA shows MIG "
            "instances that NVML's GPU list does not describe",
        )
    if visible is None:
        return Selection(tuple(range(len(devices))))
    chosen: list[int] = []
    ordinals: set[int] = set()
    uuids: set[int] = set()
    for entry in visible.split(","):
        index, by_ordinal = _resolve(entry, devices)
        if index is None:
            break
        named = ordinals if by_ordinal else uuids
        if index in named:
            return Selection(())
        if index in chosen:
            return Selection(
                (),
                f"CUDA_VISIBLE_DEVICES names a device twice, by ordinal and by UUID ({visible!r})",
            )
        named.add(index)
        chosen.append(index)
    if order == FASTEST_FIRST and ordinals:
        if uuids and len(devices) > 1:
            return Selection(
                (),
                "CUDA_VISIBLE_DEVICES mixes ordinals and UUIDs, and under "
                "CUDA_DEVICE_ORDER=FASTEST_FIRST only the driver knows "
                "which device an ordinal names",
            )
        mixed = len({device.capability for device in devices}) > 1
        if mixed and len(ordinals) < len(devices):
            return Selection(
                (),
                "CUDA_VISIBLE_DEVICES picks devices by ordinal among GPUs of "
                "different compute capabilities, and under "
                "CUDA_DEVICE_ORDER=FASTEST_FIRST only the driver knows "
                "their order",
            )
        if mixed:
            # Every device is shown; only their order is unknown, so keep NVML's.
            return Selection(tuple(range(len(devices))))
    return Selection(tuple(chosen))


def _resolve(entry, devices):
    """(index, by_ordinal) of the device an entry names; (None, False) when it names none."""
    if entry.startswith(("GPU-", "MIG-")):
        digits = _uuid_digits(entry[4:])
        matches = [
            index
            for index, device in enumerate(devices)
            if digits and _uuid_digits(device.uuid[4:]).startswith(digits)
        ]
        return (matches[0], False) if len(matches) == 1 else (None, False)
    number = _ORDINAL.match(entry)
    if number is not None and 0 <= int(number.group(1)) < len(devices):
        return int(number.group(1)), True
    return None, False


def _uuid_digits(text):
    """The hex digits of a UUID (prefix), lower case; "" when a stray character comes first."""
    digits = []
    for char in text.lower():
        if len(digits) == _UUID_DIGITS:
            break
        if char in _HEX_DIGITS:
            digits.append(char)
        elif char != "-":
            return ""
    return "".join(digits)

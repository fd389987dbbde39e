"""CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER rules (the plugin's ``_visible``, pure functions)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

# Loaded from its file: the module imports nothing from its package, and no copy is needed.
_SOURCE = Path(__file__).resolve().parents[2] / "python" / "plugin" / "dyng_plugin" / "_visible.py"
_spec = importlib.util.spec_from_file_location("plugin_visible", _SOURCE)
visible = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(visible)

Device, select = visible.Device, visible.select
PCI, FASTEST = visible.PCI_BUS_ID, visible.FASTEST_FIRST


def uuid(head):
    return f"GPU-{head}-0000-0000-0000-000000000000"


SAME = [
    Device(uuid("aaaa1111"), (9, 0)),
    Device(uuid("aaaa2222"), (9, 0)),
    Device(uuid("bbbb3333"), (9, 0)),
]
MIXED = [
    Device(uuid("aaaa1111"), (9, 0)),
    Device(uuid("aaaa2222"), (8, 6)),
    Device(uuid("bbbb3333"), (7, 0)),
]


@pytest.mark.parametrize(
    "value, expected",
    [
        (None, (0, 1, 2)),  # unset: every device
        ("", ()),  # empty: none
        ("  ", ()),
        ("2,0", (2, 0)),  # ordinals, in the order given
        (" 1, +2", (1, 2)),  # read like strtol: leading blanks and a sign...
        ("1:x,0.5,2 ", (1, 0, 2)),  # ...and whatever follows the digits is ignored
        ("-0", (0,)),
        ("01", (1,)),  # decimal, not octal
        ("1", (1,)),  # a subset
        ("0,5,1", (0,)),  # 5 is out of range: it and everything after it hidden
        ("-1", ()),  # the usual way to hide everything
        ("0,,1", (0,)),  # an empty entry names no device either
        ("0,x,1", (0,)),
        ("1,1", ()),  # a device twice hides everything
        ("0,1,+0", ()),
        ("GPU-bbbb", (2,)),  # a UUID prefix naming one device
        ("GPU-BBBB", (2,)),  # hex digits in either case
        ("GPU-aaaa-2222,0", (1, 0)),  # dashes do not count
        ("GPU-aaaa2222-0000-0000-0000-000000000000-and-more", (1,)),  # after 32 digits: ignored
        ("MIG-bbbb", (2,)),  # MIG- prefixes match GPU UUIDs too
        ("GPU-aaaa,1", ()),  # ambiguous prefix: invalid, hides itself and the rest
        ("1,GPU-aaaa", (1,)),
        ("GPU-", ()),  # a prefix needs at least one digit
        ("GPU-b ", ()),  # a stray character before the 32nd digit
        (" GPU-bbbb", ()),  # the prefix must start the entry
        ("gpu-bbbb", ()),
        ("bbbb3333", ()),  # a UUID needs its GPU- prefix
        ("GPU-bbbb,GPU-bbbb3333", ()),  # a device twice by UUID hides everything
    ],
)
def test_pci_bus_id_order(value, expected):
    assert select(value, SAME, PCI) == visible.Selection(expected)


@pytest.mark.parametrize("order", [PCI, FASTEST])
@pytest.mark.parametrize("value", ["0,GPU-aaaa1111", "GPU-bbbb,2,0"])
def test_device_named_by_ordinal_and_uuid_is_ambiguous(value, order):
    # The driver then shows the device once; what it makes of the entries after is not known.
    chosen = select(value, SAME, order)
    assert chosen.indices == () and "by ordinal and by UUID" in chosen.ambiguous


@pytest.mark.parametrize(
    "value, expected",
    [
        (None, (0, 1, 2)),
        ("2,0", (2, 0)),
        ("1,1", ()),
        ("0,5", (0,)),
        ("GPU-aaaa2222,GPU-bbbb", (1, 2)),
    ],
)
def test_fastest_first_among_equal_devices_reads_like_pci_order(value, expected):
    # Devices of one compute capability describe alike, whatever order the heuristic picks.
    assert select(value, SAME, FASTEST) == visible.Selection(expected)


@pytest.mark.parametrize("value", ["0", "1,2", "0,7"])
def test_fastest_first_subset_of_mixed_devices_is_ambiguous(value):
    chosen = select(value, MIXED, FASTEST)
    assert chosen.indices == ()
    assert "FASTEST_FIRST" in chosen.ambiguous


def test_fastest_first_all_of_mixed_devices_is_known():
    assert select("2,0,1", MIXED, FASTEST) == visible.Selection((0, 1, 2))
    assert select(None, MIXED, FASTEST) == visible.Selection((0, 1, 2))


def test_fastest_first_by_uuid_is_known():
    assert select("GPU-bbbb,GPU-aaaa1111", MIXED, FASTEST) == visible.Selection((2, 0))


@pytest.mark.parametrize("devices", [SAME, MIXED])
def test_fastest_first_mixing_ordinals_and_uuids_is_ambiguous(devices):
    chosen = select("0,GPU-bbbb", devices, FASTEST)
    assert chosen.indices == () and "mixes ordinals and UUIDs" in chosen.ambiguous


def test_pci_bus_id_subset_of_mixed_devices_is_known():
    assert select("1", MIXED, PCI) == visible.Selection((1,))


def test_mig_mode_is_ambiguous_whatever_the_selection():
    devices = [Device(uuid("aaaa1111"), (9, 0)), Device(uuid("bbbb3333"), (9, 0), mig=True)]
    for value in (None, "0", "MIG-abcd", ""):
        chosen = select(value, devices, PCI)
        assert chosen.indices == () and "MIG mode is enabled on GPU 1" in chosen.ambiguous


def test_no_devices():
    assert select(None, [], FASTEST) == visible.Selection(())
    assert select("0", [], FASTEST) == visible.Selection(())


@pytest.mark.parametrize(
    "value, expected",
    [
        ("PCI_BUS_ID", PCI),
        (" PCI_BUS_ID ", PCI),
        ("FASTEST_FIRST", FASTEST),
        (None, FASTEST),
        ("", FASTEST),
        ("pci_bus_id", FASTEST),
        ("bogus", FASTEST),
    ],
)
def test_device_order(value, expected):
    assert visible.device_order(value) == expected

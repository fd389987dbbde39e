"""The plugin's probe against fake drivers: driver floor, NVML devices, the child process.

Every probe runs in a fresh interpreter (the ``probe`` fixture), which also checks that the
probing process itself never called cuInit.
"""

from __future__ import annotations

import os
import time

import pytest


def nvml(*devices):
    """FAKE_NVML_DEVICES for ``(capability, uuid, pci_bus, mig)`` tuples."""
    return ";".join(f"{cap}/{uuid}/{bus}/{mig}" for cap, uuid, bus, mig in devices)


TWO_H100 = nvml(("9.0", "GPU-11111111-aaaa", 1, 0), ("9.0", "GPU-22222222-bbbb", 2, -1))
# Three different devices, listed by NVML out of bus order (the probe must sort them).
THREE = nvml(
    ("8.0", "GPU-aaaa2222-0000", 2, -1),
    ("9.0", "GPU-aaaa1111-0000", 1, 0),
    ("8.6", "GPU-bbbb3333-0000", 3, -1),
)
PCI_ORDER = ((9, 0), (8, 0), (8, 6))
# NVML present but failing ("Driver Not Loaded"): the child answers. (A missing NVML would do
# too, but a GPU machine's own libnvidia-ml.so.1 would then be found.)
NVML_FAILS = {"FAKE_NVML_DEVICES": TWO_H100, "FAKE_NVML_INIT_ERROR": "9"}


def test_no_driver(probe, without_system):
    without_system("libcuda.so.1")
    report = probe(libs=())
    status = report["status"]
    assert status["usable"] is False and report["available"] is False
    assert status["reason"].startswith("no NVIDIA driver found (libcuda.so.1); ")
    assert "580.65.06" in status["reason"]  # what to install
    assert (status["driver_version"], status["device_count"], status["probe"]) == (
        None,
        None,
        "driver",
    )
    assert report["driver_version"] is None
    assert report["cuinit"] == [] and report["nvml_log"] == []


def test_unversioned_libcuda_is_not_a_driver(probe, without_system):
    without_system("libcuda.so.1")
    # libcuda.so is the toolkit's development name (often its stub); only libcuda.so.1 counts.
    report = probe(libs=("unversioned", "nvml"), env={"FAKE_NVML_DEVICES": TWO_H100})
    assert report["status"]["reason"].startswith("no NVIDIA driver found (libcuda.so.1)")


def test_driver_found_in_the_wsl_directory(probe, fake_libs, without_system):
    without_system("libcuda.so.1")
    report = probe(
        libs=(),
        code=f"""
pkg._devices.WSL_LIBRARY_DIR = {str(fake_libs["cuda"])!r}
REPORT["driver_version"] = pkg.driver_version()
""",
        env={"FAKE_CUDA_DRIVER_VERSION": "13010"},
    )
    assert report["driver_version"] == 13010


@pytest.mark.parametrize(
    "package, driver, floor, instead",
    [
        ("dyng_cu13", 12080, "580.65.06", "install dyng-cu12 instead"),
        ("dyng_cu12", 11080, "525.60.13", None),
    ],
)
def test_too_old_driver_names_the_floor(probe, package, driver, floor, instead):
    report = probe(
        package=package,
        env={"FAKE_CUDA_DRIVER_VERSION": str(driver), "FAKE_NVML_DEVICES": TWO_H100},
    )
    status = report["status"]
    assert status["usable"] is False and status["probe"] == "driver"
    assert status["driver_version"] == driver == report["driver_version"]
    assert f"update the NVIDIA driver to {floor} or newer" in status["reason"]
    assert f"CUDA {driver // 1000}.{driver % 1000 // 10} ({driver})" in status["reason"]
    assert (instead in status["reason"]) if instead else ("instead" not in status["reason"])
    assert report["nvml_log"] == []  # devices are not asked once the driver rules the plugin out


@pytest.mark.parametrize(
    "package, driver", [("dyng_cu13", 13000), ("dyng_cu12", 12000), ("dyng_cu12", 13020)]
)
def test_driver_of_the_major_or_newer_is_enough(probe, package, driver):
    report = probe(
        package=package,
        env={"FAKE_CUDA_DRIVER_VERSION": str(driver), "FAKE_NVML_DEVICES": TWO_H100},
    )
    assert report["status"]["usable"] is True


def test_good_driver_and_nvml_devices(probe):
    report = probe(env={"FAKE_NVML_DEVICES": TWO_H100})
    assert report["status"] == {
        "usable": True,
        "driver_version": 13000,
        "device_count": 2,
        "reason": "",
        "capabilities": ((9, 0), (9, 0)),
        "probe": "nvml",
    }
    assert report["available"] is True
    assert report["cuinit"] == []
    assert report["nvml_log"] == ["init", "shutdown"]


def test_every_device_below_sm75(probe):
    report = probe(
        env={"FAKE_NVML_DEVICES": nvml(("7.0", "GPU-a", 1, -1), ("6.1", "GPU-b", 2, -1))}
    )
    status = report["status"]
    assert status["usable"] is False and status["device_count"] == 2
    assert status["capabilities"] == ((7, 0), (6, 1))
    assert (
        "every visible device is older than sm_75 (devices 0 (sm_70), 1 (sm_61))"
        in (status["reason"])
    )


def test_one_device_below_sm75_is_remarked(probe):
    report = probe(
        env={
            "FAKE_NVML_DEVICES": nvml(("7.0", "GPU-a", 1, -1), ("8.0", "GPU-b", 2, -1)),
            "CUDA_DEVICE_ORDER": "PCI_BUS_ID",
        }
    )
    status = report["status"]
    assert status["usable"] is True and status["capabilities"] == ((7, 0), (8, 0))
    assert status["reason"].startswith("device 0 (sm_70) cannot run dyng's CUDA kernels")


@pytest.mark.parametrize(
    "visible, capabilities",
    [
        (None, PCI_ORDER),
        ("", ()),
        ("2,0", ((8, 6), (9, 0))),
        ("1", ((8, 0),)),
        ("0,9,1", ((9, 0),)),  # invalid 9 hides itself and what follows
        ("1,1", ()),  # duplicate hides all
        ("GPU-bbbb", ((8, 6),)),  # UUID prefix
        ("GPU-aaaa2222-0000,0", ((8, 0), (9, 0))),
        ("GPU-aaaa,2", ()),  # ambiguous prefix is invalid
        ("MIG-aaaa1111", ((9, 0),)),  # a MIG- prefix matches a GPU UUID too
        (" 1:x", ((8, 0),)),  # an ordinal read like strtol
    ],
)
def test_cuda_visible_devices_through_nvml(probe, visible, capabilities):
    report = probe(
        env={
            "FAKE_NVML_DEVICES": THREE,
            "CUDA_VISIBLE_DEVICES": visible,
            "CUDA_DEVICE_ORDER": "PCI_BUS_ID",
        }
    )
    status = report["status"]
    assert status["probe"] == "nvml" and report["cuinit"] == []
    assert status["capabilities"] == capabilities
    assert status["device_count"] == len(capabilities)
    assert status["usable"] is bool(capabilities)
    if not capabilities:
        assert f"no visible CUDA device (CUDA_VISIBLE_DEVICES={visible!r})" in status["reason"]


def test_fastest_first_with_uniform_devices_needs_no_child(probe):
    report = probe(env={"FAKE_NVML_DEVICES": TWO_H100, "CUDA_VISIBLE_DEVICES": "1"})
    assert report["status"]["probe"] == "nvml" and report["status"]["capabilities"] == ((9, 0),)


@pytest.mark.parametrize("order", [None, "FASTEST_FIRST"])
def test_fastest_first_with_mixed_devices_asks_the_child(probe, order):
    # FAKE_CUDA_DEVICES is what the driver shows for CUDA_VISIBLE_DEVICES=0 under its heuristic.
    report = probe(
        env={
            "FAKE_NVML_DEVICES": THREE,
            "CUDA_VISIBLE_DEVICES": "0",
            "CUDA_DEVICE_ORDER": order,
            "FAKE_CUDA_DEVICES": "8.6",
        }
    )
    assert report["status"]["probe"] == "child"
    assert report["status"]["capabilities"] == ((8, 6),)
    assert report["cuinit"] == [(report["cuinit"][0][0], "0")]  # once, in the child, same env


def test_nvml_missing_asks_the_child(probe, without_system):
    without_system("libnvidia-ml.so.1")
    report = probe(libs=("cuda",), env={"FAKE_CUDA_DEVICES": "9.0,8.0"})
    status = report["status"]
    assert status["usable"] is True and status["probe"] == "child"
    assert status["capabilities"] == ((9, 0), (8, 0)) and status["device_count"] == 2
    [(pid, _)] = report["cuinit"]
    assert int(pid) != report["pid"]  # cuInit ran exactly once, in the child


@pytest.mark.parametrize(
    "failure",
    [
        {"FAKE_NVML_INIT_ERROR": "9"},
        {"FAKE_NVML_FAIL": "nvmlDeviceGetCudaComputeCapability"},
        {"FAKE_NVML_FAIL": "nvmlDeviceGetCount_v2"},
    ],
)
def test_nvml_failure_asks_the_child(probe, failure):
    report = probe(env={"FAKE_NVML_DEVICES": TWO_H100, "FAKE_CUDA_DEVICES": "9.0", **failure})
    assert report["status"]["probe"] == "child" and report["status"]["usable"] is True
    assert len(report["cuinit"]) == 1
    # Whatever failed after nvmlInit, NVML was shut down again.
    assert report["nvml_log"] == ([] if "FAKE_NVML_INIT_ERROR" in failure else ["init", "shutdown"])


def test_mig_asks_the_child_which_sees_the_mig_uuid(probe):
    report = probe(
        env={
            "FAKE_NVML_DEVICES": nvml(("9.0", "GPU-a", 1, 1), ("9.0", "GPU-b", 2, 0)),
            "CUDA_VISIBLE_DEVICES": "MIG-1234abcd",
            "FAKE_CUDA_DEVICES": "9.0",
        }
    )
    status = report["status"]
    assert status["probe"] == "child" and status["usable"] is True
    assert status["capabilities"] == ((9, 0),)
    assert [visible for _, visible in report["cuinit"]] == ["MIG-1234abcd"]


def test_child_finding_no_device(probe):
    report = probe(env={**NVML_FAILS, "FAKE_CUDA_DEVICES": ""})
    status = report["status"]
    assert (status["usable"], status["device_count"], status["probe"]) == (False, 0, "child")
    assert status["reason"].startswith("no visible CUDA device; ")


def test_device_named_twice_asks_the_child(probe):
    # The real driver refuses a duplicate with CUDA_ERROR_INVALID_DEVICE: no device is visible.
    report = probe(
        env={
            "FAKE_NVML_DEVICES": THREE,
            "CUDA_DEVICE_ORDER": "PCI_BUS_ID",
            "CUDA_VISIBLE_DEVICES": "0,GPU-aaaa1111",
            "FAKE_CUDA_DEVICES": "9.0",
            "FAKE_CUDA_INIT_ERROR": "101",
        }
    )
    status = report["status"]
    assert (status["usable"], status["device_count"], status["probe"]) == (False, 0, "child")
    assert "no visible CUDA device (CUDA_VISIBLE_DEVICES='0,GPU-aaaa1111')" in status["reason"]


def test_child_driver_error_is_reported(probe):
    report = probe(env={**NVML_FAILS, "FAKE_CUDA_DEVICES": "9.0", "FAKE_CUDA_INIT_ERROR": "999"})
    status = report["status"]
    assert status["usable"] is False and status["probe"] == "child"
    assert status["device_count"] is None and status["driver_version"] == 13000
    assert "cuInit(0) failed: CUDA_ERROR_UNKNOWN (999)" in status["reason"]
    assert "nvmlInit_v2() failed: Driver Not Loaded (9)" in status["reason"]  # why the child


def test_child_timeout_is_unusable_not_an_exception(probe):
    start = time.monotonic()
    report = probe(
        env={
            **NVML_FAILS,
            "FAKE_CUDA_DEVICES": "9.0",
            "FAKE_CUDA_INIT_HANG": "1",
            "DYNG_PLUGIN_PROBE_TIMEOUT": "0.5",
        }
    )
    assert time.monotonic() - start < 20
    status = report["status"]
    assert status["usable"] is False and status["probe"] == "child"
    assert "did not answer within 0.5 s" in status["reason"]
    assert "DYNG_PLUGIN_PROBE_TIMEOUT" in status["reason"]
    [(pid, _)] = report["cuinit"]
    with pytest.raises(ProcessLookupError):  # the hung child was killed and reaped
        os.kill(int(pid), 0)


def test_timeout_setting(probe):
    report = probe(
        code=r"""
REPORT["timeouts"] = []
for value in (None, "0.5", "abc", "-3", "0", "inf", "nan"):
    if value is not None:
        os.environ["DYNG_PLUGIN_PROBE_TIMEOUT"] = value
    REPORT["timeouts"].append(pkg._status._timeout())
"""
    )
    assert report["timeouts"] == [120.0, 0.5, 120.0, 120.0, 120.0, 120.0, 120.0]


def test_probe_runs_once_per_process(probe):
    report = probe(
        env={**NVML_FAILS, "FAKE_CUDA_DEVICES": "9.0"},
        code=r"""
first = pkg.status()
REPORT["same"] = all(pkg.status() is first for _ in range(3)) and pkg.available()
""",
    )
    assert report["same"] is True
    assert len(report["cuinit"]) == 1


def test_probe_is_thread_safe(probe):
    report = probe(
        env={**NVML_FAILS, "FAKE_CUDA_DEVICES": "9.0"},
        code=r"""
import threading
barrier = threading.Barrier(8)
answers = []
def ask():
    barrier.wait()
    answers.append(pkg.status())
threads = [threading.Thread(target=ask) for _ in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
REPORT["answers"] = len(answers)
REPORT["one"] = all(answer is answers[0] for answer in answers)
""",
    )
    assert report["answers"] == 8 and report["one"] is True
    assert len(report["cuinit"]) == 1


def test_driver_version_alone_probes_no_device(probe):
    report = probe(
        env={"FAKE_NVML_DEVICES": TWO_H100, "FAKE_CUDA_DRIVER_VERSION": "13020"},
        code='REPORT["driver_version"] = pkg.driver_version()',
    )
    assert report["driver_version"] == 13020
    assert report["nvml_log"] == [] and report["cuinit"] == []


def test_unexpected_failure_is_reported_not_raised(probe):
    report = probe(
        env={"FAKE_NVML_DEVICES": TWO_H100},
        code=r"""
def broken():
    raise ZeroDivisionError("boom")
pkg._nvml.devices = broken
REPORT["status"] = pkg.status()._asdict()
""",
    )
    status = report["status"]
    assert status["usable"] is False and status["probe"] == "error"
    assert "ZeroDivisionError('boom')" in status["reason"]

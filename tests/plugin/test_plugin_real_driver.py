"""The probe against this machine's own NVIDIA driver (skipped without one).

The child process asks the driver itself, so its answer is CUDA's own reading of
CUDA_VISIBLE_DEVICES; the NVML path must agree with it for every setting tried here. This is
where the rules of ``_visible`` meet the real driver rather than the fakes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

# No ``gpu`` marker: that one means "a CUDA build of dyng" (tests/python/conftest.py), and these
# tests need only the driver.

CODE = r"""
import json, os, sys
import dyng_cu13 as pkg
status = pkg.status()
# cuInit opens /dev/nvidia-uvm; NVML and cuDriverGetVersion do not.
uvm = any("nvidia-uvm" in os.readlink(f"/proc/self/fd/{fd}") for fd in os.listdir("/proc/self/fd")
          if os.path.exists(f"/proc/self/fd/{fd}"))
child, problem = pkg._status._ask_child(120)
print(json.dumps({"status": status._asdict(), "uvm": uvm, "child": child, "problem": problem,
                  "uuids": [device.uuid for device in pkg._nvml.devices()]}))
"""

CUINIT_CODE = r"""
import ctypes, os
ctypes.CDLL("libcuda.so.1").cuInit(0)
print(any("nvidia-uvm" in os.readlink(f"/proc/self/fd/{fd}") for fd in os.listdir("/proc/self/fd")
          if os.path.exists(f"/proc/self/fd/{fd}")))
"""


@pytest.fixture(scope="module")
def real(system_libs, packages):
    if system_libs != {"libcuda.so.1", "libnvidia-ml.so.1"}:
        pytest.skip("needs this machine's own NVIDIA driver (libcuda.so.1 and libnvidia-ml.so.1)")

    def run(**settings):
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER")
        }
        env.update({k: v for k, v in settings.items() if v is not None})
        env["PYTHONPATH"] = str(packages)
        done = subprocess.run(
            [sys.executable, "-c", CODE],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
        report = json.loads(done.stdout.strip().splitlines()[-1])
        report["status"]["capabilities"] = tuple(map(tuple, report["status"]["capabilities"]))
        if report["child"] is not None:
            report["child"] = tuple(map(tuple, report["child"]))
        return report

    return run


def test_probe_agrees_with_the_driver(real):
    report = real()
    status = report["status"]
    assert status["usable"] and status["probe"] == "nvml"
    assert status["driver_version"] >= 12000
    assert status["capabilities"] == report["child"]
    assert report["uvm"] is False


def test_cuinit_check_is_meaningful(real, packages):
    # The control for the "uvm" check above: cuInit does open /dev/nvidia-uvm here.
    done = subprocess.run(
        [sys.executable, "-c", CUINIT_CODE], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "True"


def test_cuda_visible_devices_as_the_driver_reads_it(real):
    uuids = real()["uuids"]
    first, count = uuids[0], len(uuids)
    settings = [
        "",
        "0",
        "-1",
        str(count),
        "0,0",
        "0,00",
        "0,+0",
        " 0",
        "  +0  ",
        "-0",
        "0x1",
        "0.5",
        "01",
        "0,x",
        "0, x",
        "0,,0",
        "0,-1,0",
        f"0,{count},0",
        first,
        first[:5],
        first[:12],
        first.upper(),
        first + "0",
        first + " ",
        first[4:],
        "GPU-",
        f"{first[:5]} ",
        f" {first[:12]}",
        f"{first[:5]}x",
        "gpu-" + first[4:],
        "MIG-" + first[4:12],
        "MIG-00000000",
        f"{first[:5]},{first[:6]}",
        f"{first},x",
        f"0,{first}",  # by ordinal and UUID: left to the child
    ]
    if count > 1:
        settings += ["1,0", f"{count - 1}", f"1,{uuids[1][:12]}", f"{uuids[1]},0", "GPU-"]
    disagreements, by_nvml = [], 0
    for order in ("PCI_BUS_ID", "FASTEST_FIRST"):
        for setting in settings:
            report = real(CUDA_VISIBLE_DEVICES=setting, CUDA_DEVICE_ORDER=order)
            status = report["status"]
            if report["child"] is None:
                disagreements.append((order, setting, "child failed", report["problem"]))
            elif status["capabilities"] != report["child"]:
                disagreements.append((order, setting, status["capabilities"], report["child"]))
            by_nvml += status["probe"] == "nvml"
            assert report["uvm"] is False
    assert disagreements == [], "\n".join(map(str, disagreements))
    if count == 1:  # the child answered only where NVML cannot (with more GPUs, more such)
        assert by_nvml == 2 * (len(settings) - 1)

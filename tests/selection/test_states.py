"""Each state a plugin can end in, with its reason, and what dyng then runs on."""

from __future__ import annotations

import pytest
from _selection_helpers import backend_warnings, plugins_by_name

WORK_CODE = r"""
import dyng
graph = dyng.Graph.from_edges([0, 0, 2], [1, 2, 1], [4, 1, 2],
                              resources=dyng.Resources.sequential())
REPORT["distances"] = dyng.sssp.compute(graph, 0).distances.tolist()
native = dyng._backend.native()
try:
    native.Execution("bogus")
except dyng.InvalidArgumentError as exc:  # translated by the module's registered error classes
    REPORT["translated"] = "bogus" in str(exc)
REPORT["config"] = dyng.config()
REPORT["fake_core"] = getattr(native, "IS_FAKE_PLUGIN_CORE", False)
REPORT["cpu_module_imported"] = "dyng._core" in sys.modules
"""

SELECTION_CODE = r"""
import dyng
chosen = dyng._backend.selection()
REPORT["config"] = {"native_module": chosen.module.__name__,
                    "plugins": [plugin._asdict() for plugin in chosen.plugins]}
"""


def test_a_usable_plugin_is_chosen_and_runs_dyng(site, run):
    site.plugin(13)
    report = run(WORK_CODE)
    config = report["config"]
    assert config["native_module"] == "dyng_cu13._core" and report["fake_core"]
    assert config["backends"]["cuda"] is True and config["build"]["plugin"] == "cu13"
    assert report["distances"] == [0, 3, 1] and report["translated"]
    # Only the chosen module is imported: dyng's CPU module never was.
    assert report["cpu_module_imported"] is False
    plugin = plugins_by_name(report)["cu13"]
    assert plugin["state"] == "chosen"
    assert (plugin["driver_version"], plugin["device_count"], plugin["cuda_major"]) == (
        13000,
        1,
        13,
    )
    assert "CUDA 13.0" in plugin["reason"] and "sm_90" in plugin["reason"]
    assert config["selection"].startswith("plugin cu13:")
    assert report["warnings"] == [] and report["cuinit"] == []


@pytest.mark.parametrize(
    "env, reason",
    [
        ({"FAKE_NVML_DEVICES": ""}, "no visible CUDA device"),
        ({"CUDA_VISIBLE_DEVICES": ""}, "no visible CUDA device (CUDA_VISIBLE_DEVICES='')"),
        ({"CUDA_VISIBLE_DEVICES": "1"}, "no visible CUDA device (CUDA_VISIBLE_DEVICES='1')"),
        ({"CUDA_VISIBLE_DEVICES": "0,0"}, "no visible CUDA device (CUDA_VISIBLE_DEVICES='0,0')"),
        ({"CUDA_VISIBLE_DEVICES": "GPU-2222"}, "no visible CUDA device"),
        ({"FAKE_NVML_DEVICES": "7.0/GPU-1111aaaa/1/-1"}, "older than sm_75"),
        ({"FAKE_CUDA_DRIVER_VERSION": "12080"}, "580.65.06 or newer"),
    ],
    ids=[
        "no-gpu",
        "cvd-empty",
        "cvd-out-of-range",
        "cvd-twice",
        "cvd-unknown-uuid",
        "sm70",
        "driver-12.8",
    ],
)
def test_an_unusable_plugin_falls_back_with_one_warning(site, run, env, reason):
    site.plugin(13)
    report = run(env=env)
    assert report["config"]["native_module"] == "dyng._core"
    plugin = plugins_by_name(report)["cu13"]
    assert plugin["state"] == "unusable" and reason in plugin["reason"]
    # The plugin package was asked (it probed), but its native module was never imported.
    assert report["modules"] == [
        "dyng_cu13",
        "dyng_cu13._devices",
        "dyng_cu13._driver",
        "dyng_cu13._identity",
        "dyng_cu13._nvml",
        "dyng_cu13._status",
        "dyng_cu13._visible",
    ]
    (warning,) = backend_warnings(report)
    assert "no CUDA plugin is usable" in warning and reason in warning
    assert "DYNG_CPU_ONLY=1" in warning
    assert report["config"]["selection"].endswith(
        "no installed CUDA plugin is usable (see plugins)"
    )


@pytest.mark.parametrize("visible", [None, "0", "GPU-1111", "GPU-1111aaaa,7", " +0"])
def test_visible_device_forms_that_keep_the_gpu(site, run, visible):
    site.plugin(13)
    report = run(env={"CUDA_VISIBLE_DEVICES": visible})
    assert plugins_by_name(report)["cu13"]["state"] == "chosen"
    assert report["config"]["native_module"] == "dyng_cu13._core"


def test_no_driver_is_unusable(site, run, system_libs):
    if "libcuda.so.1" in system_libs:
        pytest.skip("this machine has its own libcuda.so.1, which the loader would find")
    site.plugin(13)
    report = run(libs=("nvml",))
    plugin = plugins_by_name(report)["cu13"]
    assert plugin["state"] == "unusable" and plugin["driver_version"] is None
    assert "no NVIDIA driver found (libcuda.so.1)" in plugin["reason"]
    assert len(backend_warnings(report)) == 1


def test_mig_asks_the_driver_in_a_child_never_in_this_process(site, run):
    # NVML cannot say what CUDA shows under MIG, so the plugin asks the driver; cuInit then
    # runs, but only in the probe's child (the runner asserts the selecting pid never calls it).
    site.plugin(13)
    report = run(env={"FAKE_NVML_DEVICES": "9.0/GPU-1111aaaa/1/1", "FAKE_CUDA_DEVICES": "9.0"})
    assert plugins_by_name(report)["cu13"]["state"] == "chosen"
    assert len(report["cuinit"]) == 1 and int(report["cuinit"][0][0]) != report["pid"]


def test_without_nvml_the_driver_is_asked_in_a_child(site, run, system_libs):
    # A container that mounts libcuda but not NVML.
    if "libnvidia-ml.so.1" in system_libs:
        pytest.skip("this machine has its own libnvidia-ml.so.1, which the loader would find")
    site.plugin(13)
    report = run(libs=("cuda",), env={"FAKE_CUDA_DEVICES": "8.6"})
    plugin = plugins_by_name(report)["cu13"]
    assert plugin["state"] == "chosen" and "sm_86" in plugin["reason"]
    assert len(report["cuinit"]) == 1 and int(report["cuinit"][0][0]) != report["pid"]


def test_a_hung_driver_makes_the_plugin_unusable_not_dyng_hang(site, run, system_libs):
    if "libnvidia-ml.so.1" in system_libs:
        pytest.skip("this machine has its own libnvidia-ml.so.1, which the loader would find")
    site.plugin(13)
    # Selection only: config() would build a Resources(), and a CUDA-enabled developer build of
    # dyng._core asks the (here hung) driver for its devices there.
    report = run(
        SELECTION_CODE,
        libs=("cuda",),
        env={"FAKE_CUDA_INIT_HANG": "1", "DYNG_PLUGIN_PROBE_TIMEOUT": "2"},
    )
    plugin = plugins_by_name(report)["cu13"]
    assert plugin["state"] == "unusable" and "did not answer within 2 s" in plugin["reason"]
    assert report["config"]["native_module"] == "dyng._core"
    assert len(backend_warnings(report)) == 1


@pytest.mark.parametrize(
    "core, reason",
    [
        ("broken", "dyng_cu13._core failed to import (ImportError: libcudart-like-dependency"),
        ("other_version", "dyng_cu13._core reports version 0.0.1 but dyng is"),
        ("no_cuda", "dyng_cu13._core was built without CUDA"),
    ],
)
def test_a_plugin_whose_native_module_is_wrong_fails(site, run, core, reason):
    site.plugin(13, core=core)
    report = run()
    plugin = plugins_by_name(report)["cu13"]
    assert plugin["state"] == "failed" and reason in plugin["reason"]
    assert "pip install --force-reinstall" in plugin["reason"]
    assert report["config"]["native_module"] == "dyng._core"
    assert any(reason in error for error in report["config"]["plugin_errors"])
    (warning,) = backend_warnings(report)
    assert "cu13 (dyng-cu13" in warning and "failed" in warning


def test_a_failed_plugin_gives_way_to_the_next(site, run):
    site.plugin(13, core="broken")
    site.plugin(12)
    report = run()
    plugins = plugins_by_name(report)
    assert (plugins["cu13"]["state"], plugins["cu12"]["state"]) == ("failed", "chosen")
    assert report["config"]["native_module"] == "dyng_cu12._core"
    assert "preferred to" not in plugins["cu12"]["reason"]  # cu13 was ranked first, and failed
    assert backend_warnings(report) == []  # dyng runs on CUDA; the failure is in config()


def test_a_plugin_of_another_version_is_never_imported(site, run, dyng_version):
    site.plugin(13, version="0.2.0")
    report = run()
    plugin = plugins_by_name(report)["cu13"]
    assert plugin["state"] == "version mismatch" and plugin["version"] == "0.2.0"
    assert f"dyng-cu13 is version 0.2.0 but dyng is {dyng_version}" in plugin["reason"]
    assert f'pip install "dyng[cu13]=={dyng_version}"' in plugin["reason"]
    assert plugin["driver_version"] is None  # not even probed
    assert report["modules"] == [] and report["cuinit"] == []
    assert len(backend_warnings(report)) == 1


@pytest.mark.parametrize(
    "sabotage, reason",
    [
        ("raise OSError('package exploded')\n", "OSError: package exploded"),
        ("def status():\n    raise OSError('probe exploded')\n", "OSError: probe exploded"),
        ("def status():\n    return True\n", "status() returned True, which lacks usable"),
    ],
    ids=["import-raises", "status-raises", "status-not-a-status"],
)
def test_a_plugin_package_that_cannot_answer_failed(site, run, sabotage, reason):
    target = site.plugin(13)
    with open(target / "__init__.py", "a") as init:
        init.write(sabotage)
    report = run()
    plugin = plugins_by_name(report)["cu13"]
    assert plugin["state"] == "failed" and reason in plugin["reason"]
    assert report["config"]["native_module"] == "dyng._core"
    assert "dyng_cu13._core" not in report["modules"]
    assert len(backend_warnings(report)) == 1


@pytest.mark.parametrize(
    "driver, order",
    [
        ("13000", ["cu13", "cu12"]),  # the driver's own major first
        ("14020", ["cu13", "cu12"]),  # neither matches: the newer major first
        ("12080", ["cu12"]),  # cu13 needs a CUDA 13 driver
    ],
)
def test_two_plugins_rank_by_the_drivers_major(site, run, driver, order):
    site.plugin(12)
    site.plugin(13)
    report = run(env={"FAKE_CUDA_DRIVER_VERSION": driver})
    plugins = plugins_by_name(report)
    assert report["config"]["native_module"] == f"dyng_{order[0]}._core"
    assert plugins[order[0]]["state"] == "chosen"
    for other in order[1:]:
        assert plugins[other]["state"] == "available"
        assert plugins[other]["reason"] == f"usable, but {order[0]} ranked first"
    why = "its CUDA major matches the driver's" if driver != "14020" else "the newest CUDA major"
    assert plugins[order[0]]["reason"].endswith(
        f"; preferred to {order[1]} ({why})" if len(order) > 1 else "(sm_90)"
    )
    if driver == "12080":
        assert plugins["cu13"]["state"] == "unusable"
        assert "install dyng-cu12 instead" in plugins["cu13"]["reason"]
    # Only the chosen plugin's native module was loaded.
    assert [name for name in report["modules"] if name.endswith("_core")] == [
        f"dyng_{order[0]}._core",
        f"dyng_{order[0]}._cpu_copy._core",
    ]
    assert report["warnings"] == []

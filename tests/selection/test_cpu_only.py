"""DYNG_CPU_ONLY and use_cpu_only(): the CPU module without probing or importing any plugin."""

from __future__ import annotations

import pytest
from _selection_helpers import backend_warnings, plugins_by_name

NOT_PROBED_CODE = r"""
import dyng
REPORT["config"] = dyng.config()
REPORT["modules"] = plugin_modules()
REPORT["mapped"] = mapped("libcuda", "libnvidia-ml")
"""


@pytest.mark.parametrize("value", ["1", "true", "YES", " on ", "True"])
def test_true_values_choose_the_cpu_module_without_probing(site, run, value):
    site.plugin(13)
    report = run(NOT_PROBED_CODE, env={"DYNG_CPU_ONLY": value})
    config = report["config"]
    assert config["native_module"] == "dyng._core"
    assert config["selection"] == f"the CPU module was requested (DYNG_CPU_ONLY={value!r})"
    plugin = plugins_by_name(report)["cu13"]
    assert plugin["state"] == "not considered" and "DYNG_CPU_ONLY" in plugin["reason"]
    # Not probed: no plugin module imported, no driver library loaded, no warning.
    assert report["modules"] == [] and report["mapped"] == []
    assert report["warnings"] == []


@pytest.mark.parametrize("value", ["0", "false", "No", "OFF", "", "  "])
def test_false_values_leave_selection_alone(site, run, value):
    site.plugin(13)
    report = run(env={"DYNG_CPU_ONLY": value})
    assert report["config"]["native_module"] == "dyng_cu13._core"
    assert report["warnings"] == []


@pytest.mark.parametrize("value", ["maybe", "2", "y"])
def test_other_values_warn_and_are_ignored(site, run, value):
    site.plugin(13)
    report = run(env={"DYNG_CPU_ONLY": value})
    assert report["config"]["native_module"] == "dyng_cu13._core"
    (warning,) = backend_warnings(report)
    assert warning.startswith(f"DYNG_CPU_ONLY={value!r} is neither true")
    assert "it is ignored" in warning


def test_use_cpu_only_before_first_use(site, run):
    site.plugin(13)
    report = run(r"""
import dyng
dyng.use_cpu_only()
REPORT["config"] = dyng.config()
REPORT["modules"] = plugin_modules()
dyng.use_cpu_only()  # again, after the CPU module was chosen: nothing happens
""")
    assert report["config"]["native_module"] == "dyng._core"
    assert (
        report["config"]["selection"] == "the CPU module was requested (use_cpu_only() was called)"
    )
    assert plugins_by_name(report)["cu13"]["state"] == "not considered"
    assert report["modules"] == []


def test_use_cpu_only_after_a_plugin_was_chosen_raises(site, run):
    site.plugin(13)
    report = run(r"""
import dyng
REPORT["module"] = dyng._backend.native().__name__
try:
    dyng.use_cpu_only()
except RuntimeError as exc:
    REPORT["error"] = str(exc)
REPORT["still"] = dyng._backend.native().__name__
""")
    assert report["module"] == report["still"] == "dyng_cu13._core"
    assert report["error"].startswith(
        "use_cpu_only(): dyng already runs on the CUDA plugin dyng_cu13._core"
    )
    assert "DYNG_CPU_ONLY=1" in report["error"]


def test_use_cpu_only_after_a_cpu_fallback_is_quiet(site, run):
    site.plugin(13)
    report = run(
        r"""
import dyng
REPORT["module"] = dyng._backend.native().__name__
dyng.use_cpu_only()
REPORT["ok"] = True
""",
        env={"FAKE_NVML_DEVICES": ""},
    )
    assert report["module"] == "dyng._core" and report["ok"]


@pytest.mark.usefixtures("cpu_module_without_cuda")
def test_cuda_request_names_the_cpu_only_request(site, run):
    site.plugin(13)
    report = run(
        r"""
import dyng
try:
    dyng.Resources.cuda()
except dyng.NotSupportedError as exc:
    REPORT["error"] = str(exc)
""",
        env={"DYNG_CPU_ONLY": "1"},
    )
    assert report["error"].startswith(
        "Resources.cuda(): the CUDA backend is off in this process "
        "because the CPU module was requested "
        "(DYNG_CPU_ONLY='1'); unset DYNG_CPU_ONLY"
    )

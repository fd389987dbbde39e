"""config(), show_config(), ``dyng config`` and the CUDA error explain what was chosen and why."""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest
from _selection_helpers import plugins_by_name

SPEC_KEYS = {
    "version",
    "native_module",
    "selection",
    "plugins",
    "backends",
    "default_backend",
    "openmp_max_threads",
    "build",
    "python",
    "platform",
    "numpy",
    "plugin_errors",
}
SPEC_PLUGIN_FIELDS = {
    "name",
    "module",
    "version",
    "cuda_major",
    "driver_version",
    "state",
    "reason",
}
BUILD_KEYS = {
    "openmp",
    "cuda",
    "build_type",
    "compiler",
    "plugin",
    "cuda_toolkit",
    "cuda_architectures",
    "cuda_runtime",
    "openmp_version",
}

SHOW_CODE = r"""
import io
import dyng
out = io.StringIO()
dyng.show_config(file=out)
REPORT["shown"] = out.getvalue()
REPORT["config"] = dyng.config()
"""


def test_config_has_the_spec_keys_for_every_plugin_state(site, run, dyng_version):
    site.plugin(13)
    site.plugin(12, version="0.0.1")
    report = run()
    config = report["config"]
    assert set(config) == SPEC_KEYS and set(config["build"]) == BUILD_KEYS
    assert config["version"] == dyng_version
    assert config["python"] == platform.python_version()
    for plugin in config["plugins"]:
        assert set(plugin) >= SPEC_PLUGIN_FIELDS and plugin["reason"]
    assert [p["name"] for p in config["plugins"]] == ["cu12", "cu13"]
    assert [p["state"] for p in config["plugins"]] == ["version mismatch", "chosen"]


def test_show_config_prints_each_plugin_and_why(site, run):
    site.plugin(13)
    site.plugin(12)
    report = run(SHOW_CODE, env={"FAKE_CUDA_DRIVER_VERSION": "12080"})
    lines = dict(line.split(":", 1) for line in report["shown"].splitlines())
    lines = {key: value.strip() for key, value in lines.items()}
    assert lines["native_module"] == "dyng_cu12._core"
    assert lines["selection"].startswith("plugin cu12: dyng_cu12._core from dyng-cu12")
    assert (lines["plugins[0].name"], lines["plugins[0].state"]) == ("cu12", "chosen")
    assert (lines["plugins[1].name"], lines["plugins[1].state"]) == ("cu13", "unusable")
    assert "needs CUDA 13.0 or newer" in lines["plugins[1].reason"]
    assert lines["plugins[1].driver_version"] == "12080"
    assert lines["backends.cuda"] == "True" and lines["build.plugin"] == "cu12"
    assert {"openmp_max_threads", "numpy", "platform", "python", "build.compiler"} <= set(lines)
    # Aligned: every value starts in the same column.
    starts = {
        len(line) - len(line.split(":", 1)[1].lstrip())
        for line in report["shown"].splitlines()
        if line.split(":", 1)[1].strip()
    }
    assert len(starts) == 1


def test_the_command_line_reports_a_fallback_as_a_dyng_warning(site, run):
    site.plugin(13)
    done = subprocess.run(
        [sys.executable, "-S", "-m", "dyng", "config"],
        capture_output=True,
        text=True,
        env=run.environment({"CUDA_VISIBLE_DEVICES": ""}),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    first, plugin = done.stderr.splitlines()
    assert first.startswith(
        "dyng: warning: no CUDA plugin is usable, so dyng runs on its CPU "
        "module dyng._core (set DYNG_CPU_ONLY=1"
    )
    assert plugin.startswith("  cu13 (dyng-cu13 ") and ": unusable: no visible CUDA" in plugin
    assert "native_module:" in done.stdout and "dyng._core" in done.stdout
    assert "no visible CUDA device (CUDA_VISIBLE_DEVICES='')" in done.stdout


def test_the_command_line_version_selects_quietly_when_a_plugin_is_chosen(site, run, dyng_version):
    site.plugin(13)
    done = subprocess.run(
        [sys.executable, "-S", "-m", "dyng", "--version"],
        capture_output=True,
        text=True,
        env=run.environment(),
        timeout=120,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, f"dyng {dyng_version}\n", "")


CUDA_REQUEST_CODE = r"""
import dyng
for make in (lambda: dyng.Resources.cuda(), lambda: dyng.Resources("cuda")):
    try:
        make()
    except dyng.NotSupportedError as exc:
        REPORT.setdefault("errors", []).append(str(exc))
"""


@pytest.mark.usefixtures("cpu_module_without_cuda")
def test_a_cuda_request_names_each_installed_plugin_and_why(site, run):
    site.plugin(13)
    site.plugin(12, version="0.0.1")
    report = run(CUDA_REQUEST_CODE, env={"FAKE_NVML_DEVICES": "7.0/GPU-1111aaaa/1/-1"})
    first, second = report["errors"]
    head, cu12, cu13 = first.splitlines()
    assert head == (
        "Resources.cuda(): the CUDA backend is not available because no installed "
        "CUDA plugin is usable; fix what a reason below says and start a new "
        "process, or use Resources.openmp() or Resources.sequential():"
    )
    assert cu12.startswith(
        "  cu12 (dyng-cu12 0.0.1): version mismatch: dyng-cu12 is version 0.0.1 but dyng is"
    )
    assert (
        cu13.startswith("  cu13 (dyng-cu13 ")
        and ": unusable: every visible device is older than sm_75" in cu13
    )
    assert second.startswith("Resources(): ") and second.splitlines()[1:] == [cu12, cu13]


@pytest.mark.usefixtures("cpu_module_without_cuda")
def test_a_cuda_request_without_plugins_says_how_to_install_one(run):
    report = run(CUDA_REQUEST_CODE)
    assert all('pip install "dyng[cu13]"' in error for error in report["errors"])
    assert len(report["errors"]) == 2


@pytest.mark.usefixtures("cpu_module_without_cuda")
def test_a_cuda_request_with_only_foreign_entry_points_counts_no_plugin(site, run):
    site.distribution("evil-backend", "1.0", {"cu13": "evil_backend"})
    report = run(CUDA_REQUEST_CODE + 'REPORT["config"] = dyng.config()\n')
    assert plugins_by_name(report)["cu13"]["state"] == "ignored"
    assert "none is installed" in report["errors"][0]

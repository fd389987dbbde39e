"""Which entry points of ``dyng.backends`` count as plugins; the others are reported, never run."""

from __future__ import annotations

import pytest
from _selection_helpers import backend_warnings, plugins_by_name


def test_no_plugin_installed_is_silent(run):
    report = run()
    config = report["config"]
    assert config["native_module"] == "dyng._core" and config["plugins"] == []
    assert config["selection"] == "the CPU module: no CUDA plugin is installed"
    assert report["warnings"] == [] and report["modules"] == []


@pytest.mark.parametrize(
    "distribution, entry, reason",
    [
        (
            "evil-backend",
            "cu13",
            "cu13 must come from the distribution dyng-cu13, not evil-backend",
        ),
        ("dyng-cu12", "cu13", "cu13 must come from the distribution dyng-cu13, not dyng-cu12"),
        ("dyng-cu13", "cuda", "the entry point name 'cuda' (from dyng-cu13) is not cu<N>"),
        ("dyng-cu13", "cu013", "the entry point name 'cu013' (from dyng-cu13) is not cu<N>"),
    ],
    ids=["unrelated-package", "other-plugin-name", "not-cu-n", "leading-zero"],
)
def test_foreign_entry_points_are_ignored_without_running_code(
    site, run, distribution, entry, reason
):
    marker = site.tripwire("tripwire_backend")
    site.distribution(distribution, "1.0", {entry: "tripwire_backend"})
    report = run()
    (plugin,) = report["config"]["plugins"]
    assert plugin["state"] == "ignored" and reason in plugin["reason"]
    assert (plugin["name"], plugin["module"]) == (entry, "tripwire_backend")
    assert not marker.exists(), "selection imported a module it should only have reported"
    assert report["config"]["native_module"] == "dyng._core"
    assert report["warnings"] == []  # nothing the user installed as a dyng plugin is broken
    assert report["config"]["selection"].endswith("(entry points of other packages were ignored)")
    # The control: importing the module does trip the wire, so the check above could fail.
    run("import tripwire_backend\n")
    assert marker.exists()


def test_a_plugin_entry_point_naming_another_module_is_ignored(site, run):
    marker = site.tripwire("tripwire_backend")
    site.distribution("dyng-cu13", "1.0", {"cu13": "tripwire_backend"})
    report = run()
    plugin = plugins_by_name(report)["cu13"]
    assert plugin["state"] == "ignored"
    assert "registers cu13 = 'tripwire_backend' instead of 'dyng_cu13'" in plugin["reason"]
    assert not marker.exists()


def test_an_unrelated_entry_point_next_to_a_real_plugin(site, run):
    marker = site.tripwire("tripwire_backend")
    site.distribution("evil-backend", "1.0", {"cu99": "tripwire_backend"})
    site.plugin(13)
    report = run()
    plugins = plugins_by_name(report)
    assert (plugins["cu99"]["state"], plugins["cu13"]["state"]) == ("ignored", "chosen")
    assert not marker.exists()


def test_distribution_names_are_compared_normalised(site, run):
    # PEP 503: "Dyng_CU13" is the distribution dyng-cu13.
    site.plugin(13, distribution="Dyng_CU13")
    report = run()
    assert plugins_by_name(report)["cu13"]["state"] == "chosen"


def test_fallback_warning_lists_every_plugin_including_ignored_ones(site, run):
    site.distribution("evil-backend", "1.0", {"cu99": "tripwire_backend"})
    site.tripwire("tripwire_backend")
    site.plugin(13, version="0.0.1")
    site.plugin(12)
    report = run(env={"FAKE_NVML_DEVICES": ""})
    (warning,) = backend_warnings(report)
    assert "cu12 (dyng-cu12" in warning and "unusable: no visible CUDA device" in warning
    assert "cu13 (dyng-cu13 0.0.1): version mismatch" in warning
    assert "cu99 (evil-backend 1.0): ignored" in warning
    # The warning points at the user's line (here: the child's -c code), not into dyng.
    (record,) = [w for w in report["warnings"] if w["category"] == "BackendWarning"]
    assert record["filename"] == "<string>"

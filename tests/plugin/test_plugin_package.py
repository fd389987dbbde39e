"""The plugin package itself: its identity from its name, a cheap import, the lazy ``native``."""

from __future__ import annotations

import pytest

IDENTITY_CODE = r"""
REPORT.update(plugin=pkg.PLUGIN, major=pkg.CUDA_MAJOR, distribution=pkg.DISTRIBUTION,
              version=pkg.__version__, floor=list(pkg.ARCHITECTURE_FLOOR))
"""


@pytest.mark.parametrize(
    "package, plugin, major", [("dyng_cu13", "cu13", 13), ("dyng_cu12", "cu12", 12)]
)
def test_identity_comes_from_the_package_name(probe, package, plugin, major):
    report = probe(package=package, code=IDENTITY_CODE)
    assert (report["plugin"], report["major"], report["distribution"]) == (
        plugin,
        major,
        f"dyng-{plugin}",
    )
    assert report["version"] is None  # a copy no installed distribution owns
    assert report["floor"] == [7, 5]


def test_template_imports_as_no_plugin(probe, template):
    report = probe(package="dyng_plugin", pythonpath=template.parent, code=IDENTITY_CODE)
    assert (report["plugin"], report["major"], report["distribution"], report["version"]) == (
        None,
        None,
        None,
        None,
    )


def test_template_probes_without_a_driver_floor(probe, template):
    report = probe(
        package="dyng_plugin",
        pythonpath=template.parent,
        env={"FAKE_CUDA_DRIVER_VERSION": "11020", "FAKE_NVML_DEVICES": "8.0/GPU-a/1/0"},
    )
    assert report["status"]["usable"] and report["status"]["driver_version"] == 11020


def test_version_comes_from_the_distribution_metadata(probe, packages, tmp_path):
    site = tmp_path / "site"
    (site / "dyng_cu13-0.2.0.dist-info").mkdir(parents=True)
    (site / "dyng_cu13-0.2.0.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: dyng-cu13\nVersion: 0.2.0\n"
    )
    report = probe(code=IDENTITY_CODE, pythonpath=f"{packages}:{site}")
    assert report["version"] == "0.2.0"
    assert (
        probe(package="dyng_cu12", code=IDENTITY_CODE, pythonpath=f"{packages}:{site}")["version"]
        is None
    )


def test_import_loads_no_cuda_library_and_no_extension(probe):
    report = probe(
        code=r"""
REPORT["after_import"] = [mapped("libcuda.so"), mapped("libnvidia-ml.so"), core_imported()]
REPORT["listed"] = "native" in dir(pkg)
REPORT["after_dir"] = core_imported()
pkg.status()
# The control: the probe does map the fake libraries, so the check above could have failed.
REPORT["after_status"] = [mapped("libcuda.so.1"), mapped("libnvidia-ml.so.1"), core_imported()]
""",
        env={"FAKE_NVML_DEVICES": "9.0/GPU-a/1/0"},
    )
    assert report["after_import"] == [False, False, False]
    assert report["listed"] and not report["after_dir"]
    assert report["after_status"] == [True, True, False]


def test_native_is_imported_on_first_access(probe):
    report = probe(
        code=r"""
before = core_imported()
native = pkg.native
REPORT.update(before=before, after=core_imported(), name=native.__name__,
              fake=native.IS_FAKE_CORE, same=pkg.native is native,
              imported=native is importlib.import_module(pkg.__name__ + "._core"))
"""
    )
    assert report["before"] is False and report["after"] is True
    assert report["name"] == "dyng_cu13._core" and report["fake"]
    assert report["same"] and report["imported"]


def test_native_import_errors_reach_the_caller(probe, template):
    # The selection must see a broken extension as such (it marks the plugin "failed").
    report = probe(
        package="dyng_plugin",
        pythonpath=template.parent,
        code=r"""
try:
    pkg.native
except ImportError as exc:
    REPORT["error"] = exc.name
""",
    )
    assert report["error"] == "dyng_plugin._core"


def test_unknown_attribute_raises_attribute_error(probe):
    report = probe(
        code=r"""
try:
    pkg.nonexistent
except AttributeError as exc:
    REPORT["error"] = str(exc)
"""
    )
    assert report["error"] == "module 'dyng_cu13' has no attribute 'nonexistent'"


def test_docstring_examples_run(probe):
    report = probe(
        env={"FAKE_NVML_DEVICES": "9.0/GPU-a/1/0"},
        code=r"""
import contextlib, doctest, io
out = io.StringIO()
counts = [0, 0]
with contextlib.redirect_stdout(out):
    for suffix in ("", "._identity", "._driver", "._nvml", "._visible", "._devices", "._status"):
        result = doctest.testmod(importlib.import_module(pkg.__name__ + suffix))
        counts = [counts[0] + result.failed, counts[1] + result.attempted]
REPORT.update(failed=counts[0], attempted=counts[1], output=out.getvalue())
""",
    )
    assert report["failed"] == 0, report["output"]
    assert report["attempted"] >= 20

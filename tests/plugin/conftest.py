"""Fixtures for the CUDA plugin package's tests: fake driver libraries and renamed copies.

The probe is exercised against stand-ins for ``libcuda.so.1`` and ``libnvidia-ml.so.1`` (C, in
``fakes/``, compiled once per session) that it finds through the ordinary loader path
(LD_LIBRARY_PATH). Each probe runs in a fresh interpreter, so the per-process cache of one test
cannot answer for another, and the package is imported under the names the wheels give it.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
TEMPLATE = HERE.parents[1] / "python" / "plugin" / "dyng_plugin"

# Imported by the fake extension module, so a test sees when ``native`` was imported.
FAKE_CORE = '"""Stands in for the CUDA-enabled extension module in tests."""\nIS_FAKE_CORE = True\n'

# Run in the child interpreter: import the package, run the test's code, print REPORT as JSON.
PRELUDE = r"""
import importlib, json, os, sys
def mapped(fragment):
    with open("/proc/self/maps") as maps:
        return fragment in maps.read()
def core_imported():
    return pkg.__name__ + "._core" in sys.modules
pkg = importlib.import_module(sys.argv[1])
REPORT = {"pid": os.getpid()}
"""

STATUS_CODE = r"""
REPORT["status"] = pkg.status()._asdict()
REPORT["available"] = pkg.available()
REPORT["driver_version"] = pkg.driver_version()
"""


@pytest.fixture(scope="session")
def template():
    """The plugin package's source directory, ``python/plugin/dyng_plugin``."""
    return TEMPLATE


FAKES_DIR = HERE / "fakes"


def _load_fake_builder():
    spec = importlib.util.spec_from_file_location("compile_fakes", FAKES_DIR / "compile_fakes.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def fake_libs(tmp_path_factory):
    """Directories holding the fake libraries: ``cuda``, ``nvml`` and ``unversioned``."""
    root = tmp_path_factory.mktemp("fake_libs")
    _load_fake_builder().build_driver_fakes(root, "tests/plugin")
    # The development symlink's name only: the probe must not take it for a driver.
    (root / "unversioned").mkdir()
    shutil.copy(root / "cuda" / "libcuda.so.1", root / "unversioned" / "libcuda.so")
    return {name: root / name for name in ("cuda", "nvml", "unversioned")}


@pytest.fixture(scope="session")
def packages(tmp_path_factory):
    """A directory with the template copied as ``dyng_cu12`` and ``dyng_cu13`` (and a fake
    ``_core`` in each), as the wheel build copies it."""
    root = tmp_path_factory.mktemp("packages")
    for name in ("dyng_cu12", "dyng_cu13"):
        shutil.copytree(
            TEMPLATE, root / name, ignore=shutil.ignore_patterns("__pycache__", "_core*")
        )
        (root / name / "_core.py").write_text(FAKE_CORE)
    return root


@pytest.fixture(scope="session")
def system_libs():
    """The driver libraries this machine's loader finds without the fakes (a GPU machine's)."""
    found = set()
    for soname in ("libcuda.so.1", "libnvidia-ml.so.1"):
        done = subprocess.run(
            [sys.executable, "-c", f"import ctypes; ctypes.CDLL({soname!r})"],
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
            capture_output=True,
        )
        if done.returncode == 0:
            found.add(soname)
    return found


@pytest.fixture
def without_system(system_libs):
    """Call with a soname to skip a test that needs the machine to lack that library."""

    def check(soname):
        if soname in system_libs:
            pytest.skip(
                f"this machine has its own {soname}, which the loader would find "
                "behind the fakes; the real-driver tests cover it here"
            )

    return check


class Probe:
    """Runs plugin code in a fresh interpreter against the fake driver; see :meth:`__call__`."""

    def __init__(self, fake_libs, packages, tmp_path):
        self.fake_libs = fake_libs
        self.packages = packages
        self.init_log = tmp_path / "cuinit.log"
        self.nvml_log = tmp_path / "nvml.log"

    def __call__(
        self,
        env=None,
        libs=("cuda", "nvml"),
        package="dyng_cu13",
        code=STATUS_CODE,
        pythonpath=None,
    ):
        """The REPORT dict of ``code``, plus ``cuinit`` (one ``(pid, CUDA_VISIBLE_DEVICES)`` pair
        per cuInit call) and ``nvml_log``. ``env`` adds variables (None values are left unset) to
        a clean environment; ``libs`` names the fake library directories the loader may search."""
        for log in (self.init_log, self.nvml_log):
            log.unlink(missing_ok=True)
        environment = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "PYTHONPATH": str(pythonpath or self.packages),
            "LD_LIBRARY_PATH": os.pathsep.join(str(self.fake_libs[name]) for name in libs),
            "FAKE_CUDA_INIT_LOG": str(self.init_log),
            "FAKE_NVML_LOG": str(self.nvml_log),
        }
        environment.update({k: v for k, v in (env or {}).items() if v is not None})
        done = subprocess.run(
            [sys.executable, "-c", PRELUDE + code + "\nprint(json.dumps(REPORT))", package],
            env=environment,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, f"probe process failed:\n{done.stderr}"
        report = json.loads(done.stdout.strip().splitlines()[-1])
        calls = self.init_log.read_text().splitlines() if self.init_log.exists() else []
        report["cuinit"] = [tuple(line.split(" ", 1)) for line in calls]
        # The one rule every probe keeps: CUDA is never initialised in the probing process.
        assert all(int(pid) != report["pid"] for pid, _ in report["cuinit"]), report
        report["nvml_log"] = self.nvml_log.read_text().split() if self.nvml_log.exists() else []
        if "status" in report:
            status = report["status"]
            status["capabilities"] = tuple(tuple(pair) for pair in status["capabilities"])
        return report


@pytest.fixture
def probe(fake_libs, packages, tmp_path):
    """A :class:`Probe` whose cuInit and NVML logs belong to this test."""
    return Probe(fake_libs, packages, tmp_path)

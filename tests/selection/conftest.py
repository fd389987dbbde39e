"""Fixtures for the backend-selection tests: fake plugin distributions in a sealed environment.

Selection happens once per process, so every case runs in a fresh interpreter started with
``-S`` (no site-packages) and a PYTHONPATH of exactly: the test's fake distributions, then a
"view" holding dyng (the copy under test), a dist-info for it, and NumPy. No plugin installed on
the machine can leak in, and the only plugins are the ones a test installs:

* a ``dyng-cu<N>`` distribution (dist-info with METADATA and entry_points.txt) whose package
  ``dyng_cu<N>`` is the real plugin package (``python/plugin/dyng_plugin``) with a stand-in
  ``_core``: dyng's CPU module loaded under another name but reporting ``cuda: True``, or one
  that fails to import, reports another version or reports no CUDA;
* the fake ``libcuda.so.1`` / ``libnvidia-ml.so.1`` of ``tests/plugin/fakes`` on
  LD_LIBRARY_PATH, configured per test (driver version, devices, MIG, failures) and logging every
  ``cuInit`` with its process id.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from importlib import metadata, util
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PLUGIN_TEMPLATE = ROOT / "python" / "plugin" / "dyng_plugin"
FAKES = ROOT / "tests" / "plugin" / "fakes"

# Stand-ins for a plugin's native module ``dyng_cu<N>._core``. "good" re-exports a private copy
# of dyng's CPU extension (so dyng runs on it, and dyng._core itself is never imported); the others
# are rejected by selection before anything would use them, so they need no extension at all.
CORES = {
    "good": '''\
"""Stands in for a CUDA plugin's native module: dyng's CPU module under another name."""
import importlib
_real = importlib.import_module(__name__.rpartition(".")[0] + "._cpu_copy._core")
globals().update({k: v for k, v in vars(_real).items() if not k.startswith("__")})
__version__ = _real.__version__
build_config = dict(_real.build_config, cuda=True, plugin=__name__.split(".")[0][len("dyng_"):])
IS_FAKE_PLUGIN_CORE = True
def cuda_device_count():
    return 0  # the stand-in drives no GPU, even when the copied extension was built with CUDA
''',
    "broken": """\
raise ImportError("libcudart-like-dependency.so.13: cannot open shared object file")
""",
    "other_version": """\
__version__ = "0.0.1"
build_config = {"cuda": True}
""",
    "reentrant": """\
import dyng._backend
dyng._backend.native()  # a native module must not use dyng while it is being selected
""",
    "no_cuda": """\
import importlib.metadata
__version__ = importlib.metadata.version("dyng")
build_config = {"cuda": False}
""",
}

# Runs first in every child: record warnings (all of them, not once per location) and helpers.
PRELUDE = r"""
import json, os, sys, threading, warnings
warnings.simplefilter("always")
CAUGHT = []
def _record(message, category, filename, lineno, file=None, line=None):
    CAUGHT.append({"category": category.__name__, "message": str(message),
                   "filename": filename})
warnings.showwarning = _record
def mapped(*fragments):
    with open("/proc/self/maps") as maps:
        text = maps.read()
    return sorted(f for f in fragments if f in text)
def plugin_modules():
    return sorted(name for name in sys.modules if name.startswith("dyng_cu"))
REPORT = {"pid": os.getpid()}
# Marks in the cuInit log the moment selection ends, so that the runner can tell a cuInit during
# selection (never allowed) from one that later CUDA work makes (dyng's business, not selection's).
import dyng._backend
_select = dyng._backend._select
def _select_and_mark():
    made = _select()
    with open(os.environ["FAKE_CUDA_INIT_LOG"], "a") as log:
        log.write(f"selected {os.getpid()}\n")
    return made
dyng._backend._select = _select_and_mark
"""

CONFIG_CODE = r"""
import dyng
REPORT["config"] = dyng.config()
REPORT["modules"] = plugin_modules()
REPORT["cpu_module_imported"] = "dyng._core" in sys.modules
"""

EPILOGUE = r"""
REPORT["warnings"] = CAUGHT
print("REPORT " + json.dumps(REPORT, default=repr))
"""


FAKES_DIR = FAKES


def _load_fake_builder():
    spec = importlib.util.spec_from_file_location("compile_fakes", FAKES_DIR / "compile_fakes.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def fake_libs(tmp_path_factory):
    """Directories holding the fake ``cuda`` and ``nvml`` libraries."""
    root = tmp_path_factory.mktemp("fake_libs")
    return _load_fake_builder().build_driver_fakes(root, "tests/selection")


@pytest.fixture(scope="session")
def dyng_version():
    """The version the children see for dyng (its metadata, else its native module's)."""
    try:
        return metadata.version("dyng")
    except metadata.PackageNotFoundError:
        import dyng

        return dyng.__version__


@pytest.fixture(scope="session")
def view(tmp_path_factory, dyng_version):
    """A directory with dyng (the copy under test), a dist-info for it, and NumPy."""
    root = tmp_path_factory.mktemp("view")
    package = Path(util.find_spec("dyng").submodule_search_locations[0])
    (root / "dyng").symlink_to(package, target_is_directory=True)
    info = root / f"dyng-{dyng_version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: dyng\nVersion: {dyng_version}\n")
    numpy_dir = Path(util.find_spec("numpy").submodule_search_locations[0])
    for name in ("numpy", "numpy.libs"):
        if (numpy_dir.parent / name).exists():
            (root / name).symlink_to(numpy_dir.parent / name, target_is_directory=True)
    return root


@pytest.fixture(scope="session")
def cpu_extension():
    """The file of dyng's CPU extension module, which the "good" stand-in loads a copy of."""
    return Path(util.find_spec("dyng._core").origin)


@pytest.fixture(scope="session")
def cpu_module_without_cuda():
    """Skips a test that needs dyng._core without CUDA, as the CPU wheel builds it (a developer
    build with DYNG_ENABLE_CUDA=ON serves CUDA requests itself, so no plugin is asked)."""
    done = subprocess.run(
        [sys.executable, "-c", "import dyng._core as c; print(c.build_config['cuda'])"],
        capture_output=True,
        text=True,
        check=True,
    )
    if done.stdout.strip() != "False":
        pytest.skip(
            "this dyng._core was built with CUDA (a developer build); the errors of a "
            "CPU-only core are tested with the CPU wheel's build (ci/test.sh)"
        )


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


class Site:
    """A directory of fake distributions, first on the children's PYTHONPATH."""

    def __init__(self, root, dyng_version, cpu_extension):
        self.root = root
        self.dyng_version = dyng_version
        self.cpu_extension = cpu_extension
        root.mkdir(parents=True, exist_ok=True)

    def distribution(self, name, version, entry_points):
        """A dist-info for ``name`` whose ``dyng.backends`` group holds ``entry_points``."""
        info = self.root / f"{name.replace('-', '_')}-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
        lines = "".join(f"{key} = {value}\n" for key, value in entry_points.items())
        (info / "entry_points.txt").write_text(f"[dyng.backends]\n{lines}")
        return info

    def plugin(
        self, major=13, version=None, core="good", distribution=None, entry=None, module=None
    ):
        """A CUDA plugin distribution; the keywords break one of its parts on purpose."""
        package = f"dyng_cu{major}"
        self.distribution(
            distribution or f"dyng-cu{major}",
            version or self.dyng_version,
            {entry or f"cu{major}": module or package},
        )
        target = self.root / package
        shutil.copytree(
            PLUGIN_TEMPLATE, target, ignore=shutil.ignore_patterns("__pycache__", "_core*")
        )
        (target / "_core.py").write_text(CORES[core])
        if core == "good":
            (target / "_cpu_copy").mkdir()
            (target / "_cpu_copy" / "__init__.py").write_text("")
            shutil.copy(self.cpu_extension, target / "_cpu_copy" / self.cpu_extension.name)
            # A wheel-installed dyng finds its bundled OpenMP runtime through the RPATH
            # $ORIGIN/../dyng.libs; the copy one level deeper must find it the same way.
            bundled = self.cpu_extension.parent.parent / "dyng.libs"
            if bundled.is_dir():
                shutil.copytree(bundled, target / "dyng.libs")
        return target

    def tripwire(self, module):
        """A package that records its import in ``<module>.imported``: it must never run."""
        package = self.root / module
        package.mkdir()
        marker = self.root / f"{module}.imported"
        (package / "__init__.py").write_text(
            f"open({str(marker)!r}, 'w').write('imported')\ndef available():\n    return True\n"
        )
        return marker


class Runner:
    """Runs code in a fresh sealed interpreter; see :meth:`__call__`."""

    def __init__(self, tmp_path, fake_libs, view, site):
        self.fake_libs = fake_libs
        self.view = view
        self.site = site
        self.init_log = tmp_path / "cuinit.log"

    def environment(self, env=None, libs=("cuda", "nvml")):
        environment = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "PYTHONPATH": os.pathsep.join([str(self.site.root), str(self.view)]),
            "PYTHONDONTWRITEBYTECODE": "1",
            "LD_LIBRARY_PATH": os.pathsep.join(str(self.fake_libs[name]) for name in libs),
            "FAKE_CUDA_INIT_LOG": str(self.init_log),
            "FAKE_NVML_DEVICES": "9.0/GPU-1111aaaa/1/-1",
            "OMP_WAIT_POLICY": "passive",
        }
        environment.update(env or {})
        return {key: value for key, value in environment.items() if value is not None}

    def __call__(self, code=CONFIG_CODE, env=None, libs=("cuda", "nvml")):
        """The child's REPORT dict plus ``cuinit`` (``(pid, CUDA_VISIBLE_DEVICES)`` per cuInit
        call until selection ended), ``cuinit_after_selection``, ``stdout`` and ``stderr``.
        ``env`` overrides the defaults (driver 13000, one sm_90 GPU); a None value unsets a
        variable."""
        self.init_log.unlink(missing_ok=True)
        done = subprocess.run(
            [sys.executable, "-S", "-c", PRELUDE + code + EPILOGUE],
            env=self.environment(env, libs),
            capture_output=True,
            text=True,
            timeout=120,
            cwd=self.site.root,
        )
        lines = [line for line in done.stdout.splitlines() if line.startswith("REPORT ")]
        assert done.returncode == 0 and lines, f"child failed:\n{done.stdout}\n{done.stderr}"
        report = json.loads(lines[-1][len("REPORT ") :])
        report.update(stdout=done.stdout, stderr=done.stderr)
        lines = self.init_log.read_text().splitlines() if self.init_log.exists() else []
        selected = [
            index for index, line in enumerate(lines) if line == f"selected {report['pid']}"
        ]
        end = selected[0] if selected else len(lines)
        calls = [tuple(line.split(" ", 1)) for line in lines if not line.startswith("selected ")]
        report["cuinit"] = [
            tuple(line.split(" ", 1)) for line in lines[:end] if not line.startswith("selected ")
        ]
        report["cuinit_after_selection"] = calls[len(report["cuinit"]) :]
        # The rule every selection keeps: CUDA is never initialised in the selecting process.
        assert all(int(pid) != report["pid"] for pid, _ in report["cuinit"]), report
        return report


@pytest.fixture
def site(tmp_path, dyng_version, cpu_extension):
    """This test's fake distributions (none until the test adds some)."""
    return Site(tmp_path / "site", dyng_version, cpu_extension)


@pytest.fixture
def run(tmp_path, fake_libs, view, site):
    """A :class:`Runner` over this test's :func:`site`."""
    return Runner(tmp_path, fake_libs, view, site)

"""The type stubs must match the native modules they describe (as nanobind's test_stubs.py holds
its own). One stub is committed whole: python/dyng/_core.pyi, the CPU module dyng._core's. The
CUDA plugin's (shipped as dyng_cu<N>/_core.pyi) is that stub with the device extras of
python/plugin/device_stub.pyi merged in at build time by python/plugin/merge_stub.py, which says
why (docs/developer/testing.md, "Stubs").

The test checks the module this process runs on: the CPU stub in CI, the merged stub on a GPU
machine. After changing the bindings (from the repository root):

    python -m nanobind.stubgen -q -m dyng._core -o python/dyng/_core.pyi
    python -m nanobind.stubgen -q -m <a CUDA build's module> -o /tmp/cuda.pyi
    python python/plugin/merge_stub.py --extract python/dyng/_core.pyi /tmp/cuda.pyi \
        python/plugin/device_stub.pyi
"""

import importlib.util
import pathlib
import re
import subprocess
import sys

import pytest

from dyng import _registry

ROOT = pathlib.Path(__file__).resolve().parents[2]
CPU_STUB = ROOT / "python" / "dyng" / "_core.pyi"
DEVICE_FRAGMENT = ROOT / "python" / "plugin" / "device_stub.pyi"
MERGE_SCRIPT = ROOT / "python" / "plugin" / "merge_stub.py"

if not MERGE_SCRIPT.is_file():
    pytest.skip(
        "no source tree beside the tests (an installed package's test run)", allow_module_level=True
    )


def _merge_stub():
    spec = importlib.util.spec_from_file_location("merge_stub", MERGE_SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


merge_stub = _merge_stub()


def _plugin_stub():
    return merge_stub.merge(CPU_STUB.read_text(), DEVICE_FRAGMENT.read_text())


def _stub_of(module_name, tmp_path):
    fresh = tmp_path / "_core.pyi"
    run = subprocess.run(
        [sys.executable, "-m", "nanobind.stubgen", "-q", "-m", module_name, "-o", str(fresh)],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, f"stubgen failed:\n{run.stdout}\n{run.stderr}"
    return fresh.read_text()


def test_stub_matches_module(tmp_path):
    pytest.importorskip("nanobind.stubgen", reason="nanobind (a build dependency) is not installed")
    from dyng import _backend

    module = _backend.native()
    fresh = _stub_of(module.__name__, tmp_path)
    if not module.build_config["cuda"]:
        regenerate = f"python -m nanobind.stubgen -q -m {module.__name__} -o python/dyng/_core.pyi"
        assert fresh == CPU_STUB.read_text(), (
            f"python/dyng/_core.pyi is out of date with {module.__name__}; regenerate it with: "
            f"{regenerate}"
        )
        return
    assert fresh == _plugin_stub(), (
        f"the plugin stub (python/dyng/_core.pyi merged with python/plugin/device_stub.pyi) is out "
        f"of date with {module.__name__}; regenerate both as this file's docstring says"
    )


def test_plugin_stub_is_the_cpu_stub_plus_the_device_fragment():
    """The merge adds and never drops or reorders: every CPU line (bar the typing import, which
    gains names) and every line of the fragment's definitions appear in the plugin stub in
    their order, and extracting the fragment from the plugin stub gives the committed one."""
    cpu = CPU_STUB.read_text()
    fragment = DEVICE_FRAGMENT.read_text()
    plugin = _plugin_stub().splitlines()

    def in_order(lines):
        remaining = iter(plugin)
        return [line for line in lines if line not in remaining]

    kept = [line for line in cpu.splitlines() if not line.startswith("from typing")]
    assert not in_order(kept), "the merge dropped or moved lines of the CPU stub"
    definitions = fragment.split("\nclass ", 1)[1].splitlines()[1:]
    assert not in_order(definitions), "the merge dropped or moved lines of the device fragment"
    assert merge_stub.extract(cpu, _plugin_stub()) == fragment, (
        "python/plugin/device_stub.pyi is not in the form --extract writes; rewrite it as this "
        "file's docstring says"
    )


def test_every_host_result_has_a_device_result_in_the_plugin_stub():
    cpu = CPU_STUB.read_text()
    plugin = _plugin_stub()
    hosts = re.findall(r"^class (\w+)State:", cpu, re.MULTILINE)
    assert hosts, "no result classes (class <Algo>State) in the CPU stub"
    # An algorithm whose record has no CUDA backend yet has no device result.
    host_only = {
        importlib.import_module(f"dyng.{name}").Result._HOST_STATE[: -len("State")]
        for name in _registry.ALGORITHM_MODULES
        if "cuda" not in _registry.find(name).backends
    }
    missing = [
        f"{name}DeviceState"
        for name in hosts
        if name not in host_only and f"\nclass {name}DeviceState:" not in plugin
    ]
    assert not missing, f"device result classes missing from the plugin stub: {missing}"
    assert "\ndef cuda_device_count() -> int:" in plugin


@pytest.mark.parametrize("stub", ["cpu", "plugin"])
def test_stub_names_no_unconvertible_cpp_type(stub):
    """nanobind writes a C++ type name where no type caster was compiled in; such a function
    raises TypeError on every call (a device view once did, for want of the tuple caster)."""
    text = CPU_STUB.read_text() if stub == "cpu" else _plugin_stub()
    bad = [line.strip() for line in text.splitlines() if '"std::' in line]
    assert not bad, f"{stub} stub: functions without a type caster for their types: {bad}"


def test_merge_refuses_what_it_cannot_place():
    cpu = CPU_STUB.read_text()
    with pytest.raises(merge_stub.StubFormatError, match="again"):
        merge_stub.merge(cpu, "def openmp_max_threads() -> int: ...\n")
    with pytest.raises(merge_stub.StubFormatError, match="imports nothing from"):
        merge_stub.merge(cpu, "from os import path\n\ndef f() -> None: ...\n")
    with pytest.raises(merge_stub.StubFormatError, match="one blank line"):
        merge_stub.merge(cpu, "def f() -> None: ...\n\n\ndef g() -> None: ...\n")

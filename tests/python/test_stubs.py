"""The committed stubs must match the native modules they describe (as nanobind's test_stubs.py
holds its own): python/dyng/_core.pyi for the CPU module dyng._core, and
python/plugin/dyng_plugin/_core.pyi, which the CUDA plugin wheels carry as dyng_cu<N>/_core.pyi,
for a CUDA build (it adds the device result classes and the CUDA runtime functions).

The test checks the module this process runs on: the CPU stub in CI, the CUDA stub on a GPU
machine. Regenerate a stub after changing the bindings (from the repository root):

    python -m nanobind.stubgen -q -m dyng._core -o python/dyng/_core.pyi
    python -m nanobind.stubgen -q -m <a CUDA build's module> -o python/plugin/dyng_plugin/_core.pyi
"""

import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CPU_STUB = ROOT / "python" / "dyng" / "_core.pyi"
CUDA_STUB = ROOT / "python" / "plugin" / "dyng_plugin" / "_core.pyi"


def _stub_of(module_name, tmp_path):
    fresh = tmp_path / "_core.pyi"
    run = subprocess.run(
        [sys.executable, "-m", "nanobind.stubgen", "-q", "-m", module_name, "-o", str(fresh)],
        capture_output=True, text=True,
    )
    assert run.returncode == 0, f"stubgen failed:\n{run.stdout}\n{run.stderr}"
    return fresh.read_text()


def test_committed_stub_matches_module(tmp_path):
    pytest.importorskip("nanobind.stubgen", reason="nanobind (a build dependency) is not installed")
    from dyng import _backend

    module = _backend.native()
    committed = CUDA_STUB if module.build_config["cuda"] else CPU_STUB
    regenerate = (f"python -m nanobind.stubgen -q -m {module.__name__} -o "
                  f"{committed.relative_to(ROOT)}")
    if not committed.exists():
        pytest.fail(f"{committed} is missing; generate it with: {regenerate}")
    assert _stub_of(module.__name__, tmp_path) == committed.read_text(), (
        f"{committed.relative_to(ROOT)} is out of date with {module.__name__}; regenerate it "
        f"with: {regenerate}"
    )


def test_cuda_stub_extends_the_cpu_stub():
    """Everything the CPU module offers, the CUDA module offers too, with the same signatures:
    the CUDA stub is the CPU stub plus device classes and functions."""
    cpu = CPU_STUB.read_text().splitlines()
    cuda = CUDA_STUB.read_text().splitlines()
    missing = [line for line in cpu if line not in cuda and not line.startswith("from typing")]
    assert not missing, f"lines of the CPU stub missing from the CUDA stub: {missing[:5]}"
    for name in ("class SsspDeviceState", "class BfsDeviceState", "def cuda_device_count"):
        assert any(line.startswith(name) for line in cuda), name


@pytest.mark.parametrize("stub", [CPU_STUB, CUDA_STUB], ids=["cpu", "cuda"])
def test_stub_names_no_unconvertible_cpp_type(stub):
    """nanobind writes a C++ type name where no type caster was compiled in; such a function
    raises TypeError on every call (a device view once did, for want of the tuple caster)."""
    bad = [line.strip() for line in stub.read_text().splitlines() if '"std::' in line]
    assert not bad, f"{stub.name}: functions without a type caster for their types: {bad}"

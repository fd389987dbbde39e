"""The committed stub python/dyng/_core.pyi must match the installed native module.

Regenerate it after changing the bindings (from the repository root, with dyng installed):

    python -m nanobind.stubgen -q -m dyng._core -o python/dyng/_core.pyi
"""

import pathlib
import subprocess
import sys

import pytest

COMMITTED = pathlib.Path(__file__).resolve().parents[2] / "python" / "dyng" / "_core.pyi"
REGENERATE = "python -m nanobind.stubgen -q -m dyng._core -o python/dyng/_core.pyi"


def test_committed_stub_matches_module(tmp_path):
    pytest.importorskip("nanobind.stubgen", reason="nanobind (a build dependency) is not installed")
    import dyng._core

    if dyng._core.build_config["cuda"]:
        pytest.skip("the committed stub describes the CPU module; this dyng._core is a CUDA "
                    "build, which adds the device classes")
    if not COMMITTED.exists():
        pytest.fail(f"{COMMITTED} is missing; generate it with: {REGENERATE}")
    fresh = tmp_path / "_core.pyi"
    run = subprocess.run(
        [sys.executable, "-m", "nanobind.stubgen", "-q", "-m", "dyng._core", "-o", str(fresh)],
        capture_output=True, text=True,
    )
    assert run.returncode == 0, f"stubgen failed:\n{run.stdout}\n{run.stderr}"
    expected = COMMITTED.read_text()
    actual = fresh.read_text()
    assert actual == expected, (
        "python/dyng/_core.pyi is out of date with the installed dyng._core; regenerate it with: "
        f"{REGENERATE}"
    )

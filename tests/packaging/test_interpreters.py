"""Interpreters are found by running them (ci/wheelbuild/interpreters.py, ci/find_python.sh): a
pyenv shim on PATH that exits 127 must be passed over, on a fresh machine as here."""

import os
import pathlib
import stat
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "ci"))

from wheelbuild import interpreters  # noqa: E402


def fake(folder, name, body):
    path = folder / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_a_shim_that_fails_is_passed_over(tmp_path, monkeypatch):
    monkeypatch.setattr(pathlib.Path, "home", classmethod(lambda cls: tmp_path / "nohome"))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake(bin_dir, "python3.12", 'echo "pyenv: python3.12: command not found" >&2; exit 127')
    assert interpreters.candidates("3.12", path=str(bin_dir)) == [str(bin_dir / "python3.12")]
    with pytest.raises(FileNotFoundError, match="tried: .*python3.12"):
        interpreters.find_python("3.12", path=str(bin_dir))


def test_an_interpreter_of_another_version_is_passed_over(tmp_path, monkeypatch):
    monkeypatch.setattr(pathlib.Path, "home", classmethod(lambda cls: tmp_path / "nohome"))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake(bin_dir, "python3.12", "echo 3.11")
    assert not interpreters.answers_as(str(bin_dir / "python3.12"), "3.12")
    fake(bin_dir, "python3.12", "echo 3.12")
    assert interpreters.find_python("3.12", path=str(bin_dir)) == str(bin_dir / "python3.12")


def test_find_python_sh_prints_a_working_interpreter(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("python3.13", "python3.12"):
        fake(bin_dir, name, "exit 127")  # shims first on PATH, as pyenv puts them
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}")
    env.pop("DYNG_PYTHON", None)
    done = subprocess.run(
        ["bash", str(ROOT / "ci" / "find_python.sh")], capture_output=True, text=True, env=env
    )
    if done.returncode != 0:
        pytest.skip(f"no Python >= 3.12 on this machine: {done.stderr.strip()}")
    found = done.stdout.strip()
    assert not found.startswith(str(bin_dir))
    version = subprocess.run(
        [found, "-c", "import sys; print(sys.version_info >= (3, 12))"],
        capture_output=True,
        text=True,
    )
    assert version.stdout.strip() == "True"


def test_the_wheel_driver_does_not_take_a_failing_shim(tmp_path, monkeypatch):
    """ci/build.py's toolchain venv is made with venv.build_python(): it once returned the
    python3.12 shim from PATH, which then failed with exit 127 on a fresh machine."""
    from wheelbuild.providers import venv
    from wheelbuild.toolchain import ToolchainError

    if sys.version_info[:2] == (3, 12):
        pytest.skip("this interpreter is 3.12 itself, which build_python() takes first")
    monkeypatch.setattr(pathlib.Path, "home", classmethod(lambda cls: tmp_path / "nohome"))
    monkeypatch.delenv("DYNG_WHEEL_PYTHON", raising=False)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake(bin_dir, "python3.12", "exit 127")
    monkeypatch.setenv("PATH", str(bin_dir))
    with pytest.raises(ToolchainError, match="no CPython 3.12"):
        venv.build_python()
    fake(bin_dir, "python3.12", "echo 3.12")
    assert venv.build_python() == str(bin_dir / "python3.12")

"""Installing dyng with a Python older than 3.12 fails before building and names the floor."""

import glob
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def old_python():
    candidates = [shutil.which("python3.11")]
    pyenv_root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    candidates += sorted(
        glob.glob(os.path.join(pyenv_root, "versions", "3.1[01].*", "bin", "python3"))
    )
    for candidate in candidates:
        # The check runs pip without build isolation (no network), so that Python needs the
        # build backend itself.
        if (
            candidate
            and subprocess.run(
                [candidate, "-c", "import scikit_build_core"], capture_output=True
            ).returncode
            == 0
        ):
            return candidate
    return None


@pytest.mark.skipif(
    old_python() is None, reason="no Python 3.10/3.11 with scikit-build-core on this machine to try"
)
def test_install_with_old_python_is_refused_early(tmp_path):
    python = old_python()
    proc = subprocess.run(
        [
            python,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-index",
            "--no-build-isolation",
            "--target",
            str(tmp_path / "site"),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0, output
    assert ">=3.12" in output, output
    # Refused at the metadata step: no CMake configure, no compile.
    assert "Configuring" not in output and "Building CXX" not in output, output

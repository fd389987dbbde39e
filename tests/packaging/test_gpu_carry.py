"""ci/gpu_carry.sh refuses what it cannot build before it builds anything: no sets, a set not
written NAME=REF, a ref that names no commit (an uncommitted change cannot be carried)."""

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "ci" / "gpu_carry.sh"


def run(*args):
    return subprocess.run(
        ["bash", str(SCRIPT), *args], cwd=ROOT, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    ("args", "says"),
    [
        ((), "usage: ci/gpu_carry.sh NAME=REF"),
        (("HEAD",), "'HEAD' is not NAME=REF"),
        (("refused=",), "'refused=' is not NAME=REF"),
        (("refused=no-such-ref-anywhere",), "'no-such-ref-anywhere' names no commit here"),
    ],
)
def test_refusals_are_usage_errors(args, says):
    done = run(*args)
    assert done.returncode == 2
    assert says in done.stderr
    assert not (ROOT / "build" / "gpu-carry" / "refused").exists()  # no worktree was made
    assert not (ROOT / ".gpu-carry" / "dist-refused").exists()

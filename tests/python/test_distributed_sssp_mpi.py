"""dyng.distributed's sssp under ``mpiexec -n 2``, ``-n 3`` and ``-n 4`` (issue 47).

Each rank runs _distributed_sssp_rank.py: a DistributedGraph and a single-process dyng.Graph
take the same seeded batches (tree edges whose subtrees cross ranks deleted, ties inserted, the
graph grown, some batches from one rank alone; on directed and undirected graphs, an undirected
tree edge deleted child first in every other batch), and after every batch each rank's part of the distributed result, and the arrays
gathered on every rank, must equal dyng.sssp's bit for bit, through repairs and recomputes; a
batch refused on one rank must be refused on all and change nothing, and ranks that pass
different sources or budgets must all raise. Skips where mpi4py or an
``mpiexec`` is missing, as test_distributed_mpi.py does (its launcher is reused).
"""

from __future__ import annotations

import pathlib

import pytest

pytest.importorskip("mpi4py")
from test_distributed_mpi import MPIEXEC, run_ranks  # noqa: E402

SSSP_SCRIPT = pathlib.Path(__file__).with_name("_distributed_sssp_rank.py")


@pytest.mark.skipif(MPIEXEC is None, reason="no mpiexec (pip install mpich, or a system MPI)")
@pytest.mark.parametrize("ranks", [2, 3, 4])
def test_sssp_across_ranks_equals_one_process(ranks):
    assert run_ranks(SSSP_SCRIPT, ranks) == {
        "size": ranks,
        "equal": True,
        "paths": ["recompute", "repair"],
        "subtree_across_ranks": True,
        "unreachable_seen": True,
        "refused_everywhere": True,
        "same_message": True,
        "unchanged": True,
        "disagreement_refused": True,
    }

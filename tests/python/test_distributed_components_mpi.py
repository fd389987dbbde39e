"""dyng.distributed's weak components under ``mpiexec -n 1`` to ``-n 4`` (issue 47).

In the first test each rank runs _distributed_components_rank.py: after the compute and after
every batch (a split and a non-split of a component spanning ranks; a batch touching one rank
only; growth; seeded random parts from every rank), every rank's labels and sizes must equal its
part of dyng.components.compute on a single-process copy of the graph, and a long shuffled path
must settle in few rounds; a batch refused on one rank after another applied its part must not
reach that rank's shard result. In the second each runs _distributed_components_property_rank.py:
the same comparison on hypothesis graphs, directed and undirected, and dyng.testing's
adversarial batches. Runs where
mpi4py and an ``mpiexec`` are installed, as test_distributed_mpi.py does.
"""

from __future__ import annotations

import pathlib

import pytest

pytest.importorskip("mpi4py")

from test_distributed_mpi import MPIEXEC, run_ranks  # noqa: E402

COMPONENTS_SCRIPT = pathlib.Path(__file__).with_name("_distributed_components_rank.py")
PROPERTY_SCRIPT = pathlib.Path(__file__).with_name("_distributed_components_property_rank.py")


def passed_components_run(ranks: int) -> dict:
    """What rank 0 of COMPONENTS_SCRIPT prints when every check passed on `ranks` ranks."""
    return {
        "size": ranks,
        "equal": True,
        "steps": 16,
        "counts_as_scripted": True,
        "refused_then_mixed": True,
    }


@pytest.mark.skipif(MPIEXEC is None, reason="no mpiexec (pip install mpich, or a system MPI)")
@pytest.mark.parametrize("ranks", [1, 2, 3, 4])
def test_components_equal_one_graphs_on_every_rank_batch_after_batch(ranks):
    assert run_ranks(COMPONENTS_SCRIPT, ranks) == passed_components_run(ranks)


@pytest.mark.skipif(MPIEXEC is None, reason="no mpiexec (pip install mpich, or a system MPI)")
@pytest.mark.parametrize("ranks", [1, 2, 3])
def test_components_equal_one_graphs_under_adversarial_batches_cut_between_ranks(ranks):
    # Hypothesis draws the same graphs and batches on every rank (derandomized); each batch is
    # cut into one contiguous part per rank.
    assert run_ranks(PROPERTY_SCRIPT, ranks) == {"size": ranks, "passed": True}

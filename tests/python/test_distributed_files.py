"""dyng.distributed.read_edge_list and read_matrix_market: a DistributedGraph read from a file,
each rank keeping only its shard's edges, must equal one built from the whole list's arrays
(shards, partition, counts), in a world of one here and under ``mpiexec -n 2`` and ``-n 3``
(_distributed_file_rank.py), and a file that cannot be read must fail on every rank alike.
"""

from __future__ import annotations

import numpy as np
import pytest

import dyng
import dyng.distributed as dd
import dyng.io as io


def _edges(graph):
    return [a.tolist() for a in graph.local.edges()]


def _random_edges(seed, ids):
    """Up to 60 seeded edges among `ids` vertices, weights 1..8."""
    rng = np.random.default_rng(seed)
    m = int(rng.integers(0, 60))
    return rng.integers(0, ids, m), rng.integers(0, ids, m), rng.integers(1, 9, m)


@pytest.mark.parametrize("seed", range(4))
def test_a_world_of_one_reads_the_graph_from_arrays(tmp_path, seed):
    src, dst, w = _random_edges(seed, 25)
    path = tmp_path / "g.txt"
    io.write_edge_list(path, (src, dst, w))
    whole = io.read_edge_list_arrays(path, num_weights=1, ids="as_is", symmetrize=True)
    graph = dd.read_edge_list(path, num_weights=1, symmetrize=True)
    reference = dd.DistributedGraph.from_edges(
        whole.src, whole.dst, whole.weights, num_vertices=whole.num_vertices
    )
    assert _edges(graph) == _edges(reference)
    assert graph.partition.starts.tolist() == reference.partition.starts.tolist()
    assert (graph.num_vertices, graph.num_edges) == (whole.num_vertices, whole.num_edges)


@pytest.mark.parametrize("seed", range(3))
def test_an_undirected_graph_read_equals_one_undirected_graph_of_the_file(tmp_path, seed):
    # Repeats either way round with other weights, and self-loops: their merge must follow the
    # single-process reader's (src, dst) order.
    src, dst, w = _random_edges(seed, 15)
    path = tmp_path / "g.txt"
    io.write_edge_list(path, (np.concatenate([src, dst]), np.concatenate([dst, src]), [*w, *w + 1]))
    options = dict(num_weights=1, ids="as_is", drop_self_loops=False, directed=False)
    graph = dd.read_edge_list(path, **options)
    reference = io.read_edge_list(path, **options)
    assert sorted(map(tuple, np.column_stack(graph.local.edges()).tolist())) == sorted(
        map(tuple, np.column_stack(reference.edges()).tolist())
    )
    assert (graph.directed, graph.num_vertices, graph.num_edges) == (
        False,
        reference.num_vertices,
        reference.num_edges,
    )


def test_graph_keywords_reach_the_shard_and_a_given_partition_is_kept(tmp_path):
    path = tmp_path / "g.mtx"
    io.write_matrix_market(path, ([0, 1, 2], [1, 2, 0], [4, 5, 6]))
    semantics = dyng.BatchSemantics(on_missing_delete="error")
    part = dd.VertexPartition(np.array([0, 2]))  # id 2 lies past it: the last rank's
    graph = dd.read_matrix_market(path, partition=part, semantics=semantics)
    assert graph.partition is part
    assert _edges(graph) == [[0, 1, 2], [1, 2, 0], [[4], [5], [6]]]
    with pytest.raises(dyng.InvalidArgumentError):
        graph.apply(dyng.EdgeBatch(delete=([2], [1])))


def test_what_cannot_be_read_is_refused(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("0 1\n1 x\n")
    with pytest.raises(dyng.FileFormatError, match=r"bad.txt:2:3"):
        dd.read_edge_list(path)
    path.write_text("0 1\n")
    with pytest.raises(dyng.InvalidArgumentError, match="needs ids='as_is'"):
        dd.read_edge_list(path, ids="compact")
    with pytest.raises(dyng.InvalidArgumentError, match="the partition has 2 ranks"):
        dd.read_edge_list(path, partition=dd.VertexPartition(np.array([0, 1, 2])))
    with pytest.raises(dyng.NotSupportedError, match="pass sort_and_dedupe=True"):
        dd.read_matrix_market(path, directed=False, sort_and_dedupe=False)


def test_under_mpiexec_every_rank_reads_its_shard():
    pytest.importorskip("mpi4py")
    from test_distributed_mpi import MPIEXEC, run_ranks

    if MPIEXEC is None:
        pytest.skip("no mpiexec (pip install mpich, or a system MPI)")
    import pathlib

    script = pathlib.Path(__file__).with_name("_distributed_file_rank.py")
    for ranks in (2, 3):
        assert run_ranks(script, ranks) == {
            "size": ranks,
            "skewed": True,
            "skewed_not_by_count": True,
            "even": True,
            "symmetric": True,
            "given_partition": True,
            "undirected": True,
            "broken_everywhere": True,
        }

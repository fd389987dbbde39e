"""bench.distributed_overhead runs on a tiny graph and checks the shards against one graph."""

from __future__ import annotations

import pytest

pytest.importorskip("dyng._core")

from bench import distributed_overhead  # noqa: E402


def test_runs_and_finds_the_shards_equal_to_one_graph(capsys):
    assert distributed_overhead.main(["--scale", "8", "--rounds", "2", "--changes", "10,40"]) == 0
    out = capsys.readouterr().out
    assert "rmat8" in out and "MISMATCH" not in out
    assert out.count("DistributedGraph.apply") == 2


def test_a_shard_that_differs_is_reported(monkeypatch, capsys):
    real = distributed_overhead._gathered_edges

    def off_by_one(dgraph, comm):
        keys, weights = real(dgraph, comm)
        return keys, weights + 1

    monkeypatch.setattr(distributed_overhead, "_gathered_edges", off_by_one)
    assert distributed_overhead.main(["--scale", "8", "--rounds", "1", "--changes", "10"]) == 1
    assert "MISMATCH" in capsys.readouterr().out

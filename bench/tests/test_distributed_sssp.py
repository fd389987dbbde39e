"""bench.distributed_sssp runs on a tiny graph and checks the result against dyng.sssp."""

from __future__ import annotations

import pytest

pytest.importorskip("dyng._core")

from bench import distributed_sssp  # noqa: E402


def test_runs_and_finds_the_results_equal(capsys):
    assert distributed_sssp.main(["--scale", "8", "--rounds", "2", "--changes", "10,40"]) == 0
    out = capsys.readouterr().out
    assert "rmat8" in out and "MISMATCH" not in out
    assert out.count("sssp_update") == 2


def test_a_result_that_differs_is_reported(monkeypatch, capsys):
    real = distributed_sssp.dd.SsspResult.gather

    def off_by_one(result, root=None):
        distances, parents = real(result, root)
        return distances + 1, parents

    monkeypatch.setattr(distributed_sssp.dd.SsspResult, "gather", off_by_one)
    assert distributed_sssp.main(["--scale", "8", "--rounds", "1", "--changes", "10"]) == 1
    assert "MISMATCH" in capsys.readouterr().out

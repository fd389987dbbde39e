"""bench.distributed_components runs on a tiny graph and checks the labels against one graph."""

from __future__ import annotations

import pytest

pytest.importorskip("dyng._core")

from bench import distributed_components  # noqa: E402


def test_runs_and_finds_the_labels_equal_to_one_graphs(capsys):
    argv = ["--scale", "8", "--rounds", "2", "--changes", "10,40"]
    assert distributed_components.main(argv) == 0
    out = capsys.readouterr().out
    assert "rmat8" in out and "MISMATCH" not in out
    assert out.count("update of") == 2 and out.count("compute:") == 1


def test_labels_that_differ_are_reported(monkeypatch, capsys):
    monkeypatch.setattr(distributed_components, "_same", lambda plain, dist: False)
    argv = ["--scale", "8", "--rounds", "1", "--changes", "10"]
    assert distributed_components.main(argv) == 1
    assert "MISMATCH" in capsys.readouterr().out

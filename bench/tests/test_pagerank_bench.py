"""bench pagerank at a tiny size with the real dyng: rows, checks and bars are well formed, a
missing peer is skipped, and an update that leaves the ranks stale stops the run."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

from bench import cli

ARGV = ["pagerank", "--scale", "8", "--repeats", "2", "--changes", "20", "--nx-scale", "7"]


@pytest.fixture
def dyng_pagerank():
    pytest.importorskip("dyng._core")
    import dyng

    return dyng.pagerank


def test_tiny_run(tmp_path, capsys, dyng_pagerank):
    out = tmp_path / "p.json"
    assert cli.main([*ARGV, "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    rows = {r["section"]: r for r in doc["rows"]}
    assert list(rows) == ["compute", "networkx", "update"] or "networkit" in doc["skipped"][0]
    update = rows["update"]
    for backend in ("sequential", "openmp"):
        for peer in ("update", "recompute", "warm full"):
            summary = update["peers"][f"dyng {backend} {peer}"]
            assert len(summary["samples_ms"]) == 2 and summary["first_ms"] > 0
        stats = update["stats"][backend]
        assert len(stats) == 3  # the first batch and two steady ones
        assert all(
            s["method"] in ("frontier_power_iteration", "warm_power_iteration") for s in stats
        )
    assert 0 <= update["worst_fraction_of_bound"] <= 1
    assert 0 <= update["worst_fraction_of_tol"] < 1
    statuses = {b["bar"]: b["status"] for b in doc["bars"]}
    assert statuses["update 20 (openmp, steady) <= 0.5x warm full iteration"] in ("PASS", "FAIL")
    assert statuses["update 20 (sequential, first) <= 0.2x cold recompute"] in ("PASS", "FAIL")
    within = [s for bar, s in statuses.items() if bar.startswith("every update within")]
    assert within == ["PASS"]
    text = capsys.readouterr().out
    assert "update, 20 changes a batch" in text and "Bars" in text


def test_missing_peers_are_skipped(tmp_path, monkeypatch, dyng_pagerank):
    monkeypatch.setitem(sys.modules, "networkit", None)  # import networkit raises ImportError
    monkeypatch.setitem(sys.modules, "networkx", None)
    out = tmp_path / "p.json"
    assert cli.main([*ARGV, "--backends", "sequential", "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert {line.split(":")[0] for line in doc["skipped"]} == {"networkit", "networkx"}
    assert [r["section"] for r in doc["rows"]] == ["compute", "update"]
    peer_bars = [b for b in doc["bars"] if "NetworKit" in b["bar"] or "nx.pagerank" in b["bar"]]
    assert peer_bars and {b["status"] for b in peer_bars} == {"SKIP"}


def test_a_stale_update_stops_the_run(tmp_path, capsys, monkeypatch, dyng_pagerank):
    # An update that applies the batch but leaves the ranks as they were.
    monkeypatch.setattr(
        dyng_pagerank, "update", lambda graph, batch, result, **kwargs: graph.apply(batch)
    )
    argv = [*ARGV, "--no-peers", "--tol", "1e-10", "--json", str(tmp_path / "p.json")]
    assert cli.main(argv) == 1
    err = capsys.readouterr().err
    assert "pagerank.update() (sequential, update, batch 1)" in err
    assert not (tmp_path / "p.json").exists()


def test_pagerank_step_is_one_iteration_of_the_oracle():
    from dyng.testing.oracles import GraphModel, pagerank_ranks, pagerank_step

    model = GraphModel(4, [0, 0, 1, 2, 3], [1, 2, 2, 0, 3])
    exact = np.array(pagerank_ranks(model))
    assert np.abs(pagerank_step(4, [0, 0, 1, 2, 3], [1, 2, 2, 0, 3], exact) - exact).sum() < 1e-12
    uniform = np.full(4, 0.25)
    moved = pagerank_step(4, [0, 0, 1, 2, 3], [1, 2, 2, 0, 3], uniform)
    assert abs(moved.sum() - 1) < 1e-12 and np.abs(moved - uniform).sum() > 0.1


def test_bad_arguments_are_usage_errors(capsys):
    assert cli.main(["pagerank", "--alpha", "1.0"]) == 2
    assert "--alpha in [0, 1)" in capsys.readouterr().err

"""bench nx at a tiny size: the three ways answer alike, rows, ratios and bars are well formed,
and a wrong answer stops the run."""

from __future__ import annotations

import json

import pytest

from bench import cli


@pytest.fixture
def networkx_with_dyng():
    pytest.importorskip("dyng._core")
    nx = pytest.importorskip("networkx")
    if "dyng" not in nx.utils.backends.backends:
        pytest.skip("dyng's networkx.backends entry point is not installed; reinstall dyng")
    return nx


def test_nx_run_tiny(tmp_path, capsys, networkx_with_dyng):
    out = tmp_path / "nx.json"
    argv = ["nx", "--scale", "0.0004", "--changes", "10", "--rounds", "2", "--json", str(out)]
    assert cli.main(argv) == 0
    doc = json.loads(out.read_text())
    assert doc["vertices"] == 400 and doc["settings"]["side"] == 20
    assert [r["peer"] for r in doc["rows"]] == ["networkx", "dyng stateless", "dyng.nx graph"]
    assert doc["rows"][0]["ratio"] == 1.0
    for row in doc["rows"]:
        assert len(row["samples_ms"]) == 2 and row["median_ms"] > 0
        assert row["ratio"] == pytest.approx(row["median_ms"] / doc["rows"][0]["median_ms"])
    # The graph type computed once and updated its result every round.
    assert doc["dyng_stats"]["computes"] == 1 and doc["dyng_stats"]["updates"] == 2
    assert {b["status"] for b in doc["bars"]} <= {"PASS", "FAIL"}
    assert "dyng.nx graph" in capsys.readouterr().out


def test_a_wrong_answer_stops_the_run(tmp_path, capsys, monkeypatch, networkx_with_dyng):
    import dyng.nx._algorithms as algorithms

    real = algorithms.single_source_dijkstra_path_length
    monkeypatch.setattr(
        algorithms,
        "single_source_dijkstra_path_length",
        lambda *args, **kwargs: {**real(*args, **kwargs), "wrong": 1},
    )
    argv = [
        "nx",
        "--scale",
        "0.0004",
        "--changes",
        "10",
        "--rounds",
        "1",
        "--json",
        str(tmp_path / "nx.json"),
    ]
    assert cli.main(argv) == 1
    assert "answered differently" in capsys.readouterr().err


def test_nx_refuses_bad_sizes(capsys):
    assert cli.main(["nx", "--changes", "1"]) == 2
    assert "--changes" in capsys.readouterr().err

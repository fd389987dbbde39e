"""bench components at a tiny size with the real dyng: rows, checks and bars are well formed, a
missing peer is skipped, and an update that differs from a fresh compute stops the run."""

from __future__ import annotations

import dataclasses
import json
import sys

import numpy as np
import pytest

from bench import cli, components, verify

ARGV = ["components", "--scale", "8", "--repeats", "2", "--changes", "20", "--nx-scale", "7"]


@pytest.fixture
def dyng_components():
    pytest.importorskip("dyng._core")
    import dyng

    return dyng.components


def test_tiny_run(tmp_path, capsys, dyng_components):
    out = tmp_path / "c.json"
    assert cli.main([*ARGV, "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    sections = [(r["section"], r["kind"]) for r in doc["rows"]]
    assert sections[:4] == [
        ("compute", "weak"),
        ("compute", "strong"),
        ("update", "weak"),
        ("update", "strong"),
    ]
    update = doc["rows"][2]
    for backend in ("sequential", "openmp"):
        for peer in ("update", "apply+recompute", "recompute"):
            summary = update["peers"][f"dyng {backend} {peer}"]
            assert len(summary["samples_ms"]) == 2 and summary["first_ms"] > 0
        assert len(update["stats"][backend]) == 3  # the first batch and two steady ones
        series = update["peers"][f"dyng {backend} update, back to back"]
        assert len(series["samples_ms"]) == 2 and series["first_ms"] > 0
    statuses = {b["bar"]: b["status"] for b in doc["bars"]}
    assert statuses["weak compute sequential <= 0.5x SciPy"] in ("PASS", "FAIL")
    assert statuses["strong update 20 (openmp, first) <= 1.1x apply+recompute"] in ("PASS", "FAIL")
    strong_nk = [
        s for bar, s in statuses.items() if bar.startswith("strong update") and "NetworKit" in bar
    ]
    assert strong_nk and set(strong_nk) == {"SKIP"}
    text = capsys.readouterr().out
    assert "update weak, 20 changes a batch" in text and "Bars" in text


def test_missing_networkit_is_skipped(tmp_path, monkeypatch, dyng_components):
    monkeypatch.setitem(sys.modules, "networkit", None)  # import networkit raises ImportError
    out = tmp_path / "c.json"
    assert (
        cli.main(
            [
                *ARGV,
                "--kinds",
                "weak",
                "--nx-scale",
                "0",
                "--backends",
                "sequential",
                "--json",
                str(out),
            ]
        )
        == 0
    )
    doc = json.loads(out.read_text())
    assert any(line.startswith("networkit: not installed") for line in doc["skipped"])
    assert "networkit dynamic" not in doc["rows"][1]["peers"]
    nk_bars = [b for b in doc["bars"] if "NetworKit" in b["bar"]]
    assert nk_bars and {b["status"] for b in nk_bars} == {"SKIP"}


def test_networkit_dynamic_left_out_above_its_scale(tmp_path, dyng_components):
    pytest.importorskip("networkit")
    out = tmp_path / "c.json"
    argv = [*ARGV, "--kinds", "weak", "--nx-scale", "0", "--backends", "sequential"]
    assert cli.main([*argv, "--networkit-dynamic-scale", "7", "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert any(line.startswith("networkit dynamic: left out at scale 8") for line in doc["skipped"])
    assert "networkit dynamic" not in doc["rows"][1]["peers"]
    assert "networkit" in doc["rows"][0]["peers"]  # the static peer still runs
    assert cli.main([*argv, "--networkit-dynamic-scale", "8", "--json", str(out)]) == 0
    assert "networkit dynamic" in json.loads(out.read_text())["rows"][1]["peers"]


def test_a_stale_update_stops_the_run(tmp_path, capsys, monkeypatch, dyng_components):
    # An update that applies the batch but leaves the labels as they were.
    monkeypatch.setattr(
        dyng_components, "update", lambda graph, batch, result, **kwargs: graph.apply(batch)
    )
    argv = [*ARGV, "--kinds", "weak", "--no-peers", "--json", str(tmp_path / "c.json")]
    assert cli.main(argv) == 1
    assert "components.update('weak') (sequential, batch 1) vs recompute" in (
        capsys.readouterr().err
    )
    assert not (tmp_path / "c.json").exists()


def test_bad_arguments_are_usage_errors(capsys):
    assert cli.main(["components", "--backends", "gpu"]) == 2
    assert "--backends among sequential,openmp,cuda" in capsys.readouterr().err


def test_canonical_labels_take_the_smallest_member():
    labels = verify.canonical_labels(np.array([3, 3, 0, 9, 0, 3]))
    assert labels.tolist() == [0, 0, 2, 3, 2, 0]


def test_bars_judge_ratios_against_the_issue():
    def summary(first, steady):
        return {"ms": steady, "first_ms": first, "samples_ms": [steady]}

    peers = {
        "dyng sequential update": summary(2.0, 1.0),
        "dyng sequential recompute": summary(10.0, 20.0),
        "dyng sequential apply+recompute": summary(1.0, 25.0),
        "networkit dynamic": summary(30.0, 5.0),
    }
    doc = {
        "settings": {"backends": ["sequential"]},
        "graph": {"name": "rmat20"},
        "rows": [
            {
                "section": "compute",
                "kind": "weak",
                "peers": {"dyng sequential": summary(1, 6.0), "scipy": summary(1, 10.0)},
            },
            {"section": "update", "kind": "weak", "changes": 1000, "peers": peers},
        ],
    }
    got = {b["bar"]: (b["status"], b["value"]) for b in components.bars(doc)}
    assert got["weak compute sequential <= 0.5x SciPy"] == ("FAIL", 0.6)
    first = "weak update 1000 (sequential, first)"
    steady = "weak update 1000 (sequential, steady)"
    assert got[f"{first} <= 0.1x recompute"] == ("FAIL", 0.2)
    assert got[f"{steady} <= 0.1x recompute"] == ("PASS", 0.05)
    assert got[f"{first} <= 1.1x apply+recompute"] == ("FAIL", 2.0)
    assert got[f"{first} >= 10x faster than NetworKit dynamic"] == ("PASS", 15.0)
    assert got[f"{steady} >= 10x faster than NetworKit dynamic"] == ("FAIL", 5.0)


def test_a_backend_components_lacks_is_refused_up_front(capsys, monkeypatch, dyng_components):
    import dyng

    have = [
        dataclasses.replace(a, backends=("sequential",)) if a.name == "components" else a
        for a in dyng.algorithms()
    ]
    monkeypatch.setattr(dyng, "algorithms", lambda: have)
    assert cli.main(["components", "--backends", "sequential,openmp"]) == 1
    assert "components has no openmp backend" in capsys.readouterr().err


def test_gpu_bars_are_milliseconds_on_rmat22():
    def summary(first, steady):
        return {"ms": steady, "first_ms": first, "samples_ms": [steady]}

    update = {
        f"dyng cuda {peer}": summary(0.9, 1.2)
        for peer in ("update", "recompute", "apply+recompute")
    }
    # The millisecond bars read the back-to-back series, not the interleaved update.
    update["dyng cuda update, back to back"] = summary(0.4, 0.6)
    rows = [
        {
            "section": "compute",
            "kind": "strong",
            "peers": {"dyng cuda": summary(1, 20.0), "scipy": summary(1, 400.0)},
        },
        {"section": "update", "kind": "weak", "changes": 1000, "peers": update},
    ]
    doc = {"settings": {"backends": ["cuda"]}, "graph": {"name": "rmat22"}, "rows": rows}
    got = {b["bar"]: (b["status"], b["value"]) for b in components.bars(doc)}
    assert got["strong compute cuda <= 25 ms on rmat22 (GPU)"] == ("PASS", 20.0)
    assert got["weak update 1000 cuda back to back (first) <= 0.5 ms on rmat22 (GPU)"] == (
        "PASS",
        0.4,
    )
    assert got["weak update 1000 cuda back to back (steady) <= 0.5 ms on rmat22 (GPU)"] == (
        "FAIL",
        0.6,
    )
    doc["graph"]["name"] = "rmat20"
    statuses = {b["status"] for b in components.bars(doc) if "(GPU)" in b["bar"]}
    assert statuses == {"SKIP"}

"""bench io at a tiny size: every reader runs, rows and bars are well formed, and a missing
peer (pyarrow, dyng 0.2.0) is skipped rather than failing the run."""

from __future__ import annotations

import json

import pytest

from bench import cli


def test_io_run_tiny(tmp_path, capsys):
    pytest.importorskip("dyng._core")
    out = tmp_path / "io.json"
    argv = [
        "io",
        "--edges",
        "2000",
        "--repeats",
        "1",
        "--threads",
        "1",
        "--reference-python",
        str(tmp_path / "no-such-python"),
        "--json",
        str(out),
    ]
    assert cli.main(argv) == 0
    doc = json.loads(out.read_text())
    readers = [r["reader"] for r in doc["rows"]]
    assert readers[:2] == ["dyng", "dyng as_is"]
    assert all(r["seconds"] > 0 and r["peak_mib"] > 0 for r in doc["rows"])
    assert doc["rows"][0]["edges_out"] == doc["rows"][1]["edges_out"] > 0
    assert any("dyng 0.2.0" in s for s in doc["skipped"])
    assert {b["status"] for b in doc["bars"]} <= {"PASS", "FAIL", "SKIP"}
    assert "dyng as_is" in capsys.readouterr().out


def test_io_refuses_bad_sizes(capsys):
    assert cli.main(["io", "--edges", "0"]) == 2
    assert "--edges" in capsys.readouterr().err


def test_pyarrow_peer_is_optional(tmp_path, monkeypatch):
    pytest.importorskip("dyng._core")
    from bench import io as io_bench

    monkeypatch.setattr(io_bench, "_has_pyarrow", lambda python, env: False)
    doc = io_bench.run(500, 50, 1, 1, None, True, 1, lambda message: None, str(tmp_path))
    assert [r["reader"] for r in doc["rows"]] == ["dyng", "dyng as_is"]
    assert "pyarrow (not installed)" in doc["skipped"]

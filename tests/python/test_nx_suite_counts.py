"""The counts ci/nx_suite.sh prints: a test counts as run through dyng only when a dyng function
ran in it, and its outcome is the one pytest reported (a failed setup or teardown fails it)."""

import pytest

pytest.importorskip("networkx")

from dyng.nx import _suite_counts  # noqa: E402


def write(folder, kind, rows):
    (folder / f"{kind}-1.tsv").write_text("".join("\t".join(row) + "\n" for row in rows))


def test_outcomes_are_joined_with_the_calls_of_each_test(tmp_path):
    write(
        tmp_path,
        "outcomes",
        [
            ("m.py::a", "setup", "passed", ""),
            ("m.py::a", "call", "passed", ""),
            ("m.py::b", "call", "failed", ""),
            ("m.py::c", "call", "skipped", "xfail: known"),
            ("m.py::d", "call", "passed", ""),
            ("m.py::d", "teardown", "failed", ""),
            ("m.py::e", "call", "failed", ""),
            ("m.py::f", "setup", "skipped", ""),
        ],
    )
    write(
        tmp_path,
        "calls",
        [
            ("m.py::a", "bfs_layers"),
            ("m.py::a", "bfs_layers"),
            ("m.py::b", "transitivity"),
            ("m.py::c", "bfs_layers"),
            ("m.py::d", "transitivity"),
            ("", "bfs_layers"),
        ],
    )
    write(
        tmp_path,
        "refusals",
        [
            ("m.py::e", "bfs_layers", "2 sources: several"),
            ("m.py::a", "bfs_layers", "counted only outside dyng tests"),
        ],
    )
    text, failed = _suite_counts.summarize(tmp_path)
    assert "NetworkX tests run: 6 (passed 1, failed 3, xfailed 1, skipped 1)" in text
    assert "ran through dyng: 4 (passed 1, failed 2, xfailed 1)" in text
    assert "dyng calls by function: bfs_layers 4, transitivity 2" in text
    assert "FAILED through dyng: m.py::b" in text and "FAILED through dyng: m.py::d" in text
    assert "failed without dyng: m.py::e" in text
    assert "bfs_layers: N sources: several (1)" in text
    assert "counted only outside" not in text
    assert "  known (1)" in text
    assert failed == 2


def test_nothing_is_written_without_the_variable(tmp_path, monkeypatch):
    monkeypatch.delenv("DYNG_NX_SUITE_COUNTS", raising=False)
    _suite_counts.note_call("bfs_layers")
    monkeypatch.setenv("DYNG_NX_SUITE_COUNTS", str(tmp_path))
    _suite_counts.note_call("bfs_layers")
    lines = [
        line for path in tmp_path.glob("calls-*.tsv") for line in path.read_text().splitlines()
    ]
    assert len(lines) == 1 and lines[0].endswith("\tbfs_layers")
    assert lines[0].startswith("tests/python/test_nx_suite_counts.py::")


def test_the_command_exits_1_on_failures_through_dyng(tmp_path, capsys):
    write(tmp_path, "outcomes", [("m.py::b", "call", "failed", "")])
    write(tmp_path, "calls", [("m.py::b", "transitivity")])
    assert _suite_counts.main([str(tmp_path)]) == 1
    assert "FAILED through dyng: m.py::b" in capsys.readouterr().out
    assert _suite_counts.main([str(tmp_path / "missing")]) == 2

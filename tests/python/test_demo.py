"""dyng demo (dyng.demo): it runs at a tiny size, checks every update against a fresh compute,
prints its table, writes its JSON and chart, and exits 1 when a check fails."""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import io
import json
import subprocess
import sys

import numpy as np
import pytest

import dyng
from dyng import cli
from dyng.cli import _progress
from dyng.demo import _checks, _data, _device, _workloads

TINY = ["--size", "0.002", "--batches", "3", "--quiet"]
LABELS = [
    "sssp",
    "dynamic_bfs",
    "components (weak)",
    "components (strong)",
    "pagerank",
    f"cycle_count (<= {_workloads.CYCLE_BOUND})",
]


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(list(argv))
    return status, out.getvalue(), err.getvalue()


def table_rows(out):
    """{result label: its row's cells} of the printed table."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("result "))
    rows = {}
    for line in lines[start + 1 : start + 1 + len(LABELS)]:
        label = next(name for name in LABELS if line.startswith(name + " "))
        rows[label] = line[len(label) :].split()
    return rows


def test_a_tiny_demo_checks_every_update_and_writes_its_outputs(tmp_path):
    status, out, err = run(["demo", *TINY, "--out", str(tmp_path)])
    assert status == 0, out + err
    assert out.startswith(f"dyng {dyng.__version__} demo: running on the ")
    rows = table_rows(out)
    assert sorted(rows) == sorted(LABELS)
    assert all(row[-1] == "yes" and row[-2].endswith("/3") for row in rows.values()), rows
    numbers = json.loads((tmp_path / "demo.json").read_text())
    assert numbers["batches"] == 3 and numbers["seed"] == 1
    assert [r["result"] for r in numbers["results"]] == LABELS
    for result in numbers["results"]:
        assert result["all_answers_equal"] and result["failures"] == []
        assert len(result["update_ms"]) == len(result["recompute_ms"]) == 3
        assert min(result["recompute_ms"]) > 0
    assert set(numbers["graphs"]) == {"roads", "followers", "payments"}
    chart = tmp_path / "demo.png"
    if importlib.util.find_spec("matplotlib") is not None:
        assert chart.read_bytes().startswith(b"\x89PNG")
    else:
        assert not chart.exists() and "no chart: " in out
    assert err == ""  # --quiet, and stderr is no terminal here anyway


def test_no_plot_writes_the_numbers_but_no_chart(tmp_path):
    status, out, _ = run(["demo", *TINY, "--no-plot", "--out", str(tmp_path)])
    assert status == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo.json"]


def test_a_wrong_answer_fails_the_run_and_writes_nothing(tmp_path, monkeypatch):
    """The fresh dynamic_bfs answers come from another source after the first compute, so
    every check of dynamic_bfs must fail (and only those)."""
    real_build = _workloads.build

    def build_with_a_wrong_fresh_answer(sizes, seed):
        workloads = real_build(sizes, seed)
        roads = workloads[0]
        bfs = roads.tracked[1]
        first = []

        def compute(graph):
            first.append(True)
            return bfs.compute(graph) if len(first) == 1 else dyng.dynamic_bfs.compute(graph, 0)

        roads.tracked[1] = dataclasses.replace(bfs, compute=compute)
        return workloads

    monkeypatch.setattr(_workloads, "build", build_with_a_wrong_fresh_answer)
    status, out, _ = run(["demo", *TINY, "--out", str(tmp_path / "out")])
    assert status == 1
    rows = table_rows(out)
    assert rows["dynamic_bfs"][-1] == "NO"
    assert all(row[-1] == "yes" for label, row in rows.items() if label != "dynamic_bfs")
    assert "CHECK FAILED dynamic_bfs: batch 1: levels: " in out
    assert not (tmp_path / "out").exists()


def test_differences_finds_what_differs():
    same = {"labels": np.array([0, 0, 2]), "count": np.array([2])}
    assert _checks.differences(same, same) is None
    other = {"labels": np.array([0, 1, 1]), "count": np.array([2])}
    assert _checks.differences(other, same) == (
        "labels: 2 of 3 entries differ (first at 1: 1, fresh 0)"
    )
    assert _checks.differences({"labels": np.array([0, 0])}, same).startswith("labels: shape")
    assert _checks.differences({}, same) == "labels: shape/type missing, fresh (3,) int64"
    ranks, fresh = np.array([0.25, 0.75]), np.array([0.3, 0.7])
    assert _checks.differences({"ranks": ranks}, {"ranks": fresh}, l1_bound=0.2) is None
    assert _checks.differences({"ranks": ranks}, {"ranks": fresh}, l1_bound=0.05) == (
        "ranks: L1 distance 0.1 from fresh, bound 0.05"
    )
    # Without a bound a float answer must be equal bit for bit.
    assert _checks.differences({"ranks": ranks}, {"ranks": fresh}) is not None


def test_the_data_follows_the_seed():
    sizes = _data.sizes(0.002)
    one = _workloads.build(sizes, 5)
    again = _workloads.build(sizes, 5)
    other = _workloads.build(sizes, 6)
    edges = [[w.graph.edges() for w in ws] for ws in (one, again, other)]
    for a, b in zip(edges[0], edges[1]):
        assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert any(not np.array_equal(a[0], c[0]) for a, c in zip(edges[0], edges[2]))
    batch, repeat = one[1].events.next_batch(), again[1].events.next_batch()
    assert batch.num_insertions == batch.num_deletions == sizes.follows
    assert np.array_equal(batch.insert_src, repeat.insert_src)


def test_road_batches_close_reopen_and_retime_streets():
    rng = np.random.default_rng(3)
    events = _stream_of_roads(dyng.generators.street_grid(6, seed=rng), rng)
    first, second, third = (events.next_batch() for _ in range(3))
    assert first.num_deletions == 2 and first.num_insertions == 2 * 3  # one closure, 3 retimed
    closed = set(zip(first.delete_src.tolist(), first.delete_dst.tolist()))
    reopened = set(zip(third.insert_src.tolist(), third.insert_dst.tolist()))
    assert closed <= reopened  # closed for two batches, then open again
    assert not closed & set(zip(second.insert_src.tolist(), second.insert_dst.tolist()))


def _stream_of_roads(streets, rng):
    from dyng.demo import _stream

    return _stream.RoadEvents(streets, closures=1, changes=3, rng=rng)


@pytest.mark.parametrize("argv", [["demo", "--help"], None])
def test_help_documents_every_flag(argv):
    if argv is None:  # python -m dyng.demo
        done = subprocess.run(
            [sys.executable, "-m", "dyng.demo", "--help"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        status, out = done.returncode, done.stdout
    else:
        status, out, _ = run(argv)
    assert status == 0
    for flag in ("--size", "--batches", "--out", "--no-plot", "--seed", "--quiet"):
        assert flag in out


@pytest.mark.parametrize("flags", [["--size", "huge"], ["--size", "0"], ["--batches", "0"]])
def test_bad_flags_are_usage_errors(flags):
    status, _, err = run(["demo", *flags])
    assert status == 2 and "dyng demo: error: argument" in err


def test_the_progress_bar_shows_on_a_terminal_only(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    for quiet, expected in (
        (False, "dyng: batches [###############...............] 1/2"),
        (True, ""),
    ):
        screen = Terminal()
        monkeypatch.setattr(sys, "stderr", screen)
        _progress.configure(quiet=quiet)
        bar = _progress.Bar("batches", 2)
        bar.advance()
        bar.close()
        assert screen.getvalue().split("\r")[-1].rstrip("\n") == expected
    _progress.configure(quiet=True)


def test_the_first_line_says_where_it_runs():
    plugin = {
        "name": "cu13",
        "state": "chosen",
        "distribution": "dyng-cu13",
        "version": "0.3.0",
        "driver_version": 13020,
        "reason": "chosen",
    }
    config = {
        "plugins": [plugin],
        "backends": {"cuda": True},
        "native_module": "m",
        "openmp_max_threads": 2,
    }
    gpu = type("R", (), {"backend": "cuda", "device": 0, "num_threads": 0})()
    assert _device.describe(gpu, config) == (
        "running on the GPU: CUDA device 0 (plugin dyng-cu13 0.3.0, driver CUDA 13.2)"
    )
    cpu = type("R", (), {"backend": "openmp", "device": 0, "num_threads": 0})()
    config = {**config, "plugins": [], "backends": {"cuda": False}}
    assert _device.describe(cpu, config).startswith(
        "running on the CPU: the OpenMP backend, 2 threads (no GPU: no CUDA plugin is installed"
    )

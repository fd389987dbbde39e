"""bench --plot and bench plot: the charts drawn from each benchmark's JSON.

The sssp run is the real command against the fake dyng; the peer benchmarks' documents are built
here with bench.peer.best_rows (the function that makes their rows), so the charts are checked on
the shapes the benchmarks write, with and without a reference dyng.
"""

from __future__ import annotations

import json
import sys

import pytest

from bench import cli, peer, plot
from bench.tests import fake_dyng

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SSSP_ARGS = ["sssp", "--graphs", "grid8,rmat6", "--repeats", "2", "--changes", "10,20"]


@pytest.fixture
def mpl():
    return pytest.importorskip("matplotlib")


def _is_png(path) -> bool:
    return path.is_file() and path.read_bytes()[:8] == PNG_MAGIC


def _figures(document) -> dict:
    return dict(plot.figures(document))


def _legend(fig) -> list[str]:
    return [t.get_text() for legend in fig.legends for t in legend.get_texts()]


def _labelled_lines(ax) -> list:
    return [line for line in ax.get_lines() if not line.get_label().startswith("_")]


def _peer_document(benchmark, operations, reference=True, **extra) -> dict:
    """A document as bench/cli.py's _run_peer_benchmark writes it, times made up."""
    mine = {op: 0.001 * (k + 1) for k, op in enumerate(operations)}
    theirs = {op: 0.002 * (k + 1) for k, op in enumerate(operations)}
    document = {
        "benchmark": benchmark,
        "started": "2026-01-02 03:04:05 +0000",
        "rows": peer.best_rows(operations, [mine], [theirs] if reference else []),
        "dyng": "0.3.0",
        "reference_dyng": "0.2.0" if reference else None,
    }
    document.update(extra)
    return document


def test_sssp_run_with_plot_writes_its_charts(mpl, tmp_path, capsys):
    out, charts = tmp_path / "r.json", tmp_path / "charts"
    argv = [*SSSP_ARGS, "--json", str(out), "--plot", str(charts)]
    assert cli.main(argv, dyng_module=fake_dyng.make()) == 0
    assert sorted(p.name for p in charts.iterdir()) == [
        "sssp-classes.png",
        "sssp-compute.png",
        "sssp-update.png",
    ]
    assert all(_is_png(p) for p in charts.iterdir())
    assert f"plot: {charts / 'sssp-update.png'}" in capsys.readouterr().out

    figures = _figures(json.loads(out.read_text()))
    (ax,) = figures["sssp-compute.png"].axes
    # 2 graphs x (sequential, OpenMP, SciPy).
    assert len(ax.patches) == 6
    assert [t.get_text().split("\n")[0] for t in ax.get_xticklabels()] == ["grid8", "rmat6"]
    assert _legend(figures["sssp-compute.png"]) == [
        "dyng sequential",
        "dyng OpenMP",
        "SciPy dijkstra",
    ]
    update = figures["sssp-update.png"]
    # One panel per graph and mode; update and recompute per backend, one point per batch size.
    assert [a.get_title() for a in update.axes] == [
        "grid8, uniform changes",
        "grid8, local changes",
        "rmat6, uniform changes",
        "rmat6, local changes",
    ]
    for panel in update.axes:
        lines = _labelled_lines(panel)
        assert [line.get_label() for line in lines] == [
            "update sequential",
            "recompute sequential",
            "update OpenMP",
            "recompute OpenMP",
        ]
        assert all(list(line.get_xdata()) == [10, 20] for line in lines)
        # The fake dyng always recomputes: every update point gets the hollow marker.
        hollow = [line for line in panel.get_lines() if line.get_label().startswith("_")]
        assert len(hollow) == 2 and all(len(line.get_xdata()) == 2 for line in hollow)


def test_sssp_classes_chart_puts_first_beside_steady_per_class(mpl, tmp_path):
    out = tmp_path / "r.json"
    argv = ["sssp", "--graphs", "uniform5,road6", "--repeats", "2", "--changes", "10"]
    assert cli.main([*argv, "--modes", "uniform", "--json", str(out)], fake_dyng.make()) == 0
    document = json.loads(out.read_text())
    classes = _figures(document)["sssp-classes.png"]
    assert [a.get_title() for a in classes.axes] == ["compute", "update uniform 10"]
    for panel in classes.axes:
        # 2 graphs x 2 backends x (first, steady).
        assert len(panel.patches) == 8
        assert [t.get_text() for t in panel.get_xticklabels()] == ["uniform5", "road6"]
    assert _legend(classes) == [
        "first sequential",
        "steady sequential",
        "first OpenMP",
        "steady OpenMP",
    ]
    # A JSON from before the split has no first/steady times: no classes chart, no error.
    for row in document["rows"]:
        for key in [k for k in row if k.startswith(("first_", "steady_"))]:
            del row[key]
    assert "sssp-classes.png" not in _figures(document)


def test_replot_from_saved_json(mpl, tmp_path, capsys):
    out = tmp_path / "run.json"
    assert cli.main([*SSSP_ARGS, "--json", str(out)], dyng_module=fake_dyng.make()) == 0
    assert cli.main(["plot", str(out), "--out", str(tmp_path / "again")]) == 0
    assert _is_png(tmp_path / "again" / "sssp-compute.png")
    assert _is_png(tmp_path / "again" / "sssp-update.png")
    # Without --out: a folder named after the JSON, beside it.
    assert cli.main(["plot", str(out)]) == 0
    assert _is_png(tmp_path / "run-plots" / "sssp-update.png")
    assert str(tmp_path / "run-plots" / "sssp-compute.png") in capsys.readouterr().out


def test_mosp_charts_put_the_reference_beside(mpl):
    ops = [
        f"{b} {kind}"
        for b in ("sequential", "openmp")
        for kind in (
            "compute",
            "update 10",
            "apply+recompute 10",
            "update 100",
            "apply+recompute 100",
        )
    ]
    settings = {"backends": ["sequential", "openmp"], "scale": 8, "repeats": 1}
    figures = _figures(_peer_document("mosp", ops, settings=settings))
    (ax,) = figures["mosp-compute.png"].axes
    assert len(ax.patches) == 4  # 2 backends x (this dyng, reference)
    assert _legend(figures["mosp-compute.png"]) == ["dyng 0.3.0", "reference dyng 0.2.0"]
    heights = sorted(p.get_height() for p in ax.patches)
    assert heights == pytest.approx([1.0, 2.0, 6.0, 12.0])  # ms from the made-up seconds
    panels = figures["mosp-update.png"].axes
    assert [a.get_title() for a in panels] == ["sequential", "openmp"]
    for panel in panels:
        assert len(_labelled_lines(panel)) == 4
        assert all(list(line.get_xdata()) == [10, 100] for line in _labelled_lines(panel))
    assert "apply + recompute, reference dyng 0.2.0" in _legend(figures["mosp-update.png"])

    alone = _figures(_peer_document("mosp", ops, reference=False, settings=settings))
    assert len(alone["mosp-compute.png"].axes[0].patches) == 2
    assert _legend(alone["mosp-update.png"]) == [
        "update, dyng 0.3.0",
        "apply + recompute, dyng 0.3.0",
    ]


def test_cycle_count_charts_show_peers_with_their_bound(mpl):
    cases = ["rmat7-L4", "scc8-all"]
    ops = [
        "rmat7-L4 sequential compute",
        "rmat7-L4 sequential update 10",
        "rmat7-L4 sequential apply+recompute 10",
        "scc8-all sequential compute",
    ]
    peers = [
        {"operation": "rmat7-L4 igraph simple_cycles(max=4)", "seconds": 0.5, "same_counts": True},
        {
            "operation": "scc8-all networkx simple_cycles(length_bound=None)",
            "seconds": 0.7,
            "same_counts": True,
        },
    ]
    document = _peer_document(
        "cycle_count",
        ops,
        cases=cases,
        peers=peers,
        settings={"backends": ["sequential"], "repeats": 1},
    )
    figures = _figures(document)
    compute = figures["cycle_count-compute.png"]
    (ax,) = compute.axes
    # Two cases x (this dyng, reference), then one bar per peer where it ran.
    assert len(ax.patches) == 6
    assert _legend(compute) == [
        "sequential, dyng 0.3.0",
        "sequential, reference dyng 0.2.0",
        "igraph",
        "networkx",
    ]
    notes = [t.get_text() for t in ax.texts]
    assert "500 (max=4)" in notes and "700 (length_bound=None)" in notes
    assert ax.get_yscale() == "log", "0.001 s to 0.7 s spans more than 20x"
    # Only the case with updates gets a panel.
    assert [a.get_title() for a in figures["cycle_count-update.png"].axes] == [
        "rmat7-L4, sequential"
    ]


def test_apply_io_and_load_charts(mpl):
    from bench import apply as apply_bench

    document = _peer_document(
        "apply", list(apply_bench.OPERATIONS), settings={"scale": 0.01, "repeats": 1, "rounds": 1}
    )
    (ax,) = _figures(document)["apply.png"].axes
    assert len(ax.patches) == 2 * len(apply_bench.OPERATIONS)
    assert [t.get_text() for t in ax.get_yticklabels()] == list(apply_bench.OPERATIONS)

    rows = [
        {"reader": name, "seconds": s, "mb_per_s": 7.0 / s, "peak_mib": 80.0 + k}
        for k, (name, s) in enumerate([("dyng", 0.07), ("pyarrow", 0.04), ("dyng 0.2.0", 0.18)])
    ]
    io_doc = {
        "benchmark": "io",
        "started": "2026",
        "edges": 500,
        "file_bytes": 7 << 20,
        "threads": 2,
        "rows": rows,
    }
    speed, memory = _figures(io_doc)["io.png"].axes
    assert [t.get_text() for t in speed.get_xticklabels()] == ["dyng", "pyarrow", "dyng 0.2.0"]
    assert [p.get_height() for p in speed.patches] == pytest.approx([100.0, 175.0, 7.0 / 0.18])
    assert [p.get_height() for p in memory.patches] == [80.0, 81.0, 82.0]

    load_rows = [
        {"graph": "grid8", "condition": c, "default_ms": 1.0, "sequential_ms": 1.5}
        for c in ("quiet", "spin")
    ]
    load_doc = {
        "benchmark": "load",
        "started": "2026",
        "rows": load_rows,
        "machine": {"dyng_version": "0.3.0"},
    }
    (ax,) = _figures(load_doc)["load.png"].axes
    assert len(ax.patches) == 4 and ax.get_yscale() == "linear", "1.0 vs 1.5: a linear axis"


def test_unknown_benchmark_or_missing_field_is_refused(mpl, tmp_path, capsys):
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"benchmark": "pagerank", "rows": []}))
    assert cli.main(["plot", str(path)]) == 2
    assert "no charts for benchmark 'pagerank'; bench plot knows apply, cycle_count" in (
        capsys.readouterr().err
    )
    path.write_text(json.dumps({"benchmark": "mosp", "rows": []}))
    assert cli.main(["plot", str(path)]) == 2
    assert "the mosp charts need a field 'settings' it lacks" in capsys.readouterr().err


def _block_matplotlib(monkeypatch):
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "matplotlib", None)


def test_missing_matplotlib_stops_before_the_run(monkeypatch, tmp_path, capsys):
    _block_matplotlib(monkeypatch)
    out = tmp_path / "r.json"
    argv = [*SSSP_ARGS, "--json", str(out), "--plot", str(tmp_path / "charts")]
    assert cli.main(argv, dyng_module=fake_dyng.make()) == 2
    err = capsys.readouterr().err
    assert "bench sssp: error: matplotlib is not installed" in err
    assert "pip install matplotlib" in err
    assert not out.exists(), "nothing was run"


def test_missing_matplotlib_in_bench_plot(monkeypatch, tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"benchmark": "load", "rows": []}))
    _block_matplotlib(monkeypatch)
    assert cli.main(["plot", str(path)]) == 2
    assert "pip install matplotlib" in capsys.readouterr().err


def test_a_failing_chart_keeps_the_json_and_says_how_to_redraw(mpl, monkeypatch, tmp_path, capsys):
    def broken(document, folder):
        raise KeyError("rows")

    monkeypatch.setattr(plot, "write", broken)
    out = tmp_path / "r.json"
    argv = [*SSSP_ARGS, "--json", str(out), "--plot", str(tmp_path / "charts")]
    assert cli.main(argv, dyng_module=fake_dyng.make()) == 1
    assert json.loads(out.read_text())["benchmark"] == "sssp"
    assert f"python -m bench plot {out} --out {tmp_path / 'charts'}" in capsys.readouterr().err


def test_cycle_count_quick_run_with_plot(mpl, tmp_path):
    # The real dyng, and the same interpreter as the "reference": the JSON the command writes.
    pytest.importorskip("dyng._core")
    charts = tmp_path / "charts"
    argv = [
        "cycle_count",
        "--quick",
        "--repeats",
        "1",
        "--reference-python",
        sys.executable,
        "--json",
        str(tmp_path / "cc.json"),
        "--plot",
        str(charts),
    ]
    assert cli.main(argv) == 0
    assert sorted(p.name for p in charts.iterdir()) == [
        "cycle_count-compute.png",
        "cycle_count-update.png",
    ]
    assert all(_is_png(p) for p in charts.iterdir())

"""End-to-end runs of `python -m bench sssp` on tiny graphs against the fake dyng."""

import json
import sys

import pytest

from bench import apply as apply_bench
from bench import cli, report
from bench.tests import fake_dyng

ARGS = ["sssp", "--graphs", "grid8,rmat6", "--repeats", "2", "--changes", "10,20"]


def test_full_run_writes_table_bars_and_json(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert cli.main([*ARGS, "--json", str(out)], dyng_module=fake_dyng.make()) == 0
    doc = json.loads(out.read_text())
    ops = [(r["graph"], r["operation"]) for r in doc["rows"]]
    assert ops[:5] == [
        ("grid8", "compute"),
        ("grid8", "update uniform 10"),
        ("grid8", "update uniform 20"),
        ("grid8", "update local 10"),
        ("grid8", "update local 20"),
    ]
    assert len(ops) == 10
    update = doc["rows"][1]
    assert update["path_seq"] == "recompute" and len(update["stats"]["omp"]) == 3
    assert len(update["samples"]["seq_update"]["ms"]) == 2
    assert update["ratio_seq"] == pytest.approx(update["dyng_seq_ms"] / update["ref_seq_ms"])
    assert update["apply_seq_ms"] > 0 and update["apply_omp_ms"] > 0
    assert [b["status"] for b in doc["bars"]][:4] == ["SKIP"] * 4
    assert doc["bars"][4]["status"] in ("PASS", "FAIL")
    assert len(doc["machine"]["loadavg_start"]) == 3 and doc["machine"]["cpu_count"] >= 1
    assert doc["machine"]["dyng_build_config"] == {"build_type": "fake"}
    captured = capsys.readouterr()
    assert "update local 20" in captured.out and "Bars" in captured.out
    assert "grid8: generating" in captured.err


@pytest.mark.parametrize(
    "broken, message",
    [
        ("update", "sssp.update distances vs recompute"),
        ("parents", "parents vs canonical parents"),
        ("omp", "(OpenMP) parents vs sequential"),
        ("steady", "steady sssp.update 1 vs recompute distances"),
    ],
)
def test_wrong_answers_stop_the_benchmark(tmp_path, capsys, broken, message):
    rc = cli.main([*ARGS, "--json", str(tmp_path / "r.json")], dyng_module=fake_dyng.make(broken))
    assert rc == 1
    assert message in capsys.readouterr().err
    assert not (tmp_path / "r.json").exists()


def test_first_and_steady_times_per_backend(tmp_path, capsys):
    out = tmp_path / "r.json"
    argv = ["sssp", "--graphs", "uniform5,road6", "--repeats", "3", "--changes", "10"]
    assert cli.main([*argv, "--json", str(out)], dyng_module=fake_dyng.make()) == 0
    rows = json.loads(out.read_text())["rows"]
    assert [(r["graph"], r["operation"]) for r in rows][:2] == [
        ("uniform5", "compute"),
        ("uniform5", "update uniform 10"),
    ]
    compute, update = rows[0], rows[1]
    for b in ("seq", "omp"):
        # compute: the first call on the fresh graph (the warm-up) against the median.
        assert compute[f"first_{b}_ms"] == compute["samples"][f"dyng_{b}"]["warmup_ms"][0]
        assert compute[f"steady_{b}_ms"] == compute[f"dyng_{b}_ms"]
        # update: a fresh result's first update against `repeats` later ones of one result.
        assert update[f"first_{b}_ms"] == update[f"dyng_{b}_ms"]
        steady = update["samples"][f"{b}_steady"]["ms"]
        assert len(steady) == 3 and update[f"steady_{b}_ms"] == sorted(steady)[1]
    assert "first_seq_ms" in capsys.readouterr().out


def test_a_graph_too_small_for_the_steady_batches_reports_none(tmp_path, capsys):
    out = tmp_path / "r.json"
    argv = ["sssp", "--graphs", "grid2", "--repeats", "3", "--changes", "4", "--modes", "uniform"]
    assert cli.main([*argv, "--json", str(out)], dyng_module=fake_dyng.make()) == 0
    update = json.loads(out.read_text())["rows"][1]
    assert update["first_seq_ms"] > 0 and update["steady_seq_ms"] is None
    assert "update uniform 4: no steady updates" in capsys.readouterr().err


def test_unknown_graph_is_a_usage_error(capsys):
    assert cli.main(["sssp", "--graphs", "torus9"], dyng_module=fake_dyng.make()) == 2
    assert "unknown graph 'torus9'" in capsys.readouterr().err


def test_bars_compare_ratios_with_limits():
    rows = [
        {"graph": "rmat18", "operation": "compute", "ratio_seq": 0.8, "ratio_omp": 0.5},
        {"graph": "grid512", "operation": "compute", "ratio_seq": 1.2, "ratio_omp": 0.9},
        {"graph": "rmat18", "operation": "update uniform 1000", "ratio_seq": 0.3, "ratio_omp": 0.6},
        {
            "graph": "grid512",
            "operation": "update local 10000",
            "ratio_seq": 1.05,
            "ratio_omp": 1.3,
        },
    ]
    status = [(b["status"], b["ratio"]) for b in report.bars(rows)]
    assert status[:5] == [("PASS", 0.8), ("FAIL", 1.2), ("PASS", 0.3), ("FAIL", 0.6), ("FAIL", 1.3)]
    assert all(s == ("SKIP", None) for s in status[5:]), "no CUDA rows: the GPU bars skip"
    assert report.bars(rows)[4]["where"] == "grid512 update local 10000 omp"


def test_cuda_bars_use_milliseconds_and_strict_recompute():
    rows = [
        {"graph": "rmat22", "operation": "compute", "dyng_cuda_ms": 9.0},
        {"graph": "grid2048", "operation": "compute", "dyng_cuda_ms": 31.0},
        {
            "graph": "rmat22",
            "operation": "update uniform 1000",
            "dyng_cuda_ms": 2.0,
            "ratio_cuda": 1.0,
        },
    ]
    bars = {b["bar"]: b for b in report.bars(rows)}
    assert bars["compute cuda <= 20 ms on rmat22"]["status"] == "PASS"
    assert bars["compute cuda <= 30 ms on grid2048"]["status"] == "FAIL"
    assert bars["update 1,000 uniform cuda <= 5 ms on rmat22"]["status"] == "PASS"
    # "below recompute" is strict: equal time is not below.
    assert bars["update 1,000 uniform cuda below recompute on rmat22"]["status"] == "FAIL"


def test_load_run_reports_ratios_and_bars(tmp_path, capsys):
    out = tmp_path / "load.json"
    argv = [
        "load",
        "--graphs",
        "grid8",
        "--conditions",
        "quiet,spin",
        "--repeats",
        "2",
        "--json",
        str(out),
    ]
    assert cli.main(argv, dyng_module=fake_dyng.make()) == 0
    doc = json.loads(out.read_text())
    assert [(r["graph"], r["condition"]) for r in doc["rows"]] == [
        ("grid8", "quiet"),
        ("grid8", "spin"),
    ]
    row = doc["rows"][1]
    assert row["ratio"] == pytest.approx(row["default_ms"] / row["sequential_ms"])
    assert row["methods"]["default"] == ["delta_stepping"] * 3
    bars = {b["bar"]: b["status"] for b in doc["bars"]}
    assert bars["Resources() compute <= 1.1x sequential on grid8, spin neighbour"] in (
        "PASS",
        "FAIL",
    )
    assert bars["Resources() compute <= 1.1x sequential on grid8, memory neighbour"] == "SKIP"
    assert "grid8      spin" in capsys.readouterr().out


def test_load_refuses_an_unknown_condition(capsys):
    assert cli.main(["load", "--conditions", "busy"], dyng_module=fake_dyng.make()) == 2
    assert "conditions must be among" in capsys.readouterr().err


def test_apply_run_at_a_small_scale(tmp_path, capsys):
    # The real dyng in this interpreter, and the same interpreter as the "reference".
    pytest.importorskip("dyng._core")
    out = tmp_path / "apply.json"
    argv = [
        "apply",
        "--scale",
        "0.002",
        "--rounds",
        "1",
        "--repeats",
        "1",
        "--reference-python",
        sys.executable,
        "--json",
        str(out),
    ]
    assert cli.main(argv) == 0
    doc = json.loads(out.read_text())
    assert [r["operation"] for r in doc["rows"]] == list(apply_bench.OPERATIONS)
    assert all(r["seconds"] > 0 and r["ratio"] > 0 for r in doc["rows"])
    assert {b["status"] for b in doc["bars"]} <= {"PASS", "FAIL"}
    assert "reject: negative id, last" in capsys.readouterr().out
    assert len(doc["bars"]) == len(apply_bench.OPERATIONS)


def test_mosp_run_at_a_small_scale(tmp_path, capsys):
    # The real dyng in this interpreter, and the same interpreter as the "reference".
    pytest.importorskip("dyng._core")
    out = tmp_path / "mosp.json"
    argv = [
        "mosp",
        "--scale",
        "8",
        "--changes",
        "10,40",
        "--repeats",
        "1",
        "--reference-python",
        sys.executable,
        "--json",
        str(out),
    ]
    assert cli.main(argv) == 0
    doc = json.loads(out.read_text())
    operations = [r["operation"] for r in doc["rows"]]
    assert operations[:3] == [
        "sequential compute",
        "sequential update 10",
        "sequential apply+recompute 10",
    ]
    assert doc["same_answers_as_reference"] is True and doc["update_mismatches"] == []
    statuses = {b["bar"]: b["status"] for b in doc["bars"]}
    assert statuses["update == fresh compute, every run"] == "PASS"
    assert "mosp on rmat8" in capsys.readouterr().out


def test_mosp_refuses_bad_arguments(capsys):
    assert cli.main(["mosp", "--backends", "gpu"]) == 2
    assert "--backends among sequential,openmp,cuda" in capsys.readouterr().err


def test_cycle_count_quick_run(tmp_path, capsys):
    # The real dyng in this interpreter, and the same interpreter as the "reference"; peers only
    # where they are installed.
    pytest.importorskip("dyng._core")
    out = tmp_path / "cc.json"
    argv = [
        "cycle_count",
        "--quick",
        "--repeats",
        "1",
        "--reference-python",
        sys.executable,
        "--json",
        str(out),
    ]
    assert cli.main(argv) == 0
    doc = json.loads(out.read_text())
    operations = [r["operation"] for r in doc["rows"]]
    assert operations[:3] == [
        "rmat7-L4 sequential compute",
        "rmat7-L4 sequential update 10",
        "rmat7-L4 sequential apply+recompute 10",
    ]
    assert doc["same_answers_as_reference"] is True and doc["update_mismatches"] == []
    statuses = {b["bar"]: b["status"] for b in doc["bars"]}
    assert statuses["update == fresh compute, every run"] == "PASS"
    assert all(p["same_counts"] for p in doc["peers"])
    assert "cycle_count, best of 1 x 1 rounds" in capsys.readouterr().out


def test_cycle_count_refuses_bad_arguments(capsys):
    assert cli.main(["cycle_count", "--backends", "gpu"]) == 2
    assert "--backends among sequential,openmp" in capsys.readouterr().err

"""dyng.set_log_level: the Python layer and the C++ core write ``dyng: <level>: ...`` lines to
stderr at the levels asked for, and nothing at the default level in normal use."""

import subprocess
import sys

import pytest

import dyng


@pytest.fixture
def level():
    saved = dyng.get_log_level()
    yield dyng.set_log_level
    dyng.set_log_level(saved)


def quick_start_update():
    # The README's quick start: its update recomputes (the batch touches most of the graph).
    graph = dyng.Graph.from_edges([0, 0, 2, 1], [1, 2, 1, 3], [4, 1, 2, 5])
    result = dyng.sssp.compute(graph, source=0)
    stats = dyng.sssp.update(
        graph, dyng.EdgeBatch(insert=([0], [3], [6]), delete=([2], [1])), result
    )
    assert stats.path == "recompute"
    return graph, result


def test_default_level_is_quiet(capfd, level):
    level("warn")
    quick_start_update()
    assert capfd.readouterr().err == ""
    fresh = subprocess.run(
        [sys.executable, "-c", "import dyng; print(dyng.get_log_level())"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert fresh.stdout.strip() == "warn"


def test_info_tells_of_a_recompute_fallback(capfd, level):
    level("info")
    quick_start_update()
    err = capfd.readouterr().err
    assert "dyng: info: sssp.update(): the repair passed its budget" in err
    assert "recomputed instead" in err
    # Only what costs time or memory behind the call: no per-call route at info.
    assert "dyng: debug:" not in err


def test_debug_tells_the_route_of_each_call(capfd, level):
    level("debug")
    # A long path grown by one edge at its end: a repair well within its budget.
    n = 5000
    graph = dyng.Graph.from_edges(list(range(n)), list(range(1, n + 1)), [1] * n)
    result = dyng.sssp.compute(graph, 0, resources=dyng.Resources.sequential())
    dyng.sssp.update(graph, dyng.EdgeBatch(insert=([n], [n + 1], [1])), result)
    err = capfd.readouterr().err
    assert "dyng: debug: sssp.compute(): on sequential" in err
    assert "dyng: debug: Graph.apply(): 1 effective operations on one thread" in err
    assert "dyng: debug: sssp.update(): repaired in place" in err


def test_info_tells_of_a_relayout(capfd, level):
    level("info")
    props = dyng.GraphProperties(headroom=0.0)
    graph = dyng.Graph.from_edges([0, 1], [1, 2], [1, 1], properties=props)
    graph.apply(dyng.EdgeBatch(insert=([0] * 40, list(range(3, 43)), [1] * 40)))
    err = capfd.readouterr().err
    assert "dyng: info: Graph.apply(): the batch (40 entries) outgrew" in err
    assert "re-laid out" in err


def test_off_silences_everything(capfd, level):
    level("off")
    quick_start_update()
    assert capfd.readouterr().err == ""


def test_the_native_module_choice_is_logged_once_at_selection():
    code = (
        "import dyng; dyng.set_log_level('info'); "
        "dyng.Graph.from_edges([0], [1], [1]); dyng.Graph.from_edges([0], [1], [1])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    lines = [line for line in done.stderr.splitlines() if "native module" in line]
    assert len(lines) == 1 and lines[0].startswith("dyng: info: native module dyng")

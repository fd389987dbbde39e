"""The command line's framework: help, version, exit statuses, warnings, the progress line, the
flags derived from Options, and the pieces the 0.2.0 corpus (test_cli_corpus.py) cannot pin."""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import io
import os
import struct
import subprocess
import sys
import threading
import warnings

import numpy as np
import pytest

import dyng
from dyng import cli
from dyng.cli import _errors, _flags, _progress, _textbatch, prep

COMMANDS = [
    ["sssp"],
    ["sssp", "compute"],
    ["sssp", "update"],
    ["mosp"],
    ["mosp", "compute"],
    ["mosp", "update"],
    ["cycle_count"],
    ["cycle_count", "compute"],
    ["cycle_count", "update"],
    ["components"],
    ["components", "compute"],
    ["components", "update"],
    ["pagerank"],
    ["pagerank", "compute"],
    ["pagerank", "update"],
    ["convert"],
    ["generate"],
    ["generate", "mosp_changes"],
    ["generate", "cycle_enum_batch"],
    ["prep"],
    *[["prep", step] for step in ("mtx2csr", "widen", "cache", "changes", "init", "expected")],
    ["config"],
    ["demo"],
]


def run(argv):
    """``(status, stdout, stderr)`` of ``dyng.cli.main(argv)``."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(list(argv))
    return status, out.getvalue(), err.getvalue()


def write(path, text):
    with open(path, "w") as file:
        file.write(text)
    return str(path)


@pytest.fixture
def graph_file(tmp_path):
    return write(tmp_path / "g.txt", "0 1 2 3\n0 2 4 1\n1 2 1 1\n2 3 5 2\n")


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_help_ends_with_an_example_invocation(command):
    status, out, _ = run([*command, "--help"])
    assert status == 0
    last = out.rstrip("\n").splitlines()[-2:]
    assert last[0] == "example:" and last[1].startswith("  dyng " + command[0])


def test_help_and_parsing_load_no_native_module():
    code = (
        "import sys\nfrom dyng.cli import main\n"
        "assert main(['sssp', 'update', '--help']) == 0\n"
        "assert main(['cycle_count', 'update', '--bogus']) == 2\n"
        "import dyng\n"
        "assert dyng._backend.native_module_name() is None\n"
        "assert 'dyng._core' not in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_version_and_module_entry_point():
    status, out, _ = run(["--version"])
    assert (status, out) == (0, f"dyng {dyng.__version__}\n")
    done = subprocess.run(
        [sys.executable, "-m", "dyng", "--version"], capture_output=True, text=True, timeout=120
    )
    assert (done.returncode, done.stdout) == (0, f"dyng {dyng.__version__}\n")


def test_usage_errors_exit_2_with_argparse_usage():
    status, out, err = run(["sssp", "compute"])
    assert (status, out) == (2, "")
    assert err.startswith("usage: dyng sssp compute")
    assert err.splitlines()[-1] == (
        "dyng sssp compute: error: the following arguments are required: --graph/--input, --out"
    )


def test_log_level_is_set_before_the_command(monkeypatch):
    levels = []
    monkeypatch.setattr(dyng, "set_log_level", levels.append)
    monkeypatch.setattr(dyng, "show_config", lambda: None)
    assert run(["--log-level", "debug", "config"])[0] == 0
    assert levels == ["debug"]


def test_an_interrupt_exits_130(monkeypatch, graph_file, tmp_path):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(dyng.sssp, "compute", interrupted)
    status, _, err = run(
        [
            "sssp",
            "compute",
            "--graph",
            graph_file,
            "--num-weights",
            "2",
            "--out",
            str(tmp_path / "o"),
        ]
    )
    assert (status, err) == (
        130,
        "dyng: interrupted; no output was written; files from before the run are as they were\n",
    )


def test_a_command_runs_where_no_native_module_loads(monkeypatch):
    # The output group needs the native module; a broken install must still reach the command
    # (dyng config describes it) instead of failing before it.
    from dyng.cli import _outputs

    def broken():
        raise ImportError("no native module")

    shown = []
    monkeypatch.setattr(_outputs, "_native", broken)
    monkeypatch.setattr(dyng, "show_config", lambda: shown.append(True))
    assert run(["config"])[0] == 0 and shown == [True]


def test_warnings_print_as_dyng_warning_lines(monkeypatch):
    def warn():
        warnings.warn("no CUDA plugin is usable", dyng.BackendWarning, stacklevel=2)

    monkeypatch.setattr(dyng, "show_config", warn)
    status, _, err = run(["config"])
    assert (status, err) == (0, "dyng: warning: no CUDA plugin is usable\n")


def test_a_failure_names_the_file_and_exits_1(tmp_path):
    missing = str(tmp_path / "missing.txt")
    status, out, err = run(["sssp", "compute", "--graph", missing, "--out", str(tmp_path)])
    assert (status, out) == (1, "")
    assert err.startswith("dyng: error: ") and missing in err and err.count("\n") == 1


def test_an_os_error_is_a_sentence():
    exc = FileNotFoundError(2, "No such file or directory", "x.txt")
    assert _errors._describe(exc) == (
        "x.txt: No such file or directory; check the path and its permissions"
    )


class _Terminal(io.StringIO):
    def __init__(self):
        super().__init__()
        self.wrote = threading.Event()

    def isatty(self):
        return True

    def write(self, text):
        written = super().write(text)
        self.wrote.set()
        return written


def test_the_progress_line_shows_for_a_slow_step_on_a_terminal(monkeypatch):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setattr(_progress, "_DELAY_S", 0.0)
    _progress.configure(quiet=False)
    with _progress.step("reading g.txt"):
        assert terminal.wrote.wait(10)  # the step outlasts the delay
    text = terminal.getvalue()
    assert text.startswith("dyng: reading g.txt ... done in ") and text.endswith(" s\n")


@pytest.mark.parametrize("quiet, tty", [(True, True), (False, False)])
def test_the_progress_line_is_off_when_quiet_or_piped(monkeypatch, quiet, tty):
    stream = _Terminal() if tty else io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    monkeypatch.setattr(_progress, "_DELAY_S", 0.0)
    _progress.configure(quiet=quiet)
    try:
        with _progress.step("computing"):
            pass
        assert stream.getvalue() == ""
        assert not _progress._enabled
    finally:
        _progress.configure(quiet=True)


def test_a_fast_step_prints_nothing_on_a_terminal(monkeypatch):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    _progress.configure(quiet=False)
    try:
        with _progress.step("computing"):
            pass
        assert terminal.getvalue() == ""
    finally:
        _progress.configure(quiet=True)


@pytest.mark.parametrize(
    "module, verb, skip",
    [
        ("sssp", "update", ()),
        ("mosp", "update", ()),
        ("cycle_count", "compute", ()),
        ("sssp", "compute", ("validate_inputs",)),
        ("mosp", "compute", ("validate_inputs",)),
        ("components", "compute", ()),
        ("components", "update", ()),
        ("pagerank", "compute", ()),
        ("pagerank", "update", ()),
    ],
)
def test_every_options_field_is_a_kebab_case_flag(module, verb, skip):
    options = importlib.import_module(f"dyng.{module}").Options
    _, out, _ = run([module, verb, "--help"])
    for field in dataclasses.fields(options):
        flag = "--" + field.name.replace("_", "-")
        if field.name in skip:
            assert flag not in out
        elif isinstance(field.default, bool):
            assert f"{flag}, --no-{flag[2:]}" in out
        else:
            assert flag in out


def test_given_fields_are_the_ones_on_the_command_line():
    parser = cli.parser()
    args = parser.parse_args(
        [
            "mosp",
            "update",
            "--graph",
            "g",
            "--out",
            "o",
            "--preferences",
            "4,1,4",
            "--no-compute-path-costs",
            "--delta",
            "3",
        ]
    )
    assert _flags.given(args, args.fields) == {
        "preferences": [4, 1, 4],
        "compute_path_costs": False,
        "delta": 3,
    }
    args = parser.parse_args(["sssp", "compute", "--graph", "g", "--out", "o"])
    assert _flags.given(args, args.fields) == {}


def test_format_auto(tmp_path):
    prefix = str(tmp_path / "g")
    assert _flags.format_of(prefix, "auto") == "edges"
    write(prefix + "RowPtr.txt", "0\n")
    assert _flags.format_of(prefix, "auto") == "csr"
    assert _flags.format_of(str(tmp_path / "x.mtx"), "auto") == "mtx"
    assert _flags.format_of(str(tmp_path / "x.mtx"), "edges") == "edges"
    # Any case, as 0.2 matched it; the cycle-count commands read *.mtx as an edge list.
    assert _flags.format_of(str(tmp_path / "x.MTX"), "auto") == "mtx"
    assert _flags.format_of(str(tmp_path / "x.mtx"), "auto", mtx_by_extension=False) == "edges"
    assert _flags.format_of(prefix, "auto", mtx_by_extension=False) == "csr"


def test_the_text_batch_reads_weights_on_a_weighted_graph(tmp_path):
    graph = dyng.Graph.from_edges([0, 1], [1, 2], [[1, 2], [3, 4]])
    path = write(tmp_path / "b.txt", "# c\n- 0 1\n+ 2 0 5 6\n+ 1 0\n")
    batch = _textbatch.read(path, graph)
    assert batch.delete_src.tolist() == [0] and batch.insert_dst.tolist() == [0, 0]
    assert batch.insert_weights.tolist() == [[5, 6], [1, 1]]
    assert _textbatch.text(batch) == "- 0 1\n+ 2 0\n+ 1 0\n"


def test_the_cache_identity_names_each_file_with_its_size_and_file_clock_mtime(tmp_path):
    prefix = str(tmp_path / "g")
    write(prefix + "RowPtr.txt", "0\n1\n2\n")
    write(prefix + "ColInd.txt", "1\n0\n")
    write(prefix + "Values.txt", "3 4\n5 6\n")
    binary = str(tmp_path / "g.bin")
    status, out, _ = run(["prep", "cache", prefix, binary])
    assert status == 0 and out.startswith("cache done in ") and out.endswith(" ms (rc=0)\n")
    with open(binary, "rb") as file:
        data = file.read()
    assert data[:8] == b"MOSPCSR2"
    length = struct.unpack("<I", data[8:12])[0]
    lines = data[12 : 12 + length].decode().split("\n")
    for index, suffix in enumerate(("RowPtr.txt", "ColInd.txt", "Values.txt")):
        path = os.path.realpath(prefix + suffix)
        info = os.stat(path)
        assert lines[3 * index : 3 * index + 3] == [
            path,
            str(info.st_size),
            str(info.st_mtime_ns - 6437664000 * 10**9),
        ]
    body = data[12 + length :]
    assert struct.unpack("<iiq", body[:16]) == (2, 2, 2)
    assert np.frombuffer(body[16:], dtype="<i4").tolist() == [0, 1, 2, 1, 0, 3, 4, 5, 6]


def test_uniform_draws_follow_libstdcxx():
    # The mtx2csr weights of tests/data/cli's p.mtx (seed 7, range 1..10), edge by edge.
    assert prep.uniform_draws(7, 12, 1, 10).tolist() == [1, 3, 8, 4, 5, 10, 8, 5, 10, 4, 6, 3]


def test_cycle_count_update_compares_with_a_recompute(graph_file):
    status, out, err = run(
        [
            "cycle_count",
            "update",
            "--graph",
            graph_file,
            "--num-weights",
            "2",
            "--max-length",
            "4",
            "--insert",
            graph_file,
            "--delete",
            graph_file,
            "--compare-recompute",
        ]
    )
    assert status == 0 and out.startswith("# cycle_size, num_of_cycles\n")
    names = [line.split("=")[0] for line in err.splitlines()]
    assert names == ["update_seconds", "recompute_seconds", "match"]
    assert err.splitlines()[-1] == "match=yes"


def test_mosp_changes_without_a_count_draws_none(tmp_path, graph_file):
    # The library needs num_changes; the command line, as 0.2's, writes an empty batch.
    status, out, err = run(
        [
            "generate",
            "mosp_changes",
            "--graph",
            graph_file,
            "--num-weights",
            "2",
            "--out",
            str(tmp_path / "b"),
        ]
    )
    assert (status, err) == (0, "")
    assert out == "changes: inserts=0 reweights=0 deletes=0\n"
    assert (tmp_path / "b" / "insert.txt").read_text() == ""
    assert (tmp_path / "b" / "delete.txt").read_text() == ""


def test_a_seed_out_of_range_is_an_error_line_not_a_traceback(tmp_path, graph_file):
    status, out, err = run(
        [
            "generate",
            "mosp_changes",
            "--graph",
            graph_file,
            "--num-weights",
            "2",
            "--num-changes",
            "2",
            "--seed",
            "-1",
            "--out",
            str(tmp_path),
        ]
    )
    assert status == 1 and out == ""
    assert err.startswith("dyng: error: ") and "seed" in err and "Traceback" not in err

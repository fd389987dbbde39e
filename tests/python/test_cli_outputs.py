"""The command line's outputs are all or nothing (python/dyng/cli/_outputs.py): a run that fails
or is interrupted leaves exactly the files that were there before it (user files in the output
folder included, no temporary file, no new folder), and a run interrupted once its outputs are
being put in place leaves exactly what an uninterrupted run leaves. Either way it says which.

Real SIGINTs in child processes: a driver child (_DRIVER) runs ``dyng.cli.main`` once per
request and sends itself SIGINT just before or just after its n-th native write call, or while
the outputs are put in place; every point of every command that writes files is tried. A
randomized loop then sends SIGINT from outside to ``python -m dyng`` runs at random moments.
DYNG_TEST_SIGINT_RUNS sets that loop's length (default 6).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

KEPT = "dyng: interrupted; no output was written; files from before the run are as they were\n"
WRITTEN = "dyng: interrupted; every output had been written in full\n"

# One request per line on stdin: {"cwd", "argv", "point": none|before|after|commit, "nth"}; one
# answer per line on stdout: {"rc", "stderr", "calls"} (calls: the native write calls made).
_DRIVER = textwrap.dedent("""
    import contextlib, io, json, os, signal, sys
    sys.path[:] = [p for p in sys.path if p]  # the working folder changes between requests
    # Python's own Ctrl-C, as in a terminal's foreground: a test run started as a background
    # job of a non-interactive shell hands its children SIGINT ignored.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    from dyng import _backend
    from dyng.cli import main

    real = _backend.native()
    request = {}
    calls = 0

    def interrupt():
        os.kill(os.getpid(), signal.SIGINT)

    def counted(name, function):
        def call(*args, **kwargs):
            global calls
            calls += 1
            here = request["point"] in ("before", "after") and calls == request["nth"]
            if here and request["point"] == "before":
                interrupt()
            result = function(*args, **kwargs)
            if here and request["point"] == "after":
                interrupt()
            return result
        return call

    def committing(function):
        def call(*args, **kwargs):
            if request["point"] == "commit":
                interrupt()  # held while the outputs are put in place
            return function(*args, **kwargs)
        return call

    class Native:
        def __getattr__(self, name):
            value = getattr(real, name)
            if name == "io_write_group_commit":
                return committing(value)
            if name.startswith("io_write_") and not name.startswith("io_write_group_"):
                return counted(name, value)
            return value

    native = Native()
    _backend.native = lambda *args, **kwargs: native
    for line in sys.stdin:
        request = json.loads(line)
        os.chdir(request["cwd"])
        calls = 0
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            rc = main(request["argv"])
        print(json.dumps({"rc": rc, "stderr": err.getvalue(), "calls": calls}), flush=True)
""")


class Driver:
    """A child process that runs one ``dyng`` command per request, in the folder `cwd`."""

    def __init__(self, home):
        self.child = subprocess.Popen(
            [sys.executable, "-c", _DRIVER],
            cwd=home,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.cwd = home

    def run(self, argv, point="none", nth=0):
        request = {"cwd": self.cwd, "argv": argv, "point": point, "nth": nth}
        self.child.stdin.write(json.dumps(request) + "\n")
        self.child.stdin.flush()
        answer = self.child.stdout.readline()
        assert answer, "the driver died"
        return json.loads(answer)

    def close(self):
        self.child.stdin.close()
        self.child.wait(timeout=60)
        self.child.stdout.close()


def snapshot(root):
    """Every entry under `root`: files by contents, folders and links by kind."""
    found = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, root)
            if os.path.islink(path):
                found[relative] = ("link", os.readlink(path))
            elif os.path.isdir(path):
                found[relative] = ("folder",)
            else:
                with open(path, "rb") as file:
                    found[relative] = ("file", file.read())
    return found


def _write(root, relative, text):
    path = os.path.join(root, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as file:
        file.write(text)


G3 = ["--graph", "g.txt", "--num-weights", "3"]

# name: (steps that make the previous run's outputs, the run that is interrupted). Every
# command that writes files, each over outputs of an earlier run with other arguments.
SCENARIOS = {
    "mosp_compute": (
        [["mosp", "compute", *G3, "--preferences", "1,1,1", "--source", "1", "--out", "o"]],
        ["mosp", "compute", *G3, "--preferences", "4,1,4", "--out", "o"],
    ),
    "sssp_update": (
        [
            [
                "sssp",
                "update",
                *G3,
                "--changes",
                "ch",
                "--source",
                "2",
                "--out",
                "o",
                "--write-graph",
                "o/g",
            ]
        ],
        ["sssp", "update", *G3, "--changes", "ch", "--out", "o", "--write-graph", "o/g"],
    ),
    "mosp_update_init": (
        [["mosp", "compute", *G3, "--out", "o"]],
        [
            "mosp",
            "update",
            *G3,
            "--changes",
            "ch",
            "--init",
            "o",
            "--out",
            "o",
            "--write-graph",
            "w/g",
        ],
    ),
    "cycle_count_update": (
        [
            [
                "cycle_count",
                "update",
                *G3,
                "--max-length",
                "4",
                "--num-insertions",
                "2",
                "--seed",
                "1",
                "--output",
                "c/cu.csv",
                "--write-batch",
                "c/wb.txt",
            ]
        ],
        [
            "cycle_count",
            "update",
            *G3,
            "--max-length",
            "4",
            "--num-insertions",
            "3",
            "--seed",
            "2",
            "--output",
            "c/cu.csv",
            "--write-batch",
            "c/wb.txt",
        ],
    ),
    "cycle_count_compute": ([], ["cycle_count", "compute", *G3, "--output", "new/cc.csv"]),
    "components_compute": (
        [["components", "compute", *G3, "--out", "o"]],
        ["components", "compute", *G3, "--kind", "strong", "--out", "o"],
    ),
    "components_update": (
        [
            [
                "components",
                "update",
                *G3,
                "--changes",
                "ch",
                "--out",
                "o",
                "--write-batch",
                "o/b.txt",
            ]
        ],
        [
            "components",
            "update",
            *G3,
            "--kind",
            "strong",
            "--batch",
            "o/b.txt",
            "--out",
            "o",
            "--write-batch",
            "o/b.txt",
            "--write-graph",
            "w/g.mtx",
        ],
    ),
    "generate_mosp_changes": (
        [["generate", "mosp_changes", *G3, "--num-changes", "3", "--seed", "1", "--out", "b"]],
        ["generate", "mosp_changes", *G3, "--num-changes", "4", "--seed", "2", "--out", "b"],
    ),
    "generate_cycle_enum_batch": (
        [],
        ["generate", "cycle_enum_batch", *G3, "--num-insertions", "2", "--out", "n/b.txt"],
    ),
    "convert_csr": (
        [["convert", "g.txt", "c/g", "--num-weights", "2", "--to", "csr"]],
        ["convert", "g.txt", "c/g", "--num-weights", "3", "--to", "csr"],
    ),
    "prep_flow": (
        [["prep", "mtx2csr", "p.mtx", "pc", "2", "1", "10", "7"]],
        ["prep", "changes", "pc", "chg", "--changes", "4", "--seed", "2"],
    ),
    "prep_init": (
        [["prep", "mtx2csr", "p.mtx", "pc", "2", "1", "10", "7"]],
        ["prep", "init", "pc", "start"],
    ),
    "prep_widen": (
        [
            ["prep", "mtx2csr", "p.mtx", "pc", "2", "1", "10", "7"],
            ["prep", "widen", "pc", "pw", "3", "1", "9", "4"],
        ],
        ["prep", "widen", "pc", "pw", "4", "1", "9", "4"],
    ),
    "prep_cache": (
        [["prep", "mtx2csr", "p.mtx", "pc", "2", "1", "10", "7"]],
        ["prep", "cache", "pc", "bin/pc.bin"],
    ),
}


def _inputs(root):
    _write(
        root,
        "g.txt",
        "0 1 2 3 1\n0 2 4 1 2\n1 3 5 2 3\n2 3 1 6 2\n3 4 2 2 2\n1 4 9 1 1\n"
        "4 5 3 3 3\n2 5 8 1 4\n5 6 1 2 1\n4 1 1 1 1\n1 5 20 20 20\n3 6 7 7 1\n",
    )
    _write(root, "ch/insert.txt", "3 5 10 2 12\n1 5 12 1 14\n")
    _write(root, "ch/delete.txt", "1 3\n4 1\n")
    _write(
        root,
        "p.mtx",
        "%%MatrixMarket matrix coordinate pattern general\n5 5 7\n1 2\n2 3\n"
        "3 1\n3 4\n4 5\n5 3\n2 2\n",
    )


@pytest.fixture(scope="module")
def driver_process(tmp_path_factory):
    child = Driver(str(tmp_path_factory.mktemp("driver")))
    yield child
    child.close()


@pytest.fixture
def driver(driver_process, tmp_path):
    """The driver, working in a fresh folder of this test: ``(driver, folder)``."""
    work = tmp_path / "work"
    work.mkdir()
    driver_process.cwd = str(work)
    return driver_process, str(work)


def _reset(work, pristine):
    shutil.rmtree(work)
    shutil.copytree(pristine, work, symlinks=True)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_an_interrupt_at_any_point_leaves_the_old_outputs_or_all_new_ones(driver, name, tmp_path):
    child, work = driver
    before_steps, interrupted = SCENARIOS[name]
    _inputs(work)
    for step in before_steps:
        assert child.run(step)["rc"] == 0, step
    # Files of the user's that no run writes, in and beside the output folders.
    for relative in ("o/notes.txt", "o/obj0/mine.txt", "c/keep.txt", "b/README"):
        _write(work, relative, "the user's\n")
    pristine = str(tmp_path / "pristine")
    shutil.copytree(work, pristine, symlinks=True)
    before = snapshot(work)

    complete = child.run(interrupted)
    assert complete["rc"] == 0, complete["stderr"]
    after = snapshot(work)
    assert after != before
    calls = complete["calls"]
    assert calls >= 1

    for point in ("before", "after"):
        for nth in range(1, calls + 1):
            _reset(work, pristine)
            got = child.run(interrupted, point, nth)
            where = f"{name}: SIGINT {point} write call {nth} of {calls}; the run gave {got}"
            assert got["rc"] == 130 and got["stderr"].endswith(KEPT), where
            assert snapshot(work) == before, where
    _reset(work, pristine)
    got = child.run(interrupted, "commit")
    assert snapshot(work) == after, f"{name}: SIGINT while committing"
    assert got["rc"] == 130 and got["stderr"].endswith(WRITTEN), (name, got)


def test_a_failed_run_leaves_the_previous_outputs(driver):
    # The trees are written, then --write-graph meets a folder in the way: the run fails and
    # none of its files appears (0.2.0 left the new trees beside the old graph).
    child, work = driver
    _inputs(work)
    assert (
        child.run(["sssp", "update", *G3, "--changes", "ch", "--source", "1", "--out", "o"])["rc"]
        == 0
    )
    os.makedirs(os.path.join(work, "gRowPtr.txt"))
    before = snapshot(work)
    got = child.run(["sssp", "update", *G3, "--changes", "ch", "--out", "o", "--write-graph", "g"])
    assert got["rc"] == 1 and got["stderr"].startswith("dyng: error: write_csr_triplet(): ")
    assert "gRowPtr.txt" in got["stderr"] and "folder" in got["stderr"]
    assert snapshot(work) == before


def _big_graph(path, n=60_000, m=240_000, seed=40):
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    weights = rng.integers(1, 50, (m, 3))
    rows = np.column_stack([src, dst, weights])
    np.savetxt(path, rows[src != dst], fmt="%d")


def test_sigint_at_random_moments_leaves_the_old_outputs_or_all_new_ones(tmp_path):
    # The Ctrl-C of a user: SIGINT from outside, at random moments of real `python -m dyng`
    # runs (reading, computing, writing, committing), each checked against the two states.
    runs = int(os.environ.get("DYNG_TEST_SIGINT_RUNS", "6"))
    work = tmp_path / "work"
    work.mkdir()
    _big_graph(work / "g.txt")
    dyng = [sys.executable, "-m", "dyng"]

    def mosp(preferences):
        return [*dyng, "mosp", "compute", *G3, "--preferences", preferences, "--out", "o"]

    subprocess.run(mosp("1,1,1"), cwd=work, check=True, capture_output=True)
    _write(str(work), "o/notes.txt", "the user's\n")
    pristine = tmp_path / "pristine"
    shutil.copytree(work, pristine)
    before = snapshot(work)
    start = time.perf_counter()
    subprocess.run(mosp("4,1,4"), cwd=work, check=True, capture_output=True)
    length = time.perf_counter() - start
    after = snapshot(work)
    assert after != before

    rng = random.Random(int(os.environ.get("DYNG_TEST_SIGINT_SEED", "40")))
    outcomes = []
    for _ in range(runs):
        _reset(str(work), str(pristine))
        child = subprocess.Popen(
            mosp("4,1,4"), cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        time.sleep(rng.uniform(0.0, length))  # the moment of the Ctrl-C, not a synchronisation
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=120)
        state = snapshot(work)
        if child.returncode == 0:
            assert state == after
        elif child.returncode == 130:
            assert state in (before, after), err
            assert err.endswith(KEPT if state == before else WRITTEN), err
        elif child.returncode == -signal.SIGINT:
            # Outside the command: while Python imported and parsed, or after the command had
            # returned (Python's own handling: the process ends by the signal, silently).
            assert state in (before, after), err
        else:
            # While the interpreter started or imported a module (CPython or an extension may
            # turn the KeyboardInterrupt into a fatal start-up error or an ImportError): before
            # any output was staged.
            assert "dyng: error:" not in err and state == before, (child.returncode, err)
        outcomes.append(child.returncode)
    assert len(outcomes) == runs

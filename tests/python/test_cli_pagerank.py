"""``dyng pagerank compute|update``: the files hold dyng.pagerank's ranks on the graph the flags
describe (within the convergence bound of NetworkX's), read back to the same float64; an update
writes the ranks after each batch, within the bound of a fresh compute on the graph the batches
so far left; bad input exits 2 (usage) or 1 (failure) and writes nothing."""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest

import dyng
from dyng import cli
from dyng.cli import _textbatch

EDGES = [(0, 1), (1, 2), (2, 0), (2, 3), (3, 1), (3, 4), (4, 0), (5, 5), (6, 2)]
BATCHES = ["- 3 4\n+ 4 2\n", "+ 0 3\n- 6 2\n+ 7 1\n"]  # the second grows the graph to 8
TOL = 1e-9


def run(argv):
    """``(status, stdout, stderr)`` of ``dyng.cli.main(argv)``."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main([str(a) for a in argv])
    return status, out.getvalue(), err.getvalue()


@pytest.fixture
def files(tmp_path):
    (tmp_path / "g.txt").write_text("".join(f"{u} {v}\n" for u, v in EDGES))
    for k, text in enumerate(BATCHES, start=1):
        (tmp_path / f"b{k}.txt").write_text(text)
    return tmp_path


def graph_flags(files):
    return ["--graph", files / "g.txt", "--ids", "as_is", "--keep-self-loops"]


def read_ranks(path):
    rows = [line.split() for line in path.read_text().splitlines()]
    assert [int(v) for v, _ in rows] == list(range(len(rows)))
    return np.array([float(r) for _, r in rows])


def bound(n):
    return 2 * n * TOL / (1 - 0.85)


def test_compute_writes_the_library_ranks(files):
    out = files / "out"
    status, stdout, _ = run(
        ["pagerank", "compute", *graph_flags(files), "--tol", TOL, "--out", out]
    )
    assert status == 0 and "converged" in stdout and "NOT" not in stdout
    graph = dyng.io.read_edge_list(str(files / "g.txt"), ids="as_is", drop_self_loops=False)
    want = dyng.pagerank.compute(graph, tol=TOL)
    got = read_ranks(out / "ranksOriginal.txt")
    assert np.array_equal(got, want.ranks.to_numpy())  # the text reads back to the same bits
    assert (out / "convergenceOriginal.txt").read_text() == (
        f"iterations {want.iterations}\nresidual {want.residual!r}\n"
    )
    nx = pytest.importorskip("networkx")
    g = nx.MultiDiGraph(EDGES)
    exact = nx.pagerank(g, tol=1e-14, max_iter=10000)
    assert np.abs(got - np.array([exact[v] for v in range(len(got))])).sum() < bound(len(got))


def test_update_writes_the_ranks_after_each_batch(files):
    out = files / "out"
    argv = [
        "pagerank",
        "update",
        *graph_flags(files),
        "--tol",
        TOL,
        "--batch",
        files / "b1.txt",
        "--batch",
        files / "b2.txt",
        "--out",
        out,
        "--compare-recompute",
    ]
    status, stdout, _ = run(argv)
    assert status == 0 and stdout.count("recompute ") == 2 and "batch 2/2" in stdout
    graph = dyng.io.read_edge_list(str(files / "g.txt"), ids="as_is", drop_self_loops=False)
    for k in (1, 2):
        graph.apply(_textbatch.read(str(files / f"b{k}.txt"), graph))
        got = read_ranks(out / f"ranksUpdated{k}.txt")
        fresh = dyng.pagerank.compute(graph, tol=TOL).ranks.to_numpy()
        assert got.size == graph.num_vertices and abs(got.sum() - 1) < 1e-12
        assert np.abs(got - fresh).sum() < bound(got.size)
        assert (out / f"convergenceUpdated{k}.txt").read_text().startswith("iterations ")


def test_one_batch_writes_ranks_updated(files):
    out = files / "out"
    status, _, _ = run(
        [
            "pagerank",
            "update",
            *graph_flags(files),
            "--batch",
            files / "b1.txt",
            "--weighted",
            "--out",
            out,
        ]
    )
    # An edge list without weights read with --weighted: a clear failure, nothing written.
    assert status == 1 and not out.exists()
    status, stdout, _ = run(
        [
            "pagerank",
            "update",
            *graph_flags(files),
            "--num-deletions",
            "2",
            "--seed",
            "3",
            "--out",
            out,
        ]
    )
    assert status == 0 and (out / "ranksUpdated.txt").exists() and "update " in stdout


@pytest.mark.parametrize(
    "flags, status, message",
    [
        (["--alpha", "1.5"], 2, "alpha"),
        (["--max-iter", "0"], 2, "max_iter"),
    ],
)
def test_bad_options_exit_with_a_message(files, flags, status, message):
    code, _, err = run(["pagerank", "compute", *graph_flags(files), *flags, "--out", files / "out"])
    assert code in (1, 2) and message in err and not (files / "out").exists()


def test_several_batches_take_no_other_batch_flags(files):
    code, _, err = run(
        [
            "pagerank",
            "update",
            *graph_flags(files),
            "--batch",
            files / "b1.txt",
            "--batch",
            files / "b2.txt",
            "--num-deletions",
            "1",
            "--out",
            files / "out",
        ]
    )
    assert code == 2 and "several --batch files" in err

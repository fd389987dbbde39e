"""``dyng components compute|update``: the files hold dyng.components' answer on the graph the
flags describe, which is SciPy's (relabelled canonically); an update's files equal a fresh
compute's on the changed graph, for every batch source; bad input exits 2 (usage) or 1
(failure) with what to do, and writes nothing. (All-or-nothing outputs under SIGINT:
test_cli_outputs.py.)"""

from __future__ import annotations

import contextlib
import dataclasses
import io

import numpy as np
import pytest
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

import dyng
from dyng import cli

N = 1000
# Two directed cycles joined one way (0-1-2 and 3-4-5, 2->3), a path 6->7->8, self-loops and
# isolated vertices (read with --ids as_is, up to the self-loop of 999): enough vertices that the
# updates stay within the default budget and repair instead of recomputing.
EDGES = [
    (0, 1),
    (1, 2),
    (2, 0),
    (2, 3),
    (3, 4),
    (4, 5),
    (5, 3),
    (6, 7),
    (7, 8),
    (9, 9),
    (11, 11),
    (999, 999),
]
TEXT_BATCH = "- 2 3\n- 7 8\n+ 8 6\n+ 5 10\n+ 1 11\n"
INSERT = [(8, 6), (5, 10), (1, 11)]
DELETE = [(2, 3), (7, 8)]


def run(argv):
    """``(status, stdout, stderr)`` of ``dyng.cli.main(argv)``."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main([str(a) for a in argv])
    return status, out.getvalue(), err.getvalue()


@pytest.fixture
def files(tmp_path):
    (tmp_path / "g.txt").write_text("".join(f"{u} {v}\n" for u, v in EDGES))
    (tmp_path / "b.txt").write_text(TEXT_BATCH)
    (tmp_path / "ch").mkdir()
    # The MOSP tools' files: insertions carry a weight column.
    (tmp_path / "ch" / "insert.txt").write_text("".join(f"{u} {v} 1\n" for u, v in INSERT))
    (tmp_path / "ch" / "delete.txt").write_text("".join(f"{u} {v}\n" for u, v in DELETE))
    return tmp_path


def graph_flags(files):
    return ["--graph", files / "g.txt", "--ids", "as_is", "--keep-self-loops"]


def scipy_labels(n, edges, kind):
    """SciPy's components, each relabelled with its smallest vertex id."""
    src = np.array([u for u, _ in edges], dtype=np.int64)
    dst = np.array([v for _, v in edges], dtype=np.int64)
    matrix = coo_matrix((np.ones(len(edges)), (src, dst)), shape=(n, n)).tocsr()
    _, raw = connected_components(matrix, directed=True, connection=kind)
    smallest = {}
    for v, c in enumerate(raw.tolist()):
        smallest.setdefault(c, v)
    return [smallest[c] for c in raw.tolist()]


def library_answer(files, kind, batch=None):
    """dyng.components' labels and ``label size`` lines on the graph the flags read."""
    graph = dyng.io.read_edge_list(str(files / "g.txt"), ids="as_is", drop_self_loops=False)
    result = dyng.components.compute(graph, kind=kind)
    if batch is not None:
        dyng.components.update(graph, batch, result)
    labels = result.labels.tolist()
    sizes = result.sizes.tolist()
    return labels, [[c, s] for c, s in enumerate(sizes) if s]


def read_pairs(path):
    return [[int(x) for x in line.split()] for line in path.read_text().splitlines()]


def labels_of(path):
    pairs = read_pairs(path)
    assert [v for v, _ in pairs] == list(range(len(pairs)))
    return [label for _, label in pairs]


def updated_edges():
    return sorted((set(EDGES) - set(DELETE)) | set(INSERT))


@pytest.mark.parametrize("backend", ["sequential", "openmp"])
@pytest.mark.parametrize("kind", ["weak", "strong"])
def test_compute_writes_the_librarys_labels_and_sizes(files, kind, backend):
    status, out, err = run(
        [
            "components",
            "compute",
            *graph_flags(files),
            "--kind",
            kind,
            "--backend",
            backend,
            "--threads",
            2,
            "--out",
            files / "o",
        ]
    )
    assert (status, err) == (0, ""), err
    labels, sizes = library_answer(files, kind)
    assert labels_of(files / "o" / "labelsOriginal.txt") == labels == scipy_labels(N, EDGES, kind)
    assert read_pairs(files / "o" / "sizesOriginal.txt") == sizes
    # The labels file is in the layout of the parent files, so their reader takes it.
    assert dyng.io.read_parents(files / "o" / "labelsOriginal.txt", N).tolist() == labels
    largest = max(sizes, key=lambda pair: (pair[1], -pair[0]))
    assert out.startswith("compute ") and out.count("\n") == 1
    assert out.endswith(
        f" ms ({kind}: {len(sizes)} component(s) of {N} vertices, largest "
        f"{largest[1]} (label {largest[0]}))\n"
    )


def test_the_default_kind_is_weak_and_quiet_prints_nothing(files):
    status, out, _ = run(
        ["components", "compute", *graph_flags(files), "--out", files / "o", "--quiet"]
    )
    assert (status, out) == (0, "")
    assert labels_of(files / "o" / "labelsOriginal.txt") == scipy_labels(N, EDGES, "weak")


BATCH_SOURCES = {
    "text": lambda files: ["--batch", files / "b.txt"],
    "changes": lambda files: ["--changes", files / "ch"],
    "insert_delete": lambda files: [
        "--insert",
        files / "ch" / "insert.txt",
        "--delete",
        files / "ch" / "delete.txt",
    ],
}


@pytest.mark.parametrize("source", sorted(BATCH_SOURCES))
@pytest.mark.parametrize("kind", ["weak", "strong"])
def test_update_equals_a_fresh_compute_of_the_changed_graph(files, kind, source):
    status, out, err = run(
        [
            "components",
            "update",
            *graph_flags(files),
            "--kind",
            kind,
            *BATCH_SOURCES[source](files),
            "--out",
            files / "o",
            "--write-graph",
            files / "changed.mtx",
            "--compare-recompute",
        ]
    )
    assert (status, err) == (0, ""), err
    batch = dyng.EdgeBatch(insert=tuple(np.array(INSERT).T), delete=tuple(np.array(DELETE).T))
    labels, sizes = library_answer(files, kind, batch)
    assert labels_of(files / "o" / "labelsUpdated.txt") == labels
    assert labels == scipy_labels(N, updated_edges(), kind)
    assert read_pairs(files / "o" / "sizesUpdated.txt") == sizes
    lines = out.splitlines()
    assert lines[0].startswith("incremental (")
    assert lines[1].startswith("update ") and "batch: inserted 3, updated 0, deleted 2" in out
    assert lines[2].startswith("recompute ") and lines[2].endswith("(same labels: yes)")
    # The changed graph, computed afresh by the command line itself: the same files.
    assert (
        run(
            [
                "components",
                "compute",
                "--graph",
                files / "changed.mtx",
                "--kind",
                kind,
                "--keep-self-loops",
                "--out",
                files / "fresh",
                "--quiet",
            ]
        )[0]
        == 0
    )
    for name in ("labels", "sizes"):
        assert (files / "fresh" / f"{name}Original.txt").read_bytes() == (
            files / "o" / f"{name}Updated.txt"
        ).read_bytes()


def test_a_generated_batch_is_written_and_applied(files):
    status, _, err = run(
        [
            "components",
            "update",
            *graph_flags(files),
            "--num-deletions",
            3,
            "--num-insertions",
            4,
            "--seed",
            5,
            "--write-batch",
            files / "used.txt",
            "--out",
            files / "o",
            "--quiet",
        ]
    )
    assert (status, err) == (0, ""), err
    lines = (files / "used.txt").read_text().splitlines()
    assert len(lines) == 7
    edges = set(EDGES)
    for sign, u, v in (line.split() for line in lines):
        (edges.discard if sign == "-" else edges.add)((int(u), int(v)))
    assert labels_of(files / "o" / "labelsUpdated.txt") == scipy_labels(N, sorted(edges), "weak")


def test_no_batch_is_an_empty_one(files):
    assert (
        run(["components", "update", *graph_flags(files), "--out", files / "o", "--quiet"])[0] == 0
    )
    assert labels_of(files / "o" / "labelsUpdated.txt") == scipy_labels(N, EDGES, "weak")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["update", "--kind", "both"], "argument --kind: invalid choice: 'both'"),
        (["update", "--batch", "b.txt", "--changes", "ch"], "give one batch: --batch, "),
        (["update", "--insert", "ch/insert.txt"], "--insert and --delete go together"),
        (["compute", "--threads", "-1"], "--threads must be >= 0"),
        (["compute", "--num-insertions", "1"], "unrecognized arguments: --num-insertions 1"),
    ],
)
def test_usage_errors_exit_2_and_write_nothing(files, argv, message, monkeypatch):
    monkeypatch.chdir(files)
    status, out, err = run(["components", *argv, "--graph", "g.txt", "--out", "o"])
    assert (status, out) == (2, "") and message in err, err
    assert not (files / "o").exists()


def test_a_missing_out_is_a_usage_error(files):
    status, _, err = run(["components", "compute", *graph_flags(files)])
    assert status == 2
    assert err.splitlines()[-1] == (
        "dyng components compute: error: the following arguments are required: --out"
    )


@pytest.mark.parametrize(
    "argv, message",
    [
        (["compute", "--graph", "missing.txt"], "missing.txt: "),
        (
            ["update", "--graph", "g.txt", "--batch", "bad.txt"],
            "bad.txt:2: expected '+ u v' or '- u v', got '+ 1'",
        ),
        (["update", "--graph", "g.txt", "--changes", "nowhere"], "nowhere"),
    ],
)
def test_failures_exit_1_with_what_to_do_and_write_nothing(files, argv, message, monkeypatch):
    monkeypatch.chdir(files)
    (files / "bad.txt").write_text("- 0 1\n+ 1\n")
    status, out, err = run(
        ["components", *argv, "--out", "o", "--write-batch", "o/b.txt"]
        if argv[0] == "update"
        else ["components", *argv, "--out", "o"]
    )
    assert (status, out) == (1, "")
    assert err.startswith("dyng: error: ") and message in err and err.count("\n") == 1, err
    assert not (files / "o").exists()


def test_a_write_that_fails_exits_1_and_leaves_the_previous_files(files):
    out = files / "o"
    assert run(["components", "compute", *graph_flags(files), "--out", out, "--quiet"])[0] == 0
    before = (out / "labelsOriginal.txt").read_bytes()
    (out / "sizesOriginal.txt").unlink()
    (out / "sizesOriginal.txt").mkdir()  # a folder in the way of the second file
    status, _, err = run(
        ["components", "compute", *graph_flags(files), "--kind", "strong", "--out", out]
    )
    assert status == 1 and err.startswith("dyng: error: write_sizes(): ") and "folder" in err
    assert (out / "labelsOriginal.txt").read_bytes() == before
    assert sorted(p.name for p in out.iterdir()) == ["labelsOriginal.txt", "sizesOriginal.txt"]


def test_an_empty_graph_has_no_components(files):
    (files / "empty.mtx").write_text("%%MatrixMarket matrix coordinate pattern general\n0 0 0\n")
    status, out, err = run(
        ["components", "compute", "--graph", files / "empty.mtx", "--out", files / "o"]
    )
    assert (status, err) == (0, ""), err
    assert out.endswith(" ms (weak: 0 component(s) of 0 vertices)\n")
    assert (files / "o" / "labelsOriginal.txt").read_text() == ""


def test_a_backend_the_algorithm_lacks_says_which_it_has(files, monkeypatch):
    # Read from the registry, so it holds whichever backends components has.
    entry = dataclasses.replace(dyng.components.ALGORITHM, backends=("sequential",))
    monkeypatch.setattr(dyng.components, "ALGORITHM", entry)
    status, _, err = run(
        ["components", "compute", *graph_flags(files), "--backend", "openmp", "--out", files / "o"]
    )
    assert (status, err) == (
        1,
        "dyng: error: --backend openmp: components runs on the "
        "sequential backends in this release; pass --backend "
        "sequential or leave --backend out\n",
    )
    assert not (files / "o").exists()


def test_an_update_that_differs_from_a_recompute_fails_and_writes_nothing(files, monkeypatch):
    real = dyng.components.compute
    calls = []

    def drifting(graph, **keywords):
        calls.append(graph)
        if len(calls) == 2:  # the recompute of --compare-recompute: an answer that disagrees
            graph = dyng.Graph.from_edges([0], [10], num_vertices=N)
        return real(graph, **keywords)

    monkeypatch.setattr(dyng.components, "compute", drifting)
    status, _, err = run(
        [
            "components",
            "update",
            *graph_flags(files),
            "--batch",
            files / "b.txt",
            "--compare-recompute",
            "--out",
            files / "o",
        ]
    )
    assert status == 1 and "differ from a fresh compute's" in err and "report" in err
    assert not (files / "o").exists()


def test_an_interrupt_exits_130_and_writes_nothing(files, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(dyng.components, "update", interrupted)
    status, _, err = run(
        [
            "components",
            "update",
            *graph_flags(files),
            "--batch",
            files / "b.txt",
            "--write-batch",
            files / "o" / "b.txt",
            "--out",
            files / "o",
        ]
    )
    assert (status, err) == (
        130,
        "dyng: interrupted; no output was written; files from before the run are as they were\n",
    )
    assert not (files / "o").exists()

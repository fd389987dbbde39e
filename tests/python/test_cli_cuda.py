"""On the GPU: the command line's algorithm commands write, with ``--backend cuda``, exactly the
files they write with ``--backend sequential`` (sssp, mosp and cycle_count, compute and update;
components with no --backend, and with --backend cuda once it has a CUDA backend),
on a graph large enough for the GPU kernels' parallel paths. Skipped where no CUDA backend is
usable (CI); must pass on a GPU before CUDA work is done."""

from __future__ import annotations

import contextlib
import filecmp
import io

import numpy as np
import pytest

from dyng import cli

pytestmark = pytest.mark.gpu


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main([str(a) for a in argv])
    assert status == 0, err.getvalue()


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cli_cuda")
    rng = np.random.default_rng(3)
    n, m = 20000, 200000
    edges = np.column_stack(
        [rng.integers(0, n, m), rng.integers(0, n, m), rng.integers(1, 101, (m, 3))]
    )
    np.savetxt(folder / "g.txt", edges, fmt="%d")
    batch = folder / "ch"
    batch.mkdir()
    inserts = np.column_stack(
        [rng.integers(0, n, 500), rng.integers(0, n, 500), rng.integers(1, 101, (500, 3))]
    )
    np.savetxt(batch / "insert.txt", inserts, fmt="%d")
    np.savetxt(batch / "delete.txt", edges[:300, :2], fmt="%d")
    return folder


def same_tree(a, b):
    compared = filecmp.dircmp(a, b)
    assert not compared.left_only and not compared.right_only and not compared.diff_files
    for sub in compared.subdirs:
        same_tree(a / sub, b / sub)


@pytest.mark.parametrize(
    "command, extra",
    [
        ("sssp", ["--source", "0"]),
        ("mosp", ["--source", "0", "--preferences", "2,1,3"]),
    ],
)
@pytest.mark.parametrize("verb", ["compute", "update"])
def test_tree_commands_write_the_same_files(files, command, extra, verb):
    outs = {}
    for backend in ("sequential", "cuda"):
        outs[backend] = files / f"{command}-{verb}-{backend}"
        batch = ["--changes", files / "ch"] if verb == "update" else []
        run(
            [
                command,
                verb,
                "--graph",
                files / "g.txt",
                "--num-weights",
                3,
                *extra,
                *batch,
                "--out",
                outs[backend],
                "--backend",
                backend,
                "--quiet",
            ]
        )
    same_tree(outs["sequential"], outs["cuda"])
    assert any(outs["cuda"].rglob("*.txt"))


@pytest.mark.parametrize("verb", ["compute", "update"])
def test_cycle_count_writes_the_same_histogram(files, verb):
    outs = {}
    for backend in ("sequential", "cuda"):
        outs[backend] = files / f"cycles-{verb}-{backend}.csv"
        batch = ["--changes", files / "ch"] if verb == "update" else []
        run(
            [
                "cycle_count",
                verb,
                "--graph",
                files / "g.txt",
                "--num-weights",
                3,
                "--max-length",
                4,
                *batch,
                "--output",
                outs[backend],
                "--backend",
                backend,
            ]
        )
    assert outs["sequential"].read_bytes() == outs["cuda"].read_bytes()
    assert outs["cuda"].read_text().startswith("# cycle_size, num_of_cycles")


@pytest.mark.parametrize("kind", ["weak", "strong"])
@pytest.mark.parametrize("verb", ["compute", "update"])
def test_components_writes_the_same_files(files, verb, kind):
    # No --backend is the automatic choice, the GPU here: components runs on the host until its
    # CUDA backend lands, and then on the GPU (--backend cuda is tried once it is registered).
    from dyng import components

    backends = {"sequential": ["--backend", "sequential"], "automatic": []}
    if "cuda" in components.ALGORITHM.backends:
        backends["cuda"] = ["--backend", "cuda"]
    outs = {}
    for name, flags in backends.items():
        outs[name] = files / f"components-{verb}-{kind}-{name}"
        batch = ["--changes", files / "ch"] if verb == "update" else []
        run(
            [
                "components",
                verb,
                "--graph",
                files / "g.txt",
                "--num-weights",
                3,
                "--kind",
                kind,
                *batch,
                "--out",
                outs[name],
                *flags,
                "--quiet",
            ]
        )
    for name in backends:
        same_tree(outs["sequential"], outs[name])
    assert any(outs["automatic"].rglob("labels*.txt"))

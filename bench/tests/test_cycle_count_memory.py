"""bench.cycle_count_memory at a tiny size: a row per case and backend with time and peak memory,
a peer that gives other counts fails the run, and a count past its memory cap is reported."""

from __future__ import annotations

import sys

import pytest

from bench import cycle_count_memory


def test_tiny_run_prints_the_table(capsys):
    pytest.importorskip("dyng._core")
    assert cycle_count_memory.main(["--complete", "5", "--sparse", "8:20"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0] == "| graph | edges | cycles | backend | this s | this peak MiB |"
    rows = [line for line in table[2:] if line.startswith("| ")]
    assert [row.split(" | ")[3] for row in rows] == ["sequential", "openmp"] * 2
    assert rows[0].startswith("| K_5 | 20 | 84 | sequential |")  # sum of C(5, l) (l - 1)!


def test_different_counts_fail_the_run(tmp_path, capsys):
    pytest.importorskip("dyng._core")
    # A peer whose dyng counts one cycle too many.
    fake = tmp_path / "dyng"
    fake.mkdir()
    (fake / "__init__.py").write_text(
        "import sys\n"
        "sys.path.remove(__path__[0].rsplit('/', 1)[0])\n"
        "del sys.modules['dyng']\n"
        "import dyng as real\n"
        "sys.modules[__name__] = real\n"
        "compute = real.cycle_count.compute\n"
        "class _Counts:\n"
        "    def __init__(self, r): self.r = r\n"
        "    def to_numpy(self):\n"
        "        c = self.r.counts.to_numpy().copy(); c[-1] += 1; return c\n"
        "class _Result:\n"
        "    def __init__(self, r): self.counts = _Counts(r)\n"
        "real.cycle_count.compute = lambda *a, **k: _Result(compute(*a, **k))\n"
    )
    argv = [
        "--complete",
        "4",
        "--sparse",
        "",
        "--backends",
        "sequential",
        "--peer",
        f"off={sys.executable}@{tmp_path}",
    ]
    assert cycle_count_memory.main(argv) == 1
    assert "different counts: K_4 sequential" in capsys.readouterr().err


def test_a_count_past_its_cap_is_reported(capsys):
    pytest.importorskip("dyng._core")
    # A search keeps some bytes per vertex: 1 MiB of headroom is too little for 300,000
    # vertices (and 10 edges, so that the count itself is quick). An error row, not a failed run.
    argv = [
        "--complete",
        "",
        "--sparse",
        "300000:10",
        "--backends",
        "sequential",
        "--memory-cap-mib",
        "1",
    ]
    assert cycle_count_memory.main(argv) == 0
    assert "(out of memory)" in capsys.readouterr().out

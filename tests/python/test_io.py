"""dyng.io against dyng 0.2.0: reads equal to what 0.2.0 read from the same files, writers byte
for byte equal to 0.2.0's files, Matrix Market random weights equal to `dyng prep mtx2csr`.

The expected values were made by tests/data/io/make_expected.py with 0.2.0 (not needed here).
"""

from __future__ import annotations

import json
import os
import sys

import numpy as np
import pytest

import dyng
import dyng.io as io

DATA = os.path.join(os.path.dirname(__file__), os.pardir, "data", "io")
INPUTS = os.path.join(DATA, "inputs")
WRITTEN = os.path.join(DATA, "written")
sys.path.insert(0, DATA)
import writer_cases  # noqa: E402  (tests/data/io: the cases make_expected.py ran with 0.2.0)

with open(os.path.join(DATA, "expected_reads.json")) as _f:
    READS = json.load(_f)

READERS = {"edge_list": io.read_edge_list_arrays, "matrix_market": io.read_matrix_market_arrays}


def _keywords(kw):
    kw = dict(kw)
    if "random_weights" in kw:
        kw["random_weights"] = tuple(kw["random_weights"])
    return kw


@pytest.mark.parametrize("name", sorted(READS))
@pytest.mark.parametrize("threads", [1, 3])
def test_reads_match_0_2(name, threads):
    case = READS[name]
    kw = _keywords(case["keywords"])
    if case["reader"] == "edge_list":
        kw["threads"] = threads
    e = READERS[case["reader"]](os.path.join(INPUTS, case["file"]), **kw)
    want = case["result"]
    assert e.num_vertices == want["num_vertices"]
    assert str(e.src.dtype) == want["dtype"] == str(e.dst.dtype)
    assert e.src.tolist() == want["src"]
    assert e.dst.tolist() == want["dst"]
    if want["weights"] is None:
        assert e.weights is None
    else:
        assert e.weights.dtype == np.int32
        assert e.weights.tolist() == want["weights"]
    if want["info"] is None:
        assert e.info is None
    else:
        assert e.info.external_ids.tolist() == want["info"]["external_ids"]
        assert e.info.timestamps.tolist() == want["info"]["timestamps"]
        assert e.info.matrix_market == want["info"]["matrix_market"]
        assert e.info.symmetric == want["info"]["symmetric"]


def _same_bytes(ours, name):
    with open(ours, "rb") as a, open(os.path.join(WRITTEN, name), "rb") as b:
        assert a.read() == b.read(), name


def test_writers_match_0_2(tmp_path):
    w = lambda name: str(tmp_path / name)  # noqa: E731
    writer_cases.write_all(dyng, w)
    names = sorted(os.listdir(WRITTEN))
    assert sorted(os.listdir(tmp_path)) == names  # no temporary file left behind
    for name in names:
        _same_bytes(w(name), name)


@pytest.mark.parametrize(
    "file, prefix, k, lo, hi, seed",
    [
        ("mm_sym_int.mtx", "sym_", 3, 1, 50, 777),
        ("mm_gen_pattern.mtx", "pat_", 1, 1, 100, 12345),
    ],
)
def test_random_weights_match_mtx2csr(tmp_path, file, prefix, k, lo, hi, seed):
    g = io.read_matrix_market(
        os.path.join(INPUTS, file),
        weights="random",
        num_weights=k,
        random_weights=(lo, hi, seed),
        properties="mosp_compatible",
    )
    io.write_csr_triplet(str(tmp_path / prefix), g)
    for part in ("RowPtr.txt", "ColInd.txt", "Values.txt"):
        with (
            open(tmp_path / (prefix + part), "rb") as a,
            open(os.path.join(DATA, "mtx2csr", prefix + part), "rb") as b,
        ):
            assert a.read() == b.read(), part


def test_round_trips(tmp_path):
    rng = np.random.default_rng(3)
    src = rng.integers(0, 50, 400)
    dst = rng.integers(0, 50, 400)
    w = rng.integers(-5, 1000, (400, 2))
    g = dyng.Graph.from_edges(src, dst, w, num_vertices=50)
    p = str(tmp_path / "g.txt")
    io.write_edge_list(p, g)
    e = io.read_edge_list_arrays(p, num_weights=2, ids="as_is", drop_self_loops=False)
    s0, d0, w0 = g.edges()
    assert (e.src.tolist(), e.dst.tolist(), e.weights.tolist()) == (
        s0.tolist(),
        d0.tolist(),
        w0.tolist(),
    )
    io.write_matrix_market(str(tmp_path / "g.mtx"), g, weight_column=1)
    m = io.read_matrix_market_arrays(str(tmp_path / "g.mtx"), drop_self_loops=False)
    assert m.num_vertices == 50 and m.weights[:, 0].tolist() == w0[:, 1].tolist()
    # CSR weights are the MOSP tools' lengths, at least 1 (the reader refuses others).
    g = dyng.Graph.from_edges(src, dst, w - w.min() + 1, num_vertices=50)
    io.write_csr_triplet(str(tmp_path / "c"), g)
    c = io.read_csr_triplet(str(tmp_path / "c"))
    assert c.to_csr().row_ptr.tolist() == g.to_csr().row_ptr.tolist()
    assert c.to_csr().weights.tolist() == g.to_csr().weights.tolist()
    batches = [
        dyng.EdgeBatch(insert=([0, 3], [1, 4], [[1, 2], [3, 4]]), delete=([2], [3])),
        dyng.EdgeBatch(delete=([9], [8])),
    ]
    io.write_batches(str(tmp_path / "b.dgt"), batches)
    back = io.read_batches(str(tmp_path / "b.dgt"))
    assert [b.insert_src.dtype for b in back] == [np.int64, np.int64]
    assert back[0].insert_weights.tolist() == [[1, 2], [3, 4]]
    assert back[1].delete_src.tolist() == [9]
    io.write_distances(str(tmp_path / "d.txt"), [0, 2**61 - 1, 7])
    assert io.read_distances(str(tmp_path / "d.txt"), 3).tolist() == [0, 2**61 - 1, 7]
    io.write_parents(str(tmp_path / "p.txt"), [-1, 0, 0])
    parents = io.read_parents(str(tmp_path / "p.txt"), 3, vertex_dtype="int64")
    assert parents.dtype == np.int64 and parents.tolist() == [-1, 0, 0]


def test_graph_readers_pass_graph_keywords(tmp_path):
    p = str(tmp_path / "g.txt")
    io.write_edge_list(p, ([0, 1], [1, 2], [[3, 4], [5, 6]]))
    g = io.read_edge_list(
        p, num_weights=2, directed=False, edge_dtype="int64", resources=dyng.Resources("sequential")
    )
    assert (g.num_edges, g.directed, str(g.edge_dtype)) == (4, False, "int64")
    assert g.resources.backend == "sequential"
    g = io.read_edge_list(p, num_weights=2, properties="mosp_compatible", vertex_dtype="int64")
    assert str(g.vertex_dtype) == "int64"


def test_histogram_text():
    assert io.histogram_csv([0, 0, 3, 0, 5]) == (
        "# cycle_size, num_of_cycles\n2, 3\n4, 5\nTotal, 8\n"
    )
    assert io.histogram_csv([], include_total=False) == "# cycle_size, num_of_cycles\n"


def test_io_is_a_top_level_module():
    assert dyng.io is io and "io" in dyng.__all__


def test_large_file_read_in_blocks_and_threads(tmp_path):
    # Several blocks (64 KiB minimum is far below this file) and several threads give the
    # same edges as one thread.
    rng = np.random.default_rng(5)
    m = 200_000
    src, dst, w = rng.integers(0, 5000, m), rng.integers(0, 5000, m), rng.integers(1, 99, m)
    p = tmp_path / "big.txt"
    np.savetxt(p, np.stack([src, dst, w], axis=1), fmt="%d")
    a = io.read_edge_list_arrays(str(p), num_weights=1, threads=1)
    b = io.read_edge_list_arrays(str(p), num_weights=1, threads=4)
    assert np.array_equal(a.src, b.src) and np.array_equal(a.weights, b.weights)
    key = src * 5000 + dst
    assert a.num_edges == len(np.unique(key[src != dst]))

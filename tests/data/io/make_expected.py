"""Regenerates tests/data/io/ with dyng 0.2.0, the released version dyng.io must match.

Run with 0.2.0's interpreter (it is not needed by the tests, only to refresh this folder):

    /work/venv020/bin/python tests/data/io/make_expected.py

It writes the input files (inputs/), what 0.2.0 reads from them (expected_reads.json), the files
0.2.0's writers make from fixed values (written/), `dyng prep mtx2csr` outputs (mtx2csr/) and the
line and class of 0.2.0's error for each malformed input (expected_errors.json).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys

import dyng
import dyng.io as io

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import writer_cases  # noqa: E402  (beside this script)

INPUTS = os.path.join(HERE, "inputs")
WRITTEN = os.path.join(HERE, "written")
MTX2CSR = os.path.join(HERE, "mtx2csr")

# (name, reader, file, keywords): every read compared by the tests.
READS = [
    ("el_k2_merge", "edge_list", "el_k2.txt", {"num_weights": 2}),
    ("el_k2_keep", "edge_list", "el_k2.txt", {"num_weights": 2, "duplicates": "keep"}),
    (
        "el_k2_asis_sym",
        "edge_list",
        "el_k2.txt",
        {"num_weights": 2, "ids": "as_is", "symmetrize": True, "drop_self_loops": False},
    ),
    ("el_k2_base1", "edge_list", "el_k2.txt", {"num_weights": 2, "ids": "as_is", "index_base": 1}),
    ("el_ts_keep", "edge_list", "el_ts.txt", {"duplicates": "keep"}),
    ("el_ts_merge", "edge_list", "el_ts.txt", {}),
    ("el_big_weighted", "edge_list", "el_big.txt", {"weighted": True, "vertex_dtype": "int64"}),
    ("el_big_k1", "edge_list", "el_big.txt", {"num_weights": 1}),
    (
        "el_big_sym_keep",
        "edge_list",
        "el_big.txt",
        {"num_weights": 1, "symmetrize": True, "duplicates": "keep", "drop_self_loops": False},
    ),
    ("el_from_mtx", "edge_list", "mm_sym_int.mtx", {}),
    ("el_from_mtx_keep", "edge_list", "mm_gen_pattern.mtx", {"duplicates": "keep"}),
    ("mm_sym_auto", "matrix_market", "mm_sym_int.mtx", {}),
    ("mm_sym_none", "matrix_market", "mm_sym_int.mtx", {"weights": "none"}),
    (
        "mm_sym_random",
        "matrix_market",
        "mm_sym_int.mtx",
        {"weights": "random", "num_weights": 3, "random_weights": (1, 50, 777)},
    ),
    (
        "mm_sym_unsorted",
        "matrix_market",
        "mm_sym_int.mtx",
        {"sort_and_dedupe": False, "drop_self_loops": False},
    ),
    ("mm_pat_random", "matrix_market", "mm_gen_pattern.mtx", {"weights": "random"}),
    (
        "mm_pat_random_unsorted",
        "matrix_market",
        "mm_gen_pattern.mtx",
        {"weights": "random", "num_weights": 2, "sort_and_dedupe": False},
    ),
    # The Matrix Market variants 0.2.0 read (write_mm_variants): skew-symmetric integer values
    # mirror negated, hermitian and complex values skipped, banner words in any case.
    ("mm_skew_auto", "matrix_market", "mm_skew_int.mtx", {}),
    (
        "mm_skew_from_file_unsorted",
        "matrix_market",
        "mm_skew_int.mtx",
        {"weights": "from_file", "sort_and_dedupe": False, "drop_self_loops": False},
    ),
    ("mm_skew_none", "matrix_market", "mm_skew_int.mtx", {"weights": "none"}),
    (
        "mm_skew_random",
        "matrix_market",
        "mm_skew_int.mtx",
        {"weights": "random", "num_weights": 2, "random_weights": (1, 9, 5)},
    ),
    ("mm_herm_none", "matrix_market", "mm_herm_complex.mtx", {"weights": "none"}),
    (
        "mm_herm_random_unsorted",
        "matrix_market",
        "mm_herm_complex.mtx",
        {"weights": "random", "sort_and_dedupe": False, "drop_self_loops": False},
    ),
    ("mm_herm_int_auto", "matrix_market", "mm_herm_int.mtx", {}),
    ("mm_complex_none", "matrix_market", "mm_complex_general.mtx", {"weights": "none"}),
    ("mm_real_none", "matrix_market", "mm_real_general.mtx", {"weights": "none"}),
    ("mm_lower_auto", "matrix_market", "mm_lower_banner.mtx", {}),
    ("mm_lower_pattern_random", "matrix_market", "mm_lower_pattern.mtx", {"weights": "random"}),
    ("el_from_skew_mtx", "edge_list", "mm_skew_int.mtx", {}),
    ("el_from_herm_mtx_asis", "edge_list", "mm_herm_complex.mtx", {"ids": "as_is"}),
    # read_edge_list's ids="as_is" on a Matrix Market file: its ids minus index_base, max id + 1
    # vertices (the size line's count is not used).
    ("el_from_mtx_asis", "edge_list", "mm_sym_int.mtx", {"ids": "as_is"}),
    (
        "el_from_mtx_asis_base1_keep",
        "edge_list",
        "mm_gen_pattern.mtx",
        {"ids": "as_is", "index_base": 1, "duplicates": "keep", "vertex_dtype": "int64"},
    ),
]

# (name, file content, reader, keywords): malformed inputs.
ERRORS = [
    ("bad_token", "0 1\n1 x\n", "edge_list", {}),
    ("too_many", "0 1\n1 2 3 4\n", "edge_list", {}),
    ("too_few_weights", "0 1 5\n1 2\n", "edge_list", {"num_weights": 1}),
    ("weight_range", "0 1 5\n\n1 2 99999999999\n", "edge_list", {"num_weights": 1}),
    (
        "mm_not_square",
        "%%MatrixMarket matrix coordinate integer general\n2 3 1\n1 2 5\n",
        "matrix_market",
        {},
    ),
    (
        "mm_short",
        "%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 2 5\n",
        "matrix_market",
        {},
    ),
    (
        "mm_range",
        "%%MatrixMarket matrix coordinate integer general\n% c\n2 2 1\n1 3 5\n",
        "matrix_market",
        {},
    ),
    ("mm_array", "%%MatrixMarket matrix array integer general\n2 2\n1\n", "matrix_market", {}),
    (
        "mm_extra",
        "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n2 1\n",
        "matrix_market",
        {},
    ),
    (
        "mm_real",
        "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 0.5\n",
        "matrix_market",
        {},
    ),
    ("dgt_version", "%dgt 2\n", "batches", {}),
    ("dgt_op", "%batch 0\nx 1 2\n", "batches", {}),
    ("dgt_k", "%batch 0\n+e 1 2\n%batch 1\n+e 1 2 3\n", "batches", {}),
    ("dist_range", "0 0\n1 5\n2 INF\n", "distances", {"num_vertices": 2}),
    ("missing", None, "edge_list", {}),
]


def write_inputs():
    os.makedirs(INPUTS, exist_ok=True)
    with open(os.path.join(INPUTS, "el_k2.txt"), "w") as f:
        f.write("# weighted, K = 2, mixed separators\n% another comment\n")
        f.write("5 3 7 1\n1\t2\t4\t2\n5,3,9,3\n3 5 1 1 100\n\n   \n1 1 3 3\n7 5 2 2\r\n")
        f.write("2 7 6 6")  # no final newline
    with open(os.path.join(INPUTS, "el_ts.txt"), "w") as f:
        f.write("10 20 5\n20 30 4\n10 20 3\n30 10\n-4 10 8\n")
    rng = random.Random(7)
    with open(os.path.join(INPUTS, "el_big.txt"), "w") as f:
        for _ in range(3000):
            f.write(f"{rng.randrange(400)} {rng.randrange(400)} {rng.randrange(1, 100)}\n")
    with open(os.path.join(INPUTS, "mm_sym_int.mtx"), "w") as f:
        entries = [
            (rng.randrange(1, 61), rng.randrange(1, 61), rng.randrange(1, 20)) for _ in range(300)
        ]
        f.write("%%MatrixMarket matrix coordinate integer symmetric\n% generated\n")
        f.write(f"60 60 {len(entries)}\n")
        f.writelines(f"{i} {j} {w}\n" for i, j, w in entries)
    with open(os.path.join(INPUTS, "mm_gen_pattern.mtx"), "w") as f:
        entries = [(rng.randrange(1, 41), rng.randrange(1, 41)) for _ in range(200)]
        f.write("%%MatrixMarket matrix coordinate pattern general\n")
        f.write(f"40 40 {len(entries)}\n")
        f.writelines(f"{i} {j}\n" for i, j in entries)


def write_mm_variants():
    """Matrix Market files in the variants 0.2.0 read besides 'general' and 'symmetric'."""
    rng = random.Random(11)

    def write(name, banner, n, count, values):
        entries = []
        for _ in range(count):
            i, j = rng.randrange(1, n + 1), rng.randrange(1, n + 1)
            entries.append(f"{i} {j}" + "".join(f" {v}" for v in values()))
        with open(os.path.join(INPUTS, name), "w") as f:
            f.write(banner + "\n% variant\n")
            f.write(f"{n} {n} {len(entries)}\n")
            f.writelines(e + "\n" for e in entries)

    integer = lambda: [rng.randrange(-50, 51)]  # noqa: E731
    real = lambda: [rng.choice(["1.5", "-0.25", "3e2", ".5", "inf", "nan", "7"])]  # noqa: E731
    pair = lambda: real() + real()  # noqa: E731
    write(
        "mm_skew_int.mtx",
        "%%MatrixMarket matrix coordinate integer skew-symmetric",
        30,
        120,
        integer,
    )
    write("mm_herm_complex.mtx", "%%MatrixMarket matrix coordinate complex hermitian", 25, 80, pair)
    write("mm_herm_int.mtx", "%%MatrixMarket matrix coordinate integer hermitian", 20, 60, integer)
    write(
        "mm_complex_general.mtx", "%%MatrixMarket matrix coordinate complex general", 20, 60, pair
    )
    write("mm_real_general.mtx", "%%MatrixMarket matrix coordinate real general", 20, 60, real)
    write(
        "mm_lower_banner.mtx", "%%matrixmarket MATRIX Coordinate INTEGER Symmetric", 20, 50, integer
    )
    write(
        "mm_lower_pattern.mtx",
        "%%matrixmarket matrix coordinate pattern general",
        20,
        50,
        lambda: [],
    )


def as_lists(e):
    return {
        "num_vertices": e.num_vertices,
        "src": e.src.tolist(),
        "dst": e.dst.tolist(),
        "dtype": str(e.src.dtype),
        "weights": None if e.weights is None else e.weights.tolist(),
        "info": None
        if e.info is None
        else {
            "external_ids": e.info.external_ids.tolist(),
            "timestamps": e.info.timestamps.tolist(),
            "matrix_market": e.info.matrix_market,
            "symmetric": e.info.symmetric,
        },
    }


def reader(kind):
    return {
        "edge_list": io.read_edge_list_arrays,
        "matrix_market": io.read_matrix_market_arrays,
        "batches": io.read_batches,
        "distances": io.read_distances,
    }[kind]


def expected_reads():
    out = {}
    for name, kind, file, kw in READS:
        out[name] = {
            "reader": kind,
            "file": file,
            "keywords": kw,
            "result": as_lists(reader(kind)(os.path.join(INPUTS, file), **kw)),
        }
    return out


def expected_errors(scratch):
    out = {}
    for name, content, kind, kw in ERRORS:
        path = os.path.join(scratch, name + ".txt")
        if content is not None:
            with open(path, "w") as f:
                f.write(content)
        kw = dict(kw)
        args = [path] + ([kw.pop("num_vertices")] if kind == "distances" else [])
        try:
            reader(kind)(*args, **kw)
        except Exception as e:  # noqa: BLE001 - the class is what is recorded
            out[name] = {
                "content": content,
                "reader": kind,
                "keywords": dict(zip(("num_vertices",), args[1:]), **kw),
                "class": type(e).__name__,
                "line": getattr(e, "line", None),
            }
    return out


def write_files():
    shutil.rmtree(WRITTEN, ignore_errors=True)
    os.makedirs(WRITTEN)
    writer_cases.write_all(dyng, lambda name: os.path.join(WRITTEN, name))


def run_mtx2csr():
    shutil.rmtree(MTX2CSR, ignore_errors=True)
    os.makedirs(MTX2CSR)
    dyng_cli = os.path.join(os.path.dirname(sys.executable), "dyng")
    for file, prefix, k, lo, hi, seed in [
        ("mm_sym_int.mtx", "sym_", 3, 1, 50, 777),
        ("mm_gen_pattern.mtx", "pat_", 1, 1, 100, 12345),
    ]:
        subprocess.run(
            [
                dyng_cli,
                "prep",
                "mtx2csr",
                os.path.join(INPUTS, file),
                os.path.join(MTX2CSR, prefix),
                str(k),
                str(lo),
                str(hi),
                str(seed),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )


def main():
    write_inputs()
    write_mm_variants()
    with open(os.path.join(HERE, "expected_reads.json"), "w") as f:
        json.dump(expected_reads(), f, indent=1)
    scratch = os.path.join(HERE, ".scratch")
    os.makedirs(scratch, exist_ok=True)
    try:
        with open(os.path.join(HERE, "expected_errors.json"), "w") as f:
            json.dump(expected_errors(scratch), f, indent=1)
    finally:
        shutil.rmtree(scratch)
    write_files()
    run_mtx2csr()


if __name__ == "__main__":
    main()

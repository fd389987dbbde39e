"""Writes legacy_cases.npz: batches of dyng 0.2.0's generators.legacy for many graphs, seeds and
options, which tests/python/test_generators_legacy.py replays against this dyng.

Run with an interpreter that has dyng 0.2.0 installed (the tests themselves do not need it):

    python tests/data/generators/make_legacy_cases.py [--out PATH]

Every graph is written as its edge list and construction keywords, so the tests rebuild exactly
the graph that 0.2.0 saw; 0.2.0's to_csr() of it is written too, since both generators read
the rows in that order. A call that raises is recorded by its error class.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys

import numpy as np


def _graphs():
    """(name, keywords of Graph.from_edges, edge arrays) of the compared graphs."""
    rng = np.random.default_rng(20260)
    out = []

    def add(
        name,
        n,
        m,
        k,
        *,
        directed=True,
        properties="default",
        self_loops=True,
        weight_max=30,
        vertex_dtype="int32",
    ):
        src = rng.integers(0, n, m)
        dst = rng.integers(0, n, m)
        if not self_loops:
            keep = src != dst
            src, dst = src[keep], dst[keep]
        weights = rng.integers(1, weight_max + 1, (len(src), k)).tolist() if k else None
        kw = {
            "num_vertices": n,
            "directed": directed,
            "properties": properties,
            "vertex_dtype": vertex_dtype,
        }
        out.append((name, kw, src.tolist(), dst.tolist(), weights))

    out.append(
        (
            "ring4",
            {"num_vertices": 4, "directed": True, "properties": "default", "vertex_dtype": "int32"},
            [0, 1, 2, 3],
            [1, 2, 3, 0],
            [[3], [4], [5], [6]],
        )
    )
    add("dir12_k2", 12, 40, 2)
    add("undir15_k1", 15, 30, 1, directed=False)
    add("multi20_k3", 20, 70, 3, properties="mosp_compatible")
    add("dir30_k4_wide", 30, 60, 4, weight_max=1000, vertex_dtype="int64")
    add("sparse25_k1", 25, 22, 1)
    add("undir_multi14_k2", 14, 30, 2, directed=False, properties="mosp_compatible")
    add("dense8_k1", 8, 45, 1, self_loops=False)
    add("unweighted16", 16, 40, 0)
    add("unweighted_undir10", 10, 18, 0, directed=False, properties="cycle_enum_compatible")
    return out


def _build(dyng, kw, src, dst, weights):
    kw = dict(kw)
    props = kw.pop("properties")
    w = None if weights is None else np.asarray(weights, dtype=np.int32)
    return dyng.Graph.from_edges(np.asarray(src), np.asarray(dst), w, properties=props, **kw)


def _batch_dict(batch):
    w = batch.insert_weights
    return {
        "insert_src": batch.insert_src.tolist(),
        "insert_dst": batch.insert_dst.tolist(),
        "insert_weights": None if w is None else w.tolist(),
        "delete_src": batch.delete_src.tolist(),
        "delete_dst": batch.delete_dst.tolist(),
        "dtypes": [
            str(batch.insert_src.dtype),
            str(batch.delete_src.dtype),
            None if w is None else str(w.dtype),
        ],
        "weights_shape": None if w is None else list(w.shape),
    }


def _call(function, graph, args):
    try:
        result = function(graph, **args)
    except Exception as error:  # recorded: the tests expect the same class
        return {"error": type(error).__name__}
    if isinstance(result, tuple):
        batch, report = result
        out = _batch_dict(batch)
        out["report"] = {
            f: getattr(report, f)
            for f in (
                "inserts",
                "reweights",
                "deletes",
                "requested_deletes",
                "safe_rounds",
                "safe",
                "centre",
                "local_hops",
                "region",
                "summary",
            )
        }
        return out
    return _batch_dict(result)


def _mosp_args(rng):
    """Argument sets: every mode, with and without locality and the safety filter."""
    sets = []
    for mode in ("uniform", "targeted", "reweight", "increase"):
        for variant in range(6):
            args = {
                "num_changes": int(rng.integers(0, 16)),
                "mode": mode,
                "seed": int(rng.integers(0, 2**32)),
            }
            if variant in (1, 4):
                args["safe_deletions"] = True
            if variant in (2, 4):
                args["local_hops"] = int(rng.integers(1, 3))
            if variant == 3:
                args["insertion_percentage"] = float(rng.choice([0.0, 12.5, 33.3, 100.0, 250.0]))
                args["weight_min"] = int(rng.integers(1, 20))
                args["weight_max"] = args["weight_min"] + int(rng.integers(0, 50))
            if variant == 5:
                args["source"] = int(rng.integers(0, 4))
                args["safe_deletions"] = True
                args["insertion_percentage"] = 20.0
            sets.append(args)
    return sets


def _cycle_args(rng):
    sets = []
    for window in (None, None, 0, 3, 5, -1, 10**6):
        args = {
            "num_deletions": int(rng.integers(0, 8)),
            "num_insertions": int(rng.integers(0, 8)),
            "seed": int(rng.integers(0, 2**63)) * 2 + int(rng.integers(0, 2)),
        }
        if window is not None:
            args["locality_window"] = window
        sets.append(args)
    return sets


def _edge_args():
    """Odd and bad arguments, on ring4 and unweighted16: 0.2.0's answer or its error class."""
    mosp = [
        {"num_changes": -1},
        {"num_changes": 0},
        {"num_changes": 2**31},
        {"num_changes": 2**70},
        {"num_changes": 2.0},
        {"num_changes": True},
        {"num_changes": "2"},
        {"num_changes": 2, "weight_min": 5, "weight_max": 4},
        {"num_changes": 2, "weight_min": 0},
        {"num_changes": 2, "weight_min": -3, "weight_max": 4},
        {"num_changes": 2, "weight_min": True},
        {"num_changes": 2, "weight_min": 1.0},
        {"num_changes": 2, "weight_max": 2**31},
        {"num_changes": 2, "weight_max": 2**31 - 1},
        {"num_changes": 2, "mode": "foo"},
        {"num_changes": 2, "mode": 3},
        {"num_changes": 2, "mode": None},
        {"num_changes": 2, "mode": "UNIFORM"},
        {"num_changes": 2, "source": 4},
        {"num_changes": 2, "source": -1},
        {"num_changes": 2, "source": 2**40},
        {"num_changes": 2, "source": 0.0},
        {"num_changes": 4, "insertion_percentage": 150},
        {"num_changes": 4, "insertion_percentage": -5},
        {"num_changes": 4, "insertion_percentage": float("nan")},
        {"num_changes": 4, "insertion_percentage": float("inf")},
        {"num_changes": 4, "insertion_percentage": 1e30},
        {"num_changes": 4, "insertion_percentage": True},
        {"num_changes": 4, "insertion_percentage": "75"},
        {"num_changes": 4, "insertion_percentage": "many"},
        {"num_changes": 4, "insertion_percentage": None},
        {"num_changes": 2, "seed": -1},
        {"num_changes": 2, "seed": 2**32},
        {"num_changes": 2, "seed": 2**32 - 1},
        {"num_changes": 2, "seed": 1.0},
        {"num_changes": 2, "seed": True},
        {"num_changes": 2, "local_hops": -1},
        {"num_changes": 2, "local_hops": 2**40},
        {"num_changes": 2, "local_hops": 2**70},
        {"num_changes": 2, "local_hops": 1.0},
        {"num_changes": 2, "safe_deletions": 1},
        {"num_changes": 2, "safe_deletions": "yes"},
        {"num_changes": 2, "safe_deletions": None},
        {"num_changes": 2, "mode": "increase", "weight_max": 2**31 - 1},
    ]
    cycle = [
        {"num_deletions": -1},
        {"num_insertions": -1},
        {"num_deletions": 5},
        {"num_insertions": 9},
        {"num_insertions": 8},
        {"num_deletions": 4},
        {"num_deletions": 2**70},
        {"num_deletions": 1.0},
        {"num_deletions": True},
        {"num_insertions": "1"},
        {"num_insertions": 1, "seed": -1},
        {"num_insertions": 1, "seed": 2**64},
        {"num_insertions": 1, "seed": 2**64 - 1},
        {"num_insertions": 1, "seed": 1.0},
        {"num_insertions": 1, "seed": True},
        {"num_insertions": 1, "locality_window": 0},
        {"num_insertions": 1, "locality_window": -1},
        {"num_insertions": 1, "locality_window": 1},
        {"num_insertions": 1, "locality_window": 2.0},
        {"num_insertions": 1, "locality_window": True},
        {"num_insertions": 1, "locality_window": 2**40},
        {"num_insertions": 1, "locality_window": 2**70},
        {"num_insertions": 3, "locality_window": 2},
    ]
    return mosp, cycle


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(pathlib.Path(__file__).with_name("legacy_cases.npz")))
    parser.add_argument("--rounds", type=int, default=6, help="argument sets drawn per graph")
    args = parser.parse_args(argv)

    import dyng
    from dyng.generators import legacy

    rng = np.random.default_rng(7)
    graphs, cases = [], []
    for name, kw, src, dst, weights in _graphs():
        graph = _build(dyng, kw, src, dst, weights)
        csr = graph.to_csr()
        graphs.append(
            {
                "name": name,
                "keywords": kw,
                "src": src,
                "dst": dst,
                "weights": weights,
                "csr": [csr.row_ptr.tolist(), csr.col_ind.tolist()],
            }
        )
        for _ in range(args.rounds):
            if weights is not None:
                for call_args in _mosp_args(rng):
                    cases.append(
                        {
                            "graph": name,
                            "function": "mosp_changes",
                            "args": call_args,
                            "expected": _call(legacy.mosp_changes, graph, call_args),
                        }
                    )
            for call_args in _cycle_args(rng):
                cases.append(
                    {
                        "graph": name,
                        "function": "cycle_enum_batch",
                        "args": call_args,
                        "expected": _call(legacy.cycle_enum_batch, graph, call_args),
                    }
                )
        print(f"{name}: {len(cases)} cases so far", file=sys.stderr)
    built = {
        g["name"]: _build(dyng, g["keywords"], g["src"], g["dst"], g["weights"]) for g in graphs
    }
    mosp_edges, cycle_edges = _edge_args()
    for name in ("ring4", "unweighted16"):
        for call_args in mosp_edges:
            cases.append(
                {
                    "graph": name,
                    "function": "mosp_changes",
                    "args": call_args,
                    "expected": _call(legacy.mosp_changes, built[name], call_args),
                }
            )
        for call_args in cycle_edges:
            cases.append(
                {
                    "graph": name,
                    "function": "cycle_enum_batch",
                    "args": call_args,
                    "expected": _call(legacy.cycle_enum_batch, built[name], call_args),
                }
            )
    tiny = dyng.Graph.from_edges([0], [0], [1])
    graphs.append(
        {
            "name": "one_vertex",
            "keywords": {
                "num_vertices": 1,
                "directed": True,
                "properties": "default",
                "vertex_dtype": "int32",
            },
            "src": [0],
            "dst": [0],
            "weights": [[1]],
            "csr": [[0, 1], [0]],
        }
    )
    for function, call_args in (
        ("mosp_changes", {"num_changes": 0}),
        ("cycle_enum_batch", {"num_insertions": 1}),
        ("cycle_enum_batch", {}),
    ):
        cases.append(
            {
                "graph": "one_vertex",
                "function": function,
                "args": call_args,
                "expected": _call(getattr(legacy, function), tiny, call_args),
            }
        )
    data = json.dumps(
        {"dyng_version": dyng.__version__, "graphs": graphs, "cases": cases}, separators=(",", ":")
    )
    np.savez_compressed(args.out, cases=np.array(data))
    errors = sum("error" in c["expected"] for c in cases)
    print(f"wrote {len(cases)} cases ({errors} raising) to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()

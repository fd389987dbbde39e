"""Tests of the pure-Python mosp oracle (dyng.testing.mosp_oracle) on hand-worked examples, and,
when DYNG_REFERENCE_PYTHON names an interpreter with a reference dyng (such as the released
0.2.0), a comparison of that interpreter's mosp.compute and mosp.update with the oracle on ~200
seeded random multigraphs and batches.

The hand-worked tests need no mosp native code. The comparison runs the reference interpreter in
a subprocess: it sees only the reference's public API, and only its outputs come back.
"""

import json
import os
import random
import subprocess
import sys

import numpy as np
import pytest

import dyng
from dyng.testing.mosp_oracle import combined_graph, mosp_path_costs, mosp_reference

INF = 2**61 - 1

# The verified 0.2.0 example: five vertices, three objectives, two parallel 0 -> 1 edges.
FACT_SRC = [0, 0, 0, 1, 2, 1, 3]
FACT_DST = [1, 1, 2, 3, 3, 2, 4]
FACT_W = [[5, 1, 9], [2, 7, 3], [4, 4, 4], [1, 1, 1], [1, 2, 3], [1, 1, 1], [2, 2, 2]]


def fact_graph():
    return dyng.Graph.from_edges(FACT_SRC, FACT_DST, FACT_W, properties="mosp_compatible")


def edges_of(graph):
    src, dst, w = graph.edges()
    return np.asarray(src).tolist(), np.asarray(dst).tolist(), np.asarray(w).tolist()


# --- hand-worked examples ----------------------------------------------------------------------


def test_verified_example():
    g = fact_graph()
    ref = mosp_reference(g.edges(), g.num_vertices, 0, preferences=[1, 2, 3])
    assert ref.preference_scale == 6
    assert ref.parents == [[-1, 0, 1, 1, 3], [-1, 0, 1, 1, 3], [-1, 0, 0, 1, 3]]
    assert ref.distances == [[0, 2, 3, 3, 5], [0, 1, 2, 2, 4], [0, 3, 4, 4, 6]]
    assert ref.combined == ([0, 2, 4, 4, 5, 5], [1, 2, 2, 3, 4], [[13], [22], [15], [13], [13]])
    assert ref.combined_distances == [0, 13, 22, 26, 39]
    assert ref.combined_parents == [-1, 0, 0, 1, 3]
    # [5, 1, 9]: the first stored 0 -> 1 edge, not the cheaper [2, 7, 3].
    assert ref.path_costs == [[0, 0, 0], [5, 1, 9], [4, 4, 4], [6, 2, 10], [8, 4, 12]]


def test_verified_example_from_plain_lists_in_csr_order():
    # The same edges as graph.edges() lists them (row 1 keeps its append order 3, 2).
    edges = (
        [0, 0, 0, 1, 1, 2, 3],
        [1, 1, 2, 3, 2, 3, 4],
        [[5, 1, 9], [2, 7, 3], [4, 4, 4], [1, 1, 1], [1, 1, 1], [1, 2, 3], [2, 2, 2]],
    )
    assert edges_of(fact_graph()) == edges
    ref = mosp_reference(edges, 5, 0, preferences=[1, 2, 3])
    assert ref.combined_parents == [-1, 0, 0, 1, 3]


def test_parallel_edge_order_decides_the_path_cost():
    # Swapping the two stored 0 -> 1 edges changes nothing but the cost read for 0 -> 1.
    edges = (
        [0, 0, 0, 1, 1, 2, 3],
        [1, 1, 2, 3, 2, 3, 4],
        [[2, 7, 3], [5, 1, 9], [4, 4, 4], [1, 1, 1], [1, 1, 1], [1, 2, 3], [2, 2, 2]],
    )
    ref = mosp_reference(edges, 5, 0, preferences=[1, 2, 3])
    assert ref.combined_parents == [-1, 0, 0, 1, 3]
    assert ref.path_costs[1] == [2, 7, 3]
    assert ref.path_costs[3] == [3, 8, 4]


def test_combined_weights_by_hand():
    # Trees [-1, 0, 1] and [-1, 0, 0], preferences [1, 2]: L = 2, base L * (K' + 1) = 6.
    # (0, 1) is in both trees: 6 - 2 - 1 = 3; (1, 2) only in tree 0: 6 - 2 = 4;
    # (0, 2) only in tree 1: 6 - 1 = 5.
    c = combined_graph([[-1, 0, 1], [-1, 0, 0]], 0, [1, 2])
    assert c.row_ptr.tolist() == [0, 2, 3, 3]
    assert c.col_ind.tolist() == [1, 2, 2]
    assert c.weights.tolist() == [[3], [5], [4]]


def test_combined_graph_dtypes_follow_the_parents():
    c = combined_graph([np.array([-1, 0, 1], np.int32)], 0)
    assert (c.row_ptr.dtype, c.col_ind.dtype, c.weights.dtype) == (np.int64, np.int32, np.int32)
    assert c.weights.shape == (2, 1)
    c = combined_graph([np.array([-1, 0, 1], np.int32), np.array([-1, 0, 0], np.int64)], 0)
    assert c.col_ind.dtype == np.int64
    assert isinstance(c, dyng.CSR)


def test_combined_graph_accepts_a_2d_array_and_ignores_the_source_entry():
    # A parent at the source is not an edge of the combined graph.
    c = combined_graph(np.array([[2, 0, 1]]), 0)
    assert (c.row_ptr.tolist(), c.col_ind.tolist()) == ([0, 1, 2, 2], [1, 2])


def test_combined_graph_single_tree_has_unit_weights():
    # K' = 1, p = [1]: every edge weighs L * 2 - L = 1.
    c = combined_graph([[-1, 0, 0, 2]], 0)
    assert c.weights.tolist() == [[1], [1], [1]]


def test_combined_graph_edge_weight_bounds_with_64_trees():
    # 64 trees sharing every edge, the last preferring 2: L = 2, 2 * 65 - (63 * 2 + 1) = 3.
    c = combined_graph([[-1, 0, 1]] * 64, 0, [1] * 63 + [2])
    assert c.weights.tolist() == [[3], [3]]


def test_unreachable_vertices():
    # 3 and 4 cannot be reached from 0 (4 -> 3 only).
    edges = ([0, 1, 4], [1, 2, 3], [[1, 2], [1, 1], [1, 1]])
    ref = mosp_reference(edges, 5, 0)
    assert ref.distances == [[0, 1, 2, INF, INF], [0, 2, 3, INF, INF]]
    assert ref.parents == [[-1, 0, 1, -1, -1]] * 2
    assert ref.combined_distances == [0, 1, 2, INF, INF]
    assert ref.combined_parents == [-1, 0, 1, -1, -1]
    assert ref.path_costs == [[0, 0], [1, 2], [2, 3], [INF, INF], [INF, INF]]


def test_num_objectives_uses_the_first_columns():
    edges = ([0, 0, 1], [1, 2, 2], [[1, 5, 0], [5, 1, 0], [1, 1, 0]])
    ref = mosp_reference(edges, 3, 0, num_objectives=1)
    assert ref.parents == [[-1, 0, 1]]
    assert ref.path_costs == [[0], [1], [2]]
    ref = mosp_reference(edges, 3, 0, num_objectives=2, preferences=[1, 1])
    assert len(ref.parents) == 2 and ref.parents[1] == [-1, 0, 0]


def test_ties_pick_the_lowest_id_parent():
    # 3 is at distance 2 through 1 and through 2 (and through 0 directly): lowest id wins.
    edges = ([0, 0, 0, 1, 2], [1, 2, 3, 3, 3], [[1], [1], [2], [1], [1]])
    ref = mosp_reference(edges, 4, 0)
    assert ref.parents == [[-1, 0, 0, 0]]
    edges = ([0, 0, 1, 2], [2, 1, 3, 3], [[1], [1], [1], [1]])
    assert mosp_reference(edges, 4, 0).parents == [[-1, 0, 0, 1]]


def test_self_loops_and_parallel_edges():
    # The self-loop (1, 1) never parents; the shorter of the parallel 0 -> 1 edges counts.
    edges = ([0, 0, 1, 1], [1, 1, 1, 2], [[4], [1], [1], [1]])
    ref = mosp_reference(edges, 3, 0)
    assert ref.distances == [[0, 1, 2]]
    assert ref.parents == [[-1, 0, 1]]
    assert ref.path_costs == [[0], [4], [5]]  # the first stored 0 -> 1 weighs 4


def test_preferences_change_the_combined_tree():
    # Objective 0 reaches 2 through 1, objective 1 through 3; both use 0 -> 1 and 0 -> 3.
    edges = ([0, 0, 1, 3], [1, 3, 2, 2], [[1, 1], [1, 1], [1, 5], [5, 1]])
    even = mosp_reference(edges, 4, 0)
    assert even.parents == [[-1, 0, 1, 0], [-1, 0, 3, 0]]
    # Equal preferences: both routes to 2 weigh 1 + 2, and the lower id (1) wins the tie.
    assert even.combined_parents == [-1, 0, 1, 0]
    # A smaller preference means a larger discount L // p_k. With [1, 2]: L = 2, base 6;
    # shared edges 6 - 2 - 1 = 3, (1, 2) 6 - 2 = 4, (3, 2) 6 - 1 = 5: through 1 wins.
    first = mosp_reference(edges, 4, 0, preferences=[1, 2])
    assert first.preference_scale == 2
    assert first.combined == ([0, 2, 3, 3, 4], [1, 3, 2, 2], [[3], [3], [4], [5]])
    assert first.combined_distances == [0, 3, 7, 3]
    assert first.combined_parents == [-1, 0, 1, 0]
    assert first.path_costs == [[0, 0], [1, 1], [2, 6], [1, 1]]
    # With [2, 1] the discounts swap and 2 is reached through 3.
    second = mosp_reference(edges, 4, 0, preferences=[2, 1])
    assert second.combined == ([0, 2, 3, 3, 4], [1, 3, 2, 2], [[3], [3], [5], [4]])
    assert second.combined_parents == [-1, 0, 3, 0]
    assert second.path_costs == [[0, 0], [1, 1], [6, 2], [1, 1]]


def test_empty_and_single_vertex_graphs():
    ref = mosp_reference(([], [], np.zeros((0, 2), np.int32)), 1, 0)
    assert ref.distances == [[0], [0]] and ref.parents == [[-1], [-1]]
    assert ref.combined == ([0, 0], [], [])
    assert ref.path_costs == [[0, 0]]


def test_reference_is_frozen():
    ref = mosp_reference(([0], [1], [[1]]), 2, 0)
    with pytest.raises(AttributeError):
        ref.preference_scale = 2


# --- mosp_path_costs on real graphs ------------------------------------------------------------


def test_path_costs_of_the_verified_example():
    costs = mosp_path_costs(fact_graph(), [-1, 0, 0, 1, 3], 0)
    assert costs.dtype == np.int64 and costs.shape == (5, 3)
    assert costs.tolist() == [[0, 0, 0], [5, 1, 9], [4, 4, 4], [6, 2, 10], [8, 4, 12]]
    assert mosp_path_costs(
        fact_graph(), np.array([-1, 0, 0, 1, 3], np.int32), 0, num_objectives=2
    ).tolist() == [[0, 0], [5, 1], [4, 4], [6, 2], [8, 4]]


def test_path_costs_below_an_unreachable_parent_are_infinite():
    g = dyng.Graph.from_edges([0], [1], [[1]], num_vertices=4)
    # 2 hangs below 3, which has no path: no edge (3, 2) is needed for that.
    assert mosp_path_costs(g, [-1, 0, 3, -1], 0).tolist() == [[0], [1], [INF], [INF]]


def test_path_costs_ignore_the_source_entry():
    # The source 1 has parent 0 in the array; it still costs 0, and 0 (no parent) is unreachable.
    g = dyng.Graph.from_edges([0, 1], [1, 2], [[2], [3]])
    assert mosp_path_costs(g, [-1, 0, 1], 1).tolist() == [[INF], [0], [3]]


@pytest.mark.parametrize(
    "parents, match",
    [
        ([-1, 0, 0], r"tree edge \(0, 2\) is not an edge"),
        ([-1, 2, 1], "cycle through vertex"),
        ([-1, 1, 1], "cycle through vertex 1"),
        ([-1, 0, 7], "parent 7 of vertex 2 is out of range"),
        ([-1, 0], "2 parents for 3 vertices"),
        ([-1.0, 0.0, 1.0], "integers"),
    ],
)
def test_path_costs_reject_bad_trees(parents, match):
    g = dyng.Graph.from_edges([0, 1], [1, 2], [[1], [1]])
    with pytest.raises(dyng.InvalidArgumentError, match=match):
        mosp_path_costs(g, parents, 0)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"source": 3}, "source 3 is out of range"),
        ({"source": -1}, "source -1 is out of range"),
        ({"source": 0, "num_objectives": 3}, "num_objectives=3"),
        ({"source": 0, "num_objectives": -1}, "num_objectives=-1"),
    ],
)
def test_path_costs_reject_bad_arguments(kwargs, match):
    g = dyng.Graph.from_edges([0, 1], [1, 2], [[1, 1], [1, 1]])
    with pytest.raises(dyng.InvalidArgumentError, match=match):
        mosp_path_costs(g, [-1, 0, 1], **kwargs)


def test_path_costs_need_weights_and_a_graph():
    with pytest.raises(dyng.NotSupportedError, match="unweighted"):
        mosp_path_costs(dyng.Graph.from_edges([0], [1]), [-1, 0], 0)
    with pytest.raises(TypeError, match="dyng.Graph"):
        mosp_path_costs([1, 2], [-1, 0], 0)


# --- argument checks of the oracle ---------------------------------------------------------------

TWO_COLUMN_EDGES = ([0, 1], [1, 2], [[1, 1], [1, 1]])


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"source": 3}, "source 3 is out of range"),
        ({"num_objectives": 3}, "num_objectives=3"),
        ({"num_objectives": -1}, "num_objectives=-1"),
        ({"preferences": [1]}, "1 preferences for 2 objectives"),
        ({"preferences": [1, 0]}, r"preferences\[1\]=0 is below 1"),
        ({"preferences": [2**20, 3]}, "lcm"),
        ({"preferences": [1.5, 1]}, "integer"),
        ({"preferences": [True, 1]}, "integer"),
    ],
)
def test_reference_rejects_bad_arguments(kwargs, match):
    kwargs.setdefault("source", 0)
    with pytest.raises(dyng.InvalidArgumentError, match=match):
        mosp_reference(TWO_COLUMN_EDGES, 3, **kwargs)


def test_preference_scale_limit_is_inclusive():
    assert (
        mosp_reference(TWO_COLUMN_EDGES, 3, 0, preferences=[2**20, 2**19]).preference_scale == 2**20
    )


def test_reference_checks_weights_only_in_used_columns():
    edges = ([0, 1], [1, 2], [[1, 0], [1, -3]])
    with pytest.raises(dyng.InvalidArgumentError, match="weight 0 < 1"):
        mosp_reference(edges, 3, 0)
    assert mosp_reference(edges, 3, 0, num_objectives=1).distances == [[0, 1, 2]]


def test_reference_needs_weights_and_at_most_64_objectives():
    with pytest.raises(dyng.NotSupportedError, match="unweighted"):
        mosp_reference(([0], [1], None), 2, 0)
    with pytest.raises(dyng.InvalidArgumentError, match="65 objectives"):
        mosp_reference(([0], [1], [[1] * 65]), 2, 0)
    assert len(mosp_reference(([0], [1], [[1] * 65]), 2, 0, num_objectives=64).parents) == 64


def test_reference_rejects_ids_outside_the_vertex_count():
    with pytest.raises(dyng.InvalidArgumentError, match=r"edge 0 \(0, 5\)"):
        mosp_reference(([0], [5], [[1]]), 3, 0)


@pytest.mark.parametrize(
    "parents, match",
    [
        ([], "0 objectives"),
        ([[-1, 0, 1]] * 65, "65 objectives"),
        ([[-1, 0, 1], [-1, 0]], "different vertex counts"),
        ([[-1, 0, 5]], "parent 5 of vertex 2"),
        ([[-1.0, 0.0, 1.0]], "integers"),
        ([[[-1, 0, 1]]], "1-D"),
    ],
)
def test_combined_graph_rejects_bad_trees(parents, match):
    with pytest.raises(dyng.InvalidArgumentError, match=match):
        combined_graph(parents, 0)


def test_combined_graph_rejects_bad_preferences_and_sources():
    with pytest.raises(dyng.InvalidArgumentError, match="2 preferences for 1 objectives"):
        combined_graph([[-1, 0, 1]], 0, [1, 2])
    with pytest.raises(dyng.InvalidArgumentError, match="below 1"):
        combined_graph([[-1, 0, 1]], 0, [0])
    with pytest.raises(dyng.InvalidArgumentError, match="source"):
        combined_graph([[-1, 0, 1]], 1.0)


# --- comparison with a reference dyng in another interpreter -------------------------------------

REFERENCE_PYTHON = os.environ.get("DYNG_REFERENCE_PYTHON")

#: Runs under the reference interpreter: builds every case's graph, computes mosp, applies the
#: batches with mosp.update, and prints each state (edges, results) as JSON. It uses only the
#: public API of the dyng it finds.
REFERENCE_SCRIPT = r"""
import json, sys
import numpy as np
import dyng
from dyng import mosp

def ids(values):
    return np.asarray(values, dtype=np.int32).reshape(len(values))

def weights(rows, k):
    return np.asarray(rows, dtype=np.int32).reshape(len(rows), k)

def arrays(r):
    k = r.num_objectives
    return {"distances": [r.distances(i).tolist() for i in range(k)],
            "parents": [r.parents(i).tolist() for i in range(k)],
            "combined_distances": r.combined_distances.tolist(),
            "combined_parents": r.combined_parents.tolist(),
            "path_costs": np.asarray(r.path_costs).tolist(),
            "preference_scale": int(r.preference_scale),
            "num_objectives": int(k)}

def snapshot(g, r, case, stats=None):
    src, dst, w = g.edges()
    state = {"edges": [src.tolist(), dst.tolist(), np.asarray(w).tolist()],
             "num_vertices": int(g.num_vertices), "result": arrays(r)}
    kw = {} if case["preferences"] is None else {"preferences": case["preferences"]}
    fresh = mosp.compute(g, case["source"], num_objectives=case["num_objectives"], **kw)
    state["fresh"] = arrays(fresh)
    parents = [r.parents(i) for i in range(r.num_objectives)]
    c = dyng.testing.combined_graph(parents, case["source"], case["preferences"])
    state["testing_combined"] = [np.asarray(x).tolist() for x in c]
    state["testing_path_costs"] = dyng.testing.mosp_path_costs(
        g, r.combined_parents, case["source"], num_objectives=case["num_objectives"]).tolist()
    if stats is not None:
        state["stats"] = {"combined_edges": int(stats.combined_edges),
                          "preference_scale": int(stats.preference_scale),
                          "objectives": len(stats.objectives)}
    return state

def run(case):
    k = case["num_weights"]
    g = dyng.Graph.from_edges(ids(case["src"]), ids(case["dst"]), weights(case["weights"], k),
                              num_vertices=case["num_vertices"], properties=case["properties"])
    kw = {} if case["preferences"] is None else {"preferences": case["preferences"]}
    r = mosp.compute(g, case["source"], num_objectives=case["num_objectives"], **kw)
    states = [snapshot(g, r, case)]
    for b in case["batches"]:
        batch = dyng.EdgeBatch(insert=(ids(b["insert_src"]), ids(b["insert_dst"]),
                                       weights(b["insert_weights"], k)),
                               delete=(ids(b["delete_src"]), ids(b["delete_dst"])))
        stats = mosp.update(g, batch, r)
        states.append(snapshot(g, r, case, stats))
    return states

out = []
for case in json.load(sys.stdin):
    try:
        out.append({"states": run(case)})
    except Exception as exc:
        out.append({"error": f"{type(exc).__name__}: {exc}"})
json.dump(out, sys.stdout)
"""


def random_case(rng: random.Random) -> dict:
    """One small multigraph (ties, parallel edges, self-loops, unreachable vertices) with a source,
    preferences and up to three batches (K-weight insertions, deletions of existing and missing
    edges, duplicates, upserts of parallel edges, vertex growth)."""
    n = rng.randint(1, 12)
    k = rng.randint(1, 4)
    top = rng.choice([2, 3, 9, 9])  # small ranges make ties common, wide ones conflicting trees
    # Half the graphs have no edge from [0, reach) to the vertices above: unreachable ones.
    reach = n if rng.random() < 0.5 else rng.randint(1, n)
    src, dst = [], []
    for _ in range(rng.randint(0, 4 * n)):
        if src and rng.random() < 0.2:
            i = rng.randrange(len(src))  # a parallel edge
            u, v = src[i], dst[i]
        else:
            u = rng.randrange(n)
            v = rng.randrange(reach) if u < reach else rng.randrange(n)
        src.append(u)
        dst.append(v)
    row = lambda: [rng.randint(1, top) for _ in range(k)]  # noqa: E731
    count = 0 if rng.random() < 0.6 else rng.randint(1, k)
    used = count or k
    prefs = None if rng.random() < 0.3 else [rng.randint(1, 6) for _ in range(used)]
    case = {
        "num_vertices": n,
        "num_weights": k,
        "src": src,
        "dst": dst,
        "weights": [row() for _ in src],
        "source": rng.randrange(n),
        "num_objectives": count,
        "preferences": prefs,
        "properties": "mosp_compatible" if rng.random() < 0.8 else "default",
        "batches": [],
    }
    for _ in range(rng.randint(0, 3)):
        case["batches"].append(random_batch(rng, n, src, dst, row))
    return case


def random_batch(rng, n, src, dst, row) -> dict:
    pairs = list(zip(src, dst))
    ins, dels = [], []
    for _ in range(rng.randint(0, 6)):
        kind = rng.random()
        if pairs and kind < 0.4:
            dels.append(rng.choice(pairs))  # an existing edge (the first parallel one goes)
        elif dels and kind < 0.55:
            dels.append(rng.choice(dels))  # a duplicate deletion
        else:
            dels.append((rng.randrange(n), rng.randrange(n)))  # usually missing
    for _ in range(rng.randint(0, 6)):
        kind = rng.random()
        if pairs and kind < 0.3:
            ins.append(rng.choice(pairs))  # an upsert of an existing (first parallel) edge
        elif ins and kind < 0.45:
            ins.append(rng.choice(ins))  # a duplicate insertion
        elif dels and kind < 0.6:
            ins.append(rng.choice(dels))  # re-insert what this batch deletes
        else:
            ins.append((rng.randrange(n + 2), rng.randrange(n + 2)))  # may grow the vertex set
    return {
        "insert_src": [u for u, _ in ins],
        "insert_dst": [v for _, v in ins],
        "insert_weights": [row() for _ in ins],
        "delete_src": [u for u, _ in dels],
        "delete_dst": [v for _, v in dels],
    }


def run_reference(python: str, cases: list) -> list:
    # -I: isolated from PYTHONPATH and friends, so the reference sees only its own dyng.
    done = subprocess.run(
        [python, "-I", "-c", REFERENCE_SCRIPT],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        timeout=600,
        cwd="/",
    )
    assert done.returncode == 0, f"reference interpreter failed:\n{done.stderr[-4000:]}"
    return json.loads(done.stdout)


def oracle_state(state, case) -> dict:
    src, dst, rows = state["edges"]
    # Through JSON an empty (0, K) weight array loses its K: restore the shape.
    weights = np.asarray(rows, dtype=np.int64).reshape(len(src), case["num_weights"])
    ref = mosp_reference(
        (src, dst, weights),
        state["num_vertices"],
        case["source"],
        case["preferences"],
        case["num_objectives"],
    )
    return {
        "distances": ref.distances,
        "parents": ref.parents,
        "combined_distances": ref.combined_distances,
        "combined_parents": ref.combined_parents,
        "path_costs": ref.path_costs,
        "preference_scale": ref.preference_scale,
        "num_objectives": len(ref.parents),
        "combined": [list(x) for x in ref.combined],
    }


def differences(state, case) -> list[str]:
    """What the reference's state gets differently from the oracle (empty when they agree)."""
    want = oracle_state(state, case)
    found = []
    for origin in ("result", "fresh"):
        for name, value in state[origin].items():
            if value != want[name]:
                found.append(f"{origin}.{name}: reference {value} != oracle {want[name]}")
    if state["testing_combined"] != want["combined"]:
        found.append(f"testing.combined_graph: {state['testing_combined']} != {want['combined']}")
    # The public combined_graph() of the oracle, on the reference's own trees.
    mine = [
        x.tolist()
        for x in combined_graph(state["result"]["parents"], case["source"], case["preferences"])
    ]
    if mine != state["testing_combined"]:
        found.append(f"oracle combined_graph: {mine} != reference {state['testing_combined']}")
    if state["testing_path_costs"] != want["path_costs"]:
        found.append(
            f"testing.mosp_path_costs: {state['testing_path_costs']} != {want['path_costs']}"
        )
    stats = state.get("stats")
    if stats is not None:
        expected = {
            "combined_edges": len(want["combined"][1]),
            "preference_scale": want["preference_scale"],
            "objectives": want["num_objectives"],
        }
        if stats != expected:
            found.append(f"stats {stats} != {expected}")
    return found


def compare_with_reference(python: str, seed: int = 20250, num_cases: int = 200):
    """(states compared, states that agreed, disagreements) for num_cases seeded cases; each
    disagreement is (case, step, differences), step 0 being compute and i the i-th update."""
    rng = random.Random(seed)
    cases = [random_case(rng) for _ in range(num_cases)]
    compared = agreed = 0
    disagreements = []
    for case, outcome in zip(cases, run_reference(python, cases)):
        if "error" in outcome:
            disagreements.append((case, None, [outcome["error"]]))
            continue
        for step, state in enumerate(outcome["states"]):
            compared += 1
            found = differences(state, case)
            if found:
                disagreements.append((case, step, found))
            else:
                agreed += 1
    return compared, agreed, disagreements


@pytest.mark.skipif(
    not REFERENCE_PYTHON,
    reason="set DYNG_REFERENCE_PYTHON to an interpreter "
    "with a reference dyng (e.g. 0.2.0) to compare mosp with the oracle",
)
def test_reference_dyng_agrees_with_the_oracle():
    compared, agreed, disagreements = compare_with_reference(REFERENCE_PYTHON)
    report = "\n".join(
        f"case {json.dumps(case)}\n  step {step}: " + "\n  ".join(found)
        for case, step, found in disagreements[:3]
    )
    assert not disagreements, (
        f"{len(disagreements)} disagreements ({agreed} of {compared} "
        f"states agreed); first ones:\n{report}"
    )
    assert compared >= 200


if __name__ == "__main__":
    # python tests/python/test_mosp_oracle.py /path/to/reference/python: prints the figures.
    compared, agreed, disagreements = compare_with_reference(sys.argv[1])
    print(f"states compared: {compared}, agreed: {agreed}, disagreements: {len(disagreements)}")
    for case, step, found in disagreements:
        print(json.dumps(case), step, found, sep="\n  ")

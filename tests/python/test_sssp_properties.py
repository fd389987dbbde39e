"""Property tests: after sssp.update the result equals a fresh sssp.compute bit for bit, on both
host backends, and equals the pure-Python oracle; the batch counters equal the model's.

Graphs and batches come from dyng.testing.strategies, which aims at the hard cases: cut tree
edges, missing deletions, duplicates, self-loops, insert+delete of one edge, vertex growth and
tight low-id insertions that must move canonical parents.
"""

import numpy as np
import pytest
from _helpers import HOST_BACKENDS, make_resources, scaled_examples, summary_dict
from hypothesis import event, given
from hypothesis import strategies as st

import dyng
from dyng import sssp
from dyng.testing import check_sssp_tree
from dyng.testing.oracles import GraphModel, dijkstra
from dyng.testing.strategies import batches, graphs

COMBOS = {
    "i32i32": ({}, np.int32),
    "i32i64": ({"edge_dtype": "int64"}, np.int32),
    "i64i64": ({"vertex_dtype": "int64"}, np.int32),
    # int64 arrays without a dtype keyword must give an int64 graph (never narrowed).
    "i64_arrays": ({}, np.int64),
}


def assert_same_tree(r, fresh, context):
    for name in ("distances", "parents"):
        got, want = np.asarray(getattr(r, name)), np.asarray(getattr(fresh, name))
        assert got.dtype == want.dtype, f"{context}: {name} dtype {got.dtype} != {want.dtype}"
        assert got.tolist() == want.tolist(), (
            f"{context}: {name} after update {got.tolist()} != fresh {want.tolist()}"
        )


def check_result(g, r, model, source, context):
    """r equals a fresh compute on every host backend and the oracle; the tree checks out."""
    for name in HOST_BACKENDS:
        fresh = sssp.compute(g, source, resources=make_resources(name))
        assert_same_tree(r, fresh, f"{context}, fresh compute on {name}")
    dist, parents = dijkstra(model, source)
    assert np.asarray(r.distances).tolist() == dist, f"{context}: distances differ from the oracle"
    assert np.asarray(r.parents).tolist() == parents, f"{context}: parents differ from the oracle"
    check = check_sssp_tree(g, r)
    assert check, f"{context}: {check.summary}"


def run_sequence(rg, data, *, directed, combo="i32i32", num_batches=1, **batch_kw):
    kw, id_dtype = COMBOS[combo]
    model = rg.model(directed=directed)
    source = data.draw(st.integers(0, rg.num_vertices - 1), label="source")
    # One graph per backend, so that each backend's update path runs on its own copy.
    graphs_ = {
        name: rg.to_graph(directed=directed, id_dtype=id_dtype, **kw) for name in HOST_BACKENDS
    }
    results = {
        name: sssp.compute(g, source, resources=make_resources(name)) for name, g in graphs_.items()
    }
    if combo in ("i64i64", "i64_arrays"):
        assert all(np.dtype(g.vertex_dtype) == np.int64 for g in graphs_.values())
    for step in range(num_batches):
        rb = data.draw(batches(model, source=source, **batch_kw), label=f"batch {step}")
        expected = rb.apply_to(model)
        for name, g in graphs_.items():
            r = results[name]
            stats = sssp.update(
                g, rb.to_batch(id_dtype=id_dtype), r, resources=make_resources(name)
            )
            context = f"batch {step} on {name}"
            # Shown by --hypothesis-show-statistics: how often each update path ran.
            event(f"update path: {stats.path}")
            assert summary_dict(stats.batch) == expected.as_dict(), context
            assert g.version == r.graph_version == step + 1, context
            assert g.num_vertices == model.num_vertices, context
            check_result(g, r, model, source, context)


@given(rg=graphs(max_vertices=10, max_edges=30), data=st.data(), directed=st.booleans())
def test_single_batch(rg, data, directed):
    run_sequence(rg, data, directed=directed)


@given(
    rg=graphs(max_vertices=10, max_edges=30),
    data=st.data(),
    directed=st.booleans(),
    num_batches=st.integers(2, 5),
)
def test_batch_sequences(rg, data, directed, num_batches):
    run_sequence(rg, data, directed=directed, num_batches=num_batches)


@pytest.mark.parametrize("combo", sorted(COMBOS))
@given(rg=graphs(max_vertices=9, max_edges=25), data=st.data())
@scaled_examples(0.25)
def test_type_combos(combo, rg, data):
    run_sequence(rg, data, directed=data.draw(st.booleans()), combo=combo, num_batches=2)


@given(rg=graphs(min_vertices=2, max_vertices=12, max_edges=40), data=st.data())
def test_deletions_only(rg, data):
    run_sequence(
        rg,
        data,
        directed=data.draw(st.booleans()),
        num_batches=2,
        max_insertions=0,
        max_deletions=12,
    )


@given(rg=graphs(max_vertices=12, max_edges=30), data=st.data())
def test_insertions_only(rg, data):
    run_sequence(
        rg,
        data,
        directed=data.draw(st.booleans()),
        num_batches=2,
        max_insertions=12,
        max_deletions=0,
    )


@given(rg=graphs(min_vertices=10, max_vertices=40, max_edges=160), data=st.data())
@scaled_examples(0.25)
def test_larger_graphs(rg, data):
    run_sequence(
        rg,
        data,
        directed=data.draw(st.booleans()),
        num_batches=3,
        max_insertions=25,
        max_deletions=25,
    )


@given(rg=graphs(min_vertices=20, max_vertices=60, max_edges=240), data=st.data())
@scaled_examples(0.34)
def test_small_batches_on_larger_graphs(rg, data):
    # Small batches on bigger graphs keep update() on its incremental path (not the fallback).
    run_sequence(
        rg,
        data,
        directed=data.draw(st.booleans()),
        num_batches=4,
        max_insertions=3,
        max_deletions=3,
    )


@given(rg=graphs(max_vertices=10, max_edges=30, self_loops=False), data=st.data())
@scaled_examples(0.34)
def test_int64_batch_ids_on_int32_graph(rg, data):
    # Batch ids arrive as int64 arrays and are cast to the graph's int32 with range checks.
    g = rg.to_graph()
    model = rg.model()
    r = sssp.compute(g, 0)
    rb = data.draw(batches(model))
    rb.apply_to(model)
    sssp.update(g, rb.to_batch(id_dtype=np.int64), r)
    assert np.dtype(g.vertex_dtype) == np.int32
    assert np.asarray(r.distances).tolist() == dijkstra(model, 0)[0]


@given(rg=graphs(min_vertices=3, max_vertices=10, max_edges=30), data=st.data())
@scaled_examples(0.42)
def test_module_update_several_results(rg, data):
    g = rg.to_graph(directed=data.draw(st.booleans(), label="directed"))
    model = rg.model(directed=g.directed)
    sources = data.draw(
        st.lists(st.integers(0, rg.num_vertices - 1), min_size=2, max_size=3, unique=True),
        label="sources",
    )
    res = data.draw(st.sampled_from(HOST_BACKENDS), label="backend")
    results = [sssp.compute(g, s, resources=make_resources(res)) for s in sources]
    for step in range(2):
        rb = data.draw(batches(model, source=sources[0]), label=f"batch {step}")
        expected = rb.apply_to(model)
        stats = dyng.update(g, rb.to_batch(), *results, resources=make_resources(res))
        assert len(stats) == len(results)
        assert g.version == step + 1
        for s, r, st_ in zip(sources, results, stats):
            assert summary_dict(st_.batch) == expected.as_dict()
            check_result(g, r, model, s, f"batch {step}, source {s}")


@given(rg=graphs(max_vertices=10, max_edges=30), data=st.data())
@scaled_examples(0.5)
def test_parallel_edge_graphs(rg, data):
    """mosp_compatible graphs (append order, parallel edges kept): no model for the edge
    multiset, so the update is judged against fresh computes and the independent tree check."""
    source = data.draw(st.integers(0, rg.num_vertices - 1), label="source")
    name = data.draw(st.sampled_from(HOST_BACKENDS), label="backend")
    g = rg.to_graph(properties="mosp_compatible", multi_edges="allow")
    assert g.num_edges == len(rg.src)
    r = sssp.compute(g, source, resources=make_resources(name))
    model = rg.model()
    for step in range(3):
        rb = data.draw(batches(model, source=source), label=f"batch {step}")
        rb.apply_to(model)
        sssp.update(g, rb.to_batch(), r, resources=make_resources(name))
        g.check_integrity()
        for other in HOST_BACKENDS:
            assert_same_tree(
                r,
                sssp.compute(g, source, resources=make_resources(other)),
                f"batch {step} on {name}, fresh on {other}",
            )
        check = check_sssp_tree(g, r)
        assert check, check.summary


@given(rg=graphs(max_vertices=10, max_edges=30), data=st.data())
@scaled_examples(0.5)
def test_graphs_built_from_csr(rg, data):
    built = rg.to_graph()
    csr = built.to_csr()
    g = dyng.Graph.from_csr(csr.row_ptr, csr.col_ind, csr.weights)
    model = rg.model()
    source = data.draw(st.integers(0, rg.num_vertices - 1), label="source")
    r = sssp.compute(g, source)
    rb = data.draw(batches(model, source=source))
    rb.apply_to(model)
    sssp.update(g, rb.to_batch(), r)
    check_result(g, r, model, source, "from_csr graph")


@given(rg=graphs(max_vertices=10, max_edges=30, max_weight=2**31 - 1), data=st.data())
@scaled_examples(0.5)
def test_huge_weights(rg, data):
    # Path lengths far beyond int32 and a delta chosen from huge weights.
    run_sequence(rg, data, directed=data.draw(st.booleans()), num_batches=2, max_weight=2**31 - 1)


@given(rg=graphs(max_vertices=10, max_edges=30), data=st.data())
@scaled_examples(0.5)
def test_second_objective(rg, data):
    """K = 2: the result follows column 1 only, whatever column 0 holds."""
    second = [(3 * w) % 7 + 1 for w in rg.weights]
    weights = np.array(list(zip(rg.weights, second)), dtype=np.int32).reshape(len(second), 2)
    g = dyng.Graph.from_edges(
        np.array(rg.src, np.int32),
        np.array(rg.dst, np.int32),
        weights,
        num_vertices=rg.num_vertices,
    )
    model = GraphModel(rg.num_vertices, rg.src, rg.dst, weights)
    source = data.draw(st.integers(0, rg.num_vertices - 1), label="source")
    name = data.draw(st.sampled_from(HOST_BACKENDS), label="backend")
    r = sssp.compute(g, source, objective=1, resources=make_resources(name))
    for step in range(2):
        rb = data.draw(batches(model), label=f"batch {step}")
        w2 = [[w, data.draw(st.integers(1, 9))] for w in rb.insert_weights]
        model.apply(rb.insert_src, rb.insert_dst, w2, rb.delete_src, rb.delete_dst)
        batch = dyng.EdgeBatch(
            insert=(
                np.array(rb.insert_src, np.int32),
                np.array(rb.insert_dst, np.int32),
                np.array(w2, np.int32).reshape(len(w2), 2),
            ),
            delete=(np.array(rb.delete_src, np.int32), np.array(rb.delete_dst, np.int32)),
        )
        sssp.update(g, batch, r, resources=make_resources(name))
        dist, parents = dijkstra(model, source, objective=1)
        assert np.asarray(r.distances).tolist() == dist, f"batch {step}"
        assert np.asarray(r.parents).tolist() == parents, f"batch {step}"
        assert check_sssp_tree(g, r)

"""Property tests: after mosp.update the result equals a fresh mosp.compute bit for bit, on both
host backends, and equals the pure-Python oracle (dyng.testing.mosp_oracle); the batch counters
equal the model's.

Graphs have K = 1..4 weight columns (weights >= 1). Column 0 and the batches come from
dyng.testing.strategies, which aims at the hard cases (cut tree edges, missing deletions,
duplicates, self-loops, insert+delete of one edge, vertex growth, tight low-id insertions); the
strategy knows one weight column, so each batch is drawn against one objective's projection of
the graph (its tight insertions then move that objective's canonical parents) and the other
columns are drawn beside it. mosp_compatible graphs (append order, parallel edges) have no batch
model: there the oracle reads graph.edges() after each batch.
"""

import numpy as np
import pytest
from hypothesis import event, given
from hypothesis import strategies as st

import dyng

# Skips the whole file until the native mosp lands.
mosp = pytest.importorskip("dyng.mosp")

from _helpers import HOST_BACKENDS, make_resources, scaled_examples, summary_dict  # noqa: E402

from dyng.testing.mosp_oracle import mosp_reference  # noqa: E402
from dyng.testing.oracles import GraphModel  # noqa: E402
from dyng.testing.strategies import batches, graphs  # noqa: E402

COMBOS = {
    "i32i32": ({}, np.int32),
    "i32i64": ({"edge_dtype": "int64"}, np.int32),
    "i64i64": ({"vertex_dtype": "int64"}, np.int32),
}


# --- drawing graphs, settings and batches ------------------------------------------------------


def _small_weight():
    # Mostly 1..3, so that ties (and equal trees across objectives) are common.
    return st.one_of(st.integers(1, 3), st.integers(1, 9))


def draw_weight_rows(data, first_column, num_weights, label):
    """(m, K) rows whose column 0 is first_column and whose other columns are drawn."""
    rows = []
    for w in first_column:
        rows.append([w] + [data.draw(_small_weight(), label=label) for _ in range(num_weights - 1)])
    return rows


def draw_settings(data, num_weights):
    """num_objectives (0 or 1..K) and preferences (None, or one 1..6 per used objective)."""
    count = data.draw(st.one_of(st.just(0), st.integers(1, num_weights)), label="num_objectives")
    used = count or num_weights
    prefs = data.draw(
        st.one_of(st.none(), st.lists(st.integers(1, 6), min_size=used, max_size=used)),
        label="preferences",
    )
    return count, prefs


def weight_array(rows, num_weights):
    return np.asarray(rows, dtype=np.int32).reshape(len(rows), num_weights)


def build_graph(rg, rows, num_weights, *, id_dtype=np.int32, **kw):
    return dyng.Graph.from_edges(
        np.asarray(rg.src, id_dtype),
        np.asarray(rg.dst, id_dtype),
        weight_array(rows, num_weights),
        num_vertices=rg.num_vertices,
        **kw,
    )


def projection(graph, objective):
    """A one-column GraphModel of the graph's current edges (weight column `objective`, the
    lightest of parallel edges): what the batch strategy needs to aim tight insertions."""
    src, dst, w = graph.edges()
    lightest = {}
    for u, v, row in zip(
        np.asarray(src).tolist(), np.asarray(dst).tolist(), np.asarray(w).tolist()
    ):
        lightest[(u, v)] = min(lightest.get((u, v), row[objective]), row[objective])
    pairs = sorted(lightest)
    return GraphModel(
        graph.num_vertices,
        [u for u, _ in pairs],
        [v for _, v in pairs],
        [lightest[p] for p in pairs],
    )


def draw_batch(data, graph, num_weights, source, label, **batch_kw):
    """(insert_src, insert_dst, insert rows (n, K), delete_src, delete_dst) for graph, aimed at
    one drawn objective."""
    objective = data.draw(st.integers(0, num_weights - 1), label=f"{label}: aimed objective")
    rb = data.draw(batches(projection(graph, objective), source=source, **batch_kw), label=label)
    rows = []
    for w in rb.insert_weights:
        row = [data.draw(_small_weight(), label=f"{label}: weights") for _ in range(num_weights)]
        row[objective] = w
        rows.append(row)
    return rb.insert_src, rb.insert_dst, rows, rb.delete_src, rb.delete_dst


def edge_batch(parts, num_weights, id_dtype=np.int32):
    ins_src, ins_dst, rows, del_src, del_dst = parts
    return dyng.EdgeBatch(
        insert=(
            np.asarray(ins_src, id_dtype),
            np.asarray(ins_dst, id_dtype),
            weight_array(rows, num_weights),
        ),
        delete=(np.asarray(del_src, id_dtype), np.asarray(del_dst, id_dtype)),
    )


# --- comparing results -------------------------------------------------------------------------


def result_arrays(r):
    """name -> NumPy array of everything a mosp result holds."""
    arrays = {
        "combined_distances": np.asarray(r.combined_distances),
        "combined_parents": np.asarray(r.combined_parents),
        "path_costs": np.asarray(r.path_costs),
    }
    for k in range(r.num_objectives):
        arrays[f"distances({k})"] = np.asarray(r.distances(k))
        arrays[f"parents({k})"] = np.asarray(r.parents(k))
    return arrays


def assert_same_result(r, fresh, context):
    """Bit for bit: same names, dtypes, shapes and values."""
    got, want = result_arrays(r), result_arrays(fresh)
    assert got.keys() == want.keys(), context
    for name in got:
        assert got[name].dtype == want[name].dtype, f"{context}: {name} dtype"
        assert got[name].shape == want[name].shape, f"{context}: {name} shape"
        assert got[name].tolist() == want[name].tolist(), (
            f"{context}: {name} {got[name].tolist()} != fresh {want[name].tolist()}"
        )
    assert (r.preference_scale, r.num_objectives, r.source) == (
        fresh.preference_scale,
        fresh.num_objectives,
        fresh.source,
    ), context


def assert_matches_oracle(r, ref, context):
    assert r.preference_scale == ref.preference_scale, context
    assert r.num_objectives == len(ref.parents), context
    for k in range(r.num_objectives):
        assert np.asarray(r.distances(k)).tolist() == ref.distances[k], f"{context}: distances({k})"
        assert np.asarray(r.parents(k)).tolist() == ref.parents[k], f"{context}: parents({k})"
    assert np.asarray(r.combined_distances).tolist() == ref.combined_distances, (
        f"{context}: combined_distances"
    )
    assert np.asarray(r.combined_parents).tolist() == ref.combined_parents, (
        f"{context}: combined_parents"
    )
    assert np.asarray(r.path_costs).tolist() == ref.path_costs, f"{context}: path_costs"


def assert_stats_match(stats, ref, expected_summary, context):
    assert len(stats.objectives) == len(ref.parents), context
    assert all(isinstance(s, dyng.sssp.Stats) for s in stats.objectives), context
    assert stats.combined_edges == len(ref.combined[1]), context
    assert stats.preference_scale == ref.preference_scale, context
    if expected_summary is not None:
        assert summary_dict(stats.batch) == expected_summary, context
        for s in stats.objectives:
            assert summary_dict(s.batch) == expected_summary, context


def oracle_of(graph, source, count, prefs):
    return mosp_reference(graph.edges(), graph.num_vertices, source, prefs, count)


def model_edges(model, num_weights):
    """The model's edges as the (src, dst, weights) triple of a sorted CSR."""
    edges = model.sorted_edges()
    weights = np.asarray([w for _, _, w in edges], dtype=np.int64)
    return (
        [u for u, _, _ in edges],
        [v for _, v, _ in edges],
        weights.reshape(len(edges), num_weights),
    )


# --- the properties ----------------------------------------------------------------------------


def run_sequence(rg, data, *, directed=True, combo="i32i32", num_batches=1, **batch_kw):
    """Graphs without parallel edges: the GraphModel gives the batch counters and a second,
    independent edge list for the oracle."""
    kw, id_dtype = COMBOS[combo]
    num_weights = data.draw(st.integers(1, 4), label="K")
    rows = draw_weight_rows(data, rg.weights, num_weights, "weights")
    # An array, not a list: with no edges only its shape tells the model K.
    model = GraphModel(
        rg.num_vertices, rg.src, rg.dst, weight_array(rows, num_weights), directed=directed
    )
    source = data.draw(st.integers(0, rg.num_vertices - 1), label="source")
    count, prefs = draw_settings(data, num_weights)
    options = {"num_objectives": count, **({} if prefs is None else {"preferences": prefs})}
    graphs_ = {
        name: build_graph(rg, rows, num_weights, id_dtype=id_dtype, directed=directed, **kw)
        for name in HOST_BACKENDS
    }
    results = {
        name: mosp.compute(g, source, resources=make_resources(name), **options)
        for name, g in graphs_.items()
    }
    for name, r in results.items():
        assert_matches_oracle(
            r, oracle_of(graphs_[name], source, count, prefs), f"compute on {name}"
        )
    for step in range(num_batches):
        parts = draw_batch(
            data, graphs_[HOST_BACKENDS[0]], num_weights, source, f"batch {step}", **batch_kw
        )
        expected = model.apply(*parts).as_dict()
        ref = mosp_reference(
            model_edges(model, num_weights), model.num_vertices, source, prefs, count
        )
        for name, g in graphs_.items():
            r = results[name]
            stats = mosp.update(
                g, edge_batch(parts, num_weights, id_dtype), r, resources=make_resources(name)
            )
            context = f"batch {step} on {name}"
            event(f"K' = {r.num_objectives}")
            assert g.version == r.graph_version == step + 1, context
            assert g.num_vertices == model.num_vertices, context
            assert_stats_match(stats, ref, expected, context)
            assert_matches_oracle(r, ref, f"{context} (model)")
            assert_matches_oracle(r, oracle_of(g, source, count, prefs), f"{context} (edges)")
            for other in HOST_BACKENDS:
                fresh = mosp.compute(g, source, resources=make_resources(other), **options)
                assert_same_result(r, fresh, f"{context}, fresh compute on {other}")


@given(rg=graphs(max_vertices=10, max_edges=30), data=st.data())
def test_single_batch(rg, data):
    run_sequence(rg, data)


@given(rg=graphs(max_vertices=10, max_edges=30), data=st.data(), num_batches=st.integers(2, 3))
def test_batch_sequences(rg, data, num_batches):
    run_sequence(rg, data, num_batches=num_batches)


@given(rg=graphs(max_vertices=9, max_edges=25), data=st.data())
@scaled_examples(0.34)
def test_undirected_graphs(rg, data):
    run_sequence(rg, data, directed=False, num_batches=2)


@pytest.mark.parametrize("combo", sorted(COMBOS))
@given(rg=graphs(max_vertices=9, max_edges=25), data=st.data())
@scaled_examples(0.25)
def test_type_combos(combo, rg, data):
    run_sequence(rg, data, combo=combo, num_batches=2)


@given(rg=graphs(min_vertices=2, max_vertices=12, max_edges=40), data=st.data())
@scaled_examples(0.5)
def test_deletions_only(rg, data):
    run_sequence(rg, data, num_batches=3, max_insertions=0, max_deletions=12)


@given(rg=graphs(min_vertices=15, max_vertices=40, max_edges=160), data=st.data())
@scaled_examples(0.25)
def test_small_batches_on_larger_graphs(rg, data):
    # Small batches on bigger graphs keep update() on its incremental path.
    run_sequence(rg, data, num_batches=3, max_insertions=3, max_deletions=3)


@given(rg=graphs(max_vertices=10, max_edges=30), data=st.data(), num_batches=st.integers(1, 3))
@scaled_examples(0.5)
def test_parallel_edge_graphs(rg, data, num_batches):
    """mosp_compatible graphs keep every repeated pair as a parallel edge, in append order, and
    batches upsert or delete the first of them; the path costs read the first one too. With no
    model for the edge multiset, the oracle reads graph.edges()."""
    num_weights = data.draw(st.integers(1, 4), label="K")
    rows = draw_weight_rows(data, rg.weights, num_weights, "weights")
    source = data.draw(st.integers(0, rg.num_vertices - 1), label="source")
    count, prefs = draw_settings(data, num_weights)
    options = {"num_objectives": count, **({} if prefs is None else {"preferences": prefs})}
    name = data.draw(st.sampled_from(HOST_BACKENDS), label="backend")
    g = build_graph(rg, rows, num_weights, properties="mosp_compatible")
    assert g.num_edges == len(rg.src)
    r = mosp.compute(g, source, resources=make_resources(name), **options)
    assert_matches_oracle(r, oracle_of(g, source, count, prefs), "compute")
    for step in range(num_batches):
        parts = draw_batch(data, g, num_weights, source, f"batch {step}")
        stats = mosp.update(g, edge_batch(parts, num_weights), r, resources=make_resources(name))
        context = f"batch {step} on {name}"
        g.check_integrity()
        ref = oracle_of(g, source, count, prefs)
        assert_stats_match(stats, ref, None, context)
        assert_matches_oracle(r, ref, context)
        for other in HOST_BACKENDS:
            fresh = mosp.compute(g, source, resources=make_resources(other), **options)
            assert_same_result(r, fresh, f"{context}, fresh compute on {other}")


@given(rg=graphs(min_vertices=3, max_vertices=10, max_edges=30), data=st.data())
@scaled_examples(0.34)
def test_module_update_with_sssp_results(rg, data):
    """One dyng.update repairs a mosp result and an sssp result of the same graph together."""
    num_weights = data.draw(st.integers(1, 4), label="K")
    rows = draw_weight_rows(data, rg.weights, num_weights, "weights")
    g = build_graph(rg, rows, num_weights)
    source = data.draw(st.integers(0, rg.num_vertices - 1), label="source")
    count, prefs = draw_settings(data, num_weights)
    tree = mosp.compute(
        g, source, num_objectives=count, **({} if prefs is None else {"preferences": prefs})
    )
    shortest = dyng.sssp.compute(g, source)
    for step in range(2):
        parts = draw_batch(data, g, num_weights, source, f"batch {step}")
        mosp_stats, sssp_stats = dyng.update(g, edge_batch(parts, num_weights), tree, shortest)
        assert mosp_stats.batch == sssp_stats.batch
        assert g.version == tree.graph_version == shortest.graph_version == step + 1
        ref = oracle_of(g, source, count, prefs)
        assert_matches_oracle(tree, ref, f"batch {step}")
        assert np.asarray(shortest.distances).tolist() == ref.distances[0]

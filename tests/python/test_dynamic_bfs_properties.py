"""Property tests: after dynamic_bfs.update the levels equal a fresh dynamic_bfs.compute and the
pure-Python BFS oracle, on both host backends, batch after adversarial batch (deleted supporting
edges, missing deletions, duplicates, self-loops, insert+delete of one edge, vertex growth,
undirected and unweighted graphs, every id combination)."""

import numpy as np
import pytest
from _helpers import HOST_BACKENDS, make_resources, scaled_examples, summary_dict
from hypothesis import event, given
from hypothesis import strategies as st

import dyng
from dyng import dynamic_bfs
from dyng.testing.oracles import bfs_levels
from dyng.testing.strategies import batches, graphs

COMBOS = {
    "i32i32": ({}, np.int32),
    "i32i64": ({"edge_dtype": "int64"}, np.int32),
    "i64i64": ({"vertex_dtype": "int64"}, np.int32),
}


def run_sequence(rg, data, *, directed, weighted=True, combo="i32i32", num_batches=1, **batch_kw):
    kw, id_dtype = COMBOS[combo]
    model = rg.model(directed=directed)
    source = data.draw(st.integers(0, rg.num_vertices - 1), label="source")
    graphs_ = {
        name: rg.to_graph(directed=directed, id_dtype=id_dtype, **kw) for name in HOST_BACKENDS
    }
    results = {
        name: dynamic_bfs.compute(g, source, resources=make_resources(name))
        for name, g in graphs_.items()
    }
    for r in results.values():
        assert np.asarray(r.levels).tolist() == bfs_levels(model, source)
    for step in range(num_batches):
        rb = data.draw(
            batches(model, source=source, weighted=weighted, **batch_kw), label=f"batch {step}"
        )
        expected = rb.apply_to(model)
        oracle = bfs_levels(model, source)
        for name, g in graphs_.items():
            r = results[name]
            before = np.asarray(r.levels).tolist()
            stats = dynamic_bfs.update(
                g, rb.to_batch(id_dtype=id_dtype), r, resources=make_resources(name)
            )
            context = f"batch {step} on {name}"
            event(f"update path: {stats.path}")
            assert summary_dict(stats.batch) == expected.as_dict(), context
            assert g.version == r.graph_version == step + 1, context
            got = np.asarray(r.levels).tolist()
            assert got == oracle, f"{context}: levels {got} != oracle {oracle}"
            grown = before + [-1] * (len(got) - len(before))
            assert stats.affected == sum(a != b for a, b in zip(grown, got)), context
            for other in HOST_BACKENDS:
                fresh = dynamic_bfs.compute(g, source, resources=make_resources(other))
                assert np.asarray(fresh.levels).tolist() == got, f"{context}, fresh on {other}"


@given(rg=graphs(max_vertices=10, max_edges=30), data=st.data(), directed=st.booleans())
def test_single_batch(rg, data, directed):
    run_sequence(rg, data, directed=directed)


@given(
    rg=graphs(max_vertices=12, max_edges=36),
    data=st.data(),
    directed=st.booleans(),
    num_batches=st.integers(2, 5),
)
def test_batch_sequences(rg, data, directed, num_batches):
    run_sequence(rg, data, directed=directed, num_batches=num_batches)


@given(rg=graphs(max_vertices=10, max_edges=30, weighted=False), data=st.data())
@scaled_examples(0.5)
def test_unweighted_graphs(rg, data):
    run_sequence(rg, data, directed=data.draw(st.booleans()), weighted=False, num_batches=3)


@pytest.mark.parametrize("combo", sorted(COMBOS))
@given(rg=graphs(max_vertices=9, max_edges=25), data=st.data())
@scaled_examples(0.25)
def test_type_combos(combo, rg, data):
    run_sequence(rg, data, directed=data.draw(st.booleans()), combo=combo, num_batches=2)


@given(rg=graphs(min_vertices=2, max_vertices=14, max_edges=40), data=st.data())
@scaled_examples(0.5)
def test_deletions_only(rg, data):
    run_sequence(
        rg,
        data,
        directed=data.draw(st.booleans()),
        num_batches=3,
        max_insertions=0,
        max_deletions=12,
    )


@given(rg=graphs(min_vertices=20, max_vertices=60, max_edges=240), data=st.data())
@scaled_examples(0.34)
def test_small_batches_on_larger_graphs(rg, data):
    # Small batches on bigger graphs keep update() on its incremental path.
    run_sequence(
        rg,
        data,
        directed=data.draw(st.booleans()),
        num_batches=4,
        max_insertions=3,
        max_deletions=3,
    )


@given(rg=graphs(min_vertices=3, max_vertices=10, max_edges=30), data=st.data())
@scaled_examples(0.42)
def test_module_update_with_sssp_results(rg, data):
    """One dyng.update repairs BFS and sssp results of the same graph together."""
    g = rg.to_graph()
    model = rg.model()
    source = data.draw(st.integers(0, rg.num_vertices - 1), label="source")
    levels = dynamic_bfs.compute(g, source)
    tree = dyng.sssp.compute(g, source)
    for step in range(2):
        rb = data.draw(batches(model, source=source), label=f"batch {step}")
        rb.apply_to(model)
        bfs_stats, sssp_stats = dyng.update(g, rb.to_batch(), levels, tree)
        assert bfs_stats.batch == sssp_stats.batch
        assert np.asarray(levels.levels).tolist() == bfs_levels(model, source)
        assert (
            np.asarray(tree.distances).tolist()
            == np.asarray(dyng.sssp.compute(g, source).distances).tolist()
        )

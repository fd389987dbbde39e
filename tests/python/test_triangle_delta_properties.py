"""Property tests: after triangle_delta.update the count equals a fresh compute and the
pure-Python oracle on both host backends, batch after adversarial batch (deleted triangle edges,
missing deletions, duplicates, self-loops, insert+delete of one edge, both directions of a pair,
vertex growth); the batch counters equal the model's and removed/added explain the change."""

import pytest
from _helpers import HOST_BACKENDS, make_resources, scaled_examples, summary_dict
from hypothesis import event, given
from hypothesis import strategies as st

import dyng
from dyng import triangle_delta
from dyng.testing.oracles import triangle_count
from dyng.testing.strategies import batches, graphs


def run_sequence(rg, data, *, num_batches=1, **batch_kw):
    model = rg.model(directed=False)
    graphs_ = {name: rg.to_graph(directed=False) for name in HOST_BACKENDS}
    results = {
        name: triangle_delta.compute(g, resources=make_resources(name))
        for name, g in graphs_.items()
    }
    for r in results.values():
        assert r.count == triangle_count(model)
    for step in range(num_batches):
        rb = data.draw(batches(model, weighted=True, **batch_kw), label=f"batch {step}")
        expected = rb.apply_to(model)
        oracle = triangle_count(model)
        for name, g in graphs_.items():
            r = results[name]
            before = r.count
            stats = triangle_delta.update(g, rb.to_batch(), r, resources=make_resources(name))
            context = f"batch {step} on {name}"
            event(f"update path: {stats.path}")
            assert summary_dict(stats.batch) == expected.as_dict(), context
            assert g.version == r.graph_version == step + 1, context
            assert r.count == oracle, f"{context}: {r.count} != oracle {oracle}"
            assert stats.affected == (1 if oracle != before else 0), context
            assert before - stats.triangles_removed + stats.triangles_added == oracle, context
            for other in HOST_BACKENDS:
                assert triangle_delta.compute(g, resources=make_resources(other)).count == oracle


@given(rg=graphs(max_vertices=10, max_edges=40), data=st.data())
def test_single_batch(rg, data):
    run_sequence(rg, data)


@given(rg=graphs(max_vertices=12, max_edges=50), data=st.data(), num_batches=st.integers(2, 4))
def test_batch_sequences(rg, data, num_batches):
    run_sequence(rg, data, num_batches=num_batches)


@given(rg=graphs(min_vertices=12, max_vertices=30, max_edges=120), data=st.data())
@scaled_examples(0.34)
def test_small_batches_on_larger_graphs(rg, data):
    # Few changes on a bigger graph keep update() on its incremental path.
    run_sequence(rg, data, num_batches=3, max_insertions=3, max_deletions=3)


@given(rg=graphs(max_vertices=9, max_edges=30), data=st.data())
@scaled_examples(0.5)
def test_module_update_with_other_results(rg, data):
    """One dyng.update repairs a triangle count and a BFS result of the same graph."""
    g = rg.to_graph(directed=False)
    model = rg.model(directed=False)
    count = triangle_delta.compute(g)
    levels = dyng.dynamic_bfs.compute(g, 0)
    for step in range(2):
        rb = data.draw(batches(model), label=f"batch {step}")
        rb.apply_to(model)
        tri_stats, bfs_stats = dyng.update(g, rb.to_batch(), count, levels)
        assert tri_stats.batch == bfs_stats.batch
        assert count.count == triangle_count(model)


@pytest.mark.parametrize("n", [3, 4, 5, 7])
def test_complete_graphs(n):
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    g = dyng.Graph.from_edges([u for u, _ in pairs], [v for _, v in pairs], directed=False)
    r = triangle_delta.compute(g)
    assert r.count == n * (n - 1) * (n - 2) // 6
    # Removing one vertex's edges removes the C(n-1, 2) triangles through it.
    stats = triangle_delta.update(g, dyng.EdgeBatch(delete=([0] * (n - 1), list(range(1, n)))), r)
    assert stats.triangles_removed == (n - 1) * (n - 2) // 2
    assert r.count == (n - 1) * (n - 2) * (n - 3) // 6

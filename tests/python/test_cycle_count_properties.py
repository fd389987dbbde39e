"""Property tests: after cycle_count.update the histogram equals a fresh cycle_count.compute, the
native enumeration (testing.simple_cycles) and the pure-Python oracle, on both host backends,
batch after adversarial batch (deleted cycle edges, missing deletions, duplicates, self-loops,
insert+delete of one edge, both directions of a pair, vertex growth, undirected graphs), for
bounds 2..8 and unbounded; the batch counters equal the model's."""

import numpy as np
import pytest
from _helpers import HOST_BACKENDS, make_resources, scaled_examples, summary_dict
from hypothesis import event, given
from hypothesis import strategies as st

import dyng
from dyng import cycle_count
from dyng.testing.oracles import simple_cycle_histogram
from dyng.testing.strategies import batches, graphs

BOUNDS = st.sampled_from([-1, 2, 3, 4, 5, 6, 8])


def histogram(r):
    return [int(c) for c in np.asarray(r.counts)]


def run_sequence(rg, data, *, directed, num_batches=1, **batch_kw):
    model = rg.model(directed=directed)
    max_length = data.draw(BOUNDS, label="max_length")
    graphs_ = {name: rg.to_graph(directed=directed) for name in HOST_BACKENDS}
    results = {
        name: cycle_count.compute(g, max_length=max_length, resources=make_resources(name))
        for name, g in graphs_.items()
    }
    for r in results.values():
        assert histogram(r) == simple_cycle_histogram(model, max_length)
    for step in range(num_batches):
        rb = data.draw(batches(model, weighted=True, **batch_kw), label=f"batch {step}")
        expected = rb.apply_to(model)
        oracle = simple_cycle_histogram(model, max_length)
        for name, g in graphs_.items():
            r = results[name]
            before = histogram(r)
            stats = cycle_count.update(g, rb.to_batch(), r, resources=make_resources(name))
            context = f"batch {step} on {name} (max_length {max_length})"
            event(f"update path: {stats.path}")
            assert summary_dict(stats.batch) == expected.as_dict(), context
            assert g.version == r.graph_version == step + 1, context
            got = histogram(r)
            assert got == oracle, f"{context}: {got} != oracle {oracle}"
            assert np.asarray(dyng.testing.simple_cycles(g, max_length)).tolist() == oracle
            grown = before + [0] * (len(got) - len(before))
            assert stats.affected == sum(a != b for a, b in zip(grown, got)), context
            if stats.path == "incremental":
                net = sum(got) - sum(before)
                assert stats.cycles_added - stats.cycles_removed == net, context
            for other in HOST_BACKENDS:
                fresh = cycle_count.compute(
                    g, max_length=max_length, resources=make_resources(other)
                )
                assert histogram(fresh) == got, f"{context}, fresh on {other}"


@given(rg=graphs(max_vertices=9, max_edges=30), data=st.data(), directed=st.booleans())
def test_single_batch(rg, data, directed):
    run_sequence(rg, data, directed=directed)


@given(rg=graphs(max_vertices=10, max_edges=36), data=st.data(), num_batches=st.integers(2, 4))
def test_batch_sequences(rg, data, num_batches):
    run_sequence(rg, data, directed=True, num_batches=num_batches)


@given(rg=graphs(min_vertices=12, max_vertices=30, max_edges=90), data=st.data())
@scaled_examples(0.34)
def test_small_batches_on_larger_graphs(rg, data):
    # Few changes on a bigger graph keep update() on its incremental path.
    run_sequence(rg, data, directed=True, num_batches=3, max_insertions=3, max_deletions=3)


@given(rg=graphs(max_vertices=9, max_edges=30), data=st.data())
@scaled_examples(0.5)
def test_module_update_with_sssp_results(rg, data):
    """One dyng.update repairs a cycle histogram and an sssp result of the same graph."""
    g = rg.to_graph()
    model = rg.model()
    counts = cycle_count.compute(g, max_length=5)
    tree = dyng.sssp.compute(g, 0)
    for step in range(2):
        rb = data.draw(batches(model), label=f"batch {step}")
        rb.apply_to(model)
        cycle_stats, sssp_stats = dyng.update(g, rb.to_batch(), counts, tree)
        assert cycle_stats.batch == sssp_stats.batch
        assert histogram(counts) == simple_cycle_histogram(model, 5)


@pytest.mark.parametrize("max_length", [2, 3, 5, -1])
def test_counts_on_a_complete_digraph(max_length):
    # K5 with both directions of every pair: C(5, l) * (l - 1)! cycles of length l.
    n = 5
    pairs = [(u, v) for u in range(n) for v in range(n) if u != v]
    g = dyng.Graph.from_edges(
        [u for u, _ in pairs], [v for _, v in pairs], properties="cycle_enum_compatible"
    )
    r = cycle_count.compute(g, max_length=max_length)
    want = {2: 10, 3: 20, 4: 30, 5: 24}
    bound = n if max_length == -1 else max_length
    assert r.to_dict() == {k: v for k, v in want.items() if k <= bound}
    assert r.bound == bound and r.total == sum(v for k, v in want.items() if k <= bound)

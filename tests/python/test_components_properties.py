"""Property tests: after components.update the labels, sizes and count equal a fresh
components.compute, SciPy's connected_components (relabelled canonically) and the pure-Python
oracle, on both host backends, batch after adversarial batch (existing and missing deletions,
repeats, self-loops, re-insertions, vertex growth, undirected and directed graphs, weak and
strong, every id combination)."""

import numpy as np
import pytest
from _helpers import HOST_BACKENDS, make_resources, scaled_examples, summary_dict
from hypothesis import event, given
from hypothesis import strategies as st
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from dyng import components
from dyng.testing.oracles import component_labels
from dyng.testing.strategies import batches, graphs

COMBOS = {
    "i32i32": ({}, np.int32),
    "i32i64": ({"edge_dtype": "int64"}, np.int32),
    "i64i64": ({"vertex_dtype": "int64"}, np.int32),
}


def scipy_labels(model, kind):
    """SciPy's components, each relabelled with its smallest vertex id."""
    n = model.num_vertices
    pairs = list(model.edges)
    src = np.array([u for u, _ in pairs], dtype=np.int64)
    dst = np.array([v for _, v in pairs], dtype=np.int64)
    matrix = coo_matrix((np.ones(len(pairs)), (src, dst)), shape=(n, n)).tocsr()
    _, raw = connected_components(matrix, directed=model.directed, connection=kind)
    smallest = {}
    for v, c in enumerate(raw.tolist()):
        smallest.setdefault(c, v)
    return [smallest[c] for c in raw.tolist()]


def expected_answer(model, kind):
    labels = component_labels(model, kind)
    assert labels == scipy_labels(model, kind)
    sizes = [0] * len(labels)
    for label in labels:
        sizes[label] += 1
    return labels, sizes, len(set(labels))


def answer(result):
    return result.labels.tolist(), result.sizes.tolist(), result.count


def run_sequence(rg, data, *, directed, kind="weak", combo="i32i32", num_batches=1, **batch_kw):
    kw, id_dtype = COMBOS[combo]
    model = rg.model(directed=directed)
    graphs_ = {
        name: rg.to_graph(directed=directed, id_dtype=id_dtype, **kw) for name in HOST_BACKENDS
    }
    results = {
        name: components.compute(g, kind=kind, resources=make_resources(name))
        for name, g in graphs_.items()
    }
    for r in results.values():
        assert answer(r) == expected_answer(model, kind)
    for step in range(num_batches):
        rb = data.draw(batches(model, **batch_kw), label=f"batch {step}")
        expected = rb.apply_to(model)
        oracle = expected_answer(model, kind)
        for name, g in graphs_.items():
            r = results[name]
            before = answer(r)
            stats = components.update(
                g, rb.to_batch(id_dtype=id_dtype), r, resources=make_resources(name)
            )
            context = f"batch {step} on {name}"
            event(f"update path: {stats.path}")
            assert summary_dict(stats.batch) == expected.as_dict(), context
            got = answer(r)
            assert got == oracle, f"{context}: {got} != oracle {oracle}"
            grown = [(lab, size) for lab, size in zip(before[0], before[1])]
            grown += [(-1, 0)] * (len(got[0]) - len(grown))
            assert stats.affected == sum(old != new for old, new in zip(grown, zip(got[0], got[1])))
            for other in HOST_BACKENDS:
                fresh = components.compute(g, kind=kind, resources=make_resources(other))
                assert answer(fresh) == got, f"{context}, fresh on {other}"


@given(rg=graphs(max_vertices=10, max_edges=20), data=st.data(), directed=st.booleans())
def test_weak_single_batch(rg, data, directed):
    run_sequence(rg, data, directed=directed)


@given(rg=graphs(max_vertices=10, max_edges=20), data=st.data())
def test_strong_single_batch(rg, data):
    run_sequence(rg, data, directed=True, kind="strong")


@given(
    rg=graphs(max_vertices=12, max_edges=24),
    data=st.data(),
    directed=st.booleans(),
    num_batches=st.integers(2, 5),
)
def test_weak_batch_sequences(rg, data, directed, num_batches):
    run_sequence(rg, data, directed=directed, num_batches=num_batches)


@given(rg=graphs(max_vertices=12, max_edges=24), data=st.data(), num_batches=st.integers(2, 5))
def test_strong_batch_sequences(rg, data, num_batches):
    run_sequence(rg, data, directed=True, kind="strong", num_batches=num_batches)


@pytest.mark.parametrize("combo", sorted(COMBOS))
@given(rg=graphs(max_vertices=9, max_edges=18), data=st.data())
@scaled_examples(0.25)
def test_type_combos(combo, rg, data):
    directed = data.draw(st.booleans())
    kind = data.draw(st.sampled_from(["weak", "strong"])) if directed else "weak"
    run_sequence(rg, data, directed=directed, kind=kind, combo=combo, num_batches=2)


@given(rg=graphs(min_vertices=2, max_vertices=14, max_edges=24), data=st.data())
@scaled_examples(0.5)
def test_deletions_only(rg, data):
    directed = data.draw(st.booleans())
    kind = data.draw(st.sampled_from(["weak", "strong"])) if directed else "weak"
    run_sequence(
        rg, data, directed=directed, kind=kind, num_batches=3, max_insertions=0, max_deletions=12
    )


@given(rg=graphs(min_vertices=20, max_vertices=60, max_edges=80), data=st.data())
@scaled_examples(0.34)
def test_small_batches_on_larger_graphs(rg, data):
    # Small batches on bigger graphs keep update() on its incremental path.
    directed = data.draw(st.booleans())
    kind = data.draw(st.sampled_from(["weak", "strong"])) if directed else "weak"
    run_sequence(
        rg, data, directed=directed, kind=kind, num_batches=4, max_insertions=3, max_deletions=3
    )

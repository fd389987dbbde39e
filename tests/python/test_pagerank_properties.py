"""Property tests: after pagerank.update the ranks converged, lie within 2 * n * tol / (1 - alpha)
in L1 of a fresh compute and of the NumPy oracle (dyng.testing.oracles.pagerank_ranks), and are
the same bits on both host backends, batch after adversarial batch (existing and missing
deletions, repeats, self-loops, re-insertions, vertex growth, weighted and not, undirected and
directed graphs), with and without personalization and dangling vectors (shorter than the graph,
so vertices added later get 0)."""

import numpy as np
from _helpers import HOST_BACKENDS, make_resources, scaled_examples
from hypothesis import event, given
from hypothesis import strategies as st

from dyng import pagerank
from dyng.testing.oracles import pagerank_ranks
from dyng.testing.strategies import batches, graphs

TOL = 1e-6


def bound(n):
    return 2 * n * TOL / (1 - 0.85)


def vector(n):
    """Non-negative weights for up to n vertices, at least one positive."""
    return st.lists(st.sampled_from([0.0, 0.5, 1.0, 3.0]), min_size=1, max_size=n).map(
        lambda ws: ws[:-1] + [ws[-1] or 2.0]
    )


def draw_vectors(data, n):
    """(personalization, dangling) for a graph of n vertices, either or both None."""
    if n == 0:
        return None, None
    p = data.draw(st.none() | vector(n), label="personalization")
    d = data.draw(st.none() | vector(n), label="dangling")
    return p, d


def run_sequence(rg, data, *, directed, weighted, num_batches, vectors=False):
    model = rg.model(directed=directed)
    p, d = draw_vectors(data, model.num_vertices) if vectors else (None, None)
    fields = dict(weighted=weighted, personalization=p, dangling=d)
    graphs_ = {name: rg.to_graph(directed=directed) for name in HOST_BACKENDS}
    results = {
        name: pagerank.compute(g, resources=make_resources(name), **fields)
        for name, g in graphs_.items()
    }
    exact = np.array(pagerank_ranks(model, weighted=weighted, personalization=p, dangling=d))
    for r in results.values():
        assert np.abs(r.ranks.to_numpy() - exact).sum() < bound(len(exact))
    for step in range(num_batches):
        rb = data.draw(batches(model), label=f"batch {step}")
        rb.apply_to(model)
        exact = np.array(pagerank_ranks(model, weighted=weighted, personalization=p, dangling=d))
        ranks = {}
        for name, g in graphs_.items():
            r = results[name]
            stats = pagerank.update(g, rb.to_batch(), r, resources=make_resources(name))
            event(f"update path: {stats.path}")
            context = f"batch {step} on {name}"
            got = r.ranks.to_numpy().copy()
            assert stats.converged and r.residual < len(got) * TOL, context
            assert np.abs(got - exact).sum() < bound(len(got)), context
            fresh = pagerank.compute(g, resources=make_resources(name), **fields)
            assert np.abs(got - fresh.ranks.to_numpy()).sum() < bound(len(got)), context
            ranks[name] = got
        first = ranks[HOST_BACKENDS[0]]
        assert all(np.array_equal(first, other) for other in ranks.values())


@given(
    rg=graphs(max_vertices=12, max_edges=30),
    data=st.data(),
    directed=st.booleans(),
    weighted=st.booleans(),
    num_batches=st.integers(1, 4),
)
@scaled_examples(0.5)
def test_update_within_the_bound_batch_after_batch(rg, data, directed, weighted, num_batches):
    run_sequence(rg, data, directed=directed, weighted=weighted, num_batches=num_batches)


@given(
    rg=graphs(max_vertices=12, max_edges=30),
    data=st.data(),
    directed=st.booleans(),
    weighted=st.booleans(),
    num_batches=st.integers(1, 4),
)
@scaled_examples(0.5)
def test_vectors_within_the_bound_batch_after_batch(rg, data, directed, weighted, num_batches):
    run_sequence(
        rg, data, directed=directed, weighted=weighted, num_batches=num_batches, vectors=True
    )


@given(
    rg=graphs(min_vertices=20, max_vertices=60, max_edges=120),
    data=st.data(),
    directed=st.booleans(),
)
@scaled_examples(0.34)
def test_small_batches_on_larger_graphs(rg, data, directed):
    run_sequence(rg, data, directed=directed, weighted=False, num_batches=3)


def full_iteration(model, x, alpha, p, d):
    """One full iteration of the definition on the model's edges (NumPy, built as the oracle
    builds its matrix), personalization and dangling included."""
    n = model.num_vertices
    a = np.zeros((n, n))
    for (u, v), _ in model.edges.items():
        a[u, v] += 1.0
    out = a.sum(axis=1)
    dangling = out == 0
    q = np.divide(a, out[:, None], out=np.zeros_like(a), where=~dangling[:, None])

    def scaled(v):
        if v is None:
            return np.full(n, 1.0 / n)
        dense = np.zeros(n)
        dense[: len(v)] = v
        return dense / dense.sum()

    teleport = scaled(p)
    jump = teleport if d is None else scaled(d)
    return alpha * (x @ q + x[dangling].sum() * jump) + (1 - alpha) * teleport


@given(
    rg=graphs(min_vertices=4, max_vertices=30, max_edges=80),
    data=st.data(),
    directed=st.booleans(),
    tol=st.sampled_from([1e-3, 5e-3, 2e-2]),
)
@scaled_examples(0.5)
def test_updates_the_residual_bound_certifies_meet_the_test(rg, data, directed, tol):
    """At a tolerance where the frontier's residual bound often certifies the convergence test
    without a full iteration (with personalization and dangling vectors), one more full
    iteration still moves the ranks by less than n * tol, and they lie within the bound of the
    exact answer."""
    model = rg.model(directed=directed)
    p, d = draw_vectors(data, model.num_vertices)
    g = rg.to_graph(directed=directed)
    r = pagerank.compute(g, tol=tol, personalization=p, dangling=d)
    for step in range(4):
        rb = data.draw(batches(model), label=f"batch {step}")
        rb.apply_to(model)
        stats = pagerank.update(g, rb.to_batch(), r)
        n = model.num_vertices
        certified = stats.path == "incremental" and all(c < n for c in stats.touched_per_iteration)
        event(f"certified: {certified}")
        x = r.ranks.to_numpy()
        moved = np.abs(full_iteration(model, x, 0.85, p, d) - x).sum()
        assert moved < n * tol, f"batch {step}: one more iteration moves {moved}, n * tol {n * tol}"
        exact = np.array(pagerank_ranks(model, personalization=p, dangling=d))
        assert np.abs(x - exact).sum() < 2 * n * tol / (1 - 0.85), f"batch {step}"

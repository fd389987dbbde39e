"""The spec's 7-vertex mosp test vector: preferences (4, 1, 4), then the batch that inserts
(3, 5) [10, 2, 12] and (1, 5) [12, 1, 14] and deletes (1, 3) and (4, 1); before it L = 4 and the
combined distances are [0, 11, 10, 22, 32, 42, 47], after it vertex 6's path cost is (15, 3, 20).

The spec states those facts but not the graph. GRAPH below was worked out by hand to meet every
one of them (its trees are listed beside it), and dyng 0.2.0, run on it as a black box, gives the
same numbers, after the batch too (AFTER)."""

import re

import pytest
from _helpers import HOST_BACKENDS, make_resources

import dyng
from dyng import mosp

# Edge: weights per objective. Trees before the batch, by objective: 0: 1<-0 2<-0 3<-1 4<-3 5<-4
# 6<-4; 1: like 0 but 6<-5; 2: 1<-2 2<-0 3<-2 4<-3 5<-4 6<-5. (4, 1) lies on no tree.
GRAPH = {
    (0, 1): (1, 1, 5),
    (0, 2): (2, 2, 1),
    (2, 1): (5, 5, 1),
    (1, 3): (1, 1, 5),
    (2, 3): (5, 5, 1),
    (3, 4): (1, 1, 1),
    (4, 5): (1, 1, 1),
    (4, 6): (1, 5, 5),
    (5, 6): (2, 1, 1),
    (4, 1): (9, 9, 9),
}
PREFERENCES = [4, 1, 4]
BATCH = dict(insert=([3, 1], [5, 5], [[10, 2, 12], [12, 1, 14]]), delete=([1, 4], [3, 1]))
BEFORE = [0, 11, 10, 22, 32, 42, 47]
# Observed with 0.2.0 on GRAPH after BATCH (combined distances and parents).
AFTER = ([0, 11, 10, 20, 30, 23, 34], [-1, 0, 0, 2, 3, 1, 5])


def graph(**kw):
    edges = list(GRAPH.items())
    return dyng.Graph.from_edges(
        [u for (u, _), _ in edges],
        [v for (_, v), _ in edges],
        [list(w) for _, w in edges],
        num_vertices=7,
        **kw,
    )


@pytest.mark.parametrize("backend", HOST_BACKENDS)
@pytest.mark.parametrize("properties", ["default", "mosp_compatible"])
def test_the_spec_vector(backend, properties):
    g = graph(properties=properties)
    r = mosp.compute(g, 0, preferences=PREFERENCES, resources=make_resources(backend))
    assert r.preference_scale == 4
    assert r.combined_distances.tolist() == BEFORE
    assert r.stats.preference_scale == 4 and r.stats.combined_edges == 9
    stats = mosp.update(g, dyng.EdgeBatch(**BATCH), r)
    assert r.path_costs.tolist()[6] == [15, 3, 20]
    assert (r.combined_distances.tolist(), r.combined_parents.tolist()) == AFTER
    assert len(stats.objectives) == 3
    fresh = mosp.compute(g, 0, preferences=PREFERENCES, resources=make_resources(backend))
    assert fresh.path_costs.tolist() == r.path_costs.tolist()


def test_testing_helpers_agree_with_the_pure_python_oracle():
    from dyng.testing import mosp_oracle

    g = graph()
    r = mosp.compute(g, 0, preferences=PREFERENCES)
    parents = [r.parents(k).to_numpy() for k in range(3)]
    native = dyng.testing.combined_graph(parents, 0, PREFERENCES)
    oracle = mosp_oracle.combined_graph(parents, 0, PREFERENCES)
    for a, b in zip(native, oracle):
        assert a.tolist() == b.tolist() and a.dtype == b.dtype
    tree = r.combined_parents.to_numpy()
    costs = dyng.testing.mosp_path_costs(g, tree, 0)
    assert costs.tolist() == r.path_costs.tolist()
    assert costs.tolist() == mosp_oracle.mosp_path_costs(g, tree, 0).tolist()


@pytest.mark.parametrize(
    "parents, words",
    [
        ([-1, 0, 0, 2, 3, 4, 0], "no edge (0, 6)"),  # 0 -> 6 is not an edge
        ([-1, 3, 0, 1, 3, 4, 4], "cycle through vertex"),  # 1 -> 3 -> 1
        ([-1, 0, 0, 1, 3, 9, 4], "parents[5] = 9 is not a vertex"),
    ],
)
def test_path_costs_refuse_a_parent_array_that_is_no_tree_of_the_graph(parents, words):
    with pytest.raises(dyng.InvalidArgumentError, match=re.escape(words)):
        dyng.testing.mosp_path_costs(graph(), parents, 0)

"""dyng.update takes its batch back when a repair does not complete (issue 40): the graph (edges,
version, a later batch) and every result, the ones repaired before the failure included, are as
they were before the call. A KeyboardInterrupt raised by a repair takes this path, as any error
does; here the second repair is made to fail, so the test needs no signal timing. On a device
graph the device copy's apply is taken back (device_graph_t::revert)."""

import numpy as np
import pytest
from _algorithm_examples import answer

import dyng


def _graph(resources):
    rng = np.random.default_rng(3)
    n, m = 300, 2400
    return dyng.Graph.from_edges(
        rng.integers(0, n, m, dtype=np.int32),
        rng.integers(0, n, m, dtype=np.int32),
        rng.integers(1, 20, m, dtype=np.int32),
        num_vertices=n,
        resources=resources,
    )


def _answers(results):
    return [(r.graph_version, *(array.copy() for array in answer(r))) for r in results]


def _same(a, b):
    return all(
        x[0] == y[0] and all(np.array_equal(p, q) for p, q in zip(x[1:], y[1:]))
        for x, y in zip(a, b)
    )


def _edges(graph):
    src, dst, weights = graph.edges()
    return graph.version, src.copy(), dst.copy(), weights.copy()


def _takes_back(resources, failure):
    graph = _graph(resources)
    results = [
        dyng.sssp.compute(graph, 0),
        dyng.dynamic_bfs.compute(graph, 1),
        dyng.sssp.compute(graph, 2),
    ]
    before_graph, before_results = _edges(graph), _answers(results)
    batch = dyng.EdgeBatch(insert=([0, 5, 7], [9, 11, 250], [1, 2, 3]), delete=([0], [1]))

    def failing_repair(*args, **kwargs):
        raise failure("a repair failed")

    results[2]._apply_log = failing_repair  # the third repair fails; two are done by then
    with pytest.raises(failure):
        dyng.update(graph, batch, *results)
    del results[2]._apply_log
    after = _edges(graph)
    assert after[0] == before_graph[0]
    assert all(np.array_equal(x, y) for x, y in zip(after[1:], before_graph[1:]))
    assert _same(_answers(results), before_results)
    graph.check_integrity()
    # The batch then goes through, and every result is what a fresh compute gives.
    dyng.update(graph, batch, *results)
    assert graph.version == before_graph[0] + 1
    fresh = [
        dyng.sssp.compute(graph, 0),
        dyng.dynamic_bfs.compute(graph, 1),
        dyng.sssp.compute(graph, 2),
    ]
    assert _same(_answers(results), _answers(fresh))


# Exception classes, raised fresh: an instance shared between tests would keep the traceback,
# and with it the graph and results, alive to the end of the session.
@pytest.mark.parametrize("failure", [KeyboardInterrupt, RuntimeError], ids=["interrupt", "error"])
def test_update_takes_the_batch_back_when_a_repair_fails(resources, failure):
    _takes_back(resources, failure)


@pytest.mark.gpu
@pytest.mark.parametrize("failure", [KeyboardInterrupt, RuntimeError], ids=["interrupt", "error"])
def test_update_takes_a_device_batch_back_when_a_repair_fails(failure):
    _takes_back(dyng.Resources.cuda(), failure)


def test_a_failed_update_of_one_result_leaves_graph_and_result(resources):
    """With one result nothing is copied: its own update undoes itself, the graph goes back."""
    graph = _graph(resources)
    result = dyng.sssp.compute(graph, 0)
    before_graph, before_result = _edges(graph), _answers([result])

    def failing_repair(*args, **kwargs):
        raise KeyboardInterrupt

    result._apply_log = failing_repair
    with pytest.raises(KeyboardInterrupt):
        dyng.sssp.update(graph, dyng.EdgeBatch(insert=([0], [9], [1])), result)
    del result._apply_log
    after = _edges(graph)
    assert after[0] == before_graph[0]
    assert all(np.array_equal(x, y) for x, y in zip(after[1:], before_graph[1:]))
    assert _same(_answers([result]), before_result)

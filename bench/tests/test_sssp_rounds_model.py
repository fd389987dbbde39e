"""bench/gpu/sssp_rounds_model.py's schedule must be a shortest-path search: whatever the width,
its distances equal dyng.sssp's, and its counters add up (every reached vertex improved at least
once, no round pushing more than the edges)."""

import pathlib
import sys

import numpy as np
import pytest

import dyng
from bench import generators

sys.path.insert(0, str(pathlib.Path(__file__).parents[1] / "gpu"))
import sssp_rounds_model as model  # noqa: E402


@pytest.mark.parametrize("name", ["rmat10", "uniform9", "grid24", "road20"])
@pytest.mark.parametrize("width", [0, 1, 37, 10_000])
def test_the_modelled_schedule_finds_dyng_sssps_distances(name, width):
    graph = generators.by_name(name, seed=3)
    used, records, dist = model.schedule(graph, width)
    reference = dyng.sssp.compute(
        dyng.Graph.from_edges(graph.src, graph.dst, graph.weights, num_vertices=graph.num_vertices),
        0,
    ).distances.to_numpy()
    reached = dist < model.INFINITY
    assert np.array_equal(reached, reference != dyng.sssp.INFINITE_DISTANCE)
    assert np.array_equal(dist[reached], reference[reached])
    assert used > 0 if width == 0 else used == width
    improvements = sum(r[4] for r in records)
    assert improvements >= np.count_nonzero(reached) - 1  # the source is never improved
    assert all(r[3] <= graph.num_edges for r in records)


@pytest.mark.parametrize(
    ("mean_weight", "mean_degree", "max_degree", "width"),
    [
        (50.5, 16.0, 16.0, 101),  # the cases of tests/cpp/sssp/test_sssp_bucket_width.cpp
        (50.5, 8.0, 8.0, 101),
        (50.5, 16.0, 64.0, 101),
        (50.5, 15.6, 97765.0, 3232),
        (50.5, 16.0, 64.5, 3232),
        (50.5, 4.0, 4.0, 3232),
        (50.5, 7.9, 7.9, 3232),
        (2.6, 2.5, 4.0, 166),
        (0.0, 16.0, 16.0, 1),
        (0.4, 16.0, 16.0, 1),
        (1.0, 0.0, 0.0, 64),
    ],
)
def test_the_models_width_rule_is_the_librarys(mean_weight, mean_degree, max_degree, width):
    assert model.bucket_width(mean_weight, mean_degree, max_degree) == width

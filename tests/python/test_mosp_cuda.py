"""On the GPU: mosp on CUDA equals the sequential backend and the pure-Python oracle, compute and
update, batch after adversarial batch (K = 1..8, parallel edges, duplicates, self-loops, vertex
growth, every id combination); the spec's test vector; device results move between spaces and
hand out device arrays, with the path costs in host memory. Skipped where no CUDA backend is
usable (CI); must pass on a GPU before CUDA work is done."""

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from test_mosp_properties import (
    COMBOS,
    assert_matches_oracle,
    assert_same_result,
    build_graph,
    draw_batch,
    draw_settings,
    draw_weight_rows,
    edge_batch,
    oracle_of,
)
from test_mosp_vector import AFTER, BATCH, BEFORE, PREFERENCES
from test_mosp_vector import graph as vector_graph

import dyng
from dyng import mosp
from dyng.testing.strategies import graphs

pytestmark = pytest.mark.gpu

CUDA = dyng.Resources.cuda
HOST = dyng.Resources.sequential


def on_host(r):
    """The device result as a host result (to_host copies every array and the trees)."""
    return r.clone(resources=HOST())


def run_against_host(rg, data, combo, properties, num_batches):
    kw, id_dtype = COMBOS[combo]
    num_weights = data.draw(st.integers(1, 8), label="K")
    rows = draw_weight_rows(data, rg.weights, num_weights, "weights")
    source = data.draw(st.integers(0, rg.num_vertices - 1), label="source")
    count, prefs = draw_settings(data, num_weights)
    options = {"num_objectives": count, **({} if prefs is None else {"preferences": prefs})}
    g_dev = build_graph(
        rg, rows, num_weights, id_dtype=id_dtype, properties=properties, resources=CUDA(), **kw
    )
    g_host = build_graph(
        rg, rows, num_weights, id_dtype=id_dtype, properties=properties, resources=HOST(), **kw
    )
    r_dev = mosp.compute(g_dev, source, **options)
    r_host = mosp.compute(g_host, source, **options)
    assert r_dev.space == "device"
    assert_same_result(on_host(r_dev), r_host, f"compute ({combo}, {properties})")
    assert_matches_oracle(on_host(r_dev), oracle_of(g_host, source, count, prefs), "compute")
    for step in range(num_batches):
        parts = draw_batch(data, g_host, num_weights, source, f"batch {step}")
        s_dev = mosp.update(g_dev, edge_batch(parts, num_weights, id_dtype), r_dev)
        s_host = mosp.update(g_host, edge_batch(parts, num_weights, id_dtype), r_host)
        context = f"batch {step} ({combo}, {properties}, K={num_weights})"
        event(f"cuda update path: {s_dev.path}")
        assert s_dev.batch == s_host.batch, context
        assert s_dev.combined_edges == s_host.combined_edges, context
        assert len(s_dev.objectives) == len(s_host.objectives), context
        assert r_dev.graph_version == g_dev.version == step + 1, context
        assert_same_result(on_host(r_dev), r_host, f"{context}: CUDA update != host update")
        assert_matches_oracle(on_host(r_dev), oracle_of(g_host, source, count, prefs), context)
        fresh = mosp.compute(g_dev, source, **options)
        assert_same_result(on_host(r_dev), on_host(fresh), f"{context}: != fresh CUDA compute")


@pytest.mark.parametrize("combo", sorted(COMBOS))
@settings(max_examples=20, deadline=None)
@given(rg=graphs(max_vertices=12, max_edges=40), data=st.data(), num_batches=st.integers(1, 3))
def test_cuda_updates_match_host_and_oracle(rg, data, num_batches, combo):
    run_against_host(rg, data, combo, "default", num_batches)


@settings(max_examples=25, deadline=None)
@given(rg=graphs(max_vertices=10, max_edges=30), data=st.data(), num_batches=st.integers(1, 3))
def test_cuda_parallel_edge_graphs(rg, data, num_batches):
    run_against_host(rg, data, "i32i32", "mosp_compatible", num_batches)


@settings(max_examples=10, deadline=None)
@given(rg=graphs(min_vertices=30, max_vertices=60, max_edges=240), data=st.data())
def test_cuda_small_batches_on_larger_graphs(rg, data):
    # Few changes on a bigger graph keep every repair on its incremental path.
    run_against_host(rg, data, "i32i32", "default", 3)


@pytest.mark.parametrize("properties", ["default", "mosp_compatible"])
def test_the_spec_vector_on_cuda(properties):
    g = vector_graph(properties=properties, resources=CUDA())
    r = mosp.compute(g, 0, preferences=PREFERENCES)
    assert r.space == "device" and r.preference_scale == 4
    assert r.combined_distances.to_numpy().tolist() == BEFORE
    assert r.stats.combined_edges == 9 and len(r.stats.objectives) == 3
    mosp.update(g, dyng.EdgeBatch(**BATCH), r)
    assert r.path_costs.tolist()[6] == [15, 3, 20]
    assert (
        r.combined_distances.to_numpy().tolist(),
        r.combined_parents.to_numpy().tolist(),
    ) == AFTER


def test_device_results_move_between_spaces():
    g = vector_graph(resources=CUDA())
    r = mosp.compute(g, 0, preferences=PREFERENCES)
    assert r.distances(1).device == r.parents(2).device == r.combined_parents.device == "cuda:0"
    assert r.path_costs.device == "cpu" and r.path_costs.shape == (7, 3)
    host = on_host(r)
    assert host.space == "host"
    back = host.clone(resources=CUDA())
    assert back.space == "device"
    for k in range(3):
        assert back.distances(k).to_numpy().tolist() == host.distances(k).tolist()
        assert back.parents(k).to_numpy().tolist() == host.parents(k).tolist()
    assert back.path_costs.tolist() == host.path_costs.tolist()
    # A moved result keeps updating: the device copy of the combined graph came along.
    mosp.update(g, dyng.EdgeBatch(**BATCH), back)
    assert (
        back.combined_distances.to_numpy().tolist(),
        back.combined_parents.to_numpy().tolist(),
    ) == AFTER


def test_from_arrays_on_cuda_and_disabled_costs():
    g = vector_graph(resources=CUDA())
    r = mosp.compute(g, 0, preferences=PREFERENCES)
    dist = [r.distances(k).to_numpy() for k in range(3)]
    par = [r.parents(k).to_numpy() for k in range(3)]
    made = mosp.Result.from_arrays(g, 0, dist, par, preferences=PREFERENCES)
    assert made.space == "device"
    assert made.combined_distances.to_numpy().tolist() == BEFORE
    off = mosp.compute(g, 0, preferences=PREFERENCES, compute_path_costs=False)
    with pytest.raises(dyng.InvalidArgumentError, match="path costs were not computed"):
        _ = off.path_costs
    off.set_options(compute_path_costs=True)
    mosp.update(g, dyng.EdgeBatch(**BATCH), off)
    assert off.path_costs.tolist()[6] == [15, 3, 20]


def test_one_update_for_cuda_mosp_and_sssp_results():
    g = vector_graph(resources=CUDA())
    tree = mosp.compute(g, 0, preferences=PREFERENCES)
    shortest = dyng.sssp.compute(g, 0)
    mosp_stats, sssp_stats = dyng.update(g, dyng.EdgeBatch(**BATCH), tree, shortest)
    assert mosp_stats.batch == sssp_stats.batch
    assert tree.distances(0).to_numpy().tolist() == shortest.distances.to_numpy().tolist()


def hub_graph_parts(seed):
    """Edges of a graph whose hub (vertex 1, reached from the source 0) has an out-row of about
    1,700 slots, several of the device's 256-slot chunks, with a parallel copy of every third
    edge further along the row: each vertex's path costs take its tree edge's first slot."""
    rng = np.random.default_rng(seed)
    n = 1200
    targets = rng.permutation(np.arange(2, n))
    hub_row = np.concatenate([targets, rng.permutation(targets[::3])])
    others = rng.integers(2, n, size=(400, 2))
    src = np.concatenate([[0], np.ones(hub_row.size, np.int64), others[:, 0]])
    dst = np.concatenate([[1], hub_row, others[:, 1]])
    weights = rng.integers(1, 50, size=(src.size, 2))
    return n, src.astype(np.int32), dst.astype(np.int32), weights.astype(np.int32)


@pytest.mark.parametrize("seed", [1, 2])
def test_path_costs_of_a_hub_row_longer_than_a_chunk(seed):
    n, src, dst, weights = hub_graph_parts(seed)
    made = {
        name: dyng.Graph.from_edges(
            src, dst, weights, num_vertices=n, properties="mosp_compatible", resources=res()
        )
        for name, res in (("cuda", CUDA), ("host", HOST))
    }
    results = {name: mosp.compute(g, 0) for name, g in made.items()}
    assert_same_result(on_host(results["cuda"]), results["host"], f"compute, seed {seed}")
    rng = np.random.default_rng(seed + 100)
    # More parallel hub edges at the row's end, and hub edges deleted (every copy of each).
    ins_dst = rng.integers(2, n, size=300).astype(np.int32)
    batch = dyng.EdgeBatch(
        insert=(
            np.ones(ins_dst.size, np.int32),
            ins_dst,
            rng.integers(1, 50, size=(ins_dst.size, 2)).astype(np.int32),
        ),
        delete=(np.ones(200, np.int32), rng.permutation(np.arange(2, n))[:200].astype(np.int32)),
    )
    for name, g in made.items():
        mosp.update(g, batch, results[name])
    context = f"update, seed {seed}"
    assert_same_result(on_host(results["cuda"]), results["host"], context)
    fresh = mosp.compute(made["cuda"], 0)
    assert_same_result(on_host(results["cuda"]), on_host(fresh), f"{context}: != fresh compute")

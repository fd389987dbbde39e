import numpy as np
import pytest

from bench import changes, generators


def _keys(graph, src, dst):
    return src.astype(np.int64) * graph.num_vertices + dst


@pytest.fixture(scope="module")
def rmat():
    return generators.rmat(12, 16, seed=1)


@pytest.fixture(scope="module")
def grid():
    return generators.grid(64, 64, seed=1)


@pytest.mark.parametrize("mode", changes.MODES)
@pytest.mark.parametrize("which", ["rmat", "grid"])
def test_batch_is_half_new_edges_half_existing_edges(request, which, mode):
    g = request.getfixturevalue(which)
    batch = changes.make_changes(g, 1001, mode, np.random.default_rng(3))
    assert batch.insert_src.size == 501 and batch.delete_src.size == 500
    existing = g.edge_keys()
    ins = _keys(g, batch.insert_src, batch.insert_dst)
    dels = _keys(g, batch.delete_src, batch.delete_dst)
    assert not np.isin(ins, existing).any()
    assert np.isin(dels, existing).all()
    assert np.unique(ins).size == ins.size and np.unique(dels).size == dels.size
    assert (batch.insert_src != batch.insert_dst).all()
    assert batch.insert_weights.min() >= 1 and batch.insert_weights.max() <= 100
    for a in (batch.insert_src, batch.insert_dst, batch.delete_src, batch.delete_dst):
        assert a.dtype == np.int32 and a.min() >= 0 and a.max() < g.num_vertices


@pytest.mark.parametrize("mode", changes.MODES)
def test_batches_are_deterministic_per_seed(rmat, mode):
    a, b, c = (changes.make_changes(rmat, 200, mode, np.random.default_rng(s)) for s in (4, 4, 5))
    assert np.array_equal(a.insert_dst, b.insert_dst) and np.array_equal(a.delete_src, b.delete_src)
    assert not np.array_equal(a.insert_dst, c.insert_dst)


def _grid_distance_from(g, vertices, centre):
    cols = g.grid_shape[1]
    return np.abs(vertices // cols - centre // cols) + np.abs(vertices % cols - centre % cols)


def test_local_grid_changes_stay_in_a_small_window(grid):
    batch = changes.make_changes(grid, 400, "local", np.random.default_rng(1))
    cols = grid.grid_shape[1]
    dr = np.abs(batch.insert_src // cols - batch.insert_dst // cols)
    dc = np.abs(batch.insert_src % cols - batch.insert_dst % cols)
    assert dr.max() <= changes.GRID_WINDOW and dc.max() <= changes.GRID_WINDOW
    centre = batch.info["centre"]
    # A BFS ball of 400 grid vertices has radius <= 27 even in a corner, where it is a quarter
    # diamond ((r + 1)(r + 2) / 2 >= 400 at r = 27); a uniform batch spans the whole 64x64 grid.
    for v in (batch.insert_src, batch.delete_src):
        assert _grid_distance_from(grid, v, centre).max() <= 27


def test_uniform_grid_changes_are_spread_out(grid):
    batch = changes.make_changes(grid, 400, "uniform", np.random.default_rng(1))
    spread = _grid_distance_from(grid, batch.delete_src, batch.delete_src[0])
    assert spread.max() > 40


def test_local_rmat_insertions_end_two_hops_away(rmat):
    batch = changes.make_changes(rmat, 300, "local", np.random.default_rng(2))
    ptr = rmat.row_ptr()
    out = [set(rmat.dst[ptr[v] : ptr[v + 1]].tolist()) for v in range(rmat.num_vertices)]
    for u, v in zip(batch.insert_src.tolist(), batch.insert_dst.tolist()):
        assert any(v in out[w] for w in out[u]), (u, v)
    region_size = batch.info["region_vertices"]
    assert region_size >= 300


def test_apply_to_edges(grid):
    batch = changes.make_changes(grid, 100, "uniform", np.random.default_rng(0))
    after = changes.apply_to_edges(grid, batch)
    assert after.num_edges == grid.num_edges
    assert (np.diff(after.edge_keys()) > 0).all()
    keys = after.edge_keys()
    assert np.isin(_keys(grid, batch.insert_src, batch.insert_dst), keys).all()
    assert not np.isin(_keys(grid, batch.delete_src, batch.delete_dst), keys).any()
    pos = np.searchsorted(keys, _keys(grid, batch.insert_src, batch.insert_dst))
    assert np.array_equal(after.weights[pos], batch.insert_weights)


def test_too_many_deletions_is_an_error():
    g = generators.grid(3, 3)
    with pytest.raises(ValueError, match="deletions requested"):
        changes.make_changes(g, 100, "uniform", np.random.default_rng(0))


def test_unknown_mode_is_an_error(grid):
    with pytest.raises(ValueError, match="unknown mode 'nearby'"):
        changes.make_changes(grid, 10, "nearby", np.random.default_rng(0))

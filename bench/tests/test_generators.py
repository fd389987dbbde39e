import hashlib

import numpy as np
import pytest

from bench import generators


def _digest(*arrays):
    h = hashlib.sha256()
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:16]


def _reference_endpoints(scale, draws, seed, abc=generators.RMAT_ABC):
    """The documented draw rule, one edge and one level at a time."""
    a, b, c = abc
    u = np.random.default_rng(seed).random(draws * scale).tolist()
    src, dst = [], []
    for i in range(draws):
        s = d = 0
        for j in range(scale):
            x = u[i * scale + j]
            bit = 1 << (scale - 1 - j)
            if x < a:
                pass
            elif x < a + b:
                d |= bit
            elif x < a + b + c:
                s |= bit
            else:
                s |= bit
                d |= bit
        src.append(s)
        dst.append(d)
    return np.array(src), np.array(dst)


def test_rmat_endpoints_follow_the_documented_stream():
    src, dst = generators.rmat_endpoints(7, 3000, np.random.default_rng(11))
    ref_src, ref_dst = _reference_endpoints(7, 3000, 11)
    assert np.array_equal(src, ref_src) and np.array_equal(dst, ref_dst)


def test_rmat_is_independent_of_the_chunk_size(monkeypatch):
    whole = generators.rmat(9, 8, seed=3)
    monkeypatch.setattr(generators, "_RMAT_CHUNK", 37)
    chunked = generators.rmat(9, 8, seed=3)
    for name in ("src", "dst", "weights"):
        assert np.array_equal(getattr(whole, name), getattr(chunked, name))


def test_rmat_is_deterministic_per_seed_and_differs_across_seeds():
    a, b, c = (generators.rmat(10, 16, seed=s) for s in (1, 1, 2))
    assert _digest(a.src, a.dst, a.weights) == _digest(b.src, b.dst, b.weights)
    assert _digest(a.src, a.dst, a.weights) != _digest(c.src, c.dst, c.weights)


def test_rmat_golden_counts():
    # Pins the stream: a NumPy or code change that alters the graphs shows up here.
    assert generators.rmat(10, 16, seed=1).num_edges == 12023
    assert generators.rmat(12, 16, seed=1).num_edges == 53312


def test_rmat_edges_are_sorted_unique_loop_free_and_weighted_1_to_100():
    g = generators.rmat(11, 16, seed=5)
    keys = g.edge_keys()
    assert (np.diff(keys) > 0).all()
    assert (g.src != g.dst).all()
    assert g.src.min() >= 0 and max(g.src.max(), g.dst.max()) < g.num_vertices
    assert g.weights.min() == 1 and g.weights.max() == 100
    assert g.src.dtype == g.dst.dtype == g.weights.dtype == np.int32
    assert g.num_edges < 16 * 2**11  # duplicates were merged


def test_rmat_quadrant_frequencies_match_a_b_c_d():
    src, dst = generators.rmat_endpoints(1, 200_000, np.random.default_rng(0))
    quadrant = np.bincount(2 * src + dst, minlength=4) / src.size
    assert np.allclose(quadrant, [0.57, 0.19, 0.19, 0.05], atol=0.005)


def test_rmat_rejects_bad_probabilities():
    with pytest.raises(ValueError, match="a=0.9"):
        generators.rmat(4, abc=(0.9, 0.2, 0.1))


def test_grid_has_four_neighbour_edges_in_both_directions():
    g = generators.grid(5, 7, seed=2)
    assert g.num_vertices == 35
    assert g.num_edges == 2 * (5 * 6 + 4 * 7)
    pairs = set(zip(g.src.tolist(), g.dst.tolist()))
    assert all((v, u) in pairs for u, v in pairs)
    gap = np.abs(g.src.astype(int) - g.dst)
    assert set(gap.tolist()) == {1, 7}
    assert ((gap == 1) <= (g.src // 7 == g.dst // 7)).all()  # no wrap-around between rows
    assert (np.diff(g.edge_keys()) > 0).all()
    assert g.weights.min() >= 1 and g.weights.max() <= 100
    assert g.grid_shape == (5, 7)


def test_grid_weights_depend_on_the_seed_only():
    assert np.array_equal(generators.grid(6, 6, 4).weights, generators.grid(6, 6, 4).weights)
    assert not np.array_equal(generators.grid(6, 6, 4).weights, generators.grid(6, 6, 5).weights)


def test_row_ptr_matches_the_edges():
    g = generators.rmat(8, 4, seed=1)
    ptr = g.row_ptr()
    assert ptr[0] == 0 and ptr[-1] == g.num_edges
    for v in (0, 1, 77, 255):
        assert (g.src[ptr[v] : ptr[v + 1]] == v).all()


@pytest.mark.parametrize(
    "name, expected",
    [
        ("rmat18", ("rmat", (18,))),
        ("grid512", ("grid", (512, 512))),
        ("grid3x4", ("grid", (3, 4))),
        ("uniform22", ("uniform", (22,))),
        ("road2048", ("road", (2048, 2048))),
        ("road8x16", ("road", (8, 16))),
    ],
)
def test_parse_name(name, expected):
    assert generators.parse_name(name) == expected


@pytest.mark.parametrize(
    "name", ["rmat", "grid", "gridx3", "foo18", "grid3x4x5", "uniform", "roadx", "uniform4x4"]
)
def test_parse_name_rejects(name):
    with pytest.raises(ValueError, match="unknown graph"):
        generators.parse_name(name)


@pytest.mark.parametrize("name", ["rmat0", "uniform0", "grid0", "road0x5"])
def test_parse_name_refuses_empty_graphs(name):
    with pytest.raises(ValueError, match="is empty; pass sizes >= 1"):
        generators.parse_name(name)


@pytest.mark.parametrize("scale, degree", [(4, 15), (6, 4), (10, 16)])
def test_uniform_has_equal_out_degrees_and_no_parallel_edges_or_loops(scale, degree):
    g = generators.uniform(scale, degree, seed=2)
    n = 1 << scale
    assert (g.num_vertices, g.num_edges) == (n, n * degree)
    assert (np.bincount(g.src, minlength=n) == degree).all()
    assert (g.src != g.dst).all()
    assert (np.diff(g.edge_keys()) > 0).all()  # sorted by (src, dst), no repeats
    assert g.weights.min() >= generators.WEIGHT_MIN and g.weights.max() <= generators.WEIGHT_MAX
    assert (g.src.dtype, g.dst.dtype, g.weights.dtype) == (np.int32,) * 3


def test_uniform_is_deterministic_per_seed_and_independent_of_the_block(monkeypatch):
    a, b, c = (generators.uniform(9, seed=s) for s in (1, 1, 2))
    assert _digest(a.src, a.dst, a.weights) == _digest(b.src, b.dst, b.weights)
    assert _digest(a.src, a.dst, a.weights) != _digest(c.src, c.dst, c.weights)
    # Targets spread over all vertices: every vertex is someone's target at this density.
    assert np.unique(a.dst).size > 0.99 * a.num_vertices
    monkeypatch.setattr(generators, "_UNIFORM_ROWS", 512)
    whole = generators.uniform(9, seed=1)
    assert _digest(whole.src, whole.dst, whole.weights) == _digest(a.src, a.dst, a.weights)


def test_road_closes_streets_both_ways_with_one_time_per_street():
    g = generators.road(40, 30, seed=3)
    full = generators.grid(40, 30)
    assert g.grid_shape == (40, 30) and g.num_vertices == 1200
    assert np.isin(g.edge_keys(), full.edge_keys()).all()  # only grid streets
    closed = 1 - g.num_edges / full.num_edges
    assert 0.08 < closed < 0.17 and g.params["streets"] * 2 == g.num_edges
    # Every street both ways with the same travel time.
    back = np.searchsorted(g.edge_keys(), g.dst.astype(np.int64) * g.num_vertices + g.src)
    assert (g.src[back] == g.dst).all() and (g.weights[back] == g.weights).all()
    assert g.weights.min() >= generators.ROAD_TIME_MIN
    assert g.weights.max() <= generators.ROAD_TIME_MAX and g.weights.max() > 10 * g.weights.min()
    again, other = generators.road(40, 30, seed=3), generators.road(40, 30, seed=4)
    assert _digest(again.src, again.dst, again.weights) == _digest(g.src, g.dst, g.weights)
    assert _digest(other.src, other.dst, other.weights) != _digest(g.src, g.dst, g.weights)


@pytest.mark.parametrize("name", ["uniform6", "road12", "road8x16"])
def test_by_name_makes_the_new_classes_under_their_names(name):
    assert generators.by_name(name, 1).name == name


def test_uniform_refuses_a_degree_that_cannot_fit():
    with pytest.raises(ValueError, match="pass 1 <= degree <= 7"):
        generators.uniform(3, 8)

"""dyng.Array: read-only zero-copy views with staleness and copy-on-write (spec section 5)."""

import pickle

import numpy as np
import pytest

import dyng
from dyng import sssp

INF = sssp.INFINITE_DISTANCE


@pytest.fixture
def res(resources):
    g = dyng.Graph.from_edges([0, 0, 1, 2], [1, 2, 3, 3], [1, 4, 1, 1], num_vertices=5)
    return g, sssp.compute(g, 0, resources=resources), resources


def touch_batch():
    return dyng.EdgeBatch(insert=([0], [3], [1]))


def test_basic_attributes(res):
    _, r, _ = res
    d = r.distances
    assert isinstance(d, dyng.Array)
    assert d.shape == (5,)
    assert d.ndim == 1
    assert d.size == 5
    assert len(d) == 5
    assert d.dtype == np.int64
    assert d.device == "cpu"
    assert d.is_current is True
    assert r.parents.dtype == np.int32


def test_indexing_and_iteration(res):
    _, r, _ = res
    d = r.distances
    assert d[0] == 0 and d[3] == 2 and d[-1] == INF
    assert list(d) == [0, 1, 4, 2, INF]
    assert np.asarray(d[1:3]).tolist() == [1, 4]


def test_tolist(res):
    _, r, _ = res
    assert r.distances.tolist() == [0, 1, 4, 2, INF]
    assert r.parents.tolist() == [-1, 0, 0, 1, -1]
    assert all(type(x) is int for x in r.distances.tolist())


def test_asarray_is_zero_copy_and_read_only(res):
    _, r, _ = res
    a = np.asarray(r.distances)
    b = np.asarray(r.distances)
    assert a.dtype == np.int64
    assert not a.flags.writeable
    assert np.shares_memory(a, b)
    with pytest.raises(ValueError):
        a[0] = 7


def test_array_interface(res):
    _, r, _ = res
    iface = r.distances.__array_interface__
    assert iface["shape"] == (5,)
    assert np.dtype(iface["typestr"]) == np.int64
    assert iface["data"][1] is True  # read-only


@pytest.mark.parametrize("copy", [None, False])
def test_to_numpy_without_copy_shares_memory(res, copy):
    _, r, _ = res
    a = r.distances.to_numpy(copy=copy)
    assert np.shares_memory(a, np.asarray(r.distances))
    assert not a.flags.writeable


def test_to_numpy_copy_is_independent(res):
    _, r, _ = res
    a = r.distances.to_numpy()  # copy=True is the default
    assert not np.shares_memory(a, np.asarray(r.distances))
    assert a.flags.writeable
    a[0] = 99
    assert r.distances[0] == 0
    assert r.distances.to_numpy(copy=True).tolist() == [0, 1, 4, 2, INF]


def test_numpy_copy_keyword(res):
    _, r, _ = res
    a = np.array(r.distances, copy=True)
    assert a.flags.writeable and a.tolist() == [0, 1, 4, 2, INF]
    assert np.shares_memory(np.array(r.distances, copy=False), np.asarray(r.distances))


def test_dlpack_zero_copy_read_only(res):
    _, r, _ = res
    a = np.from_dlpack(r.distances)
    assert a.tolist() == [0, 1, 4, 2, INF]
    assert np.shares_memory(a, np.asarray(r.distances))
    assert not a.flags.writeable
    assert r.distances.__dlpack_device__()[0] == 1  # kDLCPU


class LegacyConsumer:
    """Forwards to __dlpack__ without max_version, as a pre-1.0 consumer would."""

    def __init__(self, arr):
        self._arr = arr

    def __dlpack__(self, **kw):
        return self._arr.__dlpack__()

    def __dlpack_device__(self):
        return self._arr.__dlpack_device__()


def test_legacy_dlpack_capsule_is_a_copy(res):
    _, r, _ = res
    # A legacy capsule cannot mark data read-only, so dyng hands out a copy instead.
    a = np.from_dlpack(LegacyConsumer(r.distances))
    assert a.tolist() == [0, 1, 4, 2, INF]
    assert not np.shares_memory(a, np.asarray(r.distances))


def test_stale_after_update(res):
    g, r, resources = res
    d, p = r.distances, r.parents
    sssp.update(g, touch_batch(), r, resources=resources)
    assert d.is_current is False and p.is_current is False
    for use in (
        lambda a: a.to_numpy(),
        lambda a: a.tolist(),
        lambda a: a[0],
        np.asarray,
        lambda a: np.from_dlpack(a),
        lambda a: list(a),
    ):
        with pytest.raises(dyng.StaleResultError):
            use(d)
    # Reading the result again gives current arrays.
    assert r.distances.is_current is True
    assert r.distances.tolist() == [0, 1, 4, 1, INF]
    assert r.parents.tolist() == [-1, 0, 0, 0, -1]


def test_exported_views_keep_old_values(res):
    g, r, resources = res
    view = np.asarray(r.distances)
    parents_view = r.parents.to_numpy(copy=False)
    dl = np.from_dlpack(r.distances)
    sssp.update(g, touch_batch(), r, resources=resources)
    sssp.update(g, dyng.EdgeBatch(delete=([0], [1])), r, resources=resources)
    assert view.tolist() == [0, 1, 4, 2, INF]
    assert dl.tolist() == [0, 1, 4, 2, INF]
    assert parents_view.tolist() == [-1, 0, 0, 1, -1]
    assert r.distances.tolist() == [0, INF, 4, 1, INF]


def test_views_survive_result_and_graph():
    import gc

    g = dyng.Graph.from_edges([0, 1], [1, 2], [5, 6])
    r = sssp.compute(g, 0)
    view = np.asarray(r.distances)
    arr = r.parents
    del g, r
    gc.collect()
    assert view.tolist() == [0, 5, 11]
    assert arr.tolist() == [-1, 0, 1]


def test_pickle_gives_ndarray(res):
    _, r, _ = res
    back = pickle.loads(pickle.dumps(r.distances))
    assert type(back) is np.ndarray
    assert back.dtype == np.int64
    assert back.tolist() == [0, 1, 4, 2, INF]


def test_to_torch_and_to_cupy_fail_clearly_when_missing(res):
    _, r, _ = res
    for method, module in (("to_torch", "torch"), ("to_cupy", "cupy")):
        try:
            __import__(module)
        except ImportError:
            with pytest.raises(Exception) as info:
                getattr(r.distances, method)()
            assert module in str(info.value).lower()

"""On the GPU: batches whose arrays are in CUDA memory (CuPy or PyTorch) are staged and applied
by a device graph without a host copy, with the outcome the same batch from NumPy arrays has on
an equal graph: summaries, refusals (class and message) with the graph unchanged, edges in
order, and the algorithms' updates (sssp, mosp) with their batch rules. Ids of every integer
dtype, weights (n,) and (n, K), strided views, and batches that go back to the host route."""

import numpy as np
import pytest

import dyng
from dyng import _device_batch, mosp, sssp

pytestmark = pytest.mark.gpu


def _producers():
    out = []
    try:
        import cupy

        out.append(("cupy", lambda a: cupy.asarray(a)))
    except Exception:
        pass
    try:
        import torch

        if torch.cuda.is_available():
            out.append(("torch", lambda a: torch.as_tensor(np.ascontiguousarray(a), device="cuda")))
    except Exception:
        pass
    return out


PRODUCERS = _producers()


@pytest.fixture(params=[name for name, _ in PRODUCERS] or ["none"])
def on_device(request):
    if request.param == "none":
        pytest.skip("needs CuPy or PyTorch with CUDA")
    return dict(PRODUCERS)[request.param]


def host_array(a):
    return np.asarray(a.to_numpy() if hasattr(a, "to_numpy") else a)


def outcome(graph, batch):
    try:
        return graph.apply(batch)
    except dyng.Error as error:
        return type(error), str(error)


def graphs(rng, semantics, directed, weights=1, vertex_dtype="int32"):
    n, m = 150, 900
    src = rng.integers(0, n, m)
    dst = rng.integers(0, n, m)
    dst = np.where(dst == src, (dst + 1) % n, dst)
    w = rng.integers(1, 20, (m, weights)).astype(np.int32)
    kw = dict(directed=directed, semantics=semantics, vertex_dtype=vertex_dtype)
    host = dyng.Graph.from_edges(src, dst, w, resources=dyng.Resources.sequential(), **kw)
    device = dyng.Graph.from_edges(src, dst, w, resources=dyng.Resources.cuda(), **kw)
    return host, device


def arrays(rng, graph, size, weights=1):
    n = graph.num_vertices
    span = n + 2 if rng.random() < 0.3 else 16
    ins_src = rng.integers(0, span, size)
    ins_dst = np.where(rng.random(size) < 0.1, ins_src, rng.integers(0, span, size))
    src, dst, _ = graph.edges()
    pick = rng.integers(0, max(1, len(src)), size // 2)
    del_src = np.concatenate([src[pick], rng.integers(0, span, size // 4)])
    del_dst = np.concatenate([dst[pick], rng.integers(0, span, size // 4)])
    w = rng.integers(1, 20, (len(ins_src), weights))
    return ins_src, ins_dst, w, del_src, del_dst


def batch_of(parts, convert):
    ins_src, ins_dst, w, del_src, del_dst = (convert(p) for p in parts)
    return dyng.EdgeBatch(insert=(ins_src, ins_dst, w), delete=(del_src, del_dst))


SEMANTICS = [
    dyng.BatchSemantics(),
    dyng.BatchSemantics.set(),
    dyng.BatchSemantics(on_existing_insert="error", on_missing_delete="error"),
    dyng.BatchSemantics(on_self_loop="drop", deletions_first=False),
    dyng.BatchSemantics(on_self_loop="error", allow_vertex_growth=False),
]


@pytest.mark.parametrize("semantics", range(len(SEMANTICS)))
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("id_dtype", [np.int16, np.int32, np.int64, np.uint32])
def test_device_batches_match_host_batches(on_device, semantics, directed, id_dtype):
    rng = np.random.default_rng(semantics * 10 + directed)
    host, device = graphs(rng, SEMANTICS[semantics], directed)
    for step in range(12):
        parts = arrays(rng, host, int(rng.integers(0, 60)))
        ids = [p.astype(id_dtype) for p in (parts[0], parts[1], parts[3], parts[4])]
        parts = (ids[0], ids[1], parts[2].astype(np.int64), ids[2], ids[3])
        host_batch = batch_of(parts, lambda a: a)
        device_batch = batch_of(parts, on_device)
        resolved = device._resolve_batch(device_batch, "Graph.apply")
        assert isinstance(resolved, _device_batch.StagedResolved)
        assert outcome(device, device_batch) == outcome(host, host_batch), step
        assert device.version == host.version
        for a, b in zip(device.edges(), host.edges()):
            np.testing.assert_array_equal(a, b)


def test_refusals_match_the_host_route(on_device):
    rng = np.random.default_rng(3)
    strict = dyng.BatchSemantics(on_self_loop="error", allow_vertex_growth=False)
    host, device = graphs(rng, strict, True)
    cases = [
        ([1, -4], [2, 3], [1, 1], [], []),  # negative id
        ([1, 2], [2, 400], [1, 1], [], []),  # past n without growth
        ([1, 5], [2, 5], [1, 1], [], []),  # self-loop under 'error'
        ([1, 2], [2, 3], [1, 2**40], [], []),  # weight past int32
        ([1, 2**40], [2, 3], [1, 1], [], []),  # id past int32 vertex ids
        ([], [], None, [7, -1], [1, 2]),  # negative deletion id
        ([1, 2, 3], [2, 3], [1, 1, 1], [], []),  # lengths differ
    ]
    for ins_src, ins_dst, w, del_src, del_dst in cases:

        def build(convert):
            insert = None
            if ins_src:
                insert = (
                    convert(np.array(ins_src, np.int64)),
                    convert(np.array(ins_dst, np.int64)),
                    convert(np.array(w, np.int64)),
                )
            delete = None
            if del_src:
                delete = (
                    convert(np.array(del_src, np.int64)),
                    convert(np.array(del_dst, np.int64)),
                )
            return dyng.EdgeBatch(insert=insert, delete=delete)

        expected = outcome(host, build(lambda a: a))
        got = outcome(device, build(on_device))
        assert isinstance(expected, tuple), (ins_src, expected)
        assert got == expected
        assert device.version == 0 and host.version == 0
    for a, b in zip(device.edges(), host.edges()):
        np.testing.assert_array_equal(a, b)


def test_float_and_two_dimensional_ids_are_refused_as_on_the_host(on_device):
    rng = np.random.default_rng(4)
    host, device = graphs(rng, dyng.BatchSemantics(), True)
    for bad in (np.array([1.0, 2.0]), np.array([[1, 2]]), np.array([True, False])):

        def build(convert):
            return dyng.EdgeBatch(
                insert=(convert(bad), convert(np.array([1, 2])), convert(np.array([1, 1])))
            )

        assert outcome(device, build(on_device)) == outcome(host, build(lambda a: a))


def test_strided_views_and_one_dimensional_weights(on_device):
    rng = np.random.default_rng(5)
    host, device = graphs(rng, dyng.BatchSemantics(), False)
    ins = rng.integers(0, 150, (40, 2))
    w = rng.integers(1, 9, (40, 3))
    host_batch = dyng.EdgeBatch(insert=(ins[:, 0].copy(), ins[:, 1].copy(), w[:, 1].copy()))
    d_ins, d_w = on_device(ins), on_device(w)
    device_batch = dyng.EdgeBatch(insert=(d_ins[:, 0], d_ins[:, 1], d_w[:, 1]))
    assert outcome(device, device_batch) == outcome(host, host_batch)
    for a, b in zip(device.edges(), host.edges()):
        np.testing.assert_array_equal(a, b)


class CudaArrayInterfaceOnly:
    """A producer with only __cuda_array_interface__ (as Numba's device arrays)."""

    def __init__(self, array):
        self._array = array  # keeps the memory alive
        self.__cuda_array_interface__ = array.__cuda_array_interface__


def test_producers_with_only_the_cuda_array_interface():
    cupy = pytest.importorskip("cupy")
    rng = np.random.default_rng(9)
    host, device = graphs(rng, dyng.BatchSemantics(), True, vertex_dtype="int64")
    for step in range(6):
        parts = arrays(rng, host, 50)
        ins = cupy.asarray(np.stack([parts[0], parts[1]], axis=1).astype(np.uint32))
        wrap = CudaArrayInterfaceOnly
        device_batch = dyng.EdgeBatch(
            insert=(wrap(ins[:, 0]), wrap(ins[:, 1]), wrap(cupy.asarray(parts[2]))),
            delete=(wrap(cupy.asarray(parts[3])), wrap(cupy.asarray(parts[4]))),
        )
        host_batch = batch_of(parts, lambda a: a)
        resolved = device._resolve_batch(device_batch, "Graph.apply")
        assert isinstance(resolved, _device_batch.StagedResolved)
        assert outcome(device, device_batch) == outcome(host, host_batch), step
        for a, b in zip(device.edges(), host.edges()):
            np.testing.assert_array_equal(a, b)


def test_mixed_and_host_batches_take_the_host_route(on_device):
    rng = np.random.default_rng(6)
    host, device = graphs(rng, dyng.BatchSemantics(), True)
    mixed = dyng.EdgeBatch(insert=(on_device(np.array([1, 2])), np.array([3, 4]), [1, 1]))
    assert _device_batch.stage_if_on_device(device, mixed, "Graph.apply") is None
    assert outcome(device, mixed) == outcome(host, dyng.EdgeBatch(insert=([1, 2], [3, 4], [1, 1])))
    on_host_graph = dyng.EdgeBatch(
        insert=(on_device(np.array([5])), on_device(np.array([6])), on_device(np.array([2])))
    )
    assert _device_batch.stage_if_on_device(host, on_host_graph, "Graph.apply") is None
    host.apply(on_host_graph)  # copied to the host, as before


def test_sssp_and_mosp_updates_from_device_batches(on_device):
    rng = np.random.default_rng(8)
    host, device = graphs(rng, dyng.BatchSemantics(), True, weights=3)
    cpu = dyng.Resources.sequential()
    hs, ds = sssp.compute(host, 0, resources=cpu), sssp.compute(device, 0)
    hm = mosp.compute(host, 0, preferences=[2, 1, 3], resources=cpu)
    dm = mosp.compute(device, 0, preferences=[2, 1, 3])
    for _ in range(6):
        parts = arrays(rng, host, 40, weights=3)
        dyng.update(host, batch_of(parts, lambda a: a), hs, hm)
        dyng.update(device, batch_of(parts, on_device), ds, dm)
        np.testing.assert_array_equal(ds.distances.to_numpy(), hs.distances.to_numpy())
        np.testing.assert_array_equal(ds.parents.to_numpy(), hs.parents.to_numpy())
        np.testing.assert_array_equal(host_array(dm.path_costs), host_array(hm.path_costs))
    # A weight below 1 in an objective column is refused by the algorithms' rule, as on the host.
    bad = (
        np.array([1]),
        np.array([2]),
        np.array([[3, 0, 4]]),
        np.array([], np.int64),
        np.array([], np.int64),
    )
    errors = []
    for graph, result, convert in ((host, hm, lambda a: a), (device, dm, on_device)):
        with pytest.raises(dyng.InvalidArgumentError) as info:
            dyng.update(graph, batch_of(bad, convert), result)
        errors.append(str(info.value))
    assert errors[0] == errors[1]
    assert device.version == host.version

"""On the GPU: device-resident graphs (space, moves between backends, the incremental device
sync after apply, copy policy for implicit uploads) and Resources.cuda."""

import warnings

import numpy as np
import pytest

import dyng
from dyng import sssp

pytestmark = pytest.mark.gpu


def grid_edges(side, seed=3):
    rng = np.random.default_rng(seed)
    ids = np.arange(side * side).reshape(side, side)
    src = np.concatenate(
        [ids[:, :-1].ravel(), ids[:, 1:].ravel(), ids[:-1, :].ravel(), ids[1:, :].ravel()]
    )
    dst = np.concatenate(
        [ids[:, 1:].ravel(), ids[:, :-1].ravel(), ids[1:, :].ravel(), ids[:-1, :].ravel()]
    )
    return (
        src.astype(np.int32),
        dst.astype(np.int32),
        rng.integers(1, 101, len(src), dtype=np.int32),
    )


def lists(result):
    return result.distances.to_numpy().tolist(), result.parents.to_numpy().tolist()


def test_resources_cuda_basics():
    res = dyng.Resources.cuda()
    assert (res.backend, res.device, res.default_space, res.stream) == ("cuda", 0, "device", 0)
    assert repr(res) == "Resources.cuda(device=0)"
    res.warm_up()
    res.synchronize()
    assert res.workspace_bytes >= 0
    res.release_workspaces()
    assert dyng.Resources().backend == "cuda"  # None picks CUDA when a device is usable


def test_resources_cuda_rejects_bad_device_and_stream():
    with pytest.raises(dyng.InvalidArgumentError, match="CUDA device"):
        dyng.Resources.cuda(device=99)
    with pytest.raises(dyng.InvalidArgumentError, match="not a CUDA stream"):
        dyng.Resources.cuda(stream="fast")
    with pytest.raises(dyng.InvalidArgumentError, match="negative"):
        dyng.Resources.cuda(stream=-1)


class ProtocolStream:
    def __init__(self, handle):
        self.handle = handle

    def __cuda_stream__(self):
        return (0, self.handle)


@pytest.mark.parametrize("kind", ["int", "protocol", "cupy", "torch"])
def test_streams_of_every_kind_give_correct_results(kind):
    src, dst, w = grid_edges(24)
    if kind == "cupy":
        cupy = pytest.importorskip("cupy")
        stream = cupy.cuda.Stream(non_blocking=True)
        handle = stream.ptr
    elif kind == "torch":
        torch = pytest.importorskip("torch")
        stream = torch.cuda.Stream()
        handle = stream.cuda_stream
    else:
        cupy = pytest.importorskip("cupy")
        owner = cupy.cuda.Stream(non_blocking=True)
        handle = owner.ptr
        stream = handle if kind == "int" else ProtocolStream(handle)
    res = dyng.Resources.cuda(stream=stream)
    assert res.stream == handle
    g = dyng.Graph.from_edges(src, dst, w, resources=res)
    host = dyng.Graph.from_edges(src, dst, w, resources=dyng.Resources.sequential())
    r = sssp.compute(g, 0)
    assert lists(r) == lists(sssp.compute(host, 0))
    batch = dyng.EdgeBatch(insert=([0, 5], [300, 77], [1, 2]), delete=([1], [2]))
    sssp.update(g, batch, r)
    host.apply(batch)
    assert lists(r) == lists(sssp.compute(host, 0))


def test_device_graph_space_and_moves():
    src, dst, w = grid_edges(8)
    g = dyng.Graph.from_edges(src, dst, w, resources=dyng.Resources.cuda())
    assert g.space == "device" and g._native.device == 0
    h = g.to_backend(dyng.Resources.sequential())
    assert h.space == "host" and h._native.device == -1
    back = h.to_backend(dyng.Resources.cuda())
    assert back.space == "device"
    assert g.to_csr().col_ind.tolist() == back.to_csr().col_ind.tolist()
    c = g.clone()
    assert c.space == "device" and c.version == g.version


def test_device_graph_applies_on_the_device():
    src, dst, w = grid_edges(32)
    g = dyng.Graph.from_edges(src, dst, w, resources=dyng.Resources.cuda())
    uploads = g._native.device_full_uploads
    r = sssp.compute(g, 0)
    stats = sssp.update(g, dyng.EdgeBatch(insert=([0], [1000], [1]), delete=([1], [2])), r)
    assert g._native.device_full_uploads == uploads, "a batch must not re-upload the graph"
    assert not g._native.host_rows_current, "the device applied the batch alone"
    host = g.to_backend(dyng.Resources.sequential())
    assert g._native.host_rows_current, "a copy to the host brings the rows back"
    assert lists(r) == lists(sssp.compute(host, 0)), stats


def test_host_graph_copy_follows_host_batches_row_by_row():
    src, dst, w = grid_edges(32)
    g = dyng.Graph.from_edges(src, dst, w, resources=dyng.Resources.sequential())
    res = dyng.Resources.cuda()
    r = sssp.compute(g, 0, resources=res)
    uploads = g._native.device_full_uploads
    sssp.update(g, dyng.EdgeBatch(insert=([0], [1000], [1]), delete=([1], [2])), r, resources=res)
    assert g._native.device_full_uploads == uploads, "a small batch must not re-upload the graph"
    assert g._native.host_rows_current
    assert 0 < g._native.device_rows_synced <= 8
    assert g._native.device_rows_uploaded <= g._native.device_rows_synced
    assert lists(r) == lists(sssp.compute(g, 0))


def test_vertex_growth_and_relayout_resync():
    src, dst, w = grid_edges(6)
    g = dyng.Graph.from_edges(src, dst, w, resources=dyng.Resources.cuda())
    r = sssp.compute(g, 0)
    n = g.num_vertices
    sssp.update(g, dyng.EdgeBatch(insert=([0, n], [n, n + 3], [1, 1])), r)
    assert g.num_vertices == n + 4
    g.reserve(10 * g.num_edges)  # a re-layout: the device copy must follow
    many = np.arange(n + 4, dtype=np.int32)
    sssp.update(
        g,
        dyng.EdgeBatch(insert=(np.zeros_like(many), many, np.full(len(many), 7, dtype=np.int32))),
        r,
    )
    host = g.to_backend(dyng.Resources.sequential())
    assert lists(r) == lists(sssp.compute(host, 0))


def test_host_graph_on_cuda_follows_copy_policy():
    src, dst, w = grid_edges(6)
    g = dyng.Graph.from_edges(src, dst, w, resources=dyng.Resources.sequential())
    res = dyng.Resources.cuda()
    res.copy_policy = "error"
    with pytest.raises(dyng.InvalidArgumentError, match="copy_policy='error'"):
        sssp.compute(g, 0, resources=res)
    res.copy_policy = "warn"
    with pytest.warns(UserWarning, match="copying a host graph"):
        r = sssp.compute(g, 0, resources=res)
    assert r.space == "device"
    # The copy stays level with later batches, so updates need no new upload.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sssp.update(g, dyng.EdgeBatch(delete=([0], [1])), r)
    assert lists(r) == lists(sssp.compute(g, 0, resources=dyng.Resources.sequential()))


def test_invalid_batch_changes_nothing_on_device():
    src, dst, w = grid_edges(6)
    g = dyng.Graph.from_edges(src, dst, w, resources=dyng.Resources.cuda())
    r = sssp.compute(g, 0)
    before = lists(r)
    with pytest.raises(dyng.InvalidArgumentError):
        sssp.update(g, dyng.EdgeBatch(insert=([0], [5], [0])), r)  # weight 0 < 1
    assert g.version == 0 and lists(r) == before
    assert lists(sssp.compute(g, 0)) == before


def test_result_moves_between_spaces():
    src, dst, w = grid_edges(6)
    g = dyng.Graph.from_edges(src, dst, w, resources=dyng.Resources.cuda())
    r = sssp.compute(g, 0)
    on_host = r.clone(dyng.Resources.sequential())
    assert on_host.space == "host" and lists(on_host) == lists(r)
    again = on_host.clone(dyng.Resources.cuda())
    assert again.space == "device" and lists(again) == lists(r)
    made = sssp.Result.from_arrays(g, 0, r.distances.to_numpy(), r.parents.to_numpy())
    assert made.space == "device" and lists(made) == lists(r)


def test_weights_below_one_are_rejected_on_device():
    g = dyng.Graph.from_edges([0, 1], [1, 2], [3, 0], resources=dyng.Resources.cuda())
    with pytest.raises(dyng.InvalidArgumentError, match="weight"):
        sssp.compute(g, 0)

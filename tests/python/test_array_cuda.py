"""On the GPU: result arrays in device memory (CUDA array interface v3, DLPack on the device,
to_numpy/to_cupy/to_torch, copy-on-write for exported views, copy policy for implicit host
copies) and the teardown guarantee (exit 0 while device memory is still held)."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import dyng
from dyng import sssp

pytestmark = pytest.mark.gpu


def device_result():
    g = dyng.Graph.from_edges(
        [0, 0, 1, 2], [1, 2, 3, 3], [4, 1, 1, 1], resources=dyng.Resources.cuda()
    )
    return g, sssp.compute(g, 0)


def test_cuda_array_interface_v3():
    _, r = device_result()
    cai = r.distances.__cuda_array_interface__
    assert cai["version"] == 3 and cai["shape"] == (4,) and cai["typestr"] == "<i8"
    assert cai["data"][1] is True  # read-only
    assert r.parents.__cuda_array_interface__["typestr"] == "<i4"
    assert r.distances.device == "cuda:0"
    assert not hasattr(r.distances, "__array_interface__")


def test_cupy_zero_copy_view_keeps_old_values_after_update():
    cupy = pytest.importorskip("cupy")
    g, r = device_result()
    view = cupy.asarray(r.distances)  # zero-copy through __cuda_array_interface__
    assert view.data.ptr == r.distances.__cuda_array_interface__["data"][0]
    assert view.get().tolist() == [0, 4, 1, 2]
    sssp.update(g, dyng.EdgeBatch(insert=([0], [1], [1])), r)
    assert r.distances.to_numpy().tolist() == [0, 1, 1, 2]
    assert view.get().tolist() == [0, 4, 1, 2], "an exported view must keep its values"


def test_dlpack_on_device():
    torch = pytest.importorskip("torch")
    g, r = device_result()
    assert r.distances.__dlpack_device__() == (2, 0)
    t = torch.from_dlpack(r.distances)
    assert t.device.type == "cuda" and t.cpu().tolist() == [0, 4, 1, 2]
    sssp.update(g, dyng.EdgeBatch(delete=([0], [2])), r)
    assert t.cpu().tolist() == [0, 4, 1, 2], "copy-on-write keeps DLPack exports intact"
    with pytest.raises(BufferError):
        r.distances.__dlpack__(dl_device=(1, 0))


def test_to_numpy_cupy_torch_are_copies():
    pytest.importorskip("cupy")
    pytest.importorskip("torch")
    _, r = device_result()
    a = r.distances.to_numpy()
    a[0] = 99
    assert r.distances.to_numpy().tolist() == [0, 4, 1, 2]
    with pytest.raises(dyng.InvalidArgumentError, match="copy=False"):
        r.distances.to_numpy(copy=False)
    c = r.distances.to_cupy()
    c[0] = 7
    t = r.parents.to_torch()
    t[0] = 5
    assert c.device.id == 0 and t.device.type == "cuda"
    assert r.distances.to_numpy().tolist() == [0, 4, 1, 2]
    assert r.parents.to_numpy().tolist() == [-1, 0, 0, 2]


def test_stale_and_implicit_copies_follow_policy():
    g, r = device_result()
    d = r.distances
    assert d[3] == 2 and list(d) == [0, 4, 1, 2] and np.asarray(d).tolist() == [0, 4, 1, 2]
    r._resources.copy_policy = "error"
    fresh = r.clone()
    with pytest.raises(dyng.InvalidArgumentError, match="copy_policy"):
        fresh.distances[0]
    assert fresh.distances.to_numpy().tolist() == [0, 4, 1, 2]  # explicit copies stay allowed
    sssp.update(g, dyng.EdgeBatch(insert=([3], [0], [1])), r)
    with pytest.raises(dyng.StaleResultError):
        d.to_numpy()


def test_exit_with_live_device_memory_is_clean(tmp_path):
    script = textwrap.dedent("""
        import dyng
        from dyng import sssp
        g = dyng.Graph.from_edges([0, 1, 2], [1, 2, 0], [1, 2, 3], resources=dyng.Resources.cuda())
        r = sssp.compute(g, 0)
        d = r.distances
        sssp.update(g, dyng.EdgeBatch(delete=([0], [1])), r)
        keep = [g, r, d, r.parents]
        try:
            import cupy
            keep.append(cupy.asarray(r.distances))
        except ImportError:
            pass
        print("done", flush=True)
    """)
    for ending in ("", "import sys; sys.exit(0)", "import os; os._exit(0)"):
        path = tmp_path / "teardown.py"
        path.write_text(script + ending + "\n")
        proc = subprocess.run(
            [sys.executable, str(path)], capture_output=True, text=True, timeout=300
        )
        assert proc.returncode == 0, (ending, proc.returncode, proc.stderr[-2000:])
        assert proc.stdout.strip() == "done"
        assert "terminate" not in proc.stderr and "Abort" not in proc.stderr, proc.stderr

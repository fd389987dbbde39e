"""Smoke tests of the package layer: construction, apply, sssp against the native oracle, Array
staleness and copy-on-write, error translation, atomicity, dtype inference and the CLI."""

import copy
import pickle
import subprocess
import sys
import threading

import numpy as np
import pytest

import dyng
from dyng import _backend, sssp

INF = sssp.INFINITE_DISTANCE


def _oracle(graph, source, objective=0):
    dist, parents = _backend.native().sssp_reference_dijkstra(graph._native, source, objective)
    return np.asarray(dist).tolist(), np.asarray(parents).tolist()


def _random_graph(rng, n, m, **kw):
    src = rng.integers(0, n, m)
    dst = rng.integers(0, n, m)
    return dyng.Graph.from_edges(src, dst, rng.integers(1, 20, m), num_vertices=n, **kw)


def _random_batch(rng, graph, k):
    src, dst, _ = graph.edges()
    picks = rng.choice(len(src), size=min(k, len(src)), replace=False) if len(src) else []
    n = graph.num_vertices
    return dyng.EdgeBatch(
        insert=(rng.integers(0, n + 2, k), rng.integers(0, n + 2, k), rng.integers(1, 20, k)),
        delete=(np.asarray(src)[picks], np.asarray(dst)[picks]),
    )


def test_import_does_not_load_native_module():
    code = "import sys, dyng; assert 'dyng._core' not in sys.modules; print(dyng.__version__)"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == dyng.__version__


def test_construction_and_csr():
    g = dyng.Graph.from_edges([2, 0, 0, 0], [1, 1, 1, 2], [[1, 2], [3, 4], [5, 6], [7, 8]])
    assert (g.num_vertices, g.num_edges, g.num_weights, g.version) == (3, 3, 2, 0)
    csr = g.to_csr()
    assert csr.row_ptr.tolist() == [0, 2, 2, 3]
    assert csr.col_ind.tolist() == [1, 2, 1]
    assert csr.weights.tolist() == [[5, 6], [7, 8], [1, 2]]  # repeated (0, 1): last weight wins
    h = dyng.Graph.from_csr(csr.row_ptr, csr.col_ind, csr.weights)
    assert h.to_csr().weights.tolist() == csr.weights.tolist()
    g.check_integrity()


def test_apply_summary_and_version():
    g = dyng.Graph.from_edges([0, 1], [1, 2], [1, 1])
    s = g.apply(dyng.EdgeBatch(insert=([0, 0, 5], [1, 2, 0], [9, 3, 1]), delete=([1, 7], [2, 7])))
    assert isinstance(s, dyng.ApplySummary)
    assert (s.inserted_edges, s.updated_edges, s.deleted_edges, s.ignored_deletions) == (2, 1, 1, 1)
    assert (s.inserted_vertices, s.num_vertices_after) == (3, 6)
    assert g.version == 1 and g.num_vertices == 6
    with pytest.raises(dataclasses_frozen_error()):
        s.inserted_edges = 0


def dataclasses_frozen_error():
    import dataclasses

    return dataclasses.FrozenInstanceError


@pytest.mark.parametrize("backend", ["sequential", "openmp"])
@pytest.mark.parametrize(
    "kw", [{}, {"edge_dtype": "int64"}, {"vertex_dtype": "int64"}, {"directed": False}]
)
def test_sssp_updates_match_reference(backend, kw):
    rng = np.random.default_rng(7)
    res = dyng.Resources(backend, num_threads=2) if backend == "openmp" else dyng.Resources(backend)
    g = _random_graph(rng, 40, 120, resources=res, **kw)
    results = [sssp.compute(g, s) for s in (0, 5, 17)]
    for r, s in zip(results, (0, 5, 17)):
        assert (r.distances.tolist(), r.parents.tolist()) == _oracle(g, s)
    for _ in range(12):
        stats = dyng.update(g, _random_batch(rng, g, 6), *results)
        assert len(stats) == 3 and all(st.path in ("incremental", "recompute") for st in stats)
        for r in results:
            assert r.graph_version == g.version
            assert (r.distances.tolist(), r.parents.tolist()) == _oracle(g, r.source), g.version
    assert results[0].parents.dtype == g.vertex_dtype


def test_array_staleness_and_copy_on_write():
    g = dyng.Graph.from_edges([0, 1], [1, 2], [5, 5])
    r = sssp.compute(g, 0)
    arr = r.distances
    view = arr.to_numpy(copy=False)
    via_interface = np.asarray(arr)
    via_dlpack = np.from_dlpack(arr)
    assert not view.flags.writeable and not via_dlpack.flags.writeable
    assert np.shares_memory(view, via_dlpack)  # DLPack >= 1.0 export is zero-copy
    untouched = r.parents  # never exported: released at the update
    sssp.update(g, dyng.EdgeBatch(insert=([0], [2], [1])), r)
    assert r.distances.tolist() == [0, 5, 1]
    for old in (view, via_interface, via_dlpack):
        assert old.tolist() == [0, 5, 10]  # exported views keep the old state
    for stale in (arr, untouched):
        assert not stale.is_current
        with pytest.raises(dyng.StaleResultError):
            stale.tolist()
        with pytest.raises(dyng.StaleResultError):
            len(stale)


def test_array_protocols():
    g = dyng.Graph.from_edges([0], [1], [3])
    a = sssp.compute(g, 0).distances
    assert (a.shape, a.ndim, a.size, a.device, len(a)) == ((2,), 1, 2, "cpu", 2)
    assert list(a) == [0, 3] and a[1] == 3
    legacy = a.__dlpack__()  # no max_version: a private copy in a legacy capsule
    assert type(legacy).__name__ == "PyCapsule"
    with pytest.raises(BufferError):
        a.__dlpack__(copy=False)
    assert a.__dlpack_device__() == (1, 0)
    writable = a.to_numpy()
    writable[0] = 99
    assert a.tolist() == [0, 3]
    assert a.__array__(copy=True).flags.writeable
    back = pickle.loads(pickle.dumps(a))
    assert isinstance(back, np.ndarray) and back.tolist() == [0, 3]


def test_native_errors_are_translated():
    native = _backend.native()
    g = dyng.Graph.from_edges([0], [1], [1])
    with pytest.raises(dyng.InvalidArgumentError, match="99"):
        native.SsspState.compute(
            g._native, 99, native.SsspOptions(), native.Execution("sequential")
        )
    with pytest.raises(dyng.InvalidArgumentError, match="bogus"):
        native.Execution("bogus")
    if not native.build_config["cuda"]:
        with pytest.raises(dyng.NotSupportedError):
            native.Execution("cuda")
    unweighted = dyng.Graph.from_edges([0], [1])
    with pytest.raises(dyng.NotSupportedError):
        native.SsspState.compute(
            unweighted._native, 0, native.SsspOptions(), native.Execution("sequential")
        )


def test_bad_batch_and_stale_result_change_nothing():
    g = dyng.Graph.from_edges([0, 1], [1, 2], [2, 2])
    r = sssp.compute(g, 0)
    before = (g.version, g.to_csr().weights.tolist(), r.distances.tolist())
    with pytest.raises(dyng.InvalidArgumentError):  # weight 0 is invalid for sssp
        dyng.update(g, dyng.EdgeBatch(insert=([0], [2], [0])), r)
    with pytest.raises(dyng.InvalidArgumentError, match="-4"):
        dyng.update(g, dyng.EdgeBatch(delete=([0, -4], [1, 1])), r)
    with pytest.raises(dyng.NotSupportedError, match="0.4"):
        dyng.update(g, dyng.EdgeBatch(insert_vertices=[7]), r)
    assert (g.version, g.to_csr().weights.tolist(), r.distances.tolist()) == before
    other = sssp.compute(g, 1)
    g.apply(dyng.EdgeBatch(insert=([2], [0], [1])))
    with pytest.raises(dyng.StaleResultError, match="version 0.*version 1"):
        dyng.update(g, dyng.EdgeBatch(insert=([0], [2], [1])), r, other)
    assert g.version == 1 and r.graph_version == 0
    with pytest.raises(dyng.StaleResultError, match="another graph"):
        sssp.update(g.clone(), dyng.EdgeBatch(), sssp.compute(g, 0))


def test_update_argument_rules():
    g = dyng.Graph.from_edges([0], [1], [1])
    r = sssp.compute(g, 0)
    b = dyng.EdgeBatch()
    with pytest.raises(dyng.InvalidArgumentError):
        dyng.update(g, b)
    with pytest.raises(dyng.InvalidArgumentError):
        dyng.update(g, b, r, r)
    with pytest.raises(TypeError):
        dyng.update(g, b, object())
    assert g.version == 0


@pytest.mark.parametrize(
    "ids, expected",
    [
        (np.array([0, 1], dtype=np.int8), np.int32),
        (np.array([0, 1], dtype=np.uint16), np.int32),
        (np.array([0, 1], dtype=np.int32), np.int32),
        (np.array([0, 1], dtype=np.int64), np.int64),
        (np.array([0, 1], dtype=np.uint32), np.int64),
        ([0, 1], np.int32),
    ],
)
def test_vertex_dtype_inference(ids, expected):
    g = dyng.Graph.from_edges(ids, ids[::-1], [1, 1])
    assert g.vertex_dtype == expected


def test_list_ids_widen_only_when_needed():
    # Checked on a batch: a graph with an id of 2^31 would need 2^31 vertices.
    assert dyng.EdgeBatch(insert=([0, 2**31 - 1], [1, 2])).insert_src.dtype == np.int32
    assert dyng.EdgeBatch(insert=([0, 2**31], [1, 2])).insert_src.dtype == np.int64


@pytest.mark.parametrize(
    "ids, error",
    [
        (np.array([0, 1], dtype=np.uint64), dyng.NotSupportedError),
        (np.array([0.0, 1.0]), dyng.InvalidArgumentError),
        (np.array([True, False]), dyng.InvalidArgumentError),
    ],
)
def test_vertex_dtype_refusals(ids, error):
    with pytest.raises(error):
        dyng.Graph.from_edges(ids, ids, [1, 1])


def test_inputs_noncontiguous_readonly_and_narrowing():
    base = np.arange(8, dtype=np.int64)
    src = base[::2]
    src.flags.writeable = False
    g = dyng.Graph.from_edges(src, base[1::2], np.ones(4, dtype=np.int16))
    assert g.vertex_dtype == np.int64 and g.num_edges == 4
    narrowed = dyng.Graph.from_edges(src, base[1::2], [1, 1, 1, 1], vertex_dtype="int32")
    assert narrowed.vertex_dtype == np.int32
    with pytest.raises(dyng.InvalidArgumentError, match="2147483648"):
        dyng.Graph.from_edges(np.array([0, 2**31]), np.array([1, 1]), [1, 1], vertex_dtype="int32")
    with pytest.raises(dyng.InvalidArgumentError, match="3.*2"):
        dyng.Graph.from_edges([0, 1, 2], [1, 2], [1, 1, 1])
    with pytest.raises(dyng.InvalidArgumentError, match="2147483648"):
        g32 = dyng.Graph.from_edges([0], [1], [1])
        g32.apply(dyng.EdgeBatch(insert=(np.array([2**31]), np.array([0]), [1])))


def test_graph_object_rules():
    with pytest.raises(TypeError):
        dyng.Graph()
    g = dyng.Graph.from_edges([0], [1], [1])
    with pytest.raises(TypeError):
        pickle.dumps(g)
    c = copy.deepcopy(g)
    c.apply(dyng.EdgeBatch(delete=([0], [1])))
    assert (g.num_edges, c.num_edges) == (1, 0)
    with pytest.raises(TypeError):
        pickle.dumps(sssp.compute(g, 0))
    with pytest.raises(dyng.NotSupportedError, match="int32, int32, int32"):
        dyng.Graph.from_edges(np.array([0], dtype=np.int64), np.array([1], dtype=np.int64))


def test_build_config_and_cli():
    cfg = _backend.native().build_config
    assert set(cfg) >= {
        "compiler",
        "build_type",
        "openmp",
        "openmp_version",
        "cuda",
        "plugin",
        "cuda_toolkit",
        "cuda_architectures",
        "cuda_runtime",
    }
    # A CUDA build (a plugin, or a dev build with DYNG_ENABLE_CUDA) names its toolkit.
    assert (cfg["cuda_toolkit"] != "") == bool(cfg["cuda"])
    version = subprocess.run(
        [sys.executable, "-m", "dyng", "--version"], capture_output=True, text=True
    )
    assert version.returncode == 0 and version.stdout.strip() == f"dyng {dyng.__version__}"
    config = subprocess.run(
        [sys.executable, "-m", "dyng", "config"], capture_output=True, text=True
    )
    assert config.returncode == 0 and "native_module:" in config.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "dyng", "--log-level", "loud", "config"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "dyng: error:" in bad.stderr


def test_concurrent_computes_agree():
    rng = np.random.default_rng(3)
    g = _random_graph(rng, 300, 2000, resources=dyng.Resources.sequential())
    expected = _oracle(g, 0)
    found, errors = [], []

    def work():
        try:
            for _ in range(5):
                r = sssp.compute(g, 0)
                found.append((r.distances.tolist(), r.parents.tolist()))
        except Exception as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(found) == 20 and all(f == expected for f in found)


def test_cuda_request_names_installed_plugins(monkeypatch):
    from dyng import _plugins, _resources

    chosen = _backend.selection()
    if chosen.module.build_config["cuda"]:
        pytest.skip("a CUDA plugin is in use here; tests/selection cover the fallback messages")
    unusable = _plugins.PluginReport(
        "cu13",
        "dyng_cu13",
        "dyng-cu13",
        "0.3.0",
        13,
        13000,
        0,
        "unusable",
        "no visible CUDA device",
    )
    monkeypatch.setattr(
        _backend, "selection", lambda: chosen._replace(plugins=(unusable,), cpu_only=None)
    )
    with pytest.raises(dyng.NotSupportedError, match="cu13 .dyng-cu13.*no visible CUDA device"):
        dyng.Resources.cuda()
    monkeypatch.setattr(_backend, "selection", lambda: chosen._replace(plugins=(), cpu_only=None))
    with pytest.raises(dyng.NotSupportedError, match=r"pip install \"dyng\[cu13\]\""):
        dyng.Resources("cuda")
    assert _resources.cuda_unavailable("f").args[0].startswith("f(): ")


def test_from_arrays_clone_and_set_options():
    g = dyng.Graph.from_edges([0, 0, 1], [1, 2, 2], [[1, 4], [2, 1], [1, 1]])
    r = sssp.Result.from_arrays(g, 0, np.array([0, 1, 2], dtype=np.uint32), [-1, 0, 1])
    assert r.parents.tolist() == [-1, 0, 0]  # canonical: 0 -> 2 is tight and 0 < 1
    raw = sssp.Result.from_arrays(
        g, 0, [0, 1, INF], [-1, 0, -1], canonicalize=False, validate_inputs=False
    )  # not shortest: kept as given
    assert raw.distances.tolist() == [0, 1, INF]
    with pytest.raises(dyng.InvalidArgumentError, match="3 vertices"):
        sssp.Result.from_arrays(g, 0, [0, 1], [-1, 0])
    twin = r.clone()
    sssp.update(g, dyng.EdgeBatch(insert=([1], [2], [[1, 1]])), r)
    with pytest.raises(dyng.StaleResultError):
        sssp.update(g, dyng.EdgeBatch(), twin)  # the clone stayed at version 0
    r.set_options(delta=3)
    assert r.options.delta == 3
    with pytest.raises(dyng.InvalidArgumentError, match="objective"):
        r.set_options(objective=1)
    with pytest.raises(TypeError, match="bogus"):
        sssp.compute(g, 0, bogus=1)
    assert sssp.compute(g, 0, objective=1).distances.tolist() == [0, 4, 1]

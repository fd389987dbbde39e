"""Resources and the process default (spec section 4)."""

import copy
import pickle

import pytest

import dyng


def test_sequential_properties():
    r = dyng.Resources.sequential()
    assert r.backend == "sequential"
    assert r.num_threads == 1
    assert r.device == -1
    assert r.default_space == "host"


def test_openmp_properties():
    if not dyng.config()["backends"]["openmp"]:
        pytest.skip("this build has no OpenMP backend")
    r = dyng.Resources.openmp(2)
    assert r.backend == "openmp"
    assert r.num_threads == 2
    assert r.device == -1
    assert r.default_space == "host"


def test_constructor_by_name_matches_classmethods():
    assert dyng.Resources("sequential").backend == "sequential"
    if dyng.config()["backends"]["openmp"]:
        r = dyng.Resources("openmp", num_threads=2)
        assert (r.backend, r.num_threads) == ("openmp", 2)


def test_default_backend_is_openmp_when_built_with_it():
    # backend=None: CUDA if available, else OpenMP, else sequential.
    cfg = dyng.config()
    expected = (
        "cuda"
        if cfg["backends"]["cuda"]
        else "openmp"
        if cfg["backends"]["openmp"]
        else "sequential"
    )
    assert dyng.Resources().backend == expected
    assert cfg["default_backend"] == expected


def test_bad_backend_name_raises_invalid_argument():
    with pytest.raises(dyng.InvalidArgumentError, match="bogus"):
        dyng.Resources("bogus")


@pytest.mark.parametrize(
    "make",
    [lambda: dyng.Resources.cuda(), lambda: dyng.Resources("cuda")],
    ids=["classmethod", "name"],
)
def test_cuda_without_plugin_raises_not_supported(make):
    if dyng.config()["backends"]["cuda"]:
        pytest.skip("a CUDA backend is usable here")
    with pytest.raises(dyng.NotSupportedError) as info:
        make()
    message = str(info.value).lower()
    if dyng._backend.selection().cpu_only is not None:
        # DYNG_CPU_ONLY / use_cpu_only(): the message names that request and how to undo it.
        assert "cpu module was requested" in message and "dyng_cpu_only" in message
    else:
        assert "plugin" in message
        assert "install" in message


def test_copies_share_copy_policy():
    r = dyng.Resources.sequential()
    assert r.copy_policy in ("allow", "warn", "error")
    for other in (copy.copy(r), copy.deepcopy(r)):
        r.copy_policy = "error"
        assert other.copy_policy == "error"
        r.copy_policy = "warn"
        assert other.copy_policy == "warn"


def test_bad_copy_policy_rejected():
    r = dyng.Resources.sequential()
    with pytest.raises(dyng.InvalidArgumentError, match="sometimes"):
        r.copy_policy = "sometimes"


@pytest.mark.parametrize(
    "make",
    [dyng.Resources.sequential, lambda: dyng.Resources.openmp(2)],
    ids=["sequential", "openmp2"],
)
def test_pickle_round_trip(make):
    r = make()
    back = pickle.loads(pickle.dumps(r))
    assert isinstance(back, dyng.Resources)
    assert (back.backend, back.num_threads, back.device) == (r.backend, r.num_threads, r.device)


def test_host_methods_are_harmless():
    r = dyng.Resources.sequential()
    r.synchronize()
    r.warm_up()
    r.release_workspaces()
    assert r.workspace_bytes >= 0


def test_default_resources_lazy_and_settable(restore_default_resources):
    default = dyng.get_default_resources()
    assert isinstance(default, dyng.Resources)
    dyng.set_default_resources("sequential")
    assert dyng.get_default_resources().backend == "sequential"
    dyng.set_default_resources(dyng.Resources.sequential())
    assert dyng.get_default_resources().backend == "sequential"
    dyng.set_default_resources(None)
    assert dyng.get_default_resources().backend == dyng.Resources().backend


def test_set_default_resources_bad_name(restore_default_resources):
    with pytest.raises(dyng.InvalidArgumentError):
        dyng.set_default_resources("bogus")


def test_constructors_use_process_default(restore_default_resources):
    dyng.set_default_resources("sequential")
    g = dyng.Graph.from_edges([0], [1], [1])
    assert g.resources.backend == "sequential"


def test_algorithms_default_to_graph_resources(restore_default_resources):
    g = dyng.Graph.from_edges([0, 1], [1, 2], [1, 1], resources=dyng.Resources.sequential())
    if dyng.config()["backends"]["openmp"]:
        dyng.set_default_resources(dyng.Resources.openmp(2))
    r = dyng.sssp.compute(g, 0)
    b = dyng.EdgeBatch(insert=([0], [2], [1]))
    stats = dyng.sssp.update(g, b, r)
    # Observed in 0.2.0: "operators" on sequential, "fused" on OpenMP.
    assert stats.engine_used == "operators"


def test_default_thread_count_is_the_openmp_default():
    cfg = dyng.config()
    if not cfg["backends"]["openmp"] or cfg["backends"]["cuda"]:
        pytest.skip("needs an OpenMP default backend")
    threads = cfg["openmp_max_threads"]
    assert dyng.Resources.openmp().num_threads == threads
    assert dyng.Resources.openmp(0).num_threads == threads
    # Observed in 0.2.0 on a 2-core machine: Resources('openmp', num_threads=2).
    assert repr(dyng.Resources()) == f"Resources('openmp', num_threads={threads})"

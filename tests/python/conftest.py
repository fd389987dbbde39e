"""Shared pytest setup: Hypothesis profiles, the `gpu` marker, and backend fixtures.

Hypothesis profiles (pick one with HYPOTHESIS_PROFILE, default "ci"):
  ci        100 examples (fewer for the costlier properties); the whole suite takes ~1-2 min on
            2 shared cores
  dev       a quick smoke run while editing
  thorough  many examples, for a nightly or pre-release run
"""

import os

# Spinning OpenMP workers cost ~100x on tiny graphs when the machine is shared (see
# shared/notes/measuring-here.md); passive waiting keeps the OpenMP(2) tests fast. Set before
# dyng (and with it the OpenMP runtime) is loaded.
os.environ.setdefault("OMP_WAIT_POLICY", "passive")

import pytest
from hypothesis import HealthCheck, settings

_COMMON = dict(
    deadline=None,
    print_blob=True,
    # Graph building through strategies is deliberately rich; slow generation is fine.
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("ci", max_examples=100, **_COMMON)
settings.register_profile("dev", max_examples=10, **_COMMON)
settings.register_profile("thorough", max_examples=600, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a usable CUDA backend (skipped otherwise)")


def _cuda_status():
    """(usable, reason) for the CUDA backend of the installed dyng."""
    try:
        import dyng

        if dyng.config()["backends"]["cuda"]:
            return True, ""
        return False, "no usable CUDA backend: dyng.config()['backends']['cuda'] is False"
    except Exception as exc:  # the reason is reported in the skip message
        return False, f"no usable CUDA backend: dyng.config() failed with {exc!r}"


def pytest_collection_modifyitems(config, items):
    gpu_items = [item for item in items if item.get_closest_marker("gpu")]
    if not gpu_items:
        return
    usable, reason = _cuda_status()
    if not usable:
        for item in gpu_items:
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(autouse=True)
def host_default_resources(request):
    """Tests without the gpu marker check host behaviour, so they run on a host backend even
    where the automatic default would be CUDA (a CUDA build on a GPU machine). GPU tests ask for
    Resources.cuda() themselves."""
    if request.node.get_closest_marker("gpu"):
        yield
        return
    import dyng

    saved = dyng._resources._default
    host = "openmp" if dyng._backend.native().build_config["openmp"] else "sequential"
    if dyng.get_default_resources().backend == "cuda":
        dyng.set_default_resources(host)
    try:
        yield
    finally:
        dyng._resources._default = saved


@pytest.fixture(params=["sequential", "openmp2"])
def resources(request):
    """Each host backend: Resources.sequential() and Resources.openmp(2)."""
    import dyng

    if request.param == "sequential":
        return dyng.Resources.sequential()
    return dyng.Resources.openmp(2)


@pytest.fixture
def restore_default_resources():
    """Puts the process-default Resources back after a test that changes it."""
    import dyng

    saved = dyng.get_default_resources()
    yield
    dyng.set_default_resources(saved)


@pytest.fixture(autouse=True)
def restore_log_level():
    """A test that changes the log level (the command line's --log-level does, for the whole
    process) leaves the next test at the level it found."""
    import dyng

    saved = dyng.get_log_level()
    yield
    if dyng.get_log_level() != saved:
        dyng.set_log_level(saved)

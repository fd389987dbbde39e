"""The algorithms are named twice, once per language: DYNG_ALGORITHMS in the top-level
CMakeLists.txt (the build: sources, C++ tests, the module's bindings) and ALGORITHM_MODULES in
python/dyng/_registry.py (everything Python). These tests tie the two together, so an algorithm
added to one list and not the other fails here rather than as a missing class at run time."""

import pathlib
import re

import pytest

from dyng import _backend, _registry

ROOT = pathlib.Path(__file__).resolve().parents[2]
CMAKE_LISTS = ROOT / "CMakeLists.txt"


def test_native_module_binds_the_registry_algorithms_in_order():
    native = _backend.native()
    assert tuple(native.build_config["algorithms"]) == _registry.ALGORITHM_MODULES


def _cmake_algorithms():
    if not CMAKE_LISTS.is_file():
        pytest.skip("no source tree beside the tests (an installed package's test run)")
    match = re.search(r"^set\(DYNG_ALGORITHMS\s+([^)]*)\)", CMAKE_LISTS.read_text(), re.MULTILINE)
    assert match, f"{CMAKE_LISTS} has no set(DYNG_ALGORITHMS ...)"
    return tuple(match.group(1).split())


def test_cmake_list_is_the_registry():
    assert _cmake_algorithms() == _registry.ALGORITHM_MODULES


@pytest.mark.parametrize("name", _registry.ALGORITHM_MODULES)
def test_every_algorithm_has_the_files_the_build_expects(name):
    _cmake_algorithms()
    expected = [
        f"src/dyng/{name}/sources.cmake",
        f"tests/cpp/{name}/tests.cmake",
        f"python/bindings/bind_{name}.cpp",
    ]
    missing = [path for path in expected if not (ROOT / path).is_file()]
    assert not missing, f"{name}: the build derives these files from its name: {missing}"


@pytest.mark.parametrize("name", _registry.ALGORITHM_MODULES)
def test_cuda_files_exist_exactly_for_a_cuda_backend(name):
    """The CUDA build takes an algorithm's device sources and binding where they exist, and its
    registry record says whether it has a CUDA backend: the two must agree, so a record cannot
    promise a backend the build leaves out, nor a device binding go unadvertised."""
    _cmake_algorithms()
    device_files = [
        f"src/dyng/{name}/cuda_sources.cmake",
        f"python/bindings/bind_{name}_device.cpp",
    ]
    present = [(ROOT / path).is_file() for path in device_files]
    on_cuda = "cuda" in _registry.find(name).backends
    assert present == [on_cuda, on_cuda], (
        f"{name}: its record lists backends {_registry.find(name).backends}, and of "
        f"{device_files} these exist: {present}"
    )

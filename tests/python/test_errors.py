"""The error class hierarchy of spec section 9."""

import pytest

import dyng

HIERARCHY = {
    "Error": (Exception,),
    "InvalidArgumentError": ("Error", ValueError),
    "StaleResultError": ("InvalidArgumentError",),
    "FileFormatError": ("Error", OSError),
    "CapacityError": ("Error", MemoryError),
    "NotSupportedError": ("Error", NotImplementedError),
    "ConvergenceError": ("Error", RuntimeError),
    "CudaError": ("Error", RuntimeError),
    "OutOfMemoryError": ("Error", MemoryError),
    "InternalError": ("Error", RuntimeError),
    "BackendWarning": (UserWarning,),
}


@pytest.mark.parametrize("name", sorted(HIERARCHY))
def test_error_class_bases(name):
    cls = getattr(dyng, name)
    assert isinstance(cls, type)
    for base in HIERARCHY[name]:
        base_cls = getattr(dyng, base) if isinstance(base, str) else base
        assert issubclass(cls, base_cls), f"{name} must derive from {base_cls.__name__}"


@pytest.mark.parametrize("name", sorted(set(HIERARCHY) - {"Error", "BackendWarning"}))
def test_every_error_is_a_dyng_error(name):
    assert issubclass(getattr(dyng, name), dyng.Error)


def test_backend_warning_is_not_an_error():
    assert not issubclass(dyng.BackendWarning, dyng.Error)


def test_stale_result_error_is_caught_as_value_error():
    assert issubclass(dyng.StaleResultError, ValueError)


def test_native_errors_map_to_python_classes():
    # A C++ invalid_argument_error from the native layer must arrive as the Python class.
    g = dyng.Graph.from_edges([0, 1], [1, 2], [1, 1])
    with pytest.raises(dyng.InvalidArgumentError):
        dyng.sssp.compute(g, 99)

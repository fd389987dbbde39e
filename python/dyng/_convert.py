"""Turning user inputs into the exact arrays the native module takes (spec section 1).

Every public entry point funnels its array arguments through here, so the dtype rules live in one
place: ids are inferred as int32 or int64 and never narrowed silently, weights are int32, and
anything that would wrap, truncate or reinterpret a value is refused with an error that names the
value and its position. Inputs may be NumPy arrays, DLPack producers (device memory is copied to
the host), buffer-protocol objects or Python sequences; non-contiguous and read-only inputs work.

Every array these functions return is dyng's own: where a conversion would hand back the caller's
memory, it is copied first, and the checks run on that copy. The native calls read their inputs
more than once with the GIL released, so an array that another thread can still write would let
a change made after the checks reach the graph (issue 11, item 3).
"""

from __future__ import annotations

import operator

import numpy as np

from dyng._array import Array
from dyng._errors import InvalidArgumentError, NotSupportedError

__all__ = [
    "COMPILED_TYPES",
    "INT32_MAX",
    "to_numpy",
    "id_array",
    "cast_ids",
    "common_id_dtype",
    "weight_matrix",
    "dtype_name",
    "check_same_length",
    "as_int",
]

INT32_MAX = 2**31 - 1
INT64_MAX = 2**63 - 1
MAX_WEIGHTS = 64  # k_max_weights of graph/properties.hpp
COMPILED_TYPES = (
    "(int32, int32, int32), (int32, int64, int32), (int64, int64, int32), "
    "(int32, int32, unweighted), (int32, int64, unweighted)"
)
_DLPACK_CPU = 1
_DLPACK_CUDA_HOST = 3
_SEQUENCES = (list, tuple, range)


def dtype_name(value, function, argument):
    """Normalises a dtype request (None, "int32", np.int64, ...) to "int32", "int64" or None."""
    if value is None:
        return None
    try:
        dt = np.dtype(value)
    except TypeError:
        raise InvalidArgumentError(
            f"{function}(): {argument}={value!r} is not a dtype; use 'int32' or 'int64'"
        ) from None
    if dt == np.int32:
        return "int32"
    if dt == np.int64:
        return "int64"
    raise NotSupportedError(
        f"{function}(): {argument}={dt.name} is not a compiled type; compiled types as "
        f"(vertex, edge, weight) are {COMPILED_TYPES}"
    )


def as_int(value, function, argument, *, minimum=None, maximum=None):
    """An exact Python int from an integer-like value (bool and float refused)."""
    if isinstance(value, (bool, np.bool_)):
        raise InvalidArgumentError(f"{function}(): {argument}={value!r} is a bool; pass an integer")
    try:
        result = operator.index(value)
    except TypeError:
        raise InvalidArgumentError(
            f"{function}(): {argument}={value!r} is not an integer; pass an integer"
        ) from None
    if minimum is not None and result < minimum:
        raise InvalidArgumentError(
            f"{function}(): {argument}={result} is below {minimum}; pass a value >= {minimum}"
        )
    if maximum is not None and result > maximum:
        raise InvalidArgumentError(
            f"{function}(): {argument}={result} is above {maximum}; pass a value <= {maximum}"
        )
    return result


def _from_dlpack(obj, function, argument):
    device = obj.__dlpack_device__()[0] if hasattr(obj, "__dlpack_device__") else _DLPACK_CPU
    if device in (_DLPACK_CPU, _DLPACK_CUDA_HOST):
        return np.from_dlpack(obj)
    try:
        # Device memory: ask the producer for a host copy (DLPack >= 1.0 producers support it).
        return np.from_dlpack(obj, device="cpu", copy=True)
    except (BufferError, TypeError, ValueError, NotImplementedError, RuntimeError):
        pass
    for fetch in ("get", "cpu"):  # CuPy's and PyTorch's own device-to-host copies
        method = getattr(obj, fetch, None)
        if callable(method):
            return np.asarray(method())
    raise InvalidArgumentError(
        f"{function}(): {argument} lives on DLPack device {device} and could not be copied to the "
        f"host; pass a host array"
    )


def to_numpy(obj, function, argument):
    """An ndarray view or copy of `obj`, without any dtype conversion yet."""
    if isinstance(obj, np.ndarray):
        return obj
    if isinstance(obj, _SEQUENCES):
        return _from_sequence(obj, function, argument)
    if _on_cuda_device(obj):
        return _from_cuda_device(obj, function, argument)
    if hasattr(obj, "__dlpack__") and not hasattr(obj, "__array_interface__"):
        try:
            return _from_dlpack(obj, function, argument)
        except (BufferError, TypeError) as exc:
            if not hasattr(obj, "__array__"):
                raise InvalidArgumentError(
                    f"{function}(): {argument} could not be read through DLPack ({exc}); pass a "
                    f"NumPy array"
                ) from None
    try:
        return np.asarray(obj)
    except (TypeError, ValueError) as exc:
        raise InvalidArgumentError(
            f"{function}(): {argument} of type {type(obj).__name__} is not array-like ({exc}); "
            f"pass a NumPy array, a DLPack or buffer-protocol object, or a list"
        ) from None


_DLPACK_CUDA_KINDS = (2, 3, 13)  # kDLCUDA, kDLCUDAHost, kDLCUDAManaged


def _on_cuda_device(obj):
    if hasattr(obj, "__cuda_array_interface__"):
        return True
    device = getattr(obj, "__dlpack_device__", None)
    if device is None:
        return False
    try:
        return device()[0] in _DLPACK_CUDA_KINDS
    except Exception:  # a broken producer: let the generic path report it
        return False


def _from_cuda_device(obj, function, argument):
    """Inputs in CUDA memory are copied to the host (spec section 1): graphs are built there."""
    if isinstance(obj, Array):
        return obj.to_numpy(copy=True)
    try:
        return np.from_dlpack(obj, device="cpu", copy=True)
    except (AttributeError, BufferError, TypeError, ValueError):
        pass
    for copy_to_host in (lambda a: a.get(), lambda a: a.detach().cpu().numpy()):
        try:
            return np.asarray(copy_to_host(obj))
        except (AttributeError, TypeError):
            continue
    raise InvalidArgumentError(
        f"{function}(): {argument} lives in CUDA memory and could not be copied to the host "
        f"(its DLPack export does not support a host copy); copy it to a NumPy array first"
    )


def _from_sequence(seq, function, argument):
    if len(seq) == 0:
        return np.empty(0, dtype=np.int32)
    try:
        arr = np.asarray(seq)
    except (TypeError, ValueError, OverflowError) as exc:
        raise InvalidArgumentError(
            f"{function}(): {argument} is not a rectangular list of integers ({exc}); pass integers"
        ) from None
    if arr.dtype == object:
        _refuse_object_array(arr, function, argument)
    if arr.dtype.kind in "iu":
        # Lists are int32 when every value fits, else int64 (spec section 1).
        if arr.size == 0 or (arr.min() >= -(2**31) and arr.max() <= INT32_MAX):
            return arr.astype(np.int32)
        if arr.dtype == np.uint64 and arr.max() > INT64_MAX:
            position = int(np.argmax(arr > INT64_MAX))
            raise InvalidArgumentError(
                f"{function}(): {argument}[{position}] = {int(arr.flat[position])} does not fit "
                f"int64; pass smaller values"
            )
        return arr.astype(np.int64)
    return arr


def _refuse_object_array(arr, function, argument):
    for position, value in enumerate(arr.reshape(-1)):
        if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
            if not -(2**63) <= int(value) <= INT64_MAX:
                raise InvalidArgumentError(
                    f"{function}(): {argument}[{position}] = {int(value)} does not fit int64; pass "
                    f"smaller values"
                )
        else:
            raise InvalidArgumentError(
                f"{function}(): {argument}[{position}] = {value!r} is not an integer; pass integers"
            )
    raise InvalidArgumentError(f"{function}(): {argument} is not an integer array; pass integers")


def _refuse_kind(arr, function, argument, what):
    refuse_dtype(arr.dtype, function, argument, what)


def refuse_dtype(dtype, function, argument, what):
    """Raises unless `dtype` is an integer type (`what` names the values in the message)."""
    kind = dtype.kind
    if kind == "b":
        raise InvalidArgumentError(
            f"{function}(): {argument} has dtype bool; {what} must be integers"
        )
    if kind in "fc":
        raise InvalidArgumentError(
            f"{function}(): {argument} has dtype {dtype.name}; {what} must be integers "
            f"(convert with .astype(np.int64) if the values are whole numbers)"
        )
    if kind not in "iu":
        raise InvalidArgumentError(
            f"{function}(): {argument} has dtype {dtype}; {what} must be integers"
        )


def negative_id_error(function, argument, position, value):
    return InvalidArgumentError(
        f"{function}(): {argument}[{position}] = {value} is negative; vertex ids must be >= 0"
    )


def above_int64_error(function, argument, position, value):
    return InvalidArgumentError(
        f"{function}(): {argument}[{position}] = {value} does not fit int64; pass smaller values"
    )


def too_wide_id_error(function, argument, position, value, what="vertex ids"):
    hint = (
        "use int64 ids (vertex_dtype='int64') or smaller ids"
        if what == "vertex ids"
        else "use int64 offsets (edge_dtype='int64')"
    )
    return InvalidArgumentError(
        f"{function}(): {argument}[{position}] = {value} does not fit int32 {what}; {hint}"
    )


def weight_range_error(function, argument, row, col, value):
    return InvalidArgumentError(
        f"{function}(): {argument}[{row}, {col}] = {value} does not fit int32; weights must lie "
        f"in [-2^31, 2^31-1]"
    )


def check_id_shape(shape, function, argument):
    if len(shape) != 1:
        raise InvalidArgumentError(
            f"{function}(): {argument} has shape {tuple(shape)}; vertex ids must be 1-d"
        )


def weight_columns(shape, num_rows, function, argument):
    """K for weights of `shape` ((m,) or (m, K)) on `num_rows` edges; raises for a bad shape."""
    if len(shape) not in (1, 2):
        raise InvalidArgumentError(
            f"{function}(): {argument} has shape {tuple(shape)}; weights must be (m,) or (m, K)"
        )
    if shape[0] != num_rows:
        raise InvalidArgumentError(
            f"{function}(): {argument} has {shape[0]} rows but there are {num_rows} edges; "
            f"pass one weight row per edge"
        )
    k = 1 if len(shape) == 1 else shape[1]
    if k > MAX_WEIGHTS:
        raise InvalidArgumentError(
            f"{function}(): {argument} has {k} columns but at most {MAX_WEIGHTS} weights per edge "
            f"are supported; pass fewer weight columns"
        )
    return k


def _first_negative(arr, function, argument):
    if arr.size and arr.dtype.kind == "i" and arr.min() < 0:
        position = int(np.argmax(arr < 0))
        raise negative_id_error(function, argument, position, int(arr[position]))


def _native_order(arr):
    """`arr` in this machine's byte order (a big-endian int32 array is still int32 ids)."""
    if arr.dtype.byteorder in ("=", "|") or arr.dtype.isnative:
        return arr
    return arr.astype(arr.dtype.newbyteorder("="))


def _private(out, source, obj):
    """`out` if no one else can reach its memory, else a copy: `source` is what to_numpy made of
    the caller's `obj` (the caller's own array or a view of its buffer, except for a list)."""
    if isinstance(obj, _SEQUENCES) or not np.may_share_memory(out, source):
        return out
    return out.copy()


def _uint64_as_int64(arr, function, argument):
    if arr.size and arr.max() > INT64_MAX:
        position = int(np.argmax(arr > INT64_MAX))
        raise above_int64_error(function, argument, position, int(arr[position]))
    return arr.astype(np.int64)


def id_array(obj, function, argument, *, allow_minus_one=False, for_graph=False):
    """A contiguous 1-d int32/int64 array of vertex ids with the inferred dtype.

    int8/16/32 and uint8/16 become int32; int64 and uint32 become int64; bool and floating point
    are refused; any byte order is read. uint64 is not supported for a graph's own ids; with
    ``for_graph`` (ids of a batch or result for an existing graph, which are cast to its type
    with range checks, spec section 1) it is accepted when every value fits int64, and an empty
    floating-point array (no value to misread) is an empty id array, as in 0.2. Negative ids are
    refused (-1 too unless allowed).
    """
    if type(obj) is np.ndarray and obj.ndim == 1 and obj.dtype in _PLAIN_ID_DTYPES:
        # The common case, a 1-d native int32/int64 array: the dtype stays, so only the copy
        # (the caller keeps its array) and the sign check below are left of the general path.
        out = obj.copy()
        _check_id_signs(out, function, argument, allow_minus_one)
        return out
    source = to_numpy(obj, function, argument)
    arr = _native_order(source)
    if for_graph and arr.size == 0 and arr.dtype.kind == "f":
        arr = np.empty(0, dtype=np.int32)
    _refuse_kind(arr, function, argument, "vertex ids")
    check_id_shape(arr.shape, function, argument)
    if arr.dtype == np.uint64:
        if not for_graph:
            raise NotSupportedError(
                f"{function}(): {argument} has dtype uint64, which is not supported for vertex "
                f"ids; convert to int64 (compiled types as (vertex, edge, weight): "
                f"{COMPILED_TYPES})"
            )
        arr = _uint64_as_int64(arr, function, argument)
    if arr.dtype.itemsize < 4 or (arr.dtype.kind == "i" and arr.dtype.itemsize == 4):
        target = np.int32
    else:  # int64 and uint32
        target = np.int64
    out = _private(np.ascontiguousarray(arr, dtype=target), source, obj)
    _check_id_signs(out, function, argument, allow_minus_one)
    return out


# Native-order int32 and int64 (`in` compares dtypes by equality, so a byte-swapped one is not).
_PLAIN_ID_DTYPES = (np.dtype(np.int32), np.dtype(np.int64))


def _check_id_signs(out, function, argument, allow_minus_one):
    """Raises for a negative id (below -1 where -1 is allowed)."""
    if allow_minus_one:
        if out.size and out.min() < -1:
            position = int(np.argmax(out < -1))
            raise InvalidArgumentError(
                f"{function}(): {argument}[{position}] = {int(out[position])} is negative; use -1 "
                f"for 'none' and ids >= 0 otherwise"
            )
    else:
        _first_negative(out, function, argument)


def offset_array(obj, function, argument):
    """A contiguous 1-d int32/int64 array of CSR offsets (row_ptr), in the dtype it implies:
    int64 (or uint64 that fits, or uint32) makes int64 offsets, narrower types int32."""
    source = to_numpy(obj, function, argument)
    arr = _native_order(source)
    _refuse_kind(arr, function, argument, "offsets")
    if arr.ndim != 1:
        raise InvalidArgumentError(
            f"{function}(): {argument} has shape {arr.shape}; offsets must be 1-d"
        )
    if arr.dtype == np.uint64:
        arr = _uint64_as_int64(arr, function, argument)
    signed32 = arr.dtype.itemsize < 4 or (arr.dtype.kind == "i" and arr.dtype.itemsize == 4)
    out = _private(np.ascontiguousarray(arr, dtype=np.int32 if signed32 else np.int64), source, obj)
    if out.size and out.min() < 0:
        position = int(np.argmax(out < 0))
        raise InvalidArgumentError(
            f"{function}(): {argument}[{position}] = {int(out[position])} is negative; offsets "
            f"must be >= 0"
        )
    return out


def common_id_dtype(*arrays):
    """int64 when any array is int64, else int32: ids are widened together, never narrowed."""
    return "int64" if any(a.dtype == np.int64 for a in arrays) else "int32"


def cast_ids(arr, dtype, function, argument, *, what="vertex ids"):
    """`arr` (from id_array or offset_array) as `dtype`, refusing values that do not fit."""
    target = np.dtype(dtype)
    if arr.dtype == target:
        return arr
    if target == np.int32 and arr.size:
        too_big = arr > INT32_MAX
        if too_big.any():
            position = int(np.argmax(too_big))
            raise too_wide_id_error(function, argument, position, int(arr[position]), what)
    return arr.astype(target)


def weight_matrix(obj, num_rows, function, argument):
    """(flat int32 array, K) from weights of shape (m,) (K = 1) or (m, K)."""
    source = to_numpy(obj, function, argument)
    arr = source
    if arr.size == 0 and arr.dtype.kind == "f":
        arr = arr.astype(np.int32)  # An empty float array carries no value to misread.
    _refuse_kind(arr, function, argument, "weights")
    k = weight_columns(arr.shape, num_rows, function, argument)
    if arr.ndim == 1:
        arr = arr.reshape(-1, 1)
    if arr.dtype == np.int32:  # every value fits: nothing to check
        return _private(np.ascontiguousarray(arr), source, obj).reshape(-1), k
    wide = _private(np.ascontiguousarray(arr), source, obj)  # checked, then narrowed: one copy
    if wide.size:
        low, high = int(wide.min()), int(wide.max())
        if low < -(2**31) or high > INT32_MAX:
            bad = (wide < -(2**31)) | (wide > INT32_MAX)
            row, col = np.unravel_index(int(np.argmax(bad)), wide.shape)
            raise weight_range_error(function, argument, row, col, int(wide[row, col]))
    return wide.astype(np.int32).reshape(-1), k


def check_same_length(function, first_name, first, second_name, second):
    if len(first) != len(second):
        raise InvalidArgumentError(
            f"{function}(): {first_name} has {len(first)} entries but {second_name} has "
            f"{len(second)}; pass arrays of equal length"
        )

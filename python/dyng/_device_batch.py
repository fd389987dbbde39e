"""Batches whose arrays are already in CUDA memory, applied by a device graph with no host copy.

A graph built on CUDA resources applies its batches on its device. When every array of a batch
is a DLPack producer on that same device (CuPy, PyTorch, dyng.Array, ...), the batch is staged
there: read in place (its producer is asked to order its work before the graph's stream),
converted to the graph's types and checked by one kernel, whose findings are refused with the
messages a host batch gets. Producers with only the CUDA array interface (Numba) are read the
same way, once a wait for the stream they name (CAI v3) has passed. Any other batch (host
arrays, a mix, another device) is converted on the host as before.
"""

from __future__ import annotations

import numpy as np

from dyng import _backend, _convert
from dyng._errors import InvalidArgumentError

__all__ = ["StagedResolved", "stage_if_on_device"]

_DLPACK_CUDA = 2
_IDS = "EdgeBatch"  # the function the host route names for an id array's own faults
_PARTS = ("insert_src", "insert_dst", "insert_weights", "delete_src", "delete_dst")


class StagedResolved:
    """A batch staged on the graph's device: what Graph._apply and the algorithms' batch rules
    take instead of a host _Resolved."""

    __slots__ = ("staged", "num_weights", "num_insertions")

    def __init__(self, staged, num_weights, num_insertions):
        self.staged = staged
        self.num_weights = num_weights
        self.num_insertions = num_insertions


def _parts(batch):
    insert, delete = batch._insert, batch._delete
    values = [None] * 5
    if insert is not None:
        values[0], values[1] = insert[0], insert[1]
        if len(insert) == 3:
            values[2] = insert[2]
    if delete is not None:
        values[3], values[4] = delete[0], delete[1]
    return values


def _cai(obj):
    try:
        return obj.__cuda_array_interface__
    except Exception:  # a host array, or a broken producer: the host route reports it
        return None


def _on_device(native, obj, device):
    """Whether `obj` can be read in place on `device`: a DLPack producer there, or (without
    DLPack) a CUDA array interface whose memory is there, in this machine's byte order."""
    if hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__"):
        try:
            kind, ordinal = obj.__dlpack_device__()
        except Exception:
            return False
        return kind == _DLPACK_CUDA and ordinal == device
    cai = _cai(obj)
    if not isinstance(cai, dict) or "data" not in cai or cai.get("mask") is not None:
        return False
    try:
        if not np.dtype(cai["typestr"]).isnative:
            return False
    except TypeError:
        return False
    size = int(np.prod(cai.get("shape", ()))) if cai.get("shape", ()) else 1
    return size == 0 or native.cuda_pointer_device(int(cai["data"][0])) == device


def _export(obj, stream):
    # DLPack streams: 1 is the legacy default stream (0 is not allowed).
    handle = stream if stream != 0 else 1
    try:
        return obj.__dlpack__(stream=handle, max_version=(1, 0))
    except TypeError:  # a producer older than DLPack 1.0
        return obj.__dlpack__(stream=handle)


class _View:
    """A device array as staging reads it: pointer, dtype, shape, strides in elements."""

    __slots__ = ("ptr", "dtype", "shape", "strides")

    def __init__(self, native, obj, device, stream, function, argument):
        if hasattr(obj, "__dlpack__"):
            self._from_dlpack(native, obj, stream, function, argument)
        else:
            self._from_cai(native, _cai(obj), device)

    def _from_dlpack(self, native, obj, stream, function, argument):
        capsule = _export(obj, stream)
        ptr, kind, bits, shape, strides, _, _ = native.device_array_view(capsule)
        self.ptr, self.shape, self.strides = ptr, tuple(shape), tuple(strides)
        try:
            self.dtype = (
                np.dtype(bool)
                if kind == "b"
                else np.dtype(f"{kind}{bits // 8}")
                if kind in "iufc"
                else None
            )
        except TypeError:
            self.dtype = None
        if self.dtype is None:
            raise InvalidArgumentError(
                f"{function}(): {argument} has a DLPack dtype of kind {kind!r} and {bits} bits; "
                f"pass integers"
            )

    def _from_cai(self, native, cai, device):
        self.dtype = np.dtype(cai["typestr"])
        self.shape = tuple(int(x) for x in cai.get("shape", ()))
        self.ptr = int(cai["data"][0])
        item = self.dtype.itemsize
        if cai.get("strides") is None:  # C order
            strides, step = [], 1
            for extent in reversed(self.shape):
                strides.insert(0, step)
                step *= max(extent, 1)
            self.strides = tuple(strides)
        else:
            self.strides = tuple(int(b) // item for b in cai["strides"])
        # CUDA array interface v3: a named stream may still be writing the data.
        stream = cai.get("stream")
        if stream is not None:
            native.cuda_synchronize(device, int(stream))

    @property
    def size(self):
        return int(np.prod(self.shape)) if self.shape else 1

    def descriptor(self, rows, cols):
        row_stride = self.strides[0] if self.strides else 1
        col_stride = self.strides[1] if len(self.strides) > 1 else 1
        return (
            self.ptr,
            self.dtype.itemsize * 8,
            self.dtype.kind == "i",
            rows,
            cols,
            row_stride,
            col_stride,
        )


def stage_if_on_device(graph, batch, function):
    """A StagedResolved for `batch` on `graph`'s device, or None when the batch takes the host
    route. Raises what the host route raises for the same bad batch (the first fault reported
    may differ when a batch has several)."""
    device = graph._native.device
    values = _parts(batch)
    present = [v for v in values if v is not None]
    native = _backend.native()
    if not present or not all(_on_device(native, v, device) for v in present):
        return None
    if batch._has_vertex_changes():
        return None  # the host route raises NotSupportedError for it
    resources = graph._resources
    stream = resources.stream if resources is not None and resources.backend == "cuda" else 0
    views = [
        None if v is None else _View(native, v, device, stream, function, name)
        for v, name in zip(values, _PARTS)
    ]
    ins_src, ins_dst, weights, del_src, del_dst = views

    def ids(view, name):
        if view is None:
            return 0
        if view.size == 0 and view.dtype.kind == "f":
            return 0  # an empty float array is an empty id array, as on the host
        # As on the host, the id arrays' own faults are the batch's (EdgeBatch._ids), named so.
        _convert.refuse_dtype(view.dtype, _IDS, name, "vertex ids")
        _convert.check_id_shape(view.shape, _IDS, name)
        return view.shape[0]

    ni, ni_dst = ids(ins_src, "insert_src"), ids(ins_dst, "insert_dst")
    _convert.check_same_length(function, "insert_src", range(ni), "insert_dst", range(ni_dst))
    k = 0
    if weights is not None:
        if not (weights.size == 0 and weights.dtype.kind == "f"):
            _convert.refuse_dtype(weights.dtype, function, "insert_weights", "weights")
        k = _convert.weight_columns(weights.shape, ni, function, "insert_weights")
    nd, nd_dst = ids(del_src, "delete_src"), ids(del_dst, "delete_dst")
    _convert.check_same_length(function, "delete_src", range(nd), "delete_dst", range(nd_dst))
    from dyng._batch import check_weight_count

    graph_k = graph._native.num_weights
    no_insertions = check_weight_count(ni, k, graph_k, function)
    if no_insertions:
        weights, k = None, graph_k

    def descriptor(view, rows, cols=1):
        return None if view is None or rows == 0 else view.descriptor(rows, cols)

    staged = native.stage_device_batch(
        graph._native,
        descriptor(ins_src, ni),
        descriptor(ins_dst, ni),
        descriptor(weights, ni, k),
        k if not no_insertions else graph_k,
        descriptor(del_src, nd),
        descriptor(del_dst, nd),
    )
    if staged is None:
        return None  # the host applies this graph's batches
    _raise_conversion_faults(staged.conversion_faults, function)
    return StagedResolved(staged, graph_k, ni)


def _raise_conversion_faults(faults, function):
    """Raises the first fault in the host route's order: each id array's unsigned overflow and
    negative ids (insertions, the weights' range, deletions), then ids too wide for the graph."""
    if not faults:
        return
    found = {(array, what): (index, value, column) for array, what, index, value, column in faults}
    for array in ("insert_src", "insert_dst", "insert_weights", "delete_src", "delete_dst"):
        if array == "insert_weights":
            if (array, "weight") in found:
                row, value, column = found[(array, "weight")]
                raise _convert.weight_range_error(function, array, row, column, value)
            continue
        if (array, "above_int64") in found:
            index, value, _ = found[(array, "above_int64")]
            raise _convert.above_int64_error(_IDS, array, index, value)
        if (array, "negative") in found:
            index, value, _ = found[(array, "negative")]
            raise _convert.negative_id_error(_IDS, array, index, value)
    for array in ("insert_src", "insert_dst", "delete_src", "delete_dst"):
        if (array, "too_wide") in found:
            index, value, _ = found[(array, "too_wide")]
            raise _convert.too_wide_id_error(function, array, index, value)
    raise InvalidArgumentError(f"{function}(): the batch could not be converted ({faults})")

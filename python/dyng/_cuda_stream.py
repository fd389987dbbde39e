"""Turning the stream a user hands to ``Resources.cuda`` into a raw ``cudaStream_t`` handle.

Accepted, in this order: None (the legacy default stream, handle 0), a non-negative int handle,
any object with ``__cuda_stream__`` (the CUDA stream protocol: returns ``(version, handle)``),
a CuPy stream (``.ptr``) and a PyTorch stream (``.cuda_stream``). The Resources object keeps the
original object alive, because a stream handle is only valid while its owner exists.
"""

from __future__ import annotations

import operator

from dyng._errors import InvalidArgumentError

__all__ = ["stream_handle"]


def _as_handle(value, fn, source):
    try:
        handle = operator.index(value)
    except TypeError:
        raise InvalidArgumentError(
            f"{fn}(): {source} gave {value!r}, which is not an integer stream handle"
        ) from None
    if handle < 0:
        raise InvalidArgumentError(
            f"{fn}(): stream handle {handle} is negative; pass a valid "
            f"cudaStream_t, 0 or None for the default stream"
        )
    return handle


def _check_device(stream_device, device, fn):
    if stream_device is not None and stream_device >= 0 and stream_device != device:
        raise InvalidArgumentError(
            f"{fn}(): the stream belongs to CUDA device {stream_device} but device={device}; "
            f"pass a stream of device {device}, or device={stream_device}"
        )


def stream_handle(stream, device, fn):
    """The integer cudaStream_t for `stream` (see the module docstring), checked against `device`."""
    if stream is None:
        return 0
    if isinstance(stream, bool):
        raise InvalidArgumentError(f"{fn}(): stream={stream!r} is a bool; pass a stream or None")
    if isinstance(stream, int):
        return _as_handle(stream, fn, "stream")
    protocol = getattr(stream, "__cuda_stream__", None)
    if protocol is not None:
        value = protocol() if callable(protocol) else protocol
        if not (isinstance(value, tuple) and len(value) == 2):
            raise InvalidArgumentError(
                f"{fn}(): {type(stream).__name__}.__cuda_stream__ returned {value!r}; the stream "
                f"protocol requires a (version, handle) tuple"
            )
        return _as_handle(value[1], fn, "__cuda_stream__")
    module = type(stream).__module__ or ""
    if module.startswith("cupy") and hasattr(stream, "ptr"):
        _check_device(getattr(stream, "device_id", None), device, fn)
        return _as_handle(stream.ptr, fn, "the CuPy stream's ptr")
    if hasattr(stream, "cuda_stream"):
        torch_device = getattr(stream, "device", None)
        _check_device(getattr(torch_device, "index", None), device, fn)
        return _as_handle(stream.cuda_stream, fn, "the PyTorch stream's cuda_stream")
    raise InvalidArgumentError(
        f"{fn}(): stream of type {type(stream).__name__} is not a CUDA stream; pass None, an int "
        f"handle, a CuPy or PyTorch stream, or an object with __cuda_stream__"
    )

"""The device side of dyng.Array: a result array in CUDA memory.

A DeviceData holds the native read-only device tensor (DLPack-capable), its address for the CUDA
array interface, and a callable from the owning result that makes a private device copy (for
consumers that will write, or that cannot be told the data is read-only). Host copies come straight
from the device address, this one array only, into a NumPy array: implicit ones (indexing,
iteration, ``np.asarray``) follow the owning Resources' ``copy_policy`` and keep the copy they
make; ``to_numpy()`` is an explicit copy, always allowed, into the array it returns.
"""

from __future__ import annotations

import warnings

import numpy as np

from dyng import _backend, _log
from dyng._errors import InvalidArgumentError

__all__ = ["DeviceData", "DLPACK_CUDA"]

DLPACK_CUDA = 2


class DeviceData:
    __slots__ = ("tensor", "ptr", "shape", "dtype", "device", "_private_copy", "_policy", "_host")

    def __init__(self, native_view, dtype, size, device, private_copy, policy):
        self.tensor, self.ptr = native_view
        self.dtype = np.dtype(dtype)
        self.shape = (int(size),)
        self.device = device
        self._private_copy = private_copy
        self._policy = policy
        self._host = None

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape))

    def host(self, what, implicit):
        """A read-only host copy, made once (the data cannot change while the Array is current)."""
        if implicit:
            policy = self._policy()
            if policy == "error":
                raise InvalidArgumentError(
                    f"Array: reading {what} on the host needs a device-to-host copy, and the "
                    f"resources' copy_policy is 'error'; call to_numpy() to copy explicitly, or "
                    f"set copy_policy to 'allow'"
                )
            if policy == "warn":
                warnings.warn(
                    f"Array: copying {what} from CUDA device {self.device} to the "
                    f"host (copy_policy='warn')",
                    stacklevel=4,
                )
        if self._host is None:
            host = self._download(what)
            host.flags.writeable = False
            self._host = host
        return self._host

    def host_copy(self, what):
        """A writable host copy; none is kept (the kept one of host() is copied when it exists)."""
        if self._host is not None:
            return np.array(self._host, copy=True)
        return self._download(what)

    def _download(self, what):
        # This array alone, into NumPy's memory: a copy of the whole result held in native host
        # memory cost the GPU machine 2 ms to free, which the next update paid (bench/README.md).
        _log.log(
            "debug",
            lambda: (
                f"Array: copying {what} from CUDA device {self.device} to the "
                f"host ({self.size} entries)"
            ),
        )
        out = np.empty(self.shape, self.dtype)
        _backend.native().cuda_copy_to_host(self.device, self.ptr, out)
        return out

    def cuda_array_interface(self):
        # Results are complete when dyng returns them (each call waits for its stream), so the
        # consumer needs no stream synchronisation: "stream" is omitted (CAI v3).
        return {
            "shape": self.shape,
            "typestr": self.dtype.str,
            "data": (self.ptr, True),
            "strides": None,
            "version": 3,
        }

    def dlpack(self, stream, max_version, dl_device, copy):
        if dl_device is not None and tuple(dl_device) != (DLPACK_CUDA, self.device):
            raise BufferError(
                f"Array.__dlpack__(): dl_device={dl_device!r} is not where this array lives "
                f"(CUDA device {self.device}); copy it with to_numpy() for the host"
            )
        # `stream` needs no wait: the data was complete before the Array existed.
        if copy is True:
            return self.private_copy().__dlpack__()
        if max_version is not None and tuple(max_version) >= (1, 0):
            return self.tensor.__dlpack__(max_version=max_version)
        if copy is False:
            raise BufferError(
                "Array.__dlpack__(): a zero-copy export of read-only data needs DLPack >= 1.0 "
                "(pass max_version=(1, 0)); allow a copy with copy=None"
            )
        # A legacy consumer cannot be told the data is read-only: it gets a private device copy.
        return self.private_copy().__dlpack__()

    def private_copy(self):
        """A device copy nobody else holds, exported as writable (for to_torch/to_cupy)."""
        return _Writable(self._private_copy())


class _Writable:
    """Exports a private device copy through the legacy (flag-less, hence writable) capsule."""

    __slots__ = ("_tensor",)

    def __init__(self, tensor):
        self._tensor = tensor

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        return self._tensor.__dlpack__()

    def __dlpack_device__(self):
        return self._tensor.__dlpack_device__()

"""dyng.Array: read-only, zero-copy views of result arrays (spec section 5).

An Array wraps a read-only NumPy view whose base keeps the native result state alive. When the
result is updated, the Array turns stale (every use raises StaleResultError) and drops its view,
so the native update can work in place; arrays that were exported before (NumPy views, DLPack
capsules) still hold the old state, which the native layer then copies on write. An Array whose
raw memory was exported through ``__array_interface__`` keeps its view, because the consumer's
array references the Array itself.
"""

from __future__ import annotations

import numpy as np

from dyng._device_array import DLPACK_CUDA, DeviceData
from dyng._errors import InvalidArgumentError, StaleResultError

__all__ = ["Array"]

_DLPACK_CPU = 1


class _Epoch:
    """A result's update counter, shared with its arrays (no reference back to the result)."""

    __slots__ = ("value", "name")

    def __init__(self, name):
        self.value = 0
        self.name = name


class Array:
    """A read-only view of a result array; stale once the result is updated.

    Use it like a NumPy array for reading (indexing, ``len``, iteration, ``np.asarray``), or
    convert it with [`to_numpy`][dyng.Array.to_numpy], DLPack (``np.from_dlpack``),
    [`to_torch`][dyng.Array.to_torch] or [`to_cupy`][dyng.Array.to_cupy]. Arrays exported from
    it keep their values when the result changes; reading the Array itself once its result was
    updated raises [`dyng.StaleResultError`][].

    Examples
    --------
    >>> import numpy as np, dyng
    >>> g = dyng.Graph.from_edges([0, 1], [1, 2], [3, 4])
    >>> d = dyng.sssp.compute(g, 0).distances
    >>> (d.shape, d.dtype, d[2], d.tolist())
    ((3,), dtype('int64'), np.int64(7), [0, 3, 7])
    >>> np.asarray(d).flags.writeable
    False
    >>> r = dyng.sssp.compute(g, 0)
    >>> old = r.distances
    >>> _ = dyng.update(g, dyng.EdgeBatch(insert=([0], [2], [1])), r)
    >>> old.is_current, old, r.distances.tolist()
    (False, Array(<stale sssp distances>), [0, 3, 1])
    """

    __slots__ = ("_data", "_epoch", "_created", "_what", "_pinned", "__weakref__")

    def __init__(self, *args, **kwargs):
        raise TypeError("dyng.Array cannot be created directly; it is returned by results")

    @classmethod
    def _wrap(cls, data, epoch, what):
        self = object.__new__(cls)
        self._data = data
        self._epoch = epoch
        self._created = epoch.value
        self._what = what
        self._pinned = False
        return self

    def _release(self):
        """Called by the owning result just before an update."""
        if not self._pinned:
            self._data = None

    def _view(self):
        if self._epoch.value != self._created:
            raise StaleResultError(
                f"Array: {self._what} was read from {self._epoch.name} before an update (the "
                f"result has been updated {self._epoch.value - self._created} time(s) since); "
                f"read {self._what} from the result again, or keep a copy with to_numpy()"
            )
        return self._data

    @property
    def is_current(self):
        """False once the owning result was updated (reading the data then raises
        StaleResultError)."""
        return self._epoch.value == self._created

    @property
    def shape(self):
        """The array's shape, as NumPy's: ``(n,)`` for per-vertex data."""
        return self._view().shape

    @property
    def dtype(self):
        """The element type, a ``numpy.dtype`` (int64 distances, the graph's id type...)."""
        return self._view().dtype

    @property
    def ndim(self):
        """The number of dimensions."""
        return self._view().ndim

    @property
    def size(self):
        """The number of elements."""
        return self._view().size

    @property
    def device(self):
        """Where the data lives: "cpu" or "cuda:<ordinal>"."""
        view = self._view()
        return f"cuda:{view.device}" if isinstance(view, DeviceData) else "cpu"

    def _host(self, implicit=True):
        """The host ndarray: the view itself, or the device data's (cached) host copy."""
        view = self._view()
        if isinstance(view, DeviceData):
            return view.host(self._what, implicit)
        return view

    def __len__(self):
        return self._view().shape[0]

    def __getitem__(self, key):
        return self._host()[key]

    def __iter__(self):
        return iter(self._host())

    def to_numpy(self, copy=True):
        """The data as an ndarray.

        Parameters
        ----------
        copy : {True, False, None}
            True: a writable copy. False: the read-only zero-copy view (never copies). None: the
            view when possible (always, for host data).

        Returns
        -------
        numpy.ndarray
            The values; for device data a copy in host memory.

        Raises
        ------
        InvalidArgumentError
            For `copy` other than True, False or None, or ``copy=False`` on device data.
        StaleResultError
            When the owning result was updated since the Array was read.

        Examples
        --------
        >>> import dyng
        >>> g = dyng.Graph.from_edges([0], [1], [2])
        >>> r = dyng.sssp.compute(g, 0)
        >>> a = r.distances.to_numpy()
        >>> a[0] = 5; a.tolist()
        [5, 2]
        >>> r.distances.to_numpy(copy=False).flags.writeable
        False
        """
        view = self._view()
        if isinstance(view, DeviceData):
            if copy is False:
                raise InvalidArgumentError(
                    f"Array.to_numpy(): copy=False needs host data but {self._what} lives on "
                    f"CUDA device {view.device}; use copy=True or None (a device-to-host copy)"
                )
            if copy is True:
                return view.host_copy(self._what)
            if copy is None:
                return view.host(self._what, implicit=False)
        if copy is True:
            return np.array(view, copy=True)
        if copy is False or copy is None:
            return view
        raise InvalidArgumentError(
            f"Array.to_numpy(): copy={copy!r} is not valid; use True, False or None"
        )

    def tolist(self):
        """The data as a (nested) list of Python ints.

        Returns
        -------
        list
            One Python int per element (a list of lists for 2-D data).

        Raises
        ------
        StaleResultError
            When the owning result was updated since the Array was read.

        Examples
        --------
        >>> import dyng
        >>> dyng.sssp.compute(dyng.Graph.from_edges([0], [1], [2]), 0).parents.tolist()
        [-1, 0]
        """
        return self._host().tolist()

    def __array__(self, dtype=None, copy=None):
        if isinstance(self._view(), DeviceData) and copy is False:
            raise ValueError(
                f"Array.__array__(): {self._what} lives on a CUDA device; a host "
                f"array needs a copy but copy=False was requested"
            )
        view = self._host()
        if dtype is not None and np.dtype(dtype) != view.dtype:
            if copy is False:
                raise ValueError(
                    f"Array.__array__(): converting {view.dtype} to {np.dtype(dtype)} needs a "
                    f"copy but copy=False was requested"
                )
            return view.astype(dtype)
        if copy is True:
            return np.array(view, copy=True)
        return view

    @property
    def __array_interface__(self):
        view = self._view()
        if isinstance(view, DeviceData):
            # AttributeError makes NumPy fall back to __array__ (a counted, policy-checked copy).
            raise AttributeError("__array_interface__: the array lives on a CUDA device")
        # The consumer's array will reference this Array, so the view must outlive updates.
        self._pinned = True
        return view.__array_interface__

    @property
    def __cuda_array_interface__(self):
        view = self._view()
        if not isinstance(view, DeviceData):
            raise AttributeError("__cuda_array_interface__: the array lives in host memory")
        # The consumer's array will reference this Array, so the view must outlive updates.
        self._pinned = True
        return view.cuda_array_interface()

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        view = self._view()
        if isinstance(view, DeviceData):
            return view.dlpack(stream, max_version, dl_device, copy)
        if dl_device is not None and tuple(dl_device)[0] != _DLPACK_CPU:
            raise BufferError(
                f"Array.__dlpack__(): dl_device={dl_device!r} is not the CPU; this array lives "
                f"in host memory"
            )
        if copy is True:
            return np.array(view, copy=True).__dlpack__(max_version=max_version)
        if max_version is not None and tuple(max_version) >= (1, 0):
            # DLPack >= 1.0 marks the capsule read-only, so the view can be shared.
            return view.__dlpack__(max_version=max_version, copy=copy)
        if copy is False:
            raise BufferError(
                "Array.__dlpack__(): a zero-copy export of read-only data needs DLPack >= 1.0 "
                "(pass max_version=(1, 0)); allow a copy with copy=None"
            )
        # A legacy consumer cannot be told the data is read-only: give it a private copy.
        return np.array(view, copy=True).__dlpack__()

    def __dlpack_device__(self):
        view = self._view()
        if isinstance(view, DeviceData):
            return (DLPACK_CUDA, view.device)
        return (_DLPACK_CPU, 0)

    def to_torch(self):
        """A ``torch.Tensor`` copy (PyTorch tensors are writable, so the data is copied); on the
        array's CUDA device when the array lives there, without a trip through the host.

        Returns
        -------
        torch.Tensor
            A copy with the same dtype and shape.

        Raises
        ------
        ImportError
            When PyTorch is not installed.
        StaleResultError
            When the owning result was updated since the Array was read.

        Examples
        --------
        >>> import dyng
        >>> r = dyng.sssp.compute(dyng.Graph.from_edges([0], [1], [2]), 0)
        >>> r.distances.to_torch().tolist()  # doctest: +SKIP
        [0, 2]
        """
        try:
            import torch
        except ImportError:
            raise ImportError(
                "Array.to_torch(): PyTorch is not installed; install it (pip install torch) or "
                "use to_numpy()"
            ) from None
        view = self._view()
        if isinstance(view, DeviceData):
            return torch.from_dlpack(view.private_copy())
        return torch.from_numpy(self.to_numpy(copy=True))

    def to_cupy(self):
        """A writable ``cupy.ndarray`` copy: device-to-device for a device array, else a
        host-to-device copy onto the current CUDA device.

        Returns
        -------
        cupy.ndarray
            A copy with the same dtype and shape, in device memory.

        Raises
        ------
        ImportError
            When CuPy is not installed.
        StaleResultError
            When the owning result was updated since the Array was read.

        Examples
        --------
        >>> import dyng
        >>> r = dyng.sssp.compute(dyng.Graph.from_edges([0], [1], [2]), 0)
        >>> r.distances.to_cupy().get().tolist()  # doctest: +SKIP
        [0, 2]
        """
        try:
            import cupy
        except ImportError:
            raise ImportError(
                "Array.to_cupy(): CuPy is not installed; install it (pip install cupy-cuda13x) "
                "or use to_numpy()"
            ) from None
        view = self._view()
        if isinstance(view, DeviceData):
            return cupy.from_dlpack(view.private_copy())
        return cupy.asarray(self.to_numpy(copy=False))

    def __reduce__(self):
        # Pickles as the plain ndarray it holds: a pickled Array outlives its result.
        return self.to_numpy(copy=True).__reduce__()

    def __repr__(self):
        if not self.is_current:
            return f"Array(<stale {self._what}>)"
        if isinstance(self._data, DeviceData):
            return (
                f"Array(<{self._data.size} x {self._data.dtype} on CUDA device "
                f"{self._data.device}>)"
            )
        body = np.array2string(self._data, separator=", ", threshold=20)
        return f"Array({body}, dtype={self._data.dtype})"

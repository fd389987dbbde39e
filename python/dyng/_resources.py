"""Resources and the process-default resources (spec section 4).

A Resources object is a small Python value; each native call receives the plain
``_core.Execution`` it stands for, so the C++ core keeps no global backend state.
"""

from __future__ import annotations

import threading

from dyng import _backend, _convert
from dyng._errors import InvalidArgumentError, NotSupportedError

__all__ = ["Resources", "get_default_resources", "set_default_resources"]

_BACKENDS = ("sequential", "openmp", "cuda")
_COPY_POLICIES = ("allow", "warn", "error")


def cuda_unavailable(function):
    """The NotSupportedError for a CUDA request in this build, naming the installed plugins."""
    plugins = _backend.installed_plugins()
    if plugins:
        names = ", ".join(f"{name} ({module}, from {dist or 'unknown distribution'})"
                          for name, module, dist in plugins)
        return NotSupportedError(
            f"{function}(): the CUDA backend is not available: installed plugin(s) {names} are "
            f"not usable because this dyng build does not load plugins yet (plugin selection is "
            f"not implemented); use Resources.openmp() or Resources.sequential()"
        )
    return NotSupportedError(
        f"{function}(): the CUDA backend needs a CUDA plugin and none is installed; install one "
        f'with pip install "dyng[cu13]" (or "dyng[cu12]"), or use Resources.openmp()'
    )


class _SharedState:
    """What copies of one Resources share (spec: copies share one handle)."""

    __slots__ = ("copy_policy", "execution")

    def __init__(self, copy_policy):
        self.copy_policy = copy_policy
        self.execution = None


class Resources:
    """Where and how dyng runs: the sequential or OpenMP host backend (CUDA needs a plugin).

    Parameters
    ----------
    backend : {None, "sequential", "openmp", "cuda"}
        None picks CUDA when available, else OpenMP when compiled in, else sequential.
    num_threads : int
        OpenMP team size; 0 means the OpenMP default (honours OMP_NUM_THREADS).
    device : int
        CUDA device ordinal (ignored on the host backends).

    Examples
    --------
    >>> import dyng
    >>> dyng.Resources("sequential")
    Resources('sequential')
    >>> dyng.Resources.openmp(2).num_threads
    2
    """

    __slots__ = ("_backend", "_num_threads", "_device", "_shared", "__weakref__")

    def __init__(self, backend=None, *, num_threads=0, device=0):
        fn = "Resources"
        num_threads = _convert.as_int(num_threads, fn, "num_threads", minimum=0)
        device = _convert.as_int(device, fn, "device", minimum=0)
        native = _backend.native()
        if backend is None:
            backend = "openmp" if native.build_config["openmp"] else "sequential"
        if not isinstance(backend, str) or backend not in _BACKENDS:
            raise InvalidArgumentError(
                f"{fn}(): backend={backend!r} is not a backend; use None, 'sequential', "
                f"'openmp' or 'cuda'"
            )
        if backend == "cuda":
            raise cuda_unavailable(fn)
        if backend == "openmp" and not native.build_config["openmp"]:
            raise NotSupportedError(
                f"{fn}(): backend 'openmp' is not compiled into this build; use "
                f"Resources.sequential()"
            )
        self._backend = backend
        self._num_threads = 1 if backend == "sequential" else num_threads
        self._device = device
        self._shared = _SharedState("allow")

    @classmethod
    def sequential(cls):
        """One host thread; the reference backend.

        Examples
        --------
        >>> import dyng
        >>> dyng.Resources.sequential().num_threads
        1
        """
        return cls("sequential")

    @classmethod
    def openmp(cls, num_threads=0):
        """OpenMP on the host; ``num_threads=0`` uses the OpenMP default.

        Examples
        --------
        >>> import dyng
        >>> dyng.Resources.openmp(4).backend
        'openmp'
        """
        return cls("openmp", num_threads=num_threads)

    @classmethod
    def cuda(cls, device=0, stream=None, host_threads=0):
        """A CUDA device; needs a CUDA plugin (``pip install "dyng[cu13]"``).

        Raises
        ------
        NotSupportedError
            Always in this build: it names the installed plugins or says how to get one.

        Examples
        --------
        >>> import dyng
        >>> try:
        ...     dyng.Resources.cuda()
        ... except dyng.NotSupportedError as e:
        ...     "plugin" in str(e)
        True
        """
        raise cuda_unavailable("Resources.cuda")

    @property
    def backend(self):
        """"sequential" or "openmp"."""
        return self._backend

    @property
    def device(self):
        """The CUDA device ordinal, or -1 on a host backend."""
        return -1

    @property
    def num_threads(self):
        """Threads used: 1 on sequential; the requested or default OpenMP team size."""
        if self._backend == "openmp" and self._num_threads == 0:
            return self._execution().resolved_threads
        return self._num_threads

    @property
    def default_space(self):
        """Where results of this backend live: "host"."""
        return "host"

    @property
    def copy_policy(self):
        """What a host/device copy does: "allow", "warn" or "error" (shared by copies)."""
        return self._shared.copy_policy

    @copy_policy.setter
    def copy_policy(self, value):
        if not isinstance(value, str) or value not in _COPY_POLICIES:
            raise InvalidArgumentError(
                f"Resources.copy_policy: {value!r} is not a policy; use 'allow', 'warn' or 'error'"
            )
        self._shared.copy_policy = value

    @property
    def workspace_bytes(self):
        """Bytes of cached scratch memory (the host backends keep none)."""
        return 0

    def release_workspaces(self):
        """Frees cached scratch memory (nothing to free on the host)."""

    def warm_up(self):
        """Prepares the backend ahead of the first call (nothing to do on the host)."""

    def synchronize(self):
        """Waits for queued device work (a no-op on the host)."""

    def _execution(self):
        shared = self._shared
        if shared.execution is None:
            shared.execution = _backend.native().Execution(self._backend, self._num_threads, 0)
        return shared.execution

    def __copy__(self):
        other = object.__new__(Resources)
        other._backend = self._backend
        other._num_threads = self._num_threads
        other._device = self._device
        other._shared = self._shared
        return other

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __reduce__(self):
        return (_rebuild, (self._backend, self._num_threads, self._device, self.copy_policy))

    def __repr__(self):
        if self._backend == "sequential":
            return "Resources('sequential')"
        return f"Resources({self._backend!r}, num_threads={self.num_threads})"


def _rebuild(backend, num_threads, device, copy_policy):
    resources = Resources(backend, num_threads=num_threads, device=device)
    resources.copy_policy = copy_policy
    return resources


_default_lock = threading.Lock()
_default = None


def get_default_resources():
    """The process-default Resources, created on first use as ``Resources()``.

    Examples
    --------
    >>> import dyng
    >>> isinstance(dyng.get_default_resources(), dyng.Resources)
    True
    """
    global _default
    current = _default
    if current is not None:
        return current
    with _default_lock:
        if _default is None:
            _default = Resources()
        return _default


def set_default_resources(resources):
    """Sets the process default: a Resources, a backend name, or None for the automatic choice.

    Examples
    --------
    >>> import dyng
    >>> saved = dyng.get_default_resources()
    >>> dyng.set_default_resources("sequential")
    >>> dyng.get_default_resources().backend
    'sequential'
    >>> dyng.set_default_resources(saved)
    """
    global _default
    if resources is None:
        value = None
    elif isinstance(resources, Resources):
        value = resources
    elif isinstance(resources, str):
        value = Resources(resources)
    else:
        raise TypeError(
            f"set_default_resources(): expected a dyng.Resources, a backend name or None; got "
            f"{type(resources).__name__}"
        )
    with _default_lock:
        _default = value


def resolve(resources, fallback, function):
    """`resources` if given (a Resources or backend name), else `fallback`."""
    if resources is None:
        return fallback
    if isinstance(resources, Resources):
        return resources
    if isinstance(resources, str):
        return Resources(resources)
    raise TypeError(
        f"{function}(): resources must be a dyng.Resources, a backend name or None; got "
        f"{type(resources).__name__}"
    )

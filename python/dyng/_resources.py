"""Resources and the process-default resources (spec section 4).

A Resources object is a small Python value; each native call receives the plain
``_core.Execution`` it stands for, so the C++ core keeps no global backend state.
"""

from __future__ import annotations

import threading

from dyng import _backend, _convert, _cuda_stream
from dyng._errors import InvalidArgumentError, NotSupportedError

__all__ = ["Resources", "get_default_resources", "set_default_resources"]

_BACKENDS = ("sequential", "openmp", "cuda")
_COPY_POLICIES = ("allow", "warn", "error")


def cuda_unavailable(function):
    """The NotSupportedError for a CUDA request that this process cannot serve.

    It says why dyng runs without CUDA: the CPU module was requested, no plugin is installed, or
    each installed plugin with the reason it is unusable (from the backend selection).
    """
    chosen = _backend.selection()
    plugins = [report for report in chosen.plugins if report.state != "ignored"]
    host = "use Resources.openmp() or Resources.sequential()"
    if chosen.cpu_only is not None:
        return NotSupportedError(
            f"{function}(): the CUDA backend is off in this process because the CPU module was "
            f"requested ({chosen.cpu_only}); unset {_backend.CPU_ONLY_VARIABLE} (or drop the "
            f"use_cpu_only() call) and start a new process, or {host}"
        )
    if not plugins:
        return NotSupportedError(
            f"{function}(): the CUDA backend needs a CUDA plugin and none is installed; install "
            f'one with pip install "dyng[cu13]" (or "dyng[cu12]"), or {host}'
        )
    if chosen.module.build_config.get("cuda"):
        return NotSupportedError(
            f"{function}(): the CUDA backend of {chosen.module.__name__} cannot serve this "
            f"request; {host}"
        )
    return NotSupportedError(
        f"{function}(): the CUDA backend is not available because no installed CUDA plugin is "
        f"usable; fix what a reason below says and start a new process, or {host}:"
        + "".join(f"\n  {report.describe()}" for report in plugins)
    )


def cuda_usable(native):
    """True when the native module has the CUDA backend and a device is visible.

    For a chosen plugin the answer comes from selection's probe (NVML or a child process), so
    ``Resources()`` and ``dyng.config()`` do not initialise CUDA in this process just to look;
    only a CUDA module that was not chosen through a probe (a development build) asks the
    runtime.
    """
    if not native.build_config["cuda"]:
        return False
    for report in _backend.selection().plugins:
        if report.state == "chosen" and report.device_count is not None:
            return report.device_count > 0
    return native.cuda_device_count() > 0


class _SharedState:
    """What copies of one Resources share (spec: copies share one handle)."""

    __slots__ = ("copy_policy", "threads")

    def __init__(self, copy_policy):
        self.copy_policy = copy_policy
        # Per thread: the native execution handle and the dyng.profile() sessions open in that
        # thread, innermost last (the one attached to the handle). A profile records the calls
        # of the thread that opened it only, so two threads profiling the same resources never
        # receive each other's stages.
        self.threads = threading.local()


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

    Raises
    ------
    InvalidArgumentError
        For an unknown backend name, a negative or non-integer `num_threads` or `device`, or a
        CUDA device this process does not see.
    NotSupportedError
        For a backend this build lacks ("cuda" without a usable CUDA plugin, "openmp" in a
        build without OpenMP).

    Examples
    --------
    >>> import dyng
    >>> dyng.Resources("sequential")
    Resources('sequential')
    >>> dyng.Resources.openmp(2).num_threads
    2
    """

    __slots__ = (
        "_backend",
        "_num_threads",
        "_device",
        "_stream",
        "_stream_owner",
        "_shared",
        "_automatic",
        "__weakref__",
    )

    def __init__(self, backend=None, *, num_threads=0, device=0):
        self._setup("Resources", backend, num_threads, device, None)

    def _setup(self, fn, backend, num_threads, device, stream):
        num_threads = _convert.as_int(num_threads, fn, "num_threads", minimum=0)
        device = _convert.as_int(device, fn, "device", minimum=0)
        native = _backend.native()
        automatic = backend is None
        if automatic:
            if cuda_usable(native):
                backend = "cuda"
            else:
                backend = "openmp" if native.build_config["openmp"] else "sequential"
        if not isinstance(backend, str) or backend not in _BACKENDS:
            raise InvalidArgumentError(
                f"{fn}(): backend={backend!r} is not a backend; use None, 'sequential', "
                f"'openmp' or 'cuda'"
            )
        if backend == "cuda":
            if not native.build_config["cuda"]:
                raise cuda_unavailable(fn)
            # The automatic choice trusts selection's probe and leaves the runtime alone (no
            # CUDA initialisation just to build a default); an explicit request is checked now.
            count = None if automatic else native.cuda_device_count()
            if count is not None and device >= count:
                raise InvalidArgumentError(
                    f"{fn}(): device={device} but this process sees {count} CUDA device(s); pass "
                    f"a device below {count} (CUDA_VISIBLE_DEVICES decides which are visible)"
                )
        if backend == "openmp" and not native.build_config["openmp"]:
            raise NotSupportedError(
                f"{fn}(): backend 'openmp' is not compiled into this build; use "
                f"Resources.sequential()"
            )
        self._backend = backend
        # Nobody asked for this backend: an algorithm without it may run on a host one instead.
        self._automatic = automatic
        self._num_threads = 1 if backend == "sequential" else num_threads
        self._device = device
        self._stream = _cuda_stream.stream_handle(stream, device, fn) if backend == "cuda" else 0
        # The handle is valid only while its owner (a CuPy/PyTorch stream) exists.
        self._stream_owner = stream
        self._shared = _SharedState("allow")

    @classmethod
    def sequential(cls):
        """One host thread; the reference backend.

        Returns
        -------
        Resources
            ``Resources("sequential")``.

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

        Parameters
        ----------
        num_threads : int, optional
            OpenMP team size; 0 (the default) is the OpenMP default (honours OMP_NUM_THREADS).

        Returns
        -------
        Resources
            ``Resources("openmp", num_threads=num_threads)``.

        Raises
        ------
        InvalidArgumentError
            For a negative or non-integer `num_threads`.
        NotSupportedError
            When this build has no OpenMP.

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

        Parameters
        ----------
        device : int
            Device ordinal among the visible devices.
        stream : None, int, CuPy/PyTorch stream or object with ``__cuda_stream__``
            The stream dyng's device work is ordered on; None is the default stream. Calls
            return once their work on it is done, so results are ready to use.
        host_threads : int
            OpenMP threads for host-side steps; 0 is the OpenMP default.

        Returns
        -------
        Resources
            Resources of the CUDA backend on that device and stream.

        Raises
        ------
        NotSupportedError
            When this installation has no usable CUDA plugin (the message names the installed
            plugins and why each is unusable, or says how to get one).
        InvalidArgumentError
            For an invisible device or something that is not a stream.

        Examples
        --------
        Use the GPU where there is one, else the host:

        >>> import dyng
        >>> try:
        ...     resources = dyng.Resources.cuda()
        ... except dyng.NotSupportedError:
        ...     resources = dyng.Resources()
        >>> resources.default_space == ("device" if resources.backend == "cuda" else "host")
        True
        """
        self = object.__new__(cls)
        self._setup("Resources.cuda", "cuda", host_threads, device, stream)
        return self

    @property
    def backend(self):
        """ "sequential", "openmp" or "cuda"."""
        return self._backend

    @property
    def device(self):
        """The CUDA device ordinal, or -1 on a host backend."""
        return self._device if self._backend == "cuda" else -1

    @property
    def stream(self):
        """The raw cudaStream_t handle work is ordered on (0: default stream; 0 on the host)."""
        return self._stream

    @property
    def num_threads(self):
        """Threads used: 1 on sequential; the requested or default OpenMP team size."""
        if self._backend == "openmp" and self._num_threads == 0:
            return self._execution().resolved_threads
        return self._num_threads

    @property
    def default_space(self):
        """Where graphs and results of this backend live: "device" for CUDA, else "host"."""
        return "device" if self._backend == "cuda" else "host"

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
        """Device memory dyng's pool holds on this device (0 on the host backends, which cache
        nothing)."""
        if self._backend != "cuda":
            return 0
        return _backend.native().cuda_workspace_bytes(self._device)

    def release_workspaces(self) -> None:
        """Returns the device pool's unused memory to the driver (nothing to free on the host).

        Examples
        --------
        >>> import dyng
        >>> resources = dyng.Resources.sequential()
        >>> resources.release_workspaces()
        >>> resources.workspace_bytes
        0
        """
        if self._backend == "cuda":
            _backend.native().cuda_release_workspaces(self._device)

    def warm_up(self) -> None:
        """Creates the CUDA context and memory pool ahead of the first call (host: nothing).

        Call it before timing the first call on a device, which would otherwise include that
        set-up.

        Examples
        --------
        >>> import dyng
        >>> dyng.Resources.sequential().warm_up()
        """
        if self._backend == "cuda":
            _backend.native().cuda_workspace_bytes(self._device)

    def synchronize(self) -> None:
        """Waits for queued device work on this stream (a no-op on the host).

        dyng's calls return once their work is done; this is for work the caller queued on
        the same stream.

        Examples
        --------
        >>> import dyng
        >>> dyng.Resources.sequential().synchronize()
        """
        if self._backend == "cuda":
            _backend.native().cuda_synchronize(self._device, self._stream)

    def _execution(self):
        """This thread's native execution handle for these resources (made on first use)."""
        local = self._shared.threads
        execution = getattr(local, "execution", None)
        if execution is None:
            execution = local.execution = _backend.native().Execution(
                self._backend,
                self._num_threads,
                self._device if self._backend == "cuda" else 0,
                self._stream,
            )
        return execution

    def _thread_profilers(self):
        local = self._shared.threads
        if not hasattr(local, "profilers"):
            local.profilers = []
        return local.profilers

    def _attach_profiler(self, session):
        """Sends the stages of this thread's calls with these resources to `session`."""
        self._thread_profilers().append(session)
        self._execution().attach_profiler(session)

    def _detach_profiler(self, session):
        """Ends `session`'s profile; the profile this thread opened around it, if any, resumes."""
        profilers = self._thread_profilers()
        profilers.remove(session)
        self._execution().attach_profiler(profilers[-1] if profilers else None)

    def __copy__(self):
        other = object.__new__(Resources)
        other._backend = self._backend
        other._num_threads = self._num_threads
        other._device = self._device
        other._stream = self._stream
        other._stream_owner = self._stream_owner
        other._shared = self._shared
        other._automatic = self._automatic
        return other

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __reduce__(self):
        return (_rebuild, (self._backend, self._num_threads, self._device, self.copy_policy))

    def __repr__(self):
        if self._backend == "cuda":
            stream = f", stream={self._stream:#x}" if self._stream else ""
            return f"Resources.cuda(device={self._device}{stream})"
        if self._backend == "sequential":
            return "Resources('sequential')"
        return f"Resources({self._backend!r}, num_threads={self.num_threads})"


def _rebuild(backend, num_threads, device, copy_policy):
    # A stream handle means nothing in another process: the rebuilt resources use the default.
    resources = Resources(backend, num_threads=num_threads, device=device)
    resources.copy_policy = copy_policy
    return resources


_default_lock = threading.Lock()
_default = None


def get_default_resources():
    """The process-default Resources, created on first use as ``Resources()``.

    Graphs and results built without ``resources=`` use them.

    Returns
    -------
    Resources
        The default set by [`dyng.set_default_resources`][], or the automatic choice.

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


def set_default_resources(resources) -> None:
    """Sets the process default: a Resources, a backend name, or None for the automatic choice.

    Graphs and results made afterwards without ``resources=`` use it; those made before keep
    theirs.

    Parameters
    ----------
    resources : Resources, str or None
        The new default; a backend name stands for ``Resources(name)``, None for the automatic
        choice (made again on the next [`dyng.get_default_resources`][]).

    Raises
    ------
    TypeError
        When `resources` is none of these.
    InvalidArgumentError
        For an unknown backend name.
    NotSupportedError
        For a backend name this build lacks.

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


def host_resources_for(backends):
    """Automatic resources of a host backend among `backends` (OpenMP first where compiled), or
    None when there is none."""
    native = _backend.native()
    for name in ("openmp", "sequential"):
        if name in backends and (name != "openmp" or native.build_config["openmp"]):
            resources = Resources(name)
            resources._automatic = True
            return resources
    return None


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

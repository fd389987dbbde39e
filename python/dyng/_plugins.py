"""Finding, judging and loading dyng's CUDA plugins: the rules behind ``dyng._backend``.

A plugin is a distribution ``dyng-cu<N>`` that registers ``cu<N> = dyng_cu<N>`` in the
entry-point group ``dyng.backends``. Every entry point of the group ends in one state, with a
reason a user can act on:

``chosen``           its native module ``dyng_cu<N>._core`` is dyng's for this process
``available``        usable, but another plugin ranked first
``unusable``         its probe found no suitable driver or device (the reason is the probe's)
``version mismatch`` its distribution's version differs from dyng's; it is never imported
``failed``           importing or probing it raised, or its native module failed to import,
                     reports another version or was built without CUDA
``not considered``   the CPU module was requested (DYNG_CPU_ONLY, use_cpu_only()); not probed
``ignored``          not a dyng plugin (wrong name, distribution or module); never imported

Only installed metadata is read before a plugin is imported, so neither an unrelated package that
registers itself in the group nor a plugin left over from another dyng version runs any code.
"""

from __future__ import annotations

import importlib
import re
from typing import NamedTuple

__all__ = [
    "GROUP",
    "STATES",
    "Entry",
    "PluginReport",
    "Outcome",
    "discover",
    "dyng_version",
    "not_considered",
    "choose",
    "format_driver",
]

GROUP = "dyng.backends"

CHOSEN = "chosen"
AVAILABLE = "available"
UNUSABLE = "unusable"
VERSION_MISMATCH = "version mismatch"
FAILED = "failed"
NOT_CONSIDERED = "not considered"
IGNORED = "ignored"
STATES = (CHOSEN, AVAILABLE, UNUSABLE, VERSION_MISMATCH, FAILED, NOT_CONSIDERED, IGNORED)

_PLUGIN_NAME = re.compile(r"cu([1-9][0-9]*)")
# What selection reads from a plugin's status() (dyng_plugin's Status has them all).
_STATUS_FIELDS = ("usable", "driver_version", "device_count", "reason", "capabilities")


class Entry(NamedTuple):
    """One entry point of the group, read from metadata only.

    ``problem`` is None for a dyng plugin and says why it is ignored otherwise; ``cuda_major`` is
    None for an ignored entry.
    """

    name: str
    module: str
    distribution: str
    version: str | None
    cuda_major: int | None
    problem: str | None


class PluginReport(NamedTuple):
    """What selection decided about one entry point (a row of ``dyng.config()["plugins"]``)."""

    name: str
    module: str
    distribution: str
    version: str | None
    cuda_major: int | None
    driver_version: int | None
    device_count: int | None
    state: str
    reason: str

    def describe(self):
        """``"cu13 (dyng-cu13 0.3.0): unusable: <reason>"``, for warnings and errors."""
        origin = " ".join(part for part in (self.distribution, self.version) if part)
        return f"{self.name} ({origin or 'no distribution'}): {self.state}: {self.reason}"


class Outcome(NamedTuple):
    """The result of ``choose()``: the plugin's native module (None: use the CPU module),
    every report, the load errors, and why that module (or why no plugin) was chosen."""

    module: object | None
    plugins: tuple[PluginReport, ...]
    errors: tuple[str, ...]
    reason: str


def _normalise(name):
    # PEP 503: "Dyng_CU13", "dyng.cu13" and "dyng-cu13" are one distribution.
    return re.sub(r"[-_.]+", "-", name or "").lower()


def discover():
    """Every entry point of ``dyng.backends``, sorted by name; imports nothing.

    Returns
    -------
    list of Entry

    Examples
    --------
    >>> from dyng import _plugins
    >>> all(entry.problem is None or entry.cuda_major is None for entry in _plugins.discover())
    True
    """
    from importlib import metadata

    found, seen = [], set()
    for point in metadata.entry_points(group=GROUP):
        dist = getattr(point, "dist", None)
        distribution = _normalise(dist.metadata.get("Name")) if dist is not None else ""
        version = dist.version if dist is not None else None
        match = _PLUGIN_NAME.fullmatch(point.name)
        problem = _problem(point, match, distribution, seen)
        major = int(match.group(1)) if problem is None else None
        if problem is None:
            seen.add(point.name)
        found.append(Entry(point.name, point.value, distribution, version, major, problem))
    return sorted(found, key=lambda entry: (entry.name, entry.distribution))


def _problem(point, match, distribution, seen):
    """Why an entry point is not one of dyng's plugins, or None when it is."""
    origin = f"from {distribution}" if distribution else "from no installed distribution"
    if match is None:
        return (
            f"not a dyng plugin: the entry point name {point.name!r} ({origin}) is not "
            f"cu<N>; dyng does not import it"
        )
    expected = f"dyng-{point.name}"
    if distribution != expected:
        return (
            f"not a dyng plugin: {point.name} must come from the distribution {expected}, "
            f"not {distribution or 'an unknown one'}; dyng does not import it"
        )
    package = f"dyng_{point.name}"
    if point.value != package:
        return (
            f"{expected} registers {point.name} = {point.value!r} instead of {package!r}; "
            f"dyng does not import it (reinstall with pip install --force-reinstall "
            f"{expected})"
        )
    if point.name in seen:
        return f"a second {point.name} entry point ({origin}); the first one is used"
    return None


def dyng_version():
    """The installed dyng distribution's version; None when dyng runs without metadata.

    Examples
    --------
    >>> from dyng import _plugins
    >>> found = _plugins.dyng_version()
    >>> found is None or isinstance(found, str)
    True
    """
    from importlib import metadata

    try:
        return metadata.version("dyng")
    except metadata.PackageNotFoundError:
        return None


def format_driver(encoded):
    """``13020`` -> ``"13.2"`` (the driver's CUDA version as cuDriverGetVersion encodes it)."""
    return f"{encoded // 1000}.{encoded % 1000 // 10}"


def _report(entry, state, reason, status=None):
    return PluginReport(
        entry.name,
        entry.module,
        entry.distribution,
        entry.version,
        entry.cuda_major,
        getattr(status, "driver_version", None),
        getattr(status, "device_count", None),
        state,
        reason,
    )


def _ignored(entry):
    return _report(entry, IGNORED, entry.problem)


def not_considered(entries, why):
    """Reports for a process that asked for the CPU module: no plugin is probed or imported."""
    return tuple(
        _ignored(entry)
        if entry.problem
        else _report(entry, NOT_CONSIDERED, f"not probed: the CPU module was requested ({why})")
        for entry in entries
    )


def choose(entries, expected_version, activate):
    """Judges every plugin and loads the best usable one.

    Parameters
    ----------
    entries : list of Entry
        From ``discover()``.
    expected_version : str or None
        dyng's version; None skips the version checks (dyng without metadata).
    activate : callable
        Called with a plugin's native module before it is accepted (dyng registers its error
        classes there); an exception marks the plugin failed.

    Returns
    -------
    Outcome
    """
    reports, errors, candidates = [None] * len(entries), [], []
    for index, entry in enumerate(entries):
        if entry.problem is not None:
            reports[index] = _ignored(entry)
        elif expected_version is not None and entry.version != expected_version:
            reports[index] = _report(entry, VERSION_MISMATCH, _mismatch(entry, expected_version))
        else:
            package, status, problem = _probe(entry)
            if problem is not None:
                reports[index] = _report(entry, FAILED, problem)
                errors.append(f"{entry.name}: {problem}")
            elif not status.usable:
                reports[index] = _report(
                    entry, UNUSABLE, status.reason or "its probe gave no reason", status
                )
            else:
                candidates.append((index, entry, package, status))

    chosen = None  # (index, native module)
    ranked = _ranked(candidates)
    for position, (index, entry, package, status) in enumerate(ranked):
        if chosen is not None:
            reports[index] = _report(
                entry, AVAILABLE, f"usable, but {entries[chosen[0]].name} ranked first", status
            )
            continue
        module, problem = _load(entry, package, expected_version, activate)
        if problem is not None:
            reports[index] = _report(entry, FAILED, problem, status)
            errors.append(f"{entry.name}: {problem}")
        else:
            chosen = (index, module)
            later = [other.name for _, other, _, _ in ranked[position + 1 :]]
            reports[index] = _report(entry, CHOSEN, _why_chosen(entry, status, later), status)

    plugins = tuple(reports)
    if chosen is None:
        return Outcome(None, plugins, tuple(errors), _why_none(plugins))
    index, module = chosen
    return Outcome(
        module, plugins, tuple(errors), f"plugin {plugins[index].name}: {plugins[index].reason}"
    )


def _mismatch(entry, expected_version):
    return (
        f"{entry.distribution} is version {entry.version} but dyng is {expected_version}; "
        f'install the matching plugin with pip install "dyng[{entry.name}]=='
        f'{expected_version}", or uninstall {entry.distribution}'
    )


def _probe(entry):
    """(package, status, None), or (None, None, problem) when the package cannot answer."""
    try:
        package = importlib.import_module(entry.module)
        status = package.status()
        missing = [field for field in _STATUS_FIELDS if not hasattr(status, field)]
        if missing:
            raise TypeError(f"status() returned {status!r}, which lacks {', '.join(missing)}")
    except Exception as exc:  # a broken plugin must not break dyng: it is reported instead
        return (
            None,
            None,
            (
                f"importing {entry.module} or its status() raised "
                f"{type(exc).__name__}: {exc}; reinstall {entry.distribution}"
            ),
        )
    return package, status, None


def _ranked(candidates):
    """The plugin built for the driver's CUDA major first, then newer majors, then by name."""
    majors = [
        status.driver_version // 1000 for _, _, _, status in candidates if status.driver_version
    ]
    driver_major = majors[0] if majors else None

    def rank(candidate):
        entry = candidate[1]
        return (entry.cuda_major != driver_major, -entry.cuda_major, entry.name)

    return sorted(candidates, key=rank)


def _load(entry, package, expected_version, activate):
    """(native module, None), or (None, problem) when it must not be used."""
    native_name = f"{entry.module}._core"
    reinstall = (
        f'reinstall with pip install --force-reinstall "dyng[{entry.name}]=='
        f'{expected_version or entry.version}"'
    )
    try:
        module = package.native
    except Exception as exc:
        return None, (
            f"its native module {native_name} failed to import "
            f"({type(exc).__name__}: {exc}); {reinstall}"
        )
    version = getattr(module, "__version__", None)
    if expected_version is not None and version != expected_version:
        return None, (
            f"its native module {native_name} reports version {version} but dyng "
            f"is {expected_version}; {reinstall}"
        )
    build = getattr(module, "build_config", None)
    if not isinstance(build, dict) or not build.get("cuda"):
        return None, (
            f"its native module {native_name} was built without CUDA "
            f"(build_config['cuda'] is not true); {reinstall}"
        )
    try:
        activate(module)
    except Exception as exc:
        return None, (
            f"preparing its native module {native_name} raised "
            f"{type(exc).__name__}: {exc}; {reinstall}"
        )
    return module, None


def _why_chosen(entry, status, later):
    """The chosen plugin's reason; ``later`` names the usable plugins ranked after it."""
    capabilities = ", ".join(f"sm_{major}{minor}" for major, minor in status.capabilities)
    count = status.device_count or 0
    driver = format_driver(status.driver_version) if status.driver_version else "an unknown"
    text = (
        f"{entry.module}._core from {entry.distribution} {entry.version}: the NVIDIA driver "
        f"supports CUDA {driver} and {count} device{'s are' if count != 1 else ' is'} "
        f"visible ({capabilities})"
    )
    if later:
        matches = status.driver_version and entry.cuda_major == status.driver_version // 1000
        why = "its CUDA major matches the driver's" if matches else "the newest CUDA major"
        text += f"; preferred to {', '.join(later)} ({why})"
    if status.reason:
        text += f"; note: {status.reason}"
    return text


def _why_none(plugins):
    if not plugins:
        return "the CPU module: no CUDA plugin is installed"
    if all(report.state == IGNORED for report in plugins):
        return (
            "the CPU module: no CUDA plugin is installed (entry points of other packages "
            "were ignored)"
        )
    return "the CPU module: no installed CUDA plugin is usable (see plugins)"

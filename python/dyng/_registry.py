"""The algorithm registry: one record per dynamic algorithm, read by ``dyng.update``, the feature
table of the README, ``dyng.algorithms()``, ``dyng.citation`` and the command line.

Each algorithm module defines ``ALGORITHM = Algorithm(...)`` next to its ``Result``; this module
only names the modules, in the order 0.2's ``algorithms()`` lists them, and imports them on
demand, so it imports no algorithm itself (and none imports it back at import time).
"""

from __future__ import annotations

import dataclasses
import importlib

from dyng._errors import InvalidArgumentError

__all__ = [
    "Algorithm",
    "AlgorithmInfo",
    "ALGORITHM_MODULES",
    "PLANNED",
    "algorithms",
    "all_algorithms",
    "find",
    "feature_table",
]

#: The algorithm modules of this release, in the order of 0.2's ``dyng.algorithms()``.
ALGORITHM_MODULES = (
    "sssp",
    "cycle_count",
    "mosp",
    "dynamic_bfs",
    "triangle_delta",
    "components",
    "pagerank",
)

#: Algorithms of 0.2 that this release line has not brought back yet (the README says so).
PLANNED = ()

BACKENDS = ("sequential", "openmp", "cuda")


@dataclasses.dataclass(frozen=True)
class Algorithm:
    """What dyng knows about one dynamic algorithm.

    Attributes
    ----------
    name : str
        The module name (``dyng.<name>``) and the CLI command.
    title : str
    family : {"fixed_point", "aggregate_delta"}
        A fixed point repaired in place (traversals) or an aggregate updated by deltas (counts).
    maturity : {"stable", "tutorial"}
    determinism : {"bitwise", "exact_value", "tolerance"}
        ``bitwise``: update equals compute in every array, bit for bit; ``exact_value``: the
        values are exact (no tie-breaking choices are exposed); ``tolerance``: an iterative
        answer, where update meets compute's convergence test and lies within a stated bound of
        a fresh compute (each backend still deterministic).
    backends : tuple of str
    cite : tuple of str
        BibTeX keys of the papers the algorithm follows (``dyng.citation`` renders them).
    container : {"graph"}
        What the algorithm runs on.
    oracle : {"compute"}
        What ``update`` is checked against: a fresh ``compute``.
    """

    name: str
    title: str
    family: str
    maturity: str
    determinism: str
    backends: tuple[str, ...] = BACKENDS
    cite: tuple[str, ...] = ()
    container: str = "graph"
    oracle: str = "compute"

    def module(self):
        """The algorithm's module (``dyng.<name>``)."""
        return importlib.import_module(f"dyng.{self.name}")


@dataclasses.dataclass(frozen=True)
class AlgorithmInfo:
    """One algorithm as ``dyng.algorithms()`` describes it (the public view of the registry).

    Attributes
    ----------
    name : str
        The module name (``dyng.<name>``) and the command-line command.
    title : str
        What the algorithm keeps current, in a few words.
    family : {"fixed_point", "aggregate_delta"}
        A fixed point repaired in place (traversals) or an aggregate updated by deltas (counts).
    container : {"graph"}
        What the algorithm runs on.
    maturity : {"stable", "tutorial"}
        ``tutorial`` marks an algorithm kept small to show how one is added.
    determinism : {"bitwise", "exact_value", "tolerance"}
        ``bitwise``: update equals compute in every array, bit for bit; ``exact_value``: the
        values are exact (no tie-breaking choices are exposed); ``tolerance``: an iterative
        answer, where update meets compute's convergence test and lies within a stated bound of
        a fresh compute.
    oracle : {"compute"}
        What ``update`` is checked against: a fresh ``compute``.
    backends : tuple of str
        The backends it runs on, of "sequential", "openmp" and "cuda".
    cite : tuple of str
        BibTeX keys of the papers it follows ([`dyng.citation`][] renders them).

    Examples
    --------
    >>> import dyng
    >>> info = dyng.algorithms()[0]
    >>> (info.name, info.family, info.determinism)
    ('sssp', 'fixed_point', 'bitwise')
    """

    name: str
    title: str
    family: str
    container: str
    maturity: str
    determinism: str
    oracle: str
    backends: tuple[str, ...]
    cite: tuple[str, ...]


def algorithms():
    """Every algorithm of this release, in registry order, as [`dyng.AlgorithmInfo`][] records.

    Returns
    -------
    list of AlgorithmInfo
        One record per algorithm module (``dyng.sssp``, ...), in a fixed order.

    Examples
    --------
    >>> import dyng
    >>> [a.name for a in dyng.algorithms()][:2]
    ['sssp', 'cycle_count']
    >>> [a.name for a in dyng.algorithms()] == list(dyng._registry.ALGORITHM_MODULES)
    True
    """
    return [
        AlgorithmInfo(
            name=a.name,
            title=a.title,
            family=a.family,
            container=a.container,
            maturity=a.maturity,
            determinism=a.determinism,
            oracle=a.oracle,
            backends=tuple(a.backends),
            cite=tuple(a.cite),
        )
        for a in all_algorithms()
    ]


def all_algorithms():
    """Every registered algorithm, in registry order."""
    return tuple(importlib.import_module(f"dyng.{name}").ALGORITHM for name in ALGORITHM_MODULES)


def find(name, function="dyng.algorithms"):
    """The algorithm called `name`; InvalidArgumentError listing the known ones otherwise."""
    if name in ALGORITHM_MODULES:
        return importlib.import_module(f"dyng.{name}").ALGORITHM
    raise InvalidArgumentError(
        f"{function}(): {name!r} is not an algorithm of dyng; known algorithms are "
        f"{', '.join(ALGORITHM_MODULES)}"
    )


def feature_table():
    """The README's feature table (Markdown), made from the registry so that it cannot drift:
    tests/packaging/test_readme_features.py holds the README to it.

    Examples
    --------
    >>> print(feature_table().splitlines()[0])
    | | sequential | OpenMP | CUDA |
    """
    names = {"sequential": "sequential", "openmp": "OpenMP", "cuda": "CUDA"}
    rows = [
        "| | " + " | ".join(names[b] for b in BACKENDS) + " |",
        "|---|" + "---|" * len(BACKENDS),
        "| graph storage, batches (`Graph`, `EdgeBatch`) | yes | yes | yes (device graphs: "
        "batches resolved and applied on the GPU, read from CuPy/PyTorch arrays in place) |",
    ]
    for algorithm in all_algorithms():
        # Every algorithm is meant for every backend: one it lacks is still to come.
        cells = " | ".join("yes" if b in algorithm.backends else "planned" for b in BACKENDS)
        title = algorithm.title[:1].lower() + algorithm.title[1:]
        rows.append(f"| `{algorithm.name}`: {title} | {cells} |")
    rows.append("| `dyng.update`: one batch, several results | yes | yes | yes |")
    rows.append(
        "| `dyng.io` (0.2's file formats), `dyng.generators.legacy`, the `dyng` command "
        "line | yes | yes | yes (files are read on the host) |"
    )
    rows.append(
        '| NetworkX backend (`backend="dyng"`; `dyng.nx.DiGraph`/`Graph` keep results '
        "current) | yes | yes | yes |"
    )
    rows.append(
        "| `dyng.distributed` (early): graphs split over MPI ranks, batches all or nothing "
        "across them, `sssp` and weak `components` across ranks, each rank reading only its "
        "shard of a file | yes (one process per rank, each holding a host shard) | partly (a "
        'shard\'s own compute and components calls) | partly (`init("device")`: each shard '
        "on its rank's GPU, batches all or nothing across them under mpiexec; weak components "
        "with each shard's part on its GPU and the rounds on the host; sssp across GPUs not "
        "built; not yet run on GPUs) |"
    )
    rows.append(
        "| `dyng.profile`: stage timings recorded by the C++ core (`Profiler.plot()`, "
        "`python -m bench ... --plot`) | yes | yes | yes (device times from CUDA events, "
        "NVTX ranges) |"
    )
    if PLANNED:
        planned = ", ".join(f"`{name}`" for name in PLANNED)
        rows.append(f"| {planned} | " + " | ".join("planned" for _ in BACKENDS) + " |")
    return "\n".join(rows)

"""The algorithm registry: one record per dynamic algorithm, read by ``dyng.update``, the feature
table of the README and (in later releases) ``dyng.algorithms()`` and the command line.

Each algorithm module defines ``ALGORITHM = Algorithm(...)`` next to its ``Result``; this module
only names the modules, in the order 0.2's ``algorithms()`` lists them, and imports them on
demand, so it imports no algorithm itself (and none imports it back at import time).
"""

from __future__ import annotations

import dataclasses
import importlib
from typing import Tuple

from dyng._errors import InvalidArgumentError

__all__ = ["Algorithm", "ALGORITHM_MODULES", "all_algorithms", "find"]

#: The algorithm modules of this release, in the order of 0.2's ``dyng.algorithms()``.
ALGORITHM_MODULES = ("sssp", "dynamic_bfs")

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
    determinism : {"bitwise", "exact_value"}
        ``bitwise``: update equals compute in every array, bit for bit; ``exact_value``: the
        values are exact (no tie-breaking choices are exposed).
    backends : tuple of str
    cite : tuple of str
        BibTeX keys of the papers the algorithm follows.
    """

    name: str
    title: str
    family: str
    maturity: str
    determinism: str
    backends: Tuple[str, ...] = BACKENDS
    cite: Tuple[str, ...] = ()

    def module(self):
        """The algorithm's module (``dyng.<name>``)."""
        return importlib.import_module(f"dyng.{self.name}")


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

"""The Examples sections of every module of dyng run and print what they show.

The modules are found by walking the package, so a new module's examples run without being
listed. The package, the modules behind its public names and every registered algorithm must
have examples, and so must every module whose source shows a ``>>>`` prompt (examples that
doctest cannot find never run).
"""

import doctest
import importlib
import importlib.util
import pathlib
import pkgutil

import pytest

import dyng
from dyng import _registry

# Python modules only: the native module's docstrings are nanobind's signatures.
MODULES = ["dyng"] + sorted(
    info.name
    for info in pkgutil.walk_packages(dyng.__path__, "dyng.")
    if importlib.util.find_spec(info.name).origin.endswith(".py")
)

#: Modules whose examples need an optional package (the test extra installs them all).
NEEDS = {
    "dyng.nx": "networkx",
    "dyng._plots": "matplotlib",
    "dyng.testing.strategies": "hypothesis",
}

#: Modules that must have examples: the package, the homes of its public names, the algorithms.
MUST_HAVE_EXAMPLES = (
    {"dyng"} | set(dyng._HOMES.values()) | {f"dyng.{name}" for name in _registry.ALGORITHM_MODULES}
)


def _shows_a_prompt(module):
    spec = importlib.util.find_spec(module)
    return ">>> " in pathlib.Path(spec.origin).read_text()


def _needs(module):
    return next(
        (
            package
            for prefix, package in NEEDS.items()
            if module == prefix or module.startswith(prefix + ".")
        ),
        None,
    )


def test_the_walk_finds_every_algorithm_and_subpackage():
    assert MUST_HAVE_EXAMPLES <= set(MODULES)
    assert {"dyng.cli", "dyng.io", "dyng.nx", "dyng.testing.oracles"} <= set(MODULES)


@pytest.mark.parametrize("module", MODULES)
def test_docstring_examples_run(module):
    package = _needs(module)
    if package is not None:
        optional = pytest.importorskip(package)
        if package == "networkx" and "dyng" not in optional.utils.backends.backends:
            pytest.skip(
                "dyng's networkx.backends entry point is not installed; reinstall dyng "
                "(pip install .) so that NetworkX finds the backend"
            )
    saved = dyng.get_default_resources()
    try:
        outcome = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    finally:
        dyng.set_default_resources(saved)
    if module in MUST_HAVE_EXAMPLES or _shows_a_prompt(module):
        assert outcome.attempted > 0, f"{module} has no examples"
    assert outcome.failed == 0

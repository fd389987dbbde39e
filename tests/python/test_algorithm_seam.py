"""The seam every algorithm stands on (docs/developer/adding-an-algorithm.md): the registry lists
each algorithm once with a module of the same shape, each Stats reads exactly its native stats
class, and the shared plumbing imports no algorithm (so no import cycle can come back)."""

import ast
import dataclasses
import importlib.util
import pathlib
import re

import pytest

import dyng
from dyng import _registry
from dyng._result import ResultBase, StatsBase

PACKAGE = pathlib.Path(dyng.__file__).parent


def native_stats_name(module):
    """The native Stats class of an algorithm: native classes are named <Algo>State, <Algo>Stats
    (docs/developer/architecture.md, Naming)."""
    state = module.Result._HOST_STATE
    assert state.endswith("State"), f"dyng.{module.ALGORITHM.name}: native state {state!r}"
    return state.removesuffix("State") + "Stats"


@pytest.mark.parametrize("name", _registry.ALGORITHM_MODULES)
def test_every_registered_module_has_the_algorithm_shape(name):
    module = _registry.find(name).module()
    assert module.ALGORITHM.name == name
    for attribute in ("Options", "Stats", "Result", "compute", "update"):
        assert hasattr(module, attribute), f"dyng.{name} lacks {attribute}"
    assert issubclass(module.Result, ResultBase) and issubclass(module.Stats, StatsBase)
    assert module.Result._ALGORITHM is module.ALGORITHM
    assert getattr(dyng, name) is module
    # The package exports what the registry names, and nothing else names it.
    assert name in dyng.__all__ and name in dir(dyng)
    # Both host backends always; CUDA where it has landed (the README's table says which).
    assert {"sequential", "openmp"} <= set(module.ALGORITHM.backends) <= set(_registry.BACKENDS)


@pytest.mark.parametrize("name", _registry.ALGORITHM_MODULES)
def test_stats_fields_are_the_native_ones(name):
    """A Python Stats field without a native field (or the reverse) would be silently dropped."""
    module = _registry.find(name).module()
    native = getattr(dyng._backend.native(), native_stats_name(module))
    python = {f.name for f in dataclasses.fields(module.Stats)} - {"batch"}
    bound = {attribute for attribute in dir(native) if not attribute.startswith("_")}
    assert python == bound


def test_registry_order_and_unknown_names():
    names = [a.name for a in _registry.all_algorithms()]
    assert names == list(_registry.ALGORITHM_MODULES) and len(set(names)) == len(names)
    with pytest.raises(
        dyng.InvalidArgumentError, match=re.escape(", ".join(_registry.ALGORITHM_MODULES))
    ):
        _registry.find("betweenness")


@pytest.mark.parametrize("name", _registry.ALGORITHM_MODULES)
def test_an_algorithm_with_a_cli_module_is_a_cli_command(name):
    """The command line keeps 0.2's commands (not every algorithm has one); a command module
    written for a registered algorithm is wired in."""
    from dyng import cli

    has_module = importlib.util.find_spec(f"dyng.cli.{name}") is not None
    assert has_module == (name in cli.COMMANDS)


@pytest.mark.parametrize("plumbing", ["_update.py", "_result.py", "_registry.py"])
def test_shared_plumbing_imports_no_algorithm(plumbing):
    tree = ast.parse((PACKAGE / plumbing).read_text())
    imported = set()
    for node in tree.body:  # module level: what runs at import time
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
            imported.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
    algorithms = {f"dyng.{name}" for name in _registry.ALGORITHM_MODULES}
    assert not imported & algorithms, f"{plumbing} imports {sorted(imported & algorithms)}"

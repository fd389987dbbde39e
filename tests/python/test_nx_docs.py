"""The examples of docs/networkx.md and of dyng.nx's docstrings run and print what they show."""

import doctest
import importlib
from pathlib import Path

import pytest

nx = pytest.importorskip("networkx")

if "dyng" not in nx.utils.backends.backends:
    pytest.skip("dyng's networkx.backends entry point is not installed; reinstall dyng "
                "(pip install .) so that NetworkX finds the backend", allow_module_level=True)

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "networkx.md"


def test_the_user_guide_examples_run():
    outcome = doctest.testfile(str(GUIDE), module_relative=False, globs={"nx": nx},
                               optionflags=doctest.ELLIPSIS)
    assert outcome.attempted >= 10 and outcome.failed == 0


@pytest.mark.parametrize("module", ["dyng.nx", "dyng.nx._info", "dyng.nx._labels",
                                    "dyng.nx._snapshot", "dyng.nx._orders",
                                    "dyng.nx._graph_types"])
def test_docstring_examples_run(module):
    outcome = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert outcome.attempted > 0, f"{module} has no examples"
    assert outcome.failed == 0

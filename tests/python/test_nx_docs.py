"""The examples of dyng.nx's docstrings run and print what they show (docs/networkx.md's run in
test_doc_blocks.py, with every other page's blocks)."""

import doctest
import importlib

import pytest

nx = pytest.importorskip("networkx")

if "dyng" not in nx.utils.backends.backends:
    pytest.skip("dyng's networkx.backends entry point is not installed; reinstall dyng "
                "(pip install .) so that NetworkX finds the backend", allow_module_level=True)


@pytest.mark.parametrize("module", ["dyng.nx", "dyng.nx._info", "dyng.nx._labels",
                                    "dyng.nx._snapshot", "dyng.nx._orders",
                                    "dyng.nx._graph_types"])
def test_docstring_examples_run(module):
    outcome = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert outcome.attempted > 0, f"{module} has no examples"
    assert outcome.failed == 0

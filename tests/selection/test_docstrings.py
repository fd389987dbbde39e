"""The examples in the selection modules' docstrings run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("module", ["dyng._backend", "dyng._plugins", "dyng._config"])
def test_docstring_examples_run(module):
    outcome = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert outcome.attempted > 0, f"{module} has no examples"
    assert outcome.failed == 0

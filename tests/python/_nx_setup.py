"""What every test of the NetworkX backend starts with: NetworkX itself (the tests skip where
it is not installed), dyng's backend registered with it, and no conversion cache between calls.

A test module does ``from _nx_setup import convert_every_call, nx``.
"""

import pytest

nx = pytest.importorskip("networkx")

if "dyng" not in nx.utils.backends.backends:
    # ci/nx_suite.sh fails outright in that case, so CI cannot pass with these tests skipped.
    pytest.skip(
        "dyng's networkx.backends entry point is not installed; reinstall dyng "
        "(pip install .) so that NetworkX finds the backend",
        allow_module_level=True,
    )


@pytest.fixture(autouse=True)
def convert_every_call():
    """Every call converts afresh, as after a mutation (NetworkX's conversion cache would also
    warn on each reuse)."""
    cached = nx.config.cache_converted_graphs
    nx.config.cache_converted_graphs = False
    yield
    nx.config.cache_converted_graphs = cached

"""README's feature table is the registry's (dyng._registry.feature_table()), so it says what
the code does: a new algorithm appears by itself, and a "yes" on a host backend is checked here by
running that algorithm there (the CUDA column is checked by the gpu suites on a GPU)."""

import pathlib
import re

import pytest

import dyng
from dyng import _registry
from dyng._result import SingleSourceResult

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"
BEGIN = "<!-- feature table:"
END = "<!-- end of feature table -->"


def readme_table():
    text = README.read_text()
    assert BEGIN in text and END in text, "README.md lost the feature table's markers"
    block = text[text.index(BEGIN) : text.index(END)]
    return "\n".join(block.splitlines()[1:]).strip()


def test_readme_table_is_the_registrys():
    assert readme_table() == _registry.feature_table(), (
        "README.md's feature table differs from dyng._registry.feature_table(); paste its output "
        "between the markers"
    )


def test_every_registered_algorithm_has_a_row():
    table = readme_table()
    for algorithm in _registry.all_algorithms():
        assert re.search(rf"^\| `{algorithm.name}`:", table, re.M), algorithm.name
    for name in _registry.PLANNED:
        assert name not in _registry.ALGORITHM_MODULES
        assert not hasattr(dyng, name), f"dyng.{name} exists but the table calls it planned"


@pytest.mark.parametrize("backend", ["sequential", "openmp"])
@pytest.mark.parametrize("name", _registry.ALGORITHM_MODULES)
def test_host_yes_means_it_runs_there(name, backend):
    algorithm = _registry.find(name)
    assert backend in algorithm.backends
    # Undirected, sorted and simple: a graph every algorithm takes (the whole-graph counts may
    # refuse a directed one).
    g = dyng.Graph.from_edges([0, 1, 2], [1, 2, 0], [1, 2, 3], directed=False)
    module = algorithm.module()
    # Single-source algorithms take the source; whole-graph ones (cycle_count) take none.
    sourced = issubclass(module.Result, SingleSourceResult)
    result = module.compute(g, *((0,) if sourced else ()), resources=backend)
    stats = module.update(g, dyng.EdgeBatch(delete=([1], [2])), result)
    # Both stored directions of the undirected edge.
    assert stats.batch.deleted_edges == 2 and result.graph_version == 1

"""dyng.algorithms(), dyng.citation() and dyng.citation_keys(): the values 0.2 reports (spec
section 8), read from the registry so that a new algorithm appears by itself."""

import dataclasses
import re

import pytest

import dyng
from dyng import _registry

EXPECTED = {
    # name: (family, maturity, determinism, cite)
    "sssp": ("fixed_point", "stable", "bitwise", ("dynamosp2025", "dynamosptpds2025")),
    "cycle_count": ("aggregate_delta", "stable", "exact_value", ("trucy2026",)),
    "mosp": ("fixed_point", "stable", "bitwise", ("dynamosp2025", "dynamosptpds2025")),
    "dynamic_bfs": ("fixed_point", "tutorial", "exact_value", ()),
    "triangle_delta": ("aggregate_delta", "tutorial", "exact_value", ()),
    "components": ("fixed_point", "stable", "bitwise", ()),
    "pagerank": ("fixed_point", "stable", "tolerance", ()),
}
#: Algorithms whose CUDA backend has not landed yet (the README's table says "planned").
HOST_ONLY = set()


def test_algorithms_lists_every_registered_module_in_order():
    names = [a.name for a in dyng.algorithms()]
    assert names == list(_registry.ALGORITHM_MODULES)
    assert set(EXPECTED) == set(names)


@pytest.mark.parametrize("name", _registry.ALGORITHM_MODULES)
def test_algorithm_info_values(name):
    info = {a.name: a for a in dyng.algorithms()}[name]
    assert isinstance(info, dyng.AlgorithmInfo)
    assert name in EXPECTED, f"EXPECTED has no values for the registered algorithm {name}"
    family, maturity, determinism, cite = EXPECTED[name]
    assert (info.family, info.maturity, info.determinism, info.cite) == (
        family,
        maturity,
        determinism,
        cite,
    )
    assert info.container == "graph" and info.oracle == "compute"
    host = ("sequential", "openmp")
    assert info.backends == (host if name in HOST_ONLY else host + ("cuda",))
    assert info.title and isinstance(info.title, str)
    # The module named is the one that runs.
    assert hasattr(getattr(dyng, name), "compute")


def test_algorithm_info_fields_and_immutability():
    fields = [f.name for f in dataclasses.fields(dyng.AlgorithmInfo)]
    assert fields == [
        "name",
        "title",
        "family",
        "container",
        "maturity",
        "determinism",
        "oracle",
        "backends",
        "cite",
    ]
    info = dyng.algorithms()[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        info.name = "x"


@pytest.mark.parametrize(
    "what, keys",
    [
        ("dyng", ["dyng2027"]),
        ("sssp", ["dyng2027", "dynamosp2025", "dynamosptpds2025"]),
        ("mosp", ["dyng2027", "dynamosp2025", "dynamosptpds2025"]),
        ("cycle_count", ["dyng2027", "trucy2026"]),
        ("dynamic_bfs", ["dyng2027"]),
        ("triangle_delta", ["dyng2027"]),
        ("components", ["dyng2027"]),
        ("pagerank", ["dyng2027"]),
        ("triad_count", ["dyng2027", "escher2026", "escherplus2026"]),
        ("hypergraph", ["dyng2027", "escher2026", "escherplus2026"]),
        ("label_propagation", ["dyng2027", "dynlp2026"]),
        ("hyper_sssp", ["dyng2027", "hsosp2026"]),
    ],
)
def test_citation_keys(what, keys):
    assert dyng.citation_keys(what) == keys
    text = dyng.citation(what)
    assert re.findall(r"^@\w+\{([^,]+),$", text, flags=re.M) == keys


def test_citation_defaults_to_the_library():
    assert dyng.citation_keys() == ["dyng2027"]
    assert dyng.citation() == dyng.citation("dyng")


def test_bibtex_entries_are_well_formed():
    text = dyng.citation("sssp")
    entries = text.strip().split("\n\n")
    assert len(entries) == 3
    for entry in entries:
        lines = entry.splitlines()
        assert re.fullmatch(r"@(software|inproceedings|article|unpublished)\{\w+,", lines[0])
        assert lines[-1] == "}"
        for line in lines[1:-2]:
            assert re.fullmatch(r"  \w+ += \{.*\},", line), line
        assert re.fullmatch(r"  \w+ += \{.*\}", lines[-2])
        # Braces balance inside every entry.
        assert entry.count("{") == entry.count("}")
    assert "{DynaMOSP}" in text and "932--944" in text
    assert text.endswith("}\n")


@pytest.mark.parametrize("fn", [dyng.citation, dyng.citation_keys])
def test_unknown_names_list_the_known_ones(fn):
    with pytest.raises(dyng.InvalidArgumentError) as err:
        fn("SSSP")
    message = str(err.value)
    assert "'SSSP'" in message and fn.__name__ + "()" in message
    for known in ("dyng", "sssp", "mosp", "cycle_count", "triad_count", "hyper_sssp"):
        assert known in message


@pytest.mark.parametrize("fn", [dyng.citation, dyng.citation_keys])
def test_non_string_names_are_type_errors(fn):
    with pytest.raises(TypeError):
        fn(3)


def test_a_new_algorithm_appears_by_itself(monkeypatch):
    # A registry record with a paper of its own is listed and cited without touching the
    # citation module.
    fake = _registry.Algorithm(
        name="fake_algo",
        title="A fake",
        family="fixed_point",
        maturity="tutorial",
        determinism="exact_value",
        cite=("trucy2026",),
    )
    real = _registry.all_algorithms
    monkeypatch.setattr(_registry, "all_algorithms", lambda: real() + (fake,))
    assert [a.name for a in dyng.algorithms()][-1] == "fake_algo"
    assert dyng.citation_keys("fake_algo") == ["dyng2027", "trucy2026"]

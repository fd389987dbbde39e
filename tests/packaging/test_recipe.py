"""recipe/recipe.yaml and recipe/variants.yaml: the format (schema) and conda-forge's conventions.

What each test holds the recipe to is written in docs/developer/conda.md with its source.
"""

from __future__ import annotations

import fnmatch
import tomllib

import pytest
from conda_files import (
    MAJORS,
    ROOT,
    jinja,
    load_yaml,
    output,
    pinned_release,
    pins,
    recipe,
    schema,
    variants,
)

jsonschema = pytest.importorskip(
    "jsonschema", reason="jsonschema validates the recipe (ci/requirements-dev.txt installs it)"
)

CUDA_VARIANTS = [pinned_release(major) for major in MAJORS]
ALL_VARIANTS = [None, *CUDA_VARIANTS]
OUTPUTS = ["libdyng", "dyng"]

# A variant configuration (rattler-build's variants.yaml): every key maps to a list of values,
# except zip_keys (a list of key lists) and pin_run_as_build (a mapping). No schema for it is
# published beside the recipe schema, so the format from rattler-build's documentation is
# written down here.
VARIANTS_SCHEMA = {
    "type": "object",
    "properties": {
        "zip_keys": {
            "type": "array",
            "items": {"type": "array", "minItems": 2, "items": {"type": "string"}},
        },
        "pin_run_as_build": {"type": "object"},
    },
    "additionalProperties": {
        "type": "array",
        "minItems": 1,
        "items": {"type": ["string", "number", "boolean"]},
    },
}


def test_recipe_matches_the_recipe_format_schema():
    spec = schema("recipe-v1.schema.json")
    validator = jsonschema.validators.validator_for(spec, default=jsonschema.Draft202012Validator)
    errors = sorted(validator(spec).iter_errors(recipe()), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])


def test_recipe_is_format_v1_with_the_two_outputs():
    doc = recipe()
    assert doc["schema_version"] == 1
    assert [o["package"]["name"] for o in doc["outputs"]] == OUTPUTS


def test_variants_file_has_the_variant_config_shape_and_equal_zips():
    doc = variants()
    jsonschema.validate(doc, VARIANTS_SCHEMA)
    for group in doc["zip_keys"]:
        lengths = {key: len(doc[key]) for key in group}
        assert len(set(lengths.values())) == 1, f"zipped keys differ in length: {lengths}"


def test_variants_are_cpu_and_the_pinned_release_of_each_major():
    doc = variants()
    assert [str(v) for v in doc["cuda_compiler_version"]] == ["None", *CUDA_VARIANTS]
    assert {str(v) for v in doc["c_stdlib_version"]} == {pins.GLIBC}
    assert doc["c_stdlib"] == ["sysroot"] and doc["cuda_compiler"] == ["cuda-nvcc"]


def test_recipe_version_is_the_version_file():
    version = (ROOT / "VERSION").read_text().split()[0]
    assert str(recipe()["context"]["version"]) == version


@pytest.mark.parametrize("name", OUTPUTS)
@pytest.mark.parametrize("cuda", ALL_VARIANTS)
def test_compilers_and_stdlib_come_from_the_variant(name, cuda):
    build = [jinja(r) for r in output(name, cuda)["requirements"]["build"]]
    for needed in ('${{compiler("c")}}', '${{compiler("cxx")}}', '${{stdlib("c")}}'):
        assert needed in build, f"{name} ({cuda}): {needed} missing from build requirements"
    # conda-smithy lints a sysroot named directly: stdlib("c") with c_stdlib_version replaces it.
    assert not any(r.startswith("sysroot") for r in build)
    assert ('${{compiler("cuda")}}' in build) == (cuda is not None)


@pytest.mark.parametrize("name", OUTPUTS)
@pytest.mark.parametrize("cuda", CUDA_VARIANTS)
def test_cuda_variant_pins_cuda_version_and_links_the_static_runtime(name, cuda):
    requirements = output(name, cuda)["requirements"]
    host = [jinja(r) for r in requirements["host"]]
    assert "cuda-version${{cuda_compiler_version}}" in host
    assert "cuda-cudart-static" in host
    # The shared runtime's run export is dropped: nothing loads libcudart.so.
    assert "cuda-cudart" in requirements["ignore_run_exports"]["by_name"]
    # NVTX3's headers are there to compile with; the NVTX library they run-export is not linked.
    assert "cuda-nvtx-dev" in host
    assert "cuda-nvtx" in requirements["ignore_run_exports"]["by_name"]
    assert not any(
        r.startswith("cuda-cudart") and r != "cuda-cudart-static" and r != "cuda-cudart-dev"
        for r in host
    )


@pytest.mark.parametrize("name", OUTPUTS)
def test_cpu_variant_has_no_cuda_package(name):
    requirements = output(name, None)["requirements"]
    everything = [jinja(r) for part in ("build", "host", "run") for r in requirements.get(part, [])]
    assert not [r for r in everything if "cuda" in r.lower()]


def test_openmp_comes_from_the_toolchain():
    # The module links libgomp; the static libdyng passes the need on to its consumers.
    assert "libgomp" in output("dyng", None)["requirements"]["host"]
    assert "libgomp" in output("libdyng", None)["requirements"]["run"]


def test_the_driver_library_may_be_missing_only_in_cuda_variants():
    def allowlist(cuda):
        linking = output("dyng", cuda)["build"].get("dynamic_linking", {})
        return linking.get("missing_dso_allowlist", [])

    driver = "/usr/lib/x86_64-linux-gnu/libcuda.so.1"
    for cuda in CUDA_VARIANTS:
        assert any(fnmatch.fnmatch(driver, pattern) for pattern in allowlist(cuda))
    assert not allowlist(None)


def test_cuda_dyng_requires_a_driver_of_its_major():
    for major, cuda in zip(MAJORS, CUDA_VARIANTS):
        run = [jinja(r) for r in output("dyng", cuda)["requirements"]["run"]]
        assert "__cuda>=${{cuda_major}}" in run
        assert str(major) == cuda.split(".")[0]
    assert not [r for r in output("dyng", None)["requirements"]["run"] if "__cuda" in r]


def test_dyng_skips_the_pythons_pyproject_refuses():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    floor = pyproject["project"]["requires-python"].removeprefix(">=")
    assert f'match(python, "<{floor}")' in output("dyng", None)["build"]["skip"]


@pytest.mark.parametrize("name", OUTPUTS)
def test_outputs_are_linux_64_with_variant_build_strings(name):
    build = output(name, None)["build"]
    assert 'target_platform != "linux-64"' in build["skip"]
    assert build["string"].startswith("${{ variant_tag }}_") and build["number"] == "${{ number }}"
    context = recipe()["context"]
    assert "+ 200 if cuda_compiler_version" in context["number"]
    assert '"cpu"' in context["variant_tag"] and '"cuda"' in context["variant_tag"]


@pytest.mark.parametrize("cuda", ALL_VARIANTS)
def test_licence_files_exist(cuda):
    about = [recipe()["about"]] + [output(name, cuda).get("about", {}) for name in OUTPUTS]
    from conda_files import select, variant

    for section in about:
        for path in select(section.get("license_file", []), variant(cuda)):
            assert (ROOT / path).is_file(), f"about.license_file names {path}, which is missing"


def test_build_scripts_exist():
    for name in OUTPUTS:
        script = output(name, None)["build"]["script"]["file"]
        assert (ROOT / "recipe" / script).is_file()


def test_libdyng_is_tested_as_a_cmake_package_by_the_project_consumer():
    tests = output("libdyng", None)["tests"]
    contents = next(t["package_contents"] for t in tests if "package_contents" in t)
    assert "lib/libdyng.a" in contents["files"]
    assert "lib/cmake/dyng/dyngConfig.cmake" in contents["files"]
    for header in contents["include"]:
        assert (ROOT / "src" / header).is_file(), f"{header} is not a libdyng header"
    script = next(t for t in tests if "script" in t)
    consumer = script["files"]["source"][0]
    assert (ROOT / consumer / "CMakeLists.txt").is_file()
    assert any(consumer.rstrip("/") in line and "cmake -S" in line for line in script["script"])


@pytest.mark.parametrize("cuda", ALL_VARIANTS)
def test_dyng_tests_import_show_config_and_run_a_pytest_subset(cuda):
    tests = output("dyng", cuda)["tests"]
    imports = next(t["python"]["imports"] for t in tests if "python" in t)
    assert "dyng" in imports
    if cuda is not None:
        assert "dyng_cu${{ cuda_major }}" in imports
    script = next(t for t in tests if "script" in t)
    lines = " ".join(script["script"])
    assert "show_config()" in lines and "pytest" in lines
    for word in lines.split():
        if word.startswith("tests/"):
            assert (ROOT / word).exists(), f"the recipe's pytest subset names missing {word}"
    assert {"pytest >=8"} <= set(script["requirements"]["run"])


def test_source_is_the_checkout_beside_the_recipe():
    assert recipe()["source"] == {"path": ".."}
    assert (ROOT / "recipe" / ".." / "pyproject.toml").is_file()


def test_conda_forge_yml_builds_with_rattler_build_on_a_glibc_2_28_image():
    forge = load_yaml(ROOT / "recipe" / "conda-forge.yml")
    assert forge["conda_build_tool"] == "rattler-build"
    # conda-forge's knowledge base: a c_stdlib_version of 2.28 goes with the alma8 image.
    assert forge["os_version"]["linux_64"] == "alma8"


def _licence_expression(text: str, cuda: str | None) -> str:
    """Evaluates the recipe's `${{ "A" if cuda_compiler_version != "None" else "B" }}`."""
    import re

    ternary = r'\$\{\{\s*"([^"]+)" if cuda_compiler_version != "None" else "([^"]+)"\s*\}\}'
    match = re.fullmatch(ternary, text.strip())
    if not match:
        return text
    return match[1] if cuda is not None else match[2]


@pytest.mark.parametrize("cuda", ALL_VARIANTS)
def test_licence_terms_are_those_of_the_wheels_that_hold_the_same_code(cuda):
    """Every term the conda packages name is one the wheel driver's expression names: the conda
    packages bundle less (libstdc++ and libgomp stay separate packages), never something else."""
    from wheelbuild import licences

    wheel = licences.PLUGIN_LICENSE_EXPRESSION if cuda else licences.CPU_LICENSE_EXPRESSION
    wheel_terms = set(wheel.split(" AND "))
    for section in [recipe()["about"], output("libdyng", cuda)["about"]]:
        terms = set(_licence_expression(section["license"], cuda).split(" AND "))
        assert terms <= wheel_terms, f"terms not in the wheels' expression: {terms - wheel_terms}"
        assert ("LicenseRef-NVIDIA-End-User-License-Agreement" in terms) == (cuda is not None)

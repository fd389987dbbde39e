"""recipe/stage_for_conda_forge.py: the recipe in the form staged-recipes takes (issue 46).

The staged recipe must still be a valid format-v1 recipe, take the released sdist from PyPI with
the digest of the file given, name its maintainers and the feedstock, keep only the glibc floor
of the variants, and carry conda-forge.yml and the build scripts beside it.
"""

from __future__ import annotations

import hashlib
import sys

import pytest
from conda_files import ROOT, load_yaml, recipe, schema

jsonschema = pytest.importorskip(
    "jsonschema", reason="jsonschema validates the recipe (ci/requirements-dev.txt installs it)"
)
sys.path.insert(0, str(ROOT / "recipe"))

import stage_for_conda_forge  # noqa: E402

VERSION = str(recipe()["context"]["version"])


@pytest.fixture
def sdist(tmp_path):
    path = tmp_path / f"dyng-{VERSION}.tar.gz"
    path.write_bytes(b"stands in for the published sdist")
    return path


def test_the_staged_recipe_matches_the_recipe_format_schema(sdist, tmp_path):
    out = stage_for_conda_forge.stage(sdist, ["alice"], tmp_path / "dyng")
    spec = schema("recipe-v1.schema.json")
    validator = jsonschema.validators.validator_for(spec, default=jsonschema.Draft202012Validator)
    assert not list(validator(spec).iter_errors(load_yaml(out / "recipe.yaml")))


def test_the_staged_folder_is_what_staged_recipes_takes(sdist, tmp_path):
    out = stage_for_conda_forge.stage(sdist, ["alice", "bob-2"], tmp_path / "dyng")
    staged = load_yaml(out / "recipe.yaml")
    assert staged["source"] == {
        "url": stage_for_conda_forge.PYPI_SDIST,
        "sha256": hashlib.sha256(sdist.read_bytes()).hexdigest(),
    }
    assert staged["extra"] == {"feedstock-name": "dyng", "recipe-maintainers": ["alice", "bob-2"]}
    # Everything but the source and the maintainers is the recipe as it is tested here.
    original = recipe()
    for key in ("context", "recipe", "build", "outputs", "about"):
        assert staged[key] == original[key], key
    assert load_yaml(out / "variants.yaml") == {"c_stdlib_version": ["2.28"]}
    for name in stage_for_conda_forge.COPIED:
        assert (out / name).read_bytes() == (ROOT / "recipe" / name).read_bytes()


def test_another_version_or_no_maintainer_is_refused(sdist, tmp_path):
    other = tmp_path / "dyng-0.0.1.tar.gz"
    other.write_bytes(b"x")
    with pytest.raises(ValueError, match="not the sdist of the recipe's version"):
        stage_for_conda_forge.stage(other, ["alice"], tmp_path / "a")
    with pytest.raises(ValueError, match="at least one"):
        stage_for_conda_forge.stage(sdist, [], tmp_path / "b")
    with pytest.raises(ValueError, match="GitHub handles"):
        stage_for_conda_forge.stage(sdist, ["not a handle"], tmp_path / "c")


def test_the_command_line_prints_the_folder(sdist, tmp_path, capsys):
    out = tmp_path / "staged"
    assert (
        stage_for_conda_forge.main(
            ["--sdist", str(sdist), "--maintainer", "alice", "--out", str(out)]
        )
        == 0
    )
    assert capsys.readouterr().out.strip() == str(out)
    assert stage_for_conda_forge.main(["--sdist", str(sdist), "--out", str(out)]) == 1

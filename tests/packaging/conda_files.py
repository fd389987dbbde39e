"""Readers shared by the conda packaging tests: the recipe, the variants, pixi.toml, env files.

The recipe is rendered just enough for the tests: `if:` items are evaluated for one variant,
`${{ ... }}` strings are kept as text. rattler-build itself cannot run here (conda-forge is not
reachable), so this is what checks the recipe's logic.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

import pytest

yaml = pytest.importorskip(
    "yaml", reason="PyYAML is needed to read the conda files (ci/requirements-dev.txt installs it)"
)

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT.parent / "shared" / "schemas"
sys.path.insert(0, str(ROOT / "ci"))

from wheelbuild import pins  # noqa: E402

MAJORS = sorted(pins.CUDA_VERSIONS)


def major_minor(version: str) -> str:
    match = re.match(r"^(\d+\.\d+)", version)
    assert match, f"no major.minor in {version!r}"
    return match[1]


def pinned_release(major: int) -> str:
    """The pinned CUDA release of a major as conda spells cuda-version: "12.9", "13.5"."""
    return major_minor(pins.cuda_version_for(major))


def load_yaml(path: Path):
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def recipe() -> dict:
    return load_yaml(ROOT / "recipe" / "recipe.yaml")


def variants() -> dict:
    return load_yaml(ROOT / "recipe" / "variants.yaml")


def pixi() -> dict:
    return tomllib.loads((ROOT / "pixi.toml").read_text(encoding="utf-8"))


def env_file(name: str) -> dict:
    return load_yaml(ROOT / "ci" / name)


def env_specs(name: str) -> dict[str, str]:
    """A conda environment file's dependencies as {package: version spec}."""
    specs = {}
    for entry in env_file(name)["dependencies"]:
        package, _, spec = str(entry).partition(" ")
        specs[package] = spec.strip() or "*"
    return specs


def schema(name: str) -> dict:
    import json

    path = SCHEMAS / name
    if not path.is_file():
        pytest.skip(f"{path} is absent: the schemas live in ../shared/schemas beside the checkout")
    return json.loads(path.read_text(encoding="utf-8"))


def variant(cuda: str | None) -> dict[str, str]:
    """The variables a condition in the recipe can read, for one variant."""
    return {
        "cuda_compiler_version": cuda or "None",
        "target_platform": "linux-64",
        "python": "3.12",
    }


def _condition(expression: str, values: dict[str, str]) -> bool:
    def match(version: str, spec: str) -> bool:
        op, bound = re.match(r"([<>=!]+)\s*([\d.]+)", spec).groups()
        as_tuple = lambda v: tuple(int(x) for x in v.split("."))  # noqa: E731
        return eval(f"{as_tuple(version)!r} {op} {as_tuple(bound)!r}")  # noqa: S307

    return bool(eval(expression, {"__builtins__": {}}, {**values, "match": match}))  # noqa: S307


def select(node, values: dict[str, str]):
    """``node`` with every ``if/then/else`` item resolved for ``values`` and lists flattened."""
    if isinstance(node, list):
        out = []
        for item in node:
            if isinstance(item, dict) and "if" in item and "then" in item:
                chosen = item["then"] if _condition(item["if"], values) else item.get("else")
                if chosen is None:
                    continue
                chosen = select(chosen, values)
                out.extend(chosen if isinstance(chosen, list) else [chosen])
            else:
                out.append(select(item, values))
        return out
    if isinstance(node, dict):
        return {key: select(value, values) for key, value in node.items()}
    return node


def output(name: str, cuda: str | None) -> dict:
    found = [o for o in recipe()["outputs"] if o["package"]["name"] == name]
    assert len(found) == 1, f"recipe.yaml must have exactly one output named {name}"
    return select(found[0], variant(cuda))


def jinja(text: str) -> str:
    """A recipe string with quotes and spaces normalised, for comparing Jinja calls."""
    return re.sub(r"\s+", "", str(text)).replace("'", '"')

"""Writes this recipe in the form conda-forge's staged-recipes takes (docs/developer/conda.md).

    python recipe/stage_for_conda_forge.py --sdist dist/dyng-X.Y.Z.tar.gz --maintainer HANDLE
        [--maintainer HANDLE ...] [--out build/staged-recipes/dyng]

The folder it writes becomes ``recipes/dyng/`` of a pull request on conda-forge/staged-recipes:

- ``recipe.yaml``: this recipe with the released sdist on PyPI as its source (the URL of
  ``dyng-<version>.tar.gz`` and the sha256 of the file given, which must be the published one)
  instead of the checkout, and the maintainers' GitHub handles under
  ``extra.recipe-maintainers``;
- ``variants.yaml``: only ``c_stdlib_version`` (glibc 2.28, the wheels' floor); conda-forge's
  global pinning gives the compilers, the CUDA releases and the Pythons;
- ``conda-forge.yml``, the build scripts and ``render_plugin.py``, unchanged.

The sdist's version must be the recipe's ``context.version`` (which a test holds to VERSION), so
run it from the checkout of the release tag.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import shutil
import sys
from pathlib import Path

import yaml

RECIPE = Path(__file__).resolve().parent
ROOT = RECIPE.parent
COPIED = ("conda-forge.yml", "build_libdyng.sh", "build_dyng.sh", "render_plugin.py")
PYPI_SDIST = "https://pypi.org/packages/source/d/dyng/dyng-${{ version }}.tar.gz"
# The recipe's source block: the key, then every indented line under it.
SOURCE_BLOCK = re.compile(r"^source:\n(?:[ #].*\n|\n)*?(?=^\S)", re.M)
HANDLE = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$")


def recipe_version(text: str) -> str:
    return str(yaml.safe_load(text)["context"]["version"])


def staged_recipe(text: str, sha256: str, maintainers: list[str]) -> str:
    """The recipe's text with the PyPI sdist as source and the maintainers under extra."""
    source = (
        f"source:\n  # The release's sdist on PyPI, the archive every wheel was built from.\n"
        f"  url: {PYPI_SDIST}\n  sha256: {sha256}\n\n"
    )
    staged, found = SOURCE_BLOCK.subn(source, text, count=1)
    if found != 1:
        raise ValueError("recipe.yaml has no top-level source: block to replace")
    listed = "".join(f"    - {handle}\n" for handle in maintainers)
    staged, found = re.subn(
        r"^extra:\n", f"extra:\n  recipe-maintainers:\n{listed}", staged, count=1, flags=re.M
    )
    if found != 1:
        raise ValueError("recipe.yaml has no top-level extra: section")
    return staged


def staged_variants(variants: dict) -> str:
    """variants.yaml reduced to the glibc floor, the one key the global pinning gets wrong."""
    floors = sorted({str(v) for v in variants["c_stdlib_version"]})
    if len(floors) != 1:
        raise ValueError(f"recipe/variants.yaml names several glibc floors: {floors}")
    return (
        "# conda-forge's global pinning gives the compilers, the CUDA releases and the "
        "Pythons.\n# dyng builds for glibc 2.28, like its manylinux_2_28 wheels. On the "
        "feedstock, repeat the\n# value once per CUDA variant of the pinning if conda-smithy "
        "asks for equal zips.\n"
        f'c_stdlib_version:\n  - "{floors[0]}"\n'
    )


def stage(sdist: Path, maintainers: list[str], out: Path) -> Path:
    """Writes the staged folder; raises ValueError naming what is wrong with the inputs."""
    text = (RECIPE / "recipe.yaml").read_text()
    version = recipe_version(text)
    if sdist.name != f"dyng-{version}.tar.gz":
        raise ValueError(
            f"{sdist.name} is not the sdist of the recipe's version {version}; pass "
            f"dyng-{version}.tar.gz as published on PyPI"
        )
    bad = [h for h in maintainers if not HANDLE.match(h)]
    if not maintainers or bad:
        raise ValueError(
            f"recipe-maintainers must be GitHub handles, at least one (got "
            f"{maintainers or 'none'}); pass --maintainer HANDLE"
        )
    sha256 = hashlib.sha256(sdist.read_bytes()).hexdigest()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    (out / "recipe.yaml").write_text(staged_recipe(text, sha256, maintainers))
    variants = yaml.safe_load((RECIPE / "variants.yaml").read_text())
    (out / "variants.yaml").write_text(staged_variants(variants))
    for name in COPIED:
        shutil.copy2(RECIPE / name, out / name)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sdist", type=Path, required=True, help="the published core sdist")
    parser.add_argument(
        "--maintainer",
        action="append",
        default=[],
        dest="maintainers",
        help="a GitHub handle for extra.recipe-maintainers (repeatable)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=ROOT / "build" / "staged-recipes" / "dyng",
        help="the folder to write (default build/staged-recipes/dyng)",
    )
    args = parser.parse_args(argv)
    try:
        out = stage(args.sdist, args.maintainers, args.out)
    except ValueError as error:
        print(f"stage_for_conda_forge.py: {error}", file=sys.stderr)
        return 1
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

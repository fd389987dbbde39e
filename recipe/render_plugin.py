"""Prepares the dyng_cu<N> plugin's source tree inside a conda build (recipe/build_dyng.sh).

The tree is rendered by the wheel driver's own code (ci/wheelbuild/render.py), so the conda
package's plugin is the same distribution as the dyng-cu<N> wheel: same pyproject, same entry
point, same CMake defines. NVIDIA's EULA, which the plugin's licence files must include, is taken
from the host environment's cuda-cudart-static package by the conda provider's lookup.

Usage: python recipe/render_plugin.py <source checkout> <tree to write> <cu12|cu13> <host prefix>
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path


def main(source: Path, tree: Path, plugin: str, host_prefix: Path) -> None:
    sys.path.insert(0, str(source / "ci"))
    from wheelbuild.providers.conda import find_eula, read_records
    from wheelbuild.render import render_plugin_tree

    if tree.exists():
        shutil.rmtree(tree)
    # A fresh copy: rendering rewrites pyproject.toml, which must stay the CPU package's in the
    # checkout that recipe/build_dyng.sh installs dyng from.
    skipped = shutil.ignore_patterns("build", "build-*", ".git", ".venv*", "__pycache__")
    shutil.copytree(source, tree, symlinks=True, ignore=skipped)
    eula = find_eula(read_records(host_prefix))
    pyproject = render_plugin_tree(tree, plugin, eula=eula)
    print(f"[dyng] rendered {pyproject} (EULA from {eula})", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__.strip().splitlines()[-1])
    main(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], Path(sys.argv[4]))

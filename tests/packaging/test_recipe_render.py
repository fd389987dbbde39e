"""recipe/render_plugin.py: the plugin tree a CUDA conda build installs dyng_cu<N> from.

Runs the script as recipe/build_dyng.sh does, on a small copy of the sources and a host prefix
written by the test (cuda-cudart-static's record pointing at a package cache with its licence).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib

import pytest
from conda_files import ROOT

# Long enough to pass the driver's plausibility check on the EULA (licences.copy_eula).
EULA = (
    "End User License Agreement\nNVIDIA Software License Agreement and CUDA Supplement to "
    "Software License Agreement (stand-in written by this test).\n"
) + "Terms.\n" * 200
SOURCES = [
    "pyproject.toml",
    "VERSION",
    "LICENSE",
    "README.md",
    "THIRD_PARTY_LICENSES.txt",
    "THIRD_PARTY_LICENSES_CUDA.txt",
    "ci",
    "python/plugin",
]


def copy_sources(target):
    for name in SOURCES:
        source = ROOT / name
        if not source.exists():
            pytest.skip(f"{name} is not in this checkout yet")
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target / name)


def host_prefix(tmp_path, licence: str | None):
    prefix, package = tmp_path / "host", tmp_path / "pkgs" / "cuda-cudart-static-13.5.37-h0_0"
    (prefix / "conda-meta").mkdir(parents=True)
    if licence is not None:
        (package / "info" / "licenses").mkdir(parents=True)
        (package / "info" / "licenses" / "LICENSE").write_text(licence)
    record = {
        "name": "cuda-cudart-static",
        "version": "13.5.37",
        "build": "h0_0",
        "extracted_package_dir": str(package),
    }
    (prefix / "conda-meta" / "cuda-cudart-static-13.5.37-h0_0.json").write_text(json.dumps(record))
    return prefix


def render(tmp_path, licence):
    source, tree = tmp_path / "src", tmp_path / "src" / "build-conda" / "tree-cu13"
    source.mkdir()
    copy_sources(source)
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "recipe" / "render_plugin.py"),
            str(source),
            str(tree),
            "cu13",
            str(host_prefix(tmp_path, licence)),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return source, tree, result


def test_render_writes_the_plugin_tree_with_the_eula(tmp_path):
    source, tree, result = render(tmp_path, EULA)
    assert result.returncode == 0, result.stderr
    plugin = tomllib.loads((tree / "pyproject.toml").read_text())
    assert plugin["project"]["name"] == "dyng-cu13"
    assert plugin["project"]["entry-points"]["dyng.backends"] == {"cu13": "dyng_cu13"}
    assert (tree / "python" / "plugin" / "dyng_cu13" / "__init__.py").is_file()
    assert (tree / "NVIDIA_CUDA_EULA.txt").read_text() == EULA
    # The checkout keeps the CPU package's pyproject: dyng is installed from it first.
    assert tomllib.loads((source / "pyproject.toml").read_text())["project"]["name"] == "dyng"


def test_render_stops_without_the_eula(tmp_path):
    _, tree, result = render(tmp_path, None)
    assert result.returncode != 0
    assert "EULA was not found" in result.stderr
    # Nothing was rendered: a tree whose pyproject is still the CPU package's cannot build a plugin.
    if (tree / "pyproject.toml").is_file():
        assert tomllib.loads((tree / "pyproject.toml").read_text())["project"]["name"] == "dyng"

"""The plugin pyproject renderer (ADR 0030 item 1), as a function and on a small source tree."""

from __future__ import annotations

import shutil
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "ci"))

from wheelbuild import licences, render, toml_writer  # noqa: E402

CPU = tomllib.loads((ROOT / "pyproject.toml").read_text())
VERSION = "1.2.3"


@pytest.fixture(params=["cu12", "cu13"])
def plugin(request):
    return request.param


def test_plugin_project_table(plugin):
    doc = render.render_plugin_pyproject(CPU, plugin, VERSION)
    project = doc["project"]
    major = plugin[2:]
    assert project["name"] == f"dyng-{plugin}"
    assert project["dependencies"] == [f"dyng=={VERSION}"]
    assert project["dynamic"] == ["version"]
    assert "optional-dependencies" not in project and "scripts" not in project
    assert project["entry-points"] == {"dyng.backends": {plugin: f"dyng_{plugin}"}}
    assert project["readme"] == "python/plugin/README.md"
    assert project["description"] != CPU["project"]["description"]
    assert "Typing :: Typed" not in project["classifiers"]
    assert f"Environment :: GPU :: NVIDIA CUDA :: {major}" in project["classifiers"]
    # One source for everything a plugin shares with dyng.
    for key in ("authors", "requires-python", "keywords"):
        assert project[key] == CPU["project"][key]
    assert doc["build-system"] == CPU["build-system"]


def test_plugin_licence_extends_the_cpu_one(plugin):
    project = render.render_plugin_pyproject(CPU, plugin, VERSION)["project"]
    assert project["license"] == licences.PLUGIN_LICENSE_EXPRESSION
    assert project["license"].startswith(CPU["project"]["license"] + " AND ")
    assert licences.NVIDIA_EULA_ID in project["license"]
    assert project["license-files"] == [
        *CPU["project"]["license-files"],
        "THIRD_PARTY_LICENSES_CUDA.txt",
        "NVIDIA_CUDA_EULA.txt",
    ]


def test_cpu_licence_expression_is_the_checkers():
    assert CPU["project"]["license"] == licences.CPU_LICENSE_EXPRESSION


def test_plugin_build_settings(plugin):
    skbuild = render.render_plugin_pyproject(CPU, plugin, VERSION)["tool"]["scikit-build"]
    assert skbuild["wheel"]["packages"] == [f"python/plugin/dyng_{plugin}"]
    defines = skbuild["cmake"]["define"]
    for key, value in CPU["tool"]["scikit-build"]["cmake"]["define"].items():
        if key != "DYNG_ENABLE_OPENMP":
            assert defines[key] == value
    assert defines["DYNG_ENABLE_CUDA"] == "ON" and defines["DYNG_ENABLE_OPENMP"] == "ON"
    assert defines["DYNG_PYTHON_PLUGIN"] == plugin
    assert defines["CMAKE_CUDA_RUNTIME_LIBRARY"] == "Static"
    assert defines["DYNG_CUDA_ARCHITECTURES"] == "release"
    assert "optional-dependencies" not in skbuild.get("metadata", {})
    assert skbuild["metadata"]["version"] == CPU["tool"]["scikit-build"]["metadata"]["version"]


def test_shared_runtime_depends_on_nvidias_runtime_wheel():
    doc = render.render_plugin_pyproject(
        CPU, "cu13", VERSION, runtime="shared", cuda_version="13.5.0"
    )
    assert doc["project"]["dependencies"] == [f"dyng=={VERSION}", "nvidia-cuda-runtime>=13.5,<14"]
    defines = doc["tool"]["scikit-build"]["cmake"]["define"]
    assert defines["CMAKE_CUDA_RUNTIME_LIBRARY"] == "Shared"
    assert defines["DYNG_CUDA_RUNTIME_WHEEL"] == "ON"
    cu12 = render.render_plugin_pyproject(
        CPU, "cu12", VERSION, runtime="shared", cuda_version="12.9.79"
    )
    assert cu12["project"]["dependencies"][1] == "nvidia-cuda-runtime-cu12>=12.9,<13"


def test_rendering_leaves_the_input_alone():
    before = tomllib.loads((ROOT / "pyproject.toml").read_text())
    render.render_plugin_pyproject(CPU, "cu13", VERSION)
    assert CPU == before


@pytest.mark.parametrize("bad", ["cu", "cuda13", "13", "cu13x"])
def test_bad_plugin_names_are_refused(bad):
    with pytest.raises(ValueError, match="not a plugin name"):
        render.render_plugin_pyproject(CPU, bad, VERSION)


def test_written_toml_reads_back_identically(plugin):
    doc = render.render_plugin_pyproject(CPU, plugin, VERSION)
    assert tomllib.loads(toml_writer.dumps(doc, "header")) == doc


def _tree(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    (tree / "python" / "plugin").mkdir(parents=True)
    shutil.copytree(
        ROOT / "python" / "plugin" / "dyng_plugin", tree / "python" / "plugin" / "dyng_plugin"
    )
    for name in ("pyproject.toml", "VERSION", "THIRD_PARTY_LICENSES_CUDA.txt"):
        shutil.copy(ROOT / name, tree / name)
    return tree


def test_render_plugin_tree(tmp_path):
    tree = _tree(tmp_path)
    eula = tmp_path / "EULA.txt"
    eula.write_text("NVIDIA CUDA Toolkit End User License Agreement\n" + "terms " * 500)
    render.render_plugin_tree(tree, "cu13", eula=eula)
    doc = tomllib.loads((tree / "pyproject.toml").read_text())
    assert doc["project"]["name"] == "dyng-cu13"
    version = (ROOT / "VERSION").read_text().split()[0]
    assert doc["project"]["dependencies"] == [f"dyng=={version}"]
    assert (tree / "python" / "plugin" / "dyng_cu13" / "__init__.py").is_file()
    assert (tree / "NVIDIA_CUDA_EULA.txt").read_text() == eula.read_text()
    # A tree already rendered is refused, so a plugin is never rendered from a plugin.
    with pytest.raises(ValueError, match="not dyng's CPU pyproject"):
        render.render_plugin_tree(tree, "cu12", eula=eula)


def test_render_without_eula_fails(tmp_path):
    tree = _tree(tmp_path)
    with pytest.raises(licences.LicenceError, match="EULA"):
        render.render_plugin_tree(tree, "cu13", eula=None)
    not_eula = tmp_path / "readme.txt"
    not_eula.write_text("hello")
    with pytest.raises(licences.LicenceError, match="does not look like"):
        render.render_plugin_tree(tree, "cu13", eula=not_eula)

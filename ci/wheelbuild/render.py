"""Turns a dyng source tree into a plugin's (dyng-cu12 / dyng-cu13) source tree (ADR 0030 item 1).

The plugin's pyproject.toml is rendered from the tree's own (the CPU package's), so licence,
authors, URLs, build requirements and scikit-build-core settings have one source; only what makes
the plugin a plugin changes. :func:`render_plugin_pyproject` is a pure function of the parsed CPU
pyproject (tested as such); :func:`render_plugin_tree` applies it to a tree on disk.
"""

from __future__ import annotations

import copy
import re
import shutil
import tomllib
from pathlib import Path
from typing import Any

from . import licences, toml_writer

PLUGIN_SOURCE = Path("python/plugin/dyng_plugin")
PLUGIN_README = "python/plugin/README.md"
ENTRY_POINT_GROUP = "dyng.backends"
RUNTIMES = ("static", "shared")
_PLUGIN_NAME = re.compile(r"^cu(\d+)$")

# NVIDIA's runtime wheel per CUDA major, for the runtime-as-a-dependency build: its name, and the
# folder (relative to site-packages) that holds libcudart.so.<major>.
RUNTIME_WHEELS = {
    12: ("nvidia-cuda-runtime-cu12", "nvidia/cuda_runtime/lib"),
    13: ("nvidia-cuda-runtime", "nvidia/cu13/lib"),
}


def cuda_major_of(plugin: str) -> int:
    match = _PLUGIN_NAME.match(plugin)
    if not match:
        raise ValueError(f"plugin {plugin!r} is not a plugin name; use cu12 or cu13")
    return int(match.group(1))


def runtime_requirement(major: int, cuda_version: str) -> str:
    """The runtime wheel a shared-runtime plugin depends on: at least the toolkit it was built
    with (the runtime must know every API the module calls), below the next major."""
    name, _ = RUNTIME_WHEELS[major]
    release = ".".join(cuda_version.split(".")[:2])
    return f"{name}>={release},<{major + 1}"


def render_plugin_pyproject(
    cpu: dict[str, Any],
    plugin: str,
    version: str,
    *,
    runtime: str = "static",
    cuda_version: str | None = None,
) -> dict[str, Any]:
    """The plugin's pyproject.toml (as a dict) from the CPU package's.

    ``version`` is dyng's version (from VERSION), which the plugin pins exactly; ``runtime`` is
    "static" (the default: libcudart inside the module) or "shared" (NVIDIA's runtime wheel as a
    dependency, which needs ``cuda_version``).
    """
    if runtime not in RUNTIMES:
        raise ValueError(f"runtime {runtime!r} is not one of {RUNTIMES}")
    major = cuda_major_of(plugin)
    package = f"dyng_{plugin}"
    doc = copy.deepcopy(cpu)
    project = doc["project"]

    project["name"] = f"dyng-{plugin}"
    project["description"] = (
        f'CUDA {major} backend for dyng; install it as pip install "dyng[{plugin}]"'
    )
    project["readme"] = PLUGIN_README
    project["dynamic"] = [d for d in project.get("dynamic", []) if d == "version"]
    project.pop("optional-dependencies", None)
    project.pop("scripts", None)
    project.pop("gui-scripts", None)
    dependencies = [f"dyng=={version}"]
    if runtime == "shared":
        if cuda_version is None:
            raise ValueError("a shared-runtime plugin needs the CUDA version it is built with")
        dependencies.append(runtime_requirement(major, cuda_version))
    project["dependencies"] = dependencies
    project["license"] = licences.plugin_expression(project["license"])
    project["license-files"] = licences.plugin_licence_files(list(project.get("license-files", [])))
    # The plugin's package is private, so no Typing :: Typed.
    classifiers = [c for c in project.get("classifiers", []) if c != "Typing :: Typed"]
    classifiers += [
        "Environment :: GPU :: NVIDIA CUDA",
        f"Environment :: GPU :: NVIDIA CUDA :: {major}",
    ]
    project["classifiers"] = classifiers
    project["entry-points"] = {ENTRY_POINT_GROUP: {plugin: package}}

    skbuild = doc.setdefault("tool", {}).setdefault("scikit-build", {})
    metadata = skbuild.get("metadata", {})
    metadata.pop("optional-dependencies", None)
    skbuild.setdefault("wheel", {})["packages"] = [f"python/plugin/{package}"]
    # A plugin is only ever a wheel; its sdist settings would describe the CPU package.
    skbuild.pop("sdist", None)
    defines = skbuild.setdefault("cmake", {}).setdefault("define", {})
    defines.update(
        {
            "DYNG_ENABLE_CUDA": "ON",
            "DYNG_ENABLE_OPENMP": "ON",
            "DYNG_PYTHON_PLUGIN": plugin,
            "CMAKE_CUDA_RUNTIME_LIBRARY": "Static" if runtime == "static" else "Shared",
            "DYNG_CUDA_ARCHITECTURES": "release",
        }
    )
    if runtime == "shared":
        defines["DYNG_CUDA_RUNTIME_WHEEL"] = "ON"
    # Test settings belong to the CPU package's checkout.
    doc["tool"].pop("pytest", None)
    return doc


def _write_if_changed(path: Path, text: str) -> None:
    if not path.is_file() or path.read_text() != text:
        path.write_text(text)


def render_plugin_tree(
    tree: Path,
    plugin: str,
    *,
    eula: Path | None,
    runtime: str = "static",
    cuda_version: str | None = None,
) -> Path:
    """Makes ``tree`` (a disposable copy of dyng's source) build the plugin's wheel.

    Writes pyproject.toml, copies the plugin package to python/plugin/dyng_<plugin>/ and the
    CUDA EULA to NVIDIA_CUDA_EULA.txt; returns the pyproject path.
    """
    pyproject = tree / "pyproject.toml"
    cpu = tomllib.loads(pyproject.read_text())
    if cpu["project"]["name"] != "dyng":
        raise ValueError(
            f"{pyproject} is not dyng's CPU pyproject (name "
            f"{cpu['project']['name']!r}); render from a fresh copy of the sources"
        )
    version = (tree / "VERSION").read_text().split()[0]
    doc = render_plugin_pyproject(cpu, plugin, version, runtime=runtime, cuda_version=cuda_version)

    source = tree / PLUGIN_SOURCE
    if not (source / "__init__.py").is_file():
        raise FileNotFoundError(f"{source} is missing: the core sdist must contain python/plugin/")
    target = tree / "python" / "plugin" / f"dyng_{plugin}"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    licences.require_cuda_third_party(tree)
    licences.copy_eula(eula, tree)
    header = (
        f"Rendered by ci/wheelbuild/render.py for dyng-{plugin} from dyng's pyproject.toml;\n"
        "edit that file (or render.py), not this one."
    )
    _write_if_changed(pyproject, toml_writer.dumps(doc, header))
    return pyproject

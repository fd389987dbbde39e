"""Install test (ADR 0030 item 10, issue 4 item 7): the built wheels in a fresh venv, nothing else.

Per Python version: a new venv receives dyng's wheel (with its test extra, for the suite's
dependencies) and the plugin wheels, from the files just built. Then, from a folder outside the
checkout, install_probe.py reports what dyng selected, and :func:`judge` holds it to the rules:
dyng comes from the venv; every plugin is discovered and its native module emits NVTX ranges;
without a GPU dyng falls back to its CPU module with exactly one BackendWarning; with one
(--expect-gpu) a plugin is chosen and sssp runs on CUDA with the sequential result. Finally the
Python suite runs against the installed package with DYNG_CPU_ONLY=1.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from . import log
from .interpreters import find_python

PROBE = Path(__file__).with_name("install_probe.py")


def nvtx_problems(report: dict, plugins: list[str]) -> list[str]:
    """Plugins whose native module emits no NVTX ranges, from a probe report.

    profile_device.cpp compiles its NVTX calls only where the toolkit's include folder has
    nvtx3/; without it the plugin builds and runs, and dyng.profile(nvtx=True) silently shows
    nothing in Nsight Systems. So a plugin without NVTX is a broken build, caught here.
    """
    if not plugins:
        return []
    found = report.get("nvtx")
    if not isinstance(found, dict):
        return [
            f"the probe reported no nvtx entry ({found!r}); run this checkout's "
            f"ci/wheelbuild/install_probe.py"
        ]
    problems = []
    for plugin in plugins:
        state = found.get(plugin)
        if state is True:
            continue
        if state is False:
            problems.append(
                f"dyng_{plugin}._core emits no NVTX ranges (nvtx_available() is False): the "
                f"CUDA toolkit it was built with had no include/nvtx3; rebuild it with the pypi "
                f"provider (ci/wheel-requirements/{plugin}.txt names the NVTX wheel), in a conda "
                f"environment that has cuda-nvtx-dev, or with a toolkit that has nvtx3"
            )
        else:
            problems.append(f"could not ask dyng_{plugin}._core for nvtx_available(): {state}")
    return problems


def judge(report: dict, *, plugins: list[str], expect_gpu: bool, venv: Path) -> list[str]:
    """Problems with one probe report (empty: the install behaves)."""
    problems = []
    if not str(report.get("dyng_file", "")).startswith(str(venv)):
        problems.append(f"dyng was imported from {report.get('dyng_file')}, not from {venv}")
    found = report.get("plugins", [])
    for plugin in plugins:
        if f"{plugin}=dyng_{plugin}" not in found:
            problems.append(
                f"plugin {plugin} is installed but not discovered (entry points {found})"
            )
    problems += nvtx_problems(report, plugins)
    native, warned = report.get("native"), report.get("warnings", [])
    if expect_gpu:
        if not plugins:
            problems.append("--expect-gpu needs at least one plugin wheel")
        elif native not in {f"dyng_{p}._core" for p in plugins}:
            problems.append(f"a GPU is expected but dyng chose {native}; warnings: {warned}")
        sssp = report.get("sssp")
        if not sssp or sssp.get("backend") != "cuda":
            problems.append(f"sssp did not run on CUDA: {sssp}")
        elif sssp["distances"] != sssp["reference"]:
            problems.append(
                f"sssp on CUDA gave {sssp['distances']}, sequential {sssp['reference']}"
            )
    else:
        if native != "dyng._core":
            problems.append(f"no GPU here, yet dyng chose {native}")
        wanted = 1 if plugins else 0
        if len(warned) != wanted:
            problems.append(
                f"expected {wanted} BackendWarning when falling back, got {len(warned)}: {warned}"
            )
    return problems


def run_install_test(
    wheels: list[Path],
    python_version: str,
    work: Path,
    repo: Path,
    *,
    expect_gpu: bool = False,
    run_suite: bool = True,
) -> list[str]:
    """Builds the venv, probes it and runs the suite; returns the problems found."""
    cpu = [w for w in wheels if w.name.startswith("dyng-")]
    plugin_wheels = [w for w in wheels if w.name.startswith("dyng_cu")]
    if len(cpu) != 1:
        return [f"the install test needs exactly one dyng wheel, got {[w.name for w in cpu]}"]
    plugins = [w.name.split("-")[0][len("dyng_") :] for w in plugin_wheels]
    venv = work / f"venv-{python_version}"
    log.run([find_python(python_version), "-m", "venv", "--clear", venv])
    python = venv / "bin" / "python"
    # Files, not names: only the wheels just built may provide dyng; the extra brings the test
    # suite's dependencies from the index.
    log.run(
        [
            python,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            f"{cpu[0]}[test]",
            *plugin_wheels,
        ]
    )
    with tempfile.TemporaryDirectory(prefix="dyng-install-test-") as outside:
        args = [python, "-I", PROBE] + (["--sssp"] if expect_gpu else [])
        report = json.loads(log.run(args, cwd=Path(outside), capture=True).strip().splitlines()[-1])
        log.say(
            f"install test {python_version}: chose {report.get('native')}, plugins "
            f"{report.get('plugins')}, NVTX {report.get('nvtx')}, warnings "
            f"{len(report.get('warnings', []))}"
        )
        problems = judge(report, plugins=plugins, expect_gpu=expect_gpu, venv=venv)
        if run_suite and not problems:
            # From outside the checkout, so that `import dyng` can only find the installed one.
            log.run(
                [
                    python,
                    "-m",
                    "pytest",
                    "-q",
                    "-p",
                    "no:cacheprovider",
                    "--rootdir",
                    repo,
                    "-c",
                    repo / "pyproject.toml",
                    repo / "tests" / "python",
                ],
                cwd=Path(outside),
                env={"DYNG_CPU_ONLY": "1"},
            )
    return problems

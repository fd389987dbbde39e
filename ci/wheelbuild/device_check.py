"""The wheels on a GPU machine: each plugin, installed with dyng, must be chosen and run sssp.

    python ci/wheelbuild/device_check.py [DIST] [--plugins cu12,cu13] [--import-only]

Per plugin wheel found in DIST: ``pip install --no-index --no-deps --target`` of dyng's wheel and
that plugin's (the GPU machine reaches no package index; NumPy must already be there), then the
install probe from a folder outside the checkout with only that target on sys.path. Checks: the
plugin is discovered and chosen, its build_config names the plugin, its toolkit, the release
architectures and the static runtime, it emits NVTX ranges, the module sees a GPU, and sssp on
CUDA matches the sequential result. --import-only stops after import, build_config and NVTX (for a
machine or a build whose CUDA sssp is not wired yet). Exit status 0 only when every plugin passes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from wheelbuild import install_test, log  # noqa: E402

PROBE = Path(__file__).with_name("install_probe.py")


def install(wheels: list[Path], target: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-index",
            "--no-deps",
            "--disable-pip-version-check",
            "--target",
            str(target),
            *map(str, wheels),
        ],
        check=True,
    )


def probe(target: Path, plugin: str, with_sssp: bool) -> dict:
    code = (
        "import sys, runpy; sys.argv = ['probe'] + sys.argv[1:]; "
        f"runpy.run_path({str(PROBE)!r}, run_name='__main__')"
    )
    extra = (
        f"import dyng_{plugin}._core as m; print(json.dumps({{'device_count': "
        "m.cuda_device_count() if hasattr(m, 'cuda_device_count') else None, "
        "'build_config': dict(m.build_config)}))"
    )
    with tempfile.TemporaryDirectory(prefix="dyng-device-check-") as outside:
        env = {**os.environ, "PYTHONPATH": str(target)}
        env.pop("DYNG_CPU_ONLY", None)
        args = [sys.executable, "-c", code] + (["--sssp"] if with_sssp else [])
        done = subprocess.run(args, cwd=outside, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            return {"error": f"probe failed (exit {done.returncode}):\n{done.stderr[-3000:]}"}
        report = json.loads(done.stdout.strip().splitlines()[-1])
        module = subprocess.run(
            [sys.executable, "-c", "import json; " + extra],
            cwd=outside,
            env=env,
            capture_output=True,
            text=True,
        )
        report["module"] = (
            json.loads(module.stdout.strip().splitlines()[-1])
            if module.returncode == 0
            else {"error": module.stderr[-2000:]}
        )
        return report


def judge_device(report: dict, plugin: str, target: Path, import_only: bool) -> list[str]:
    if "error" in report:
        return [report["error"]]
    problems = []
    config = report.get("module", {}).get("build_config", {})
    if not config:
        problems.append(f"dyng_{plugin}._core did not load: {report.get('module')}")
    elif (
        config.get("plugin") != plugin
        or not config.get("cuda")
        or not str(config.get("cuda_toolkit", "")).startswith(plugin[2:] + ".")
        or config.get("cuda_runtime") != "static"
        or not config.get("cuda_architectures")
    ):
        problems.append(f"dyng_{plugin}._core build_config is off: {config}")
    count = report.get("module", {}).get("device_count")
    if count is not None and count < 1:
        problems.append(f"dyng_{plugin}._core sees no GPU (cuda_device_count() = {count})")
    if import_only:
        problems += install_test.nvtx_problems(report, [plugin])
    else:
        problems += install_test.judge(report, plugins=[plugin], expect_gpu=True, venv=target)
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dist", nargs="?", type=Path, default=Path("dist"))
    parser.add_argument("--plugins", default="cu12,cu13")
    parser.add_argument("--import-only", action="store_true")
    args = parser.parse_args(argv)
    cpu = sorted(args.dist.glob("dyng-*.whl"))
    if len(cpu) != 1:
        print(f"need exactly one dyng-*.whl in {args.dist}, found {[w.name for w in cpu]}")
        return 2
    failed = False
    for plugin in args.plugins.split(","):
        wheels = sorted(args.dist.glob(f"dyng_{plugin}-*.whl"))
        if len(wheels) != 1:
            print(
                f"{plugin}: need exactly one dyng_{plugin}-*.whl in {args.dist}, found "
                f"{[w.name for w in wheels]}"
            )
            failed = True
            continue
        with tempfile.TemporaryDirectory(prefix=f"dyng-{plugin}-") as tmp:
            target = Path(tmp) / "site"
            install([cpu[0], wheels[0]], target)
            report = probe(target, plugin, with_sssp=not args.import_only)
            problems = judge_device(report, plugin, target, args.import_only)
        failed |= log.verdict(plugin, problems, json.dumps(report)[:1500])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

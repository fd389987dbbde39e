#!/usr/bin/env python3
"""Builds dyng's wheels: the CPU wheel and the CUDA plugins dyng-cu12 / dyng-cu13 (issue 4).

    python ci/build.py {cpu,cu12,cu13,all,sdist} [--provider auto|conda|pypi|system] [--out dist/]

Steps, each logged with its elapsed time: toolchain (provider), core sdist, source tree (plus the
rendered plugin pyproject and licences), wheel, repair (manylinux_2_28), check (ci/wheel_check.py's
rules and twine check --strict), and, unless --no-install-test, the install test per Python
version. The target sdist writes the checked core sdist alone into --out, and --sdist builds the
wheels from such an sdist instead of a fresh one: CI builds the sdist once and all three wheels
from it (.github/workflows/wheels.yml). docs/developer/wheels.md explains the pipeline.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from wheelbuild import (  # noqa: E402
    architectures,
    check,
    install_test,
    log,
    project,
    render,
    repair,
    sources,
    wheel_build,
)
from wheelbuild.providers import select  # noqa: E402
from wheelbuild.toolchain import Toolchain, ToolchainError  # noqa: E402

TARGETS = {"cpu": None, "cu12": 12, "cu13": 13}
ROOT = project.ROOT
BUILD = ROOT / "build"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "target",
        choices=[*TARGETS, "all", "sdist"],
        help="which wheel(s) to build, or sdist: the core sdist alone, into --out",
    )
    parser.add_argument(
        "--sdist",
        type=Path,
        help="build the wheels from this core sdist (one the sdist target made) "
        "instead of making one",
    )
    parser.add_argument(
        "--provider",
        choices=select.PROVIDERS,
        default="auto",
        help="toolchain source (default auto: conda when an environment is active, else pypi)",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="where the wheels go")
    parser.add_argument(
        "--cuda-architectures",
        default="release",
        help="'release' (default) or a CMake list such as '90-real' for a quick "
        "build while iterating",
    )
    parser.add_argument(
        "--cuda-runtime",
        choices=render.RUNTIMES,
        default="static",
        help="static (default: cudart inside the module) or shared (NVIDIA's "
        "runtime wheel as a dependency)",
    )
    parser.add_argument(
        "--cuda-eula", type=Path, help="the toolkit's EULA, when the provider cannot find it"
    )
    parser.add_argument(
        "--python",
        action="append",
        dest="pythons",
        help="Python versions for the install test (default 3.12 and 3.13)",
    )
    parser.add_argument("--no-install-test", action="store_true", help="build and check only")
    parser.add_argument(
        "--no-suite", action="store_true", help="install test without the pytest suite"
    )
    parser.add_argument(
        "--install-test-only",
        action="store_true",
        help="build nothing: install-test the target's wheels already in --out",
    )
    args = parser.parse_args(argv)
    args.pythons = args.pythons or ["3.12", "3.13"]
    args.out = args.out.resolve()
    if args.target == "sdist" and (args.sdist or args.install_test_only):
        parser.error(
            "the sdist target builds the sdist; --sdist and --install-test-only are "
            "for the wheel targets"
        )
    return args


def build_python(toolchain: Toolchain) -> Path:
    """The interpreter the toolchain builds with: the first python on its PATH."""
    found = shutil.which("python", path=toolchain.env.get("PATH"))
    if not found:
        raise ToolchainError(f"no python on the {toolchain.provider} toolchain's PATH")
    return Path(found)


def cuda_architectures(args: argparse.Namespace, toolchain: Toolchain) -> tuple[str, ...]:
    if args.cuda_architectures == "release":
        return architectures.release_list(toolchain.cuda_version)
    return tuple(a for a in args.cuda_architectures.replace(",", ";").split(";") if a)


def build_one(
    target: str,
    toolchain: Toolchain,
    sdist: Path,
    args: argparse.Namespace,
    version: str,
    env: dict[str, str],
) -> Path:
    major = TARGETS[target]
    flavour = target if args.cuda_runtime == "static" or major is None else f"{target}-shared"
    tree = BUILD / "wheels-src" / flavour
    with log.step(f"{target}: source tree"):
        changed = sources.unpack_into(sdist, tree)
        log.say(f"{changed} files changed in {tree}")
        extra: dict[str, str] = {}
        if major is not None:
            eula = args.cuda_eula or toolchain.eula
            render.render_plugin_tree(
                tree,
                target,
                eula=eula,
                runtime=args.cuda_runtime,
                cuda_version=toolchain.cuda_version,
            )
            if args.cuda_architectures != "release":
                extra["DYNG_CUDA_ARCHITECTURES"] = ";".join(cuda_architectures(args, toolchain))
    with log.step(f"{target}: wheel"):
        raw = wheel_build.build_wheel(
            toolchain,
            build_python(toolchain),
            tree,
            BUILD / "wheels-raw" / flavour,
            BUILD / "wheels-obj" / flavour,
            extra_defines=extra,
            env=env,
        )
    with log.step(f"{target}: repair ({toolchain.platform_tag})"):
        for old in args.out.glob(f"{raw.name.split('-')[0]}-{version}-*.whl"):
            old.unlink()
        repaired = repair.auditwheel_repair(
            raw,
            args.out,
            cuda_major=major,
            runtime=args.cuda_runtime,
            platform=toolchain.platform_tag,
            env={**toolchain.env, **env},
        )
    with log.step(f"{target}: check"):
        expect = check.Expectations(
            version=version,
            runtime=args.cuda_runtime,
            platform=toolchain.platform_tag,
            glibc=toolchain.glibc,
            architectures=cuda_architectures(args, toolchain) if major else (),
            build_paths=(str(ROOT),),
        )
        problems = check.check_wheel(repaired, expect)
        problems += check.twine_check([repaired], [str(build_python(toolchain)), "-m", "twine"])
        if problems:
            raise SystemExit(f"{repaired.name} fails its checks:\n  - " + "\n  - ".join(problems))
    log.say(f"{target}: {repaired.name} ({repaired.stat().st_size / 1e6:.2f} MB)")
    return repaired


def core_sdist(
    args: argparse.Namespace, toolchain: Toolchain, version: str, env: dict[str, str]
) -> Path:
    """The sdist every wheel is built from (ADR 0030 item 1): --sdist, else a fresh one; checked."""
    with log.step("core sdist"):
        if args.sdist:
            sdist = args.sdist.resolve()
        else:
            sdist = sources.build_sdist(
                build_python(toolchain), ROOT, BUILD / "wheels-sdist", {**toolchain.env, **env}
            )
        problems = check.check_sdist(sdist)
        if not sdist.name.startswith(f"dyng-{version}.tar"):
            problems.append(
                f"it is not dyng {version} (this checkout's VERSION); build the "
                "wheels from the sdist of the same commit"
            )
        if problems:
            raise SystemExit(f"{sdist.name}:\n  - " + "\n  - ".join(problems))
    return sdist


def publish_sdist(sdist: Path, toolchain: Toolchain, out: Path) -> Path:
    """The sdist target: twine check --strict, then a copy in ``out`` beside the wheels."""
    problems = check.twine_check([sdist], [str(build_python(toolchain)), "-m", "twine"])
    if problems:
        raise SystemExit(f"{sdist.name} fails its checks:\n  - " + "\n  - ".join(problems))
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(sdist, out / sdist.name)
    log.say(f"sdist: {out / sdist.name}")
    return out / sdist.name


def run_install_tests(wheels: list[Path], args: argparse.Namespace) -> None:
    log.say("install test of " + ", ".join(w.name for w in wheels))
    for python in args.pythons:
        with log.step(f"install test, Python {python}"):
            problems = install_test.run_install_test(
                wheels, python, BUILD / "wheels-install", ROOT, run_suite=not args.no_suite
            )
            if problems:
                raise SystemExit(
                    f"install test (Python {python}) failed:\n  - " + "\n  - ".join(problems)
                )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    # The sdist target needs a toolchain only for its Python (scikit-build-core, twine).
    targets = {"all": list(TARGETS), "sdist": ["cpu"]}.get(args.target, [args.target])
    version = project.version()
    if args.install_test_only:
        wanted = {"dyng" if TARGETS[t] is None else f"dyng_{t}" for t in [*targets, "cpu"]}
        found = [
            w for w in sorted(args.out.glob(f"*-{version}-*.whl")) if w.name.split("-")[0] in wanted
        ]
        run_install_tests(found, args)
        return 0
    env = {"SOURCE_DATE_EPOCH": project.source_date_epoch()}
    started = time.monotonic()
    work = BUILD / "wheel-toolchains"
    toolchains: dict[str, Toolchain] = {}
    for target in targets:
        with log.step(f"{target}: toolchain ({select.resolve(args.provider)})"):
            toolchains[target] = select.toolchain_for(args.provider, TARGETS[target], work=work)
            for note in toolchains[target].notes:
                log.say(f"  {note}")
    sdist = core_sdist(args, toolchains[targets[0]], version, env)
    if args.target == "sdist":
        publish_sdist(sdist, toolchains["cpu"], args.out)
        return 0
    built = [build_one(t, toolchains[t], sdist, args, version, env) for t in targets]

    if not args.no_install_test:
        # The plugins need dyng's wheel: the one just built, else the one of this version in --out.
        cpu = [w for w in built if w.name.startswith("dyng-")] or sorted(
            args.out.glob(f"dyng-{version}-*.whl")
        )
        run_install_tests(cpu + [w for w in built if w.name.startswith("dyng_cu")], args)
    log.say(f"all done in {time.monotonic() - started:.0f} s:")
    for wheel in built:
        log.say(f"  {wheel} ({wheel.stat().st_size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (ToolchainError, log.CommandError) as error:
        log.say(f"error: {error}")
        sys.exit(1)

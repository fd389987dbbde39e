"""pixi.toml: the manifest schema, and tasks that reach the wheel driver the README documents."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys

import pytest
from conda_files import MAJORS, ROOT, pixi, schema

jsonschema = pytest.importorskip(
    "jsonschema", reason="jsonschema validates pixi.toml (ci/requirements-dev.txt installs it)"
)

# Wheel task -> (feature that defines it, driver target).
WHEEL_TASKS = {"build": (None, "cpu"), **{f"build-cu{m}": (f"cu{m}", f"cu{m}") for m in MAJORS}}
DRIVER = re.compile(r"python ci/build\.py (\S+)((?: --?[\w-]+(?: [\w.-]+)?)*)")


def tasks_of(feature: str | None) -> dict:
    doc = pixi()
    table = doc["tasks"] if feature is None else doc["feature"][feature].get("tasks", {})
    return {name: task if isinstance(task, dict) else {"cmd": task} for name, task in table.items()}


def all_tasks() -> dict[str, tuple[str | None, str]]:
    found = {name: (None, task["cmd"]) for name, task in tasks_of(None).items()}
    for feature in pixi().get("feature", {}):
        for name, task in tasks_of(feature).items():
            assert name not in found, f"task {name} is defined twice"
            found[name] = (feature, task["cmd"])
    return found


def test_manifest_matches_the_pixi_schema():
    spec = schema("pixi.schema.json")
    validator = jsonschema.validators.validator_for(spec, default=jsonschema.Draft7Validator)
    errors = list(validator(spec).iter_errors(pixi()))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])


def test_workspace_is_conda_forge_on_linux_64():
    workspace = pixi()["workspace"]
    assert workspace["channels"] == ["conda-forge"] and workspace["platforms"] == ["linux-64"]


def test_the_commands_users_type_exist():
    wanted = {"build", "build-cu12", "build-cu13", "test", "test-gpu", "conda-build"}
    assert wanted <= set(all_tasks())


@pytest.mark.parametrize("task", sorted(WHEEL_TASKS))
def test_wheel_tasks_run_the_driver_with_the_conda_provider(task):
    feature, target = WHEEL_TASKS[task]
    defined_in, cmd = all_tasks()[task]
    assert defined_in == feature, f"{task} must live in feature {feature} to get its CUDA pins"
    assert DRIVER.fullmatch(cmd), f"{task}: {cmd!r} is not a driver call"
    args = shlex.split(cmd)[2:]
    assert args[0] == target and args[args.index("--provider") + 1] == "conda"
    # The driver's install test needs an interpreter per --python; the environment has 3.12.
    python = pixi()["dependencies"]["python"].removesuffix(".*")
    assert args[args.index("--python") + 1] == python


@pytest.mark.parametrize("major", MAJORS)
def test_each_cuda_environment_has_its_feature_and_the_tests(major):
    env = pixi()["environments"][f"cu{major}"]
    features = env if isinstance(env, list) else env["features"]
    assert f"cu{major}" in features and "test" in features


def test_gpu_test_builds_the_latest_plugin_and_selects_gpu_tests():
    feature, cmd = all_tasks()["test-gpu"]
    latest = f"cu{max(MAJORS)}"
    assert feature == latest
    targets = [m[1] for m in DRIVER.finditer(cmd)]
    assert targets == ["cpu", latest]
    assert all("--provider conda" in m[0] for m in DRIVER.finditer(cmd))
    assert "-m gpu" in cmd and f"dyng-{latest}" in cmd


def test_conda_build_task_builds_the_recipe_in_its_own_environment():
    feature, cmd = all_tasks()["conda-build"]
    assert cmd.startswith("rattler-build build --recipe recipe/")
    env = pixi()["environments"]["recipe"]
    assert env["features"] == [feature] and env["no-default-feature"] is True
    assert "rattler-build" in pixi()["feature"][feature]["dependencies"]


def test_readme_documents_the_driver_calls_the_tasks_make():
    readme = (ROOT / "README.md").read_text()
    documented = {m[1] for m in DRIVER.finditer(readme)}
    for task, (_, target) in WHEEL_TASKS.items():
        assert target in documented or "all" in documented, (
            f"pixi task {task} runs `ci/build.py {target}`, which README.md does not show"
        )
        assert f"pixi run {task}" in readme, f"README.md does not show `pixi run {task}`"


def test_driver_accepts_the_targets_and_the_conda_provider():
    driver = ROOT / "ci" / "build.py"
    if not driver.is_file():
        pytest.skip("ci/build.py (issue 4's driver) is not in this checkout yet")
    helps = subprocess.run(
        [sys.executable, str(driver), "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert helps.returncode == 0, helps.stderr
    for _, target in WHEEL_TASKS.values():
        assert re.search(rf"\b{target}\b", helps.stdout), f"ci/build.py --help lists no {target}"
    calls = [call for _, cmd in all_tasks().values() for call in DRIVER.finditer(cmd)]
    for option in {o for call in calls for o in re.findall(r"--[\w-]+", call[2])}:
        assert option in helps.stdout, f"a pixi task passes {option}, which ci/build.py lacks"
    assert "conda" in helps.stdout

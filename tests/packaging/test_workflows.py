"""The release workflows' invariants (issue 46), read from .github/workflows/ without running them.

No workflow can run where the tests run, so what the release's safety rests on is checked here:
a publish job needs the sdist and all three wheel builds (and the version check), every
third-party action is pinned by a full commit hash with its version beside it, every workflow and
every job declares its permissions and only the publish job may write (the OIDC token and
attestations), no workflow runs on ``pull_request_target``, and release.yml checks that the tag,
VERSION and CHANGELOG.md agree. ci/check_workflows.sh adds the schema check and zizmor. Each rule
is also shown failing on a workflow broken in that one way.
"""

from __future__ import annotations

import copy
import re
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = ROOT / ".github" / "workflows"
sys.path.insert(0, str(ROOT / "ci"))

import check_release_version  # noqa: E402

BUILD_WORKFLOW = "./.github/workflows/build-dist.yml"
# ci/build.py's target of each distribution a release publishes.
DISTRIBUTIONS = {"sdist": "the core sdist", "cpu": "dyng", "cu12": "dyng-cu12", "cu13": "dyng-cu13"}
PUBLISH_ACTION = "pypa/gh-action-pypi-publish"
# The only write scopes a job may hold, and only a publish job.
PUBLISH_WRITES = {"id-token", "attestations"}
PINNED = re.compile(r"^\s*(?:-\s*)?uses:\s*(?P<ref>\S+)(?P<comment>.*)$")
FULL_HASH = re.compile(r"^[\w.-]+/[\w./-]+@[0-9a-f]{40}$")
VERSION_COMMENT = re.compile(r"^\s+# v\d+(\.\d+)*\b")


def load(name: str) -> dict:
    return yaml.safe_load((WORKFLOWS / name).read_text())


def workflow_files() -> list[Path]:
    return sorted(WORKFLOWS.glob("*.yml"))


def triggers(workflow: dict) -> dict:
    """The ``on:`` table (YAML 1.1 reads the bare key ``on`` as True)."""
    on = workflow.get("on", workflow.get(True))
    if isinstance(on, str):
        return {on: None}
    if isinstance(on, list):
        return dict.fromkeys(on)
    return on or {}


def steps_using(job: dict, action: str) -> list[dict]:
    return [s for s in job.get("steps", []) if str(s.get("uses", "")).startswith(action + "@")]


def publish_jobs(workflow: dict) -> dict[str, dict]:
    return {
        name: job
        for name, job in workflow.get("jobs", {}).items()
        if steps_using(job, PUBLISH_ACTION)
    }


def needs(job: dict) -> set[str]:
    given = job.get("needs", [])
    return {given} if isinstance(given, str) else set(given)


# --- the rules, each returning its problems ------------------------------------------------------


def pin_problems(text: str) -> list[str]:
    """Every ``uses:`` names a local file or a full commit hash followed by ``# v<version>``."""
    problems = []
    for number, line in enumerate(text.splitlines(), 1):
        found = PINNED.match(line)
        if not found or found.group("ref").startswith("./"):
            continue
        if not FULL_HASH.match(found.group("ref")):
            problems.append(
                f"line {number}: {found.group('ref')} is not pinned by a full commit hash"
            )
        elif not VERSION_COMMENT.match(found.group("comment")):
            problems.append(f"line {number}: {found.group('ref')} has no '# v<version>' comment")
    return problems


def permission_problems(workflow: dict) -> list[str]:
    """Top level: nothing or read; per job: declared, and writes only where a publish job needs
    exactly the OIDC token and attestations."""
    problems = []
    top = workflow.get("permissions")
    if top is None:
        problems.append("no top-level permissions (the default token may write)")
    elif top not in ({}, "read-all") and (
        not isinstance(top, dict) or set(top.values()) - {"read", "none"}
    ):
        problems.append(f"top-level permissions {top!r} grant a write; grant writes per job")
    publishers = publish_jobs(workflow)
    for name, job in workflow.get("jobs", {}).items():
        granted = job.get("permissions")
        if granted is None:
            problems.append(f"job {name} declares no permissions")
            continue
        if not isinstance(granted, dict):
            problems.append(f"job {name}: permissions {granted!r} are not a per-scope table")
            continue
        writes = {scope for scope, level in granted.items() if level == "write"}
        allowed = PUBLISH_WRITES if name in publishers else set()
        if writes - allowed:
            problems.append(f"job {name} may write {sorted(writes - allowed)}")
        if name in publishers and "id-token" not in writes:
            problems.append(f"publish job {name} lacks id-token: write (trusted publishing)")
    return problems


def build_jobs(workflow: dict) -> dict[str, str]:
    """{ci/build.py target: the job that builds it through build-dist.yml}."""
    built = {}
    for name, job in workflow.get("jobs", {}).items():
        if job.get("uses") == BUILD_WORKFLOW:
            built[job.get("with", {}).get("target")] = name
    return built


def publish_problems(workflow: dict) -> list[str]:
    """Each publish job needs every distribution's build, the install test and the version
    check, and publishes through trusted publishing (no password input, no secret)."""
    problems = []
    built = build_jobs(workflow)
    jobs = workflow.get("jobs", {})
    checks = [
        name
        for name, job in jobs.items()
        if any("ci/check_release_version.py" in str(s.get("run", "")) for s in job.get("steps", []))
    ]
    tests = [
        name
        for name, job in jobs.items()
        if job.get("uses") == "./.github/workflows/install-test.yml"
    ]
    for target, what in DISTRIBUTIONS.items():
        if target not in built:
            problems.append(f"no job builds {what} (build-dist.yml with target {target})")
    for name, job in publish_jobs(workflow).items():
        missing = sorted(
            ({built.get(t) for t in DISTRIBUTIONS} | set(checks) | set(tests)) - {None} - needs(job)
        )
        if missing:
            problems.append(f"publish job {name} does not need {missing}")
        if not checks:
            problems.append(f"publish job {name}: no job runs ci/check_release_version.py")
        for step in steps_using(job, PUBLISH_ACTION):
            if {"password", "user"} & set(step.get("with", {}) or {}):
                problems.append(f"publish job {name} passes a stored token, not trusted publishing")
        if not job.get("environment"):
            problems.append(
                f"publish job {name} has no environment (PyPI's trusted publisher names it)"
            )
    return problems


# --- the repository's workflows ----------------------------------------------------------------


def test_the_four_workflows_of_the_issue_exist():
    names = {p.name for p in workflow_files()}
    assert {"ci.yml", "wheels.yml", "release.yml", "conda.yml"} <= names, names


@pytest.mark.parametrize("path", workflow_files(), ids=lambda p: p.name)
def test_every_action_is_pinned_by_commit_hash(path):
    assert not pin_problems(path.read_text())


@pytest.mark.parametrize("path", workflow_files(), ids=lambda p: p.name)
def test_permissions_are_declared_and_least(path):
    assert not permission_problems(yaml.safe_load(path.read_text()))


@pytest.mark.parametrize("path", workflow_files(), ids=lambda p: p.name)
def test_no_pull_request_target(path):
    assert "pull_request_target" not in triggers(yaml.safe_load(path.read_text()))
    assert "pull_request_target" not in path.read_text()


def test_only_release_publishes():
    publishing = sorted(
        p.name for p in workflow_files() if publish_jobs(yaml.safe_load(p.read_text()))
    )
    assert publishing == ["release.yml"]


def test_release_publishes_only_after_every_build_and_check():
    release = load("release.yml")
    assert publish_jobs(release), "release.yml has no job that publishes to PyPI"
    assert not publish_problems(release)
    assert set(triggers(release)) == {"push"} and set(triggers(release)["push"]) == {"tags"}


def test_release_attests_what_it_publishes():
    for name, job in publish_jobs(load("release.yml")).items():
        assert steps_using(job, "actions/attest-build-provenance"), name


def test_release_builds_as_wheels_yml_does_without_caches():
    release, wheels = load("release.yml"), load("wheels.yml")
    assert set(build_jobs(release)) == set(build_jobs(wheels)) == set(DISTRIBUTIONS)
    for name in build_jobs(release).values():
        assert not release["jobs"][name].get("with", {}).get("cache"), name


def test_ci_runs_the_readme_test_command_and_the_workflow_checks():
    runs = " ".join(
        str(s.get("run", ""))
        for job in load("ci.yml")["jobs"].values()
        for s in job.get("steps", [])
    )
    assert "ci/test.sh" in runs and "ci/check_workflows.sh" in runs
    assert "ci/check_workflows.sh" in (ROOT / ".ci" / "run").read_text()


def test_ci_runs_the_linters_and_the_type_check_as_the_pre_commit_hooks_do():
    runs = [str(s.get("run", "")) for s in load("ci.yml")["jobs"]["lint"].get("steps", [])]
    assert any("ci/lint.sh" in run for run in runs)
    assert "ci/lint.sh" in (ROOT / ".ci" / "run").read_text()
    hooks = (ROOT / ".pre-commit-config.yaml").read_text()
    for check in ("ruff", "format", "clang-format", "mypy"):
        assert f"entry: bash ci/lint.sh {check}\n" in hooks, check


def test_wheels_yml_runs_the_gpu_suite_only_where_a_runner_is_registered():
    gpu = [
        job
        for job in load("wheels.yml")["jobs"].values()
        if any("ci/gpu_suite.sh" in str(s.get("run", "")) for s in job.get("steps", []))
    ]
    assert gpu and all("self-hosted" in job["runs-on"] and "vars." in job["if"] for job in gpu)


# --- each rule fails on a workflow broken in one way -------------------------------------------


def test_a_publish_job_missing_one_wheel_is_caught():
    broken = copy.deepcopy(load("release.yml"))
    for job in publish_jobs(broken).values():
        job["needs"] = [n for n in needs(job) if n != build_jobs(broken)["cu12"]]
    assert any("does not need" in p for p in publish_problems(broken))


def test_a_missing_build_is_caught():
    broken = copy.deepcopy(load("release.yml"))
    del broken["jobs"][build_jobs(broken)["cu13"]]
    assert any("dyng-cu13" in p for p in publish_problems(broken))


def test_a_stored_token_is_caught():
    broken = copy.deepcopy(load("release.yml"))
    for job in publish_jobs(broken).values():
        steps_using(job, PUBLISH_ACTION)[0].setdefault("with", {})["password"] = "x"
    assert any("stored token" in p for p in publish_problems(broken))


def test_write_permissions_outside_the_publish_job_are_caught():
    broken = copy.deepcopy(load("release.yml"))
    broken["jobs"]["version"]["permissions"] = {"contents": "write"}
    broken["jobs"][build_jobs(broken)["cpu"]]["permissions"] = {"id-token": "write"}
    del broken["jobs"][build_jobs(broken)["sdist"]]["permissions"]
    broken["permissions"] = "write-all"
    found = permission_problems(broken)
    assert len(found) == 4, found


@pytest.mark.parametrize(
    "line",
    [
        "      - uses: actions/checkout@v7",
        "      - uses: actions/checkout@3d3c42e5",
        "      - uses: actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1",
        "    uses: octo/repo/.github/workflows/x.yml@main",
    ],
)
def test_an_unpinned_action_is_caught(line):
    assert pin_problems(line)


# --- ci/check_release_version.py -----------------------------------------------------------------


def release_tree(tmp_path: Path, version: str, changelog: str | None) -> Path:
    (tmp_path / "VERSION").write_text(version + "\n")
    if changelog is not None:
        (tmp_path / "CHANGELOG.md").write_text(changelog)
    return tmp_path


GOOD_CHANGELOG = "# Changelog\n\n## [Unreleased]\n\n## [0.3.0] - 2026-12-07\n\n- Added x.\n"


def test_release_version_check_passes_when_all_agree(tmp_path, capsys, monkeypatch):
    output = tmp_path / "github_output"
    monkeypatch.setenv("GITHUB_OUTPUT", str(output))
    root = release_tree(tmp_path, "0.3.0", GOOD_CHANGELOG)
    assert check_release_version.main(["v0.3.0", "--root", str(root)]) == 0
    assert capsys.readouterr().out.strip() == "0.3.0"
    assert output.read_text() == "version=0.3.0\n"


@pytest.mark.parametrize(
    "tag, version, changelog, expected",
    [
        ("v0.3.1", "0.3.0", GOOD_CHANGELOG, "does not name VERSION"),
        (
            "v0.3.0.dev0",
            "0.3.0.dev0",
            GOOD_CHANGELOG.replace("0.3.0", "0.3.0.dev0"),
            "not a release version",
        ),
        (
            "v0.3.0+local",
            "0.3.0+local",
            GOOD_CHANGELOG.replace("0.3.0", "0.3.0+local"),
            "not a release version",
        ),
        ("v0.3.0", "0.3.0", None, "CHANGELOG.md is missing"),
        (
            "v0.3.0",
            "0.3.0",
            "# Changelog\n\n## [Unreleased]\n\n- Added x.\n",
            "no section for 0.3.0",
        ),
        ("v0.3.0", "0.3.0", GOOD_CHANGELOG.replace(" - 2026-12-07", ""), "has no date"),
        (
            "v0.3.0",
            "0.3.0",
            "## [0.3.0] - 2026-12-07\n\n## [0.2.0] - 2025-01-01\n\n- Old.\n",
            "lists no change",
        ),
    ],
)
def test_release_version_check_refuses(tmp_path, tag, version, changelog, expected):
    _, problems = check_release_version.release_problems(
        tag, release_tree(tmp_path, version, changelog)
    )
    assert any(expected in p for p in problems), problems


def test_the_changelog_has_an_unreleased_section_or_the_current_version():
    text = (ROOT / "CHANGELOG.md").read_text()
    version = (ROOT / "VERSION").read_text().split()[0]
    assert "## [Unreleased]" in text or f"## [{version}]" in text

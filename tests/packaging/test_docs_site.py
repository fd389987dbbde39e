"""The documentation site's reference covers the public API (issue 45), read without building it.

ci/docs.sh builds mkdocs.yml strictly, which catches broken links and directives naming what does
not exist; what it cannot see is a public module or name that no page mentions. Here: every
public module has an API page in nav, the dyng page lists exactly the package's public names, and
every directive names a module of python/. The package is read with ast, not imported, as the
site's build reads it. CI and pixi run the build itself.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "python" / "dyng"
API = ROOT / "docs" / "api"
DIRECTIVE = re.compile(r"^::: (?P<target>[\w.]+)\s*$", re.MULTILINE)


def assigned(path: Path, name: str):
    """The literal value of the module-level assignment to ``name`` in ``path``."""
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            return ast.literal_eval(node.value)
    raise AssertionError(f"{path.relative_to(ROOT)} assigns no {name}")


def public_modules() -> set[str]:
    algorithms = assigned(PACKAGE / "_registry.py", "ALGORITHM_MODULES")
    submodules = assigned(PACKAGE / "__init__.py", "_SUBMODULES")
    return {"dyng", *(f"dyng.{m}" for m in (*algorithms, *submodules))}


def nav_pages(nav) -> list[str]:
    """The page paths of a mkdocs nav, however deeply nested."""
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, list):
        return [page for item in nav for page in nav_pages(item)]
    return [page for value in nav.values() for page in nav_pages(value)]


def directives() -> dict[str, str]:
    """Each API page's directive targets, by the page's path under docs/."""
    return {
        target: f"api/{page.name}"
        for page in sorted(API.glob("*.md"))
        for target in DIRECTIVE.findall(page.read_text())
    }


def test_every_public_module_has_an_api_page_in_nav():
    nav = nav_pages(yaml.safe_load((ROOT / "mkdocs.yml").read_text())["nav"])
    pages = directives()
    missing = public_modules() - set(pages)
    assert not missing, f"no docs/api page has a `::: module` directive for {sorted(missing)}"
    unlisted = sorted({pages[m] for m in public_modules()} - set(nav))
    assert not unlisted, f"mkdocs.yml's nav does not list {unlisted}"


def test_every_directive_names_a_module_of_the_package():
    for target, page in directives().items():
        parts = target.split(".")
        path = ROOT / "python" / Path(*parts)
        assert path.with_suffix(".py").is_file() or (path / "__init__.py").is_file(), (
            f"docs/{page}: `::: {target}` names no module under python/"
        )


def test_the_dyng_page_lists_exactly_the_public_names():
    text = (API / "dyng.md").read_text()
    listed = re.findall(r"^ {8}- (\w+)$", text, re.MULTILINE)
    submodules = set(assigned(PACKAGE / "__init__.py", "_SUBMODULES"))
    expected = [n for n in assigned(PACKAGE / "__init__.py", "_PUBLIC") if n not in submodules]
    assert listed == expected, "docs/api/dyng.md's members differ from dyng._PUBLIC"


def test_ci_and_pixi_build_the_site_with_pinned_tools():
    assert "bash ci/docs.sh" in (ROOT / ".ci" / "run").read_text()
    lint = yaml.safe_load((ROOT / ".github" / "workflows" / "ci.yml").read_text())["jobs"]["lint"]
    assert any("ci/docs.sh" in str(step.get("run", "")) for step in lint["steps"])
    assert "bash ci/docs.sh" in (ROOT / "pixi.toml").read_text()
    pins = [
        line
        for line in (ROOT / "ci" / "docs-tools.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert pins and all(re.fullmatch(r"[\w.-]+==[\w.]+", line) for line in pins), pins


def test_every_tutorial_is_in_nav_and_linked_from_the_guide_and_readme():
    tutorials = sorted(p.name for p in (ROOT / "docs" / "tutorials").glob("*.md"))
    assert tutorials, "docs/tutorials/ has no pages"
    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text())["nav"]
    section = next(
        item["Tutorials"] for item in nav if isinstance(item, dict) and "Tutorials" in item
    )
    assert sorted(Path(page).name for page in nav_pages(section)) == tutorials
    index, readme = (ROOT / "docs" / "index.md").read_text(), (ROOT / "README.md").read_text()
    for name in tutorials:
        assert f"(tutorials/{name})" in index, f"docs/index.md does not link tutorials/{name}"
        assert f"(docs/tutorials/{name})" in readme, (
            f"README.md does not link docs/tutorials/{name}"
        )

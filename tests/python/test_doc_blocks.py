"""Every fenced code block of README.md, docs/index.md, docs/networkx.md and the tutorials
(docs/tutorials/*.md, found by their folder) runs as written.

A page is read the way a reader types it: its Python blocks run top to bottom in one namespace
(later blocks use the graphs of earlier ones), in a fresh interpreter whose working folder holds
the files the page reads (FIXTURES), and its shell blocks run with bash in that folder, with the
installed `dyng` command on PATH. What a block promises is checked too:

- `print(...)  # text`: that top-level statement prints exactly `text` (every README block
  has at least one);
- `expression  # literal`: a top-level expression whose comment starts with a Python literal
  equals it (`result.count  # 1`);
- `>>>` blocks are doctests (ELLIPSIS);
- `cat FILE  # a / b / c, ...`: the file's lines are `a`, `b`, `c`.

Every README block prints something to check, and every tutorial block checks something (a
print, a literal or a doctest output): a tutorial shows what its code gives.

A block that cannot run in a test (it installs or builds the package, or needs a tool this
machine lacks) is listed in NOT_RUN with the reason and a smaller command that checks what it
can; a block on no list fails the test, so a new block is run or consciously excused. A block
that needs a GPU (GPU_BLOCKS) skips where no CUDA plugin and device are usable.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TUTORIALS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs" / "tutorials").glob("*.md"))
PAGES = ["README.md", "docs/index.md", "docs/networkx.md", *TUTORIALS]

# The files the pages read, written into the working folder before a page runs. Small stand-ins
# with the names the pages use (roadNet-PA.mtx is the SNAP road network in the real world).
FIXTURES = {
    "edges.txt": "# src dst w1 w2\n0 1 3 1\n1 2 1 4\n2 0 2 2\n2 3 5 1\n",
    "roadNet-PA.mtx": (
        "%%MatrixMarket matrix coordinate pattern symmetric\n"
        "% a stand-in for SNAP's roadNet-PA\n6 6 7\n2 1\n3 2\n4 3\n5 4\n6 5\n6 1\n4 1\n"
    ),
    "b/insert.txt": "0 3 2 2 2\n3 5 1 1 1\n",
    "b/delete.txt": "1 2\n",
    "g.txt": "0 1\n1 2\n2 0\n2 3\n3 1\n3 4\n4 0\n",
}

# Stand-ins that install from a package index; ci/gpu_suite.sh sets DYNG_NO_PACKAGE_INDEX=1 on
# the GPU machine, which reaches none (CI, which has one, runs them).
NEEDS_PACKAGE_INDEX = {("bash", "ci/main.sh", "--help")}

# (page, first line of the block) -> (why it does not run here, a command that checks part of it)
NOT_RUN = {
    ("README.md", '"$(ci/find_python.sh)" -m pip install .'): (
        "builds and installs dyng from the checkout (minutes); ci/setup_venv.sh runs this install "
        "before every test run",
        ["bash", "ci/find_python.sh"],
    ),
    (
        "README.md",
        "pixi run build         # python ci/build.py cpu --provider conda --python 3.12: dyng",
    ): (
        "pixi and conda-forge cannot be reached from CI; tests/packaging checks pixi.toml's tasks",
        None,
    ),
    (
        "README.md",
        "ci/main.sh            # set up .venv (finds Python >= 3.12), build dyng, run the demo (dyng demo)",
    ): (
        "ci/test.sh is the command running these tests (.ci/run); ci/main.sh builds dyng and runs "
        "the demo at its default size (tests/python/test_demo.py runs it small)",
        ["bash", "ci/main.sh", "--help"],
    ),
    (
        "README.md",
        "result               graph      update ms  recompute ms  speed-up  fell back  all answers equal",
    ): (
        "the demo's table from one run at its default size (ci/main.sh); its times differ from "
        "run to run; tests/python/test_demo.py checks the table's rows and columns",
        [sys.executable, "-m", "dyng.demo", "--help"],
    ),
    (
        "README.md",
        "python ci/build.py all      # dist/: dyng, dyng-cu12, dyng-cu13 (manylinux_2_28), checked and install-tested",
    ): (
        "builds three wheels with their toolchains (tens of minutes)",
        [sys.executable, "ci/build.py", "--help"],
    ),
    ("docs/networkx.md", 'pip install "dyng[nx]"      # dyng and NetworkX >= 3.4'): (
        "installs from PyPI; the test environment has dyng and NetworkX installed",
        [
            sys.executable,
            "-c",
            "import importlib.metadata as m; "
            "assert any('extra == \"nx\"' in r for r in m.requires('dyng'))",
        ],
    ),
}

# (page, first line): blocks that need a CUDA device.
GPU_BLOCKS = {("docs/index.md", "import cupy, torch")}


def fenced_blocks(text):
    """(language, first line number, code) of every ``` block, in order."""
    blocks = []
    for match in re.finditer(r"^```(\w*)\n(.*?)^```", text, flags=re.S | re.M):
        line = text.count("\n", 0, match.start()) + 2
        blocks.append((match.group(1), line, match.group(2)))
    return blocks


def first_line(code):
    return code.strip().splitlines()[0]


def gpu_usable():
    try:
        import dyng

        return dyng.config()["backends"]["cuda"]
    except Exception:  # noqa: BLE001 - no GPU stack of any kind: nothing to run the block on
        return False


# Runs in a child interpreter: the page's Python blocks in one namespace, one JSON report line
# per block (what it printed, the checks that failed, or the error).
RUNNER = textwrap.dedent(r'''
    import ast, contextlib, doctest, io, json, re, sys, traceback

    def literal_prefix(comment):
        """The Python literal a comment starts with, or a marker for none."""
        for cut in (len(comment), *[m.start() for m in re.finditer(r":\s|;\s|\s\s|\s-|,\s[a-z]", comment)]):
            try:
                return ast.literal_eval(comment[:cut].strip())
            except (ValueError, SyntaxError, MemoryError, RecursionError):
                continue
        return NONE

    NONE = object()

    def run_python(code, where, namespace):
        failures, promised, checked, out = [], 0, 0, io.StringIO()
        tree = ast.parse(code, where)
        lines = code.splitlines()
        for node in tree.body:
            tail = lines[node.end_lineno - 1][node.end_col_offset:]
            comment = tail.split("#", 1)[1].strip() if "#" in tail else ""
            if not isinstance(node, ast.Expr) or not comment:
                with contextlib.redirect_stdout(out):
                    exec(compile(ast.Module([node], []), where, "exec"), namespace)
                continue
            call = node.value
            if isinstance(call, ast.Call) and getattr(call.func, "id", "") == "print":
                promised += 1
                checked += 1
                own = io.StringIO()
                with contextlib.redirect_stdout(own):
                    exec(compile(ast.Module([node], []), where, "exec"), namespace)
                if own.getvalue().rstrip("\n") != comment:
                    failures.append(f"line {node.lineno} printed {own.getvalue()!r}, "
                                    f"the comment promises {comment!r}")
                continue
            with contextlib.redirect_stdout(out):
                value = eval(compile(ast.Expression(call), where, "eval"), namespace)
            expected = literal_prefix(comment)
            checked += expected is not NONE
            if expected is not NONE and value != expected:
                failures.append(f"line {node.lineno}: {value!r} != {expected!r}")
        return promised, checked, failures

    def run_doctest(code, where, namespace):
        test = doctest.DocTestParser().get_doctest(code, namespace, where, where, 0)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        out = io.StringIO()
        runner.run(test, out=out.write, clear_globs=False)
        namespace.update(test.globs)  # the DocTest ran on a copy; later blocks see its names
        checked = sum(bool(example.want) for example in test.examples)
        return 0, checked, ([out.getvalue()] if runner.failures else [])

    page = sys.argv[1]
    namespace = {"__name__": "__doc_block__"}
    for line in sys.stdin:
        block = json.loads(line)
        where = f"{page}:{block['line']}"
        try:
            run = run_doctest if block["code"].lstrip().startswith(">>>") else run_python
            promised, checked, failures = run(block["code"], where, namespace)
            report = {"promised": promised, "checked": checked, "failures": failures}
        except BaseException:  # noqa: BLE001 - reported to the parent, which fails the test
            report = {"error": traceback.format_exc()}
        print(json.dumps(report), flush=True)
''')


def prepare_folder(folder: Path):
    for name, content in FIXTURES.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)


def child_env():
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.pop("DYNG_DEFAULT_RESOURCES", None)
    return env


def check_cat_lines(code, folder: Path):
    """`cat FILE  # a / b / c, ...` promises FILE's lines."""
    failures = []
    for line in code.splitlines():
        match = re.match(r"\s*cat\s+(\S+)\s+#\s*([^,]*)", line)
        if match:
            want = [part.strip() for part in match.group(2).split("/")]
            got = (folder / match.group(1)).read_text().splitlines()
            if got != want:
                failures.append(f"{match.group(1)} holds {got!r}, the comment promises {want!r}")
    return failures


@pytest.mark.parametrize("page", PAGES)
def test_every_block_of_the_page_runs_as_written(page, tmp_path):
    text = (ROOT / page).read_text()
    blocks = fenced_blocks(text)
    assert blocks, f"{page} has no code blocks"
    prepare_folder(tmp_path)
    env = child_env()
    python_blocks, problems, ran = [], [], 0
    for language, line, code in blocks:
        key = (page, first_line(code))
        if key in NOT_RUN:
            _, stand_in = NOT_RUN[key]
            offline = os.environ.get("DYNG_NO_PACKAGE_INDEX") == "1"
            if stand_in is not None and not (offline and tuple(stand_in) in NEEDS_PACKAGE_INDEX):
                done = subprocess.run(stand_in, cwd=ROOT, env=env, capture_output=True, text=True)
                if done.returncode != 0:
                    problems.append(
                        f"{page}:{line}: the stand-in {stand_in} failed:\n"
                        f"{done.stdout}{done.stderr}"
                    )
            continue
        if key in GPU_BLOCKS and not gpu_usable():
            continue
        if language == "python":
            python_blocks.append((line, code))
        elif language == "bash":
            done = subprocess.run(
                ["bash", "-euo", "pipefail", "-c", code],
                cwd=tmp_path,
                env=env,
                capture_output=True,
                text=True,
                timeout=300,
            )
            ran += 1
            if done.returncode != 0:
                problems.append(
                    f"{page}:{line}: exit {done.returncode}\n{done.stdout}{done.stderr}"
                )
            else:
                problems += [f"{page}:{line}: {f}" for f in check_cat_lines(code, tmp_path)]
        else:
            problems.append(
                f"{page}:{line}: a ```{language} block: mark it python or bash, or "
                f"list it in NOT_RUN with the reason"
            )
    if python_blocks:
        feed = "".join(
            json.dumps({"line": line, "code": code}) + "\n" for line, code in python_blocks
        )
        done = subprocess.run(
            [sys.executable, "-c", RUNNER, page],
            input=feed,
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        reports = [json.loads(r) for r in done.stdout.splitlines() if r.startswith("{")]
        assert len(reports) == len(python_blocks), done.stderr
        for (line, _), report in zip(python_blocks, reports):
            ran += 1
            if "error" in report:
                problems.append(f"{page}:{line}: raised\n{report['error']}")
            problems += [f"{page}:{line}: {f}" for f in report.get("failures", [])]
            if "error" in report:
                continue
            if page == "README.md" and not report["promised"]:
                problems.append(f"{page}:{line}: a README python block prints nothing to check")
            if page in TUTORIALS and not report["checked"]:
                problems.append(
                    f"{page}:{line}: a tutorial python block checks nothing; end a line with "
                    f"`# <literal>` or `print(...)  # <text>`, or show its output as a doctest"
                )
    assert not problems, "\n\n".join(problems)
    assert ran > 0


def test_every_excused_block_still_exists():
    """NOT_RUN and GPU_BLOCKS name blocks that are on their pages (no stale excuses)."""
    present = {
        (page, first_line(code))
        for page in PAGES
        for _, _, code in fenced_blocks((ROOT / page).read_text())
    }
    assert set(NOT_RUN) <= present, set(NOT_RUN) - present
    assert set(GPU_BLOCKS) <= present, set(GPU_BLOCKS) - present

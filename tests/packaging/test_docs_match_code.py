"""Docs that cannot drift: docs/developer/architecture.md's folder map is held to the tree, and
docs/index.md's profiler stages and OpenMP thresholds to the code that defines them.

Both are read from the source (C++ and Python), so the checks run without a build; a pattern
here that finds nothing fails, so a refactor that moves a definition updates this test instead of
silencing it.
"""

import pathlib
import re

import pytest

from dyng import _registry

ROOT = pathlib.Path(__file__).resolve().parents[2]
ARCHITECTURE = ROOT / "docs" / "developer" / "architecture.md"
INDEX = ROOT / "docs" / "index.md"
ALGORITHM_FOLDER = "src/dyng/<algorithm>/"
# A file or folder name as the map writes it; not part of a pattern such as <algo>_cpu.cpp.
FILE_NAME = re.compile(r"(?<![\w>])[\w./-]+\.(?:hpp|cpp|cuh|cu|py|sh|md|cmake|toml|yaml)\b")
FOLDER_NAME = re.compile(r"(?<![\w./<-])([a-z_][\w-]*(?:/[a-z_][\w-]*)*)/(?![\w*<])")


# --- architecture.md's folder map ---------------------------------------------------------------


def folder_map():
    """{folder as the map writes it: its text}, from the first code block of architecture.md."""
    text = ARCHITECTURE.read_text()
    block = re.search(r"^```\n(.*?)^```", text, re.S | re.M)
    assert block, "architecture.md lost its folder map (the first ``` block)"
    entries, current = {}, None
    for line in block.group(1).splitlines():
        head = re.match(r"(\S+/)\s+(.*)", line)
        if head:
            current = head.group(1)
            entries[current] = head.group(2)
        elif current is not None:
            entries[current] += " " + line.strip()
    assert len(entries) > 10, entries
    return entries


def _folders_of(entry):
    """The folders an entry stands for: the algorithm entry one per registered algorithm, another
    pattern (``tests/cpp/<area>/``) the folder it starts with."""
    if entry == ALGORITHM_FOLDER:
        return [ROOT / "src" / "dyng" / name for name in _registry.ALGORITHM_MODULES]
    return [ROOT / entry.split("<")[0]]


def _exists_under(folder, name, kind):
    """Whether `name` (a file or folder name, or a path with slashes) is under `folder`, or is a
    sibling folder (core/ naming backend/)."""
    if (ROOT / name).exists() and "/" in name:
        return True
    test = pathlib.Path.is_file if kind == "file" else pathlib.Path.is_dir
    if test(folder / name) or (kind == "dir" and test(folder.parent / name)):
        return True
    return any(test(path) and path.as_posix().endswith("/" + name) for path in folder.rglob("*"))


def test_every_folder_and_file_the_map_names_exists():
    missing = []
    for entry, words in folder_map().items():
        for folder in _folders_of(entry):
            if not folder.is_dir():
                missing.append(f"{entry} ({folder.relative_to(ROOT)})")
                continue
            for name in FILE_NAME.findall(words):
                if not _exists_under(folder, name, "file"):
                    missing.append(f"{entry}: {name}")
            for name in FOLDER_NAME.findall(words):
                if not _exists_under(folder, name, "dir"):
                    missing.append(f"{entry}: {name}/")
    assert not missing, f"architecture.md's folder map names what is not in the tree: {missing}"


@pytest.mark.parametrize("top", ["src/dyng", "python/dyng"])
def test_every_folder_of_the_library_is_in_the_map(top):
    """Each folder has its own entry, or is named (``name/``) in the entry of the folder above
    it; an algorithm folder is the algorithm entry's, and must be a registered algorithm."""
    entries = folder_map()
    named = {}  # folder path: the words that must name its subfolders
    for entry, words in entries.items():
        for folder in _folders_of(entry):
            named[folder] = words
    unmapped = []
    for folder in sorted(p for p in (ROOT / top).rglob("*") if p.is_dir()):
        if folder.name == "__pycache__" or folder in named:
            continue
        parent = next((p for p in folder.parents if p in named), None)
        relative = folder.relative_to(parent).as_posix() if parent else None
        if parent is None or relative + "/" not in named[parent] + " ":
            unmapped.append(folder.relative_to(ROOT).as_posix())
    assert not unmapped, (
        f"folders that architecture.md's folder map does not name (a new "
        f"algorithm folder must be registered in dyng/_registry.py): {unmapped}"
    )


def test_the_map_names_no_algorithm():
    """The algorithm entry stands for the registry: a list of names there would drift."""
    words = folder_map()[ALGORITHM_FOLDER]
    assert not [name for name in _registry.ALGORITHM_MODULES if name in words]


# --- index.md's profiler stages -----------------------------------------------------------------

STAGE = r"[a-z_]+\.[a-z_]+"


def _sources(*tops, suffixes=(".hpp", ".cpp", ".cu", ".cuh")):
    for top in tops:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in suffixes:
                yield path, path.read_text()


def code_stages():
    """(named, per_algorithm): the stage names the code opens, and the steps it opens for every
    algorithm under the algorithm's own name (``<algorithm>.<step>``)."""
    named, per_algorithm = set(), set()
    for _, text in _sources("src/dyng", "python/bindings"):
        for line in text.splitlines():
            # A stage named in a constant the shared steps open (k_<step>_stage = "...").
            if (
                "stage_scope_t" in line
                or re.search(r"stage\.emplace\(", line)
                or re.search(r"\bk_\w*_stage\s*=", line)
            ):
                named.update(re.findall(rf'"({STAGE})"', line))
                per_algorithm.update(
                    re.findall(r'stage_scope_t\s+\w+\(\s*algorithm,\s*"\.([a-z_]+)"', line)
                )
        # The bindings name each entry point's stage <algorithm>.compute / .update.
        per_algorithm.update(re.findall(r'std::string\(algorithm\)\s*\+\s*"\.([a-z_]+)"', text))
    update = (ROOT / "python" / "dyng" / "_update.py").read_text()
    named.update(re.findall(rf'_function="({STAGE})"', update))
    return named, per_algorithm


def code_counters():
    found = set()
    for _, text in _sources("src/dyng", "python/bindings"):
        found.update(re.findall(r'count_in_profile\("([a-z_.]+)"', text))
    return found


def _index_bullet(start):
    """The text of index.md's Profiling bullet that begins with `start`, nested bullets included."""
    text = INDEX.read_text()
    section = text[text.index("## Profiling") :]
    section = section[: section.index("\n## ", 1)] if "\n## " in section[1:] else section
    begin = section.index(f"- {start}")
    end = re.search(r"^- ", section[begin + 2 :], re.M)
    return section[begin : begin + 2 + end.start()] if end else section[begin:]


def documented(start):
    return set(re.findall(r"`((?:<algorithm>|[a-z_]+)(?:\.[a-z_]+)+)`", _index_bullet(start)))


def test_the_code_opens_the_stages_it_always_did():
    named, per_algorithm = code_stages()
    # Guards against a pattern above that stops matching after a refactor.
    assert {"graph.apply", "sssp.loop", "dyng.update"} <= named
    assert {"compute", "update", "repair", "undo", "recompute"} <= per_algorithm
    assert {"graph.apply.entries", "update.recomputes"} <= code_counters()


def test_index_lists_every_stage_the_code_opens():
    named, per_algorithm = code_stages()
    docs = documented("Stage names")
    generic = {s.split(".", 1)[1] for s in docs if s.startswith("<algorithm>.")}
    missing = sorted(
        s
        for s in named
        if s not in docs
        and not (s.split(".")[0] in _registry.ALGORITHM_MODULES and s.split(".", 1)[1] in generic)
    )
    missing += sorted(f"<algorithm>.{step}" for step in per_algorithm - generic)
    assert not missing, f"docs/index.md (Profiling, Stage names) does not list {missing}"


def test_index_lists_no_stage_the_code_lacks():
    named, per_algorithm = code_stages()
    stale = []
    for stage in documented("Stage names"):
        area, step = stage.split(".", 1)
        if area == "<algorithm>":
            if step not in per_algorithm:
                stale.append(stage)
        elif stage not in named and not (
            area in _registry.ALGORITHM_MODULES and step in per_algorithm
        ):
            stale.append(stage)
    assert not stale, f"docs/index.md lists stages no code opens: {sorted(stale)}"


def test_index_lists_the_counters():
    assert documented("Counters") == code_counters()


# --- index.md's OpenMP thresholds ---------------------------------------------------------------


def parallel_min_edges(name):
    """The stored-edge count below which algorithm `name`'s OpenMP backend runs sequentially
    (its k_default_parallel_min_edges, or the one of the algorithm it reuses)."""
    folder = ROOT / "src" / "dyng" / name
    for _, text in _sources(folder.relative_to(ROOT)):
        found = re.search(r"k_default_parallel_min_edges\s*=\s*([\d']+)", text)
        if found:
            return int(found.group(1).replace("'", ""))
    for _, text in _sources(folder.relative_to(ROOT)):
        borrowed = re.search(r"(\w+)::k_default_parallel_min_edges", text)
        if borrowed:
            return parallel_min_edges(borrowed.group(1))
    raise AssertionError(
        f"no k_default_parallel_min_edges for {name} under src/dyng/{name}/; "
        f"update this test to where the default lives now"
    )


def index_thresholds():
    """{algorithm: edges} from index.md's table of sequential thresholds."""
    text = INDEX.read_text()
    rows = re.findall(r"^\| `(\w+)` \| ([\d,]+) \|$", text, re.M)
    assert rows, "docs/index.md lost its table of OpenMP thresholds (| `algorithm` | edges |)"
    return {name: int(edges.replace(",", "")) for name, edges in rows}


def test_index_gives_each_algorithms_openmp_threshold():
    assert index_thresholds() == {
        name: parallel_min_edges(name) for name in _registry.ALGORITHM_MODULES
    }


def test_index_gives_the_parallel_apply_threshold():
    tuning = (ROOT / "src" / "dyng" / "graph" / "detail" / "apply_tuning.hpp").read_text()
    changes = int(re.search(r"parallel_min_changes\s*=\s*(\d+)", tuning).group(1))
    assert f"write a large batch ({changes:,} entries or more)" in INDEX.read_text()

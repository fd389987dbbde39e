"""The C++ library's layers point one way: backend/ builds on core/, never the reverse
(docs/developer/architecture.md). core/ holds what every layer shares; a core header that
included the backend would make the two folders one tangle again, as they were when the update
policy included the profiler (the stage scopes it opens now live in core/stage_scope.hpp)."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORE = ROOT / "src" / "dyng" / "core"
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.MULTILINE)


def _includes(path):
    return INCLUDE.findall(path.read_text())


def test_core_includes_nothing_from_backend():
    sources = [p for p in CORE.rglob("*") if p.suffix in {".hpp", ".cpp", ".cuh", ".cu", ".h"}]
    assert sources, f"no C++ sources under {CORE}"
    offending = [
        f"{p.relative_to(ROOT)}: #include {name}"
        for p in sources
        for name in _includes(p)
        if "backend/" in name
    ]
    assert not offending, (
        "core/ must not include backend/ (backend builds on core); move what "
        f"core needs into core/: {offending}"
    )


# What each lower folder of src/dyng may include from dyng; the algorithm folders above them may
# include any of these (and mosp includes sssp).
LOWER_LAYERS = {"core": {"core"}, "backend": {"core", "backend"}}


def test_lower_layers_include_only_what_is_below_them():
    offending = []
    for folder, allowed in LOWER_LAYERS.items():
        for path in (ROOT / "src" / "dyng" / folder).rglob("*"):
            if path.suffix not in {".hpp", ".cpp", ".cuh", ".cu", ".h"}:
                continue
            for name in _includes(path):
                parts = name.split("/")
                if parts[0] == "dyng" and len(parts) > 2 and parts[1] not in allowed:
                    offending.append(f"{path.relative_to(ROOT)}: #include {name}")
    assert not offending, (
        "a lower layer includes a folder above it (architecture.md's layers); "
        f"move the header up to the folder it needs: {offending}"
    )

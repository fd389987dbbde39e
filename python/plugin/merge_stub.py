"""Writes the CUDA plugin's type stub (dyng_cu<N>/_core.pyi) from the CPU module's stub and the
plugin's extras.

One stub is committed whole: python/dyng/_core.pyi, what nanobind's stubgen writes for the CPU
module (tests/python/test_stubs.py holds it to the built module). A CUDA module binds the same
things and more: methods added to a CPU class (the graph's device copy) and classes and functions
of its own (device results, the CUDA runtime, staged batches), bound after everything the CPU
module has. python/plugin/device_stub.pyi holds only those extras, written as stubgen writes them:

- an import line ``from <module> import <names>`` merges its names into the CPU stub's line for
  that module;
- ``class <Name>:`` of a class the CPU stub has appends its members to the end of that class;
- every other definition is appended to the end of the stub, in the fragment's order.

The plugin build (python/CMakeLists.txt) runs this at build time, without importing the module,
which a cross or shared-runtime build could not do. On a GPU machine test_stubs.py holds the
merged stub equal to stubgen's output for the CUDA module. After changing the device bindings,
write the fragment from that output (``--extract``, the inverse of the merge).

Usage: python merge_stub.py <cpu stub> <device fragment> <output>
       python merge_stub.py --extract <cpu stub> <a CUDA module's full stub> <device fragment>
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

#: The fragment's first lines (``--extract`` writes them; the merge skips comments).
FRAGMENT_HEADER = """\
# The CUDA plugin module's additions to python/dyng/_core.pyi, as nanobind's stubgen writes them:
# python/plugin/merge_stub.py merges them into the plugin's _core.pyi at build time (its docstring
# says how, and how to rewrite this file from a CUDA build's stub). test_stubs.py checks both.
"""

_IMPORT = re.compile(r"^(?:from (\S+) import (.+)|import \S+)$")
_CLASS = re.compile(r"^class (\w+)\b")


class StubFormatError(ValueError):
    """A stub or fragment that is not laid out as nanobind's stubgen lays stubs out."""


def _split(text: str, where: str) -> tuple[list[str], list[str]]:
    """(header lines up to the first definition, top-level blocks): a block is a definition with
    its indented lines (and the decorators above it), without the blank lines between blocks."""
    lines = text.splitlines()
    first = next(
        (
            i
            for i, line in enumerate(lines)
            if line and not line.startswith(("#", '"""', " ")) and not _IMPORT.match(line)
        ),
        len(lines),
    )
    header, blocks = lines[:first], []
    current: list[str] = []
    for line in lines[first:]:
        starts_block = bool(line) and not line.startswith(" ")
        if starts_block and current and not current[-1].startswith("@"):
            blocks.append(current)
            current = []
        current.append(line)
    if current:
        blocks.append(current)
    result = ["\n".join(block).rstrip("\n") for block in blocks]
    if "\n\n".join(result) != "\n".join(lines[first:]).rstrip("\n"):
        raise StubFormatError(
            f"{where}: top-level definitions must be separated by exactly one "
            "blank line, as nanobind's stubgen writes them"
        )
    return header, result


def _merge_imports(header: list[str], extra: list[str], where: str) -> list[str]:
    merged = list(header)
    for line in extra:
        match = _IMPORT.match(line)
        if not line or line.startswith("#"):
            continue
        if not match or match.group(1) is None:
            raise StubFormatError(
                f"{where}: only 'from <module> import <names>' lines may "
                f"precede the definitions, not {line!r}"
            )
        module, names = match.group(1), [n.strip() for n in match.group(2).split(",")]
        prefix = f"from {module} import "
        index = next((i for i, h in enumerate(merged) if h.startswith(prefix)), None)
        if index is None:
            raise StubFormatError(
                f"{where}: the CPU stub imports nothing from {module}; add its "
                "placement to merge_stub.py"
            )
        present = [n.strip() for n in merged[index][len(prefix) :].split(",")]
        merged[index] = prefix + ", ".join(sorted(set(present) | set(names)))
    return merged


def merge(cpu_stub: str, fragment: str) -> str:
    """The plugin's stub: ``cpu_stub`` with ``fragment``'s extras merged in (module docstring)."""
    header, blocks = _split(cpu_stub, "the CPU stub")
    extra_header, extras = _split(fragment, "the device fragment")
    classes = {m.group(1): i for i, block in enumerate(blocks) if (m := _CLASS.match(block))}
    names = {_name(block) for block in blocks}
    merged = list(blocks)
    for block in extras:
        match = _CLASS.match(block)
        if match and match.group(1) in classes:
            members = block.split("\n", 1)[1].lstrip("\n") if "\n" in block else ""
            if not members:
                raise StubFormatError(f"the device fragment's {match.group(1)} adds no members")
            merged[classes[match.group(1)]] += "\n\n" + members
        elif _name(block) in names:
            raise StubFormatError(
                f"the device fragment defines {_name(block)} again; the CPU stub has it already"
            )
        else:
            merged.append(block)
    head = "\n".join(_merge_imports(header, extra_header, "the device fragment"))
    return head + "\n" + "\n\n".join(merged) + "\n"


def _name(block: str) -> str:
    line = next(line for line in block.splitlines() if not line.startswith("@"))
    return re.split(r"[\s:(=\[]", line.removeprefix("class ").removeprefix("def "), maxsplit=1)[0]


def extract(cpu_stub: str, cuda_stub: str) -> str:
    """The device fragment that :func:`merge` turns ``cpu_stub`` into ``cuda_stub`` with."""
    header, blocks = _split(cpu_stub, "the CPU stub")
    cuda_header, cuda_blocks = _split(cuda_stub, "the CUDA stub")
    imports = []
    for line in cuda_header:
        match = _IMPORT.match(line)
        if not match or match.group(1) is None:
            continue
        prefix = f"from {match.group(1)} import "
        present = next((h[len(prefix) :] for h in header if h.startswith(prefix)), "")
        extra = set(match.group(2).split(", ")) - set(present.split(", "))
        if extra:
            imports.append(prefix + ", ".join(sorted(extra)))
    by_name = {_name(block): block for block in blocks}
    extras = []
    for block in cuda_blocks:
        cpu = by_name.get(_name(block))
        if cpu is None:
            extras.append(block)
        elif block != cpu:
            if not (_CLASS.match(block) and block.startswith(cpu + "\n\n")):
                raise StubFormatError(
                    f"{_name(block)} differs between the CPU and the CUDA stub "
                    "beyond members added at its end; regenerate the CPU stub"
                )
            extras.append(block.split("\n", 1)[0] + "\n" + block[len(cpu) + 2 :])
    fragment = (
        FRAGMENT_HEADER
        + "\n"
        + "".join(line + "\n" for line in imports)
        + "\n"
        + "\n\n".join(extras)
        + "\n"
    )
    if merge(cpu_stub, fragment) != cuda_stub:
        raise StubFormatError(
            "the CUDA stub is not the CPU stub with additions at the ends of "
            "classes and of the module; bind what only CUDA has last"
        )
    return fragment


def main(argv: list[str]) -> int:
    operation = merge
    if argv[:1] == ["--extract"]:
        operation, argv = extract, argv[1:]
    if len(argv) != 3:
        print("\n".join(__doc__.strip().splitlines()[-2:]), file=sys.stderr)
        return 2
    first, second, output = (Path(a) for a in argv)
    text = operation(first.read_text(), second.read_text())
    if not output.is_file() or output.read_text() != text:
        output.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Writes the small subset of TOML a pyproject.toml uses (tomllib reads, nothing in 3.12 writes).

Tables become [headers]; lists of tables (authors) and small tables inside lists become inline
tables. Enough for the rendered plugin pyproject; a test reads every output back with tomllib.
"""

from __future__ import annotations

import json
import re
from typing import Any

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(key: str) -> str:
    return key if _BARE_KEY.match(key) else json.dumps(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        # JSON string escapes are valid TOML basic-string escapes.
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {type(value).__name__} as TOML: {value!r}")


def _table(name: list[str], table: dict[str, Any], out: list[str]) -> None:
    scalars = {k: v for k, v in table.items() if not isinstance(v, dict)}
    tables = {k: v for k, v in table.items() if isinstance(v, dict)}
    if name and (scalars or not tables):
        out.append("")
        out.append("[" + ".".join(_key(k) for k in name) + "]")
    for key, value in scalars.items():
        out.append(f"{_key(key)} = {_value(value)}")
    for key, value in tables.items():
        _table([*name, key], value, out)


def dumps(document: dict[str, Any], header: str = "") -> str:
    """TOML text for ``document``; ``header`` lines are written first as comments."""
    out = [f"# {line}" if line else "#" for line in header.splitlines()]
    _table([], document, out)
    return "\n".join(out).lstrip("\n") + "\n"

"""README's quick start runs as written and prints what its comments promise."""

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def python_blocks(text):
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def promised_output(block):
    """The `# expected` comment of every print(...) line, in order."""
    promised = []
    for line in block.splitlines():
        match = re.match(r"\s*print\(.*\)\s+#\s?(.*)$", line)
        if match:
            promised.append(match.group(1).strip())
    return promised


def test_quick_start_prints_what_it_promises():
    blocks = python_blocks(README.read_text())
    assert blocks, "README.md has no ```python block: the quick start is missing"
    for block in blocks:
        expected = promised_output(block)
        assert expected, "a README python block prints nothing to check"
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, str(README), "exec"), {"__name__": "__readme__"})
        assert out.getvalue().splitlines() == expected

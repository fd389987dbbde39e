"""The sources' shape: no function outside GPU kernels longer than 80 lines (issue 41, "Named
steps"), checked with ci/check_function_length.py, and no comment in src/ that quotes timings of
one machine (ci/check_comment_timings.py): figures live in bench/README.md.

The checkers themselves are tested on small synthetic sources, so a checker that stopped seeing
long functions (or timings) fails here instead of passing everything.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "ci"))

import check_comment_timings  # noqa: E402
import check_function_length  # noqa: E402


def _long(limit: int, tmp_path: Path, name: str, text: str) -> list[str]:
    path = tmp_path / name
    path.write_text(text)
    found = check_function_length.long_functions(limit, [path], tmp_path)
    return [f"{f.name}:{f.length}" for f in found]


@pytest.fixture(scope="module")
def long_functions() -> list[check_function_length.Function]:
    return check_function_length.long_functions()


def test_no_long_functions(long_functions: list[check_function_length.Function]) -> None:
    unexpected = [str(f) for f in long_functions]
    assert not unexpected, (
        "functions longer than 80 lines; split them into named steps:\n" + "\n".join(unexpected)
    )


def test_checker_measures_cpp_functions(tmp_path: Path) -> None:
    body = "\n".join(f"  x += {i};" for i in range(8))
    src = f"""
#include <vector>
namespace a {{
template <class T, class U = std::vector<T>>
int f(const T& t, U u = {{}}, int k = 3) {{  // name line
  int x = 0;
{body}
  return x;
}}
struct s_t {{
  s_t(int a) : a_(a), b_{{a}} {{
{body}
  }}
  int a_, b_;
}};
__global__ void kernel(int* p) {{
{body}
}}
__host__ __device__ int both(int x) {{
{body}
  return x;
}}
}}  // namespace a
extern "C" {{
int in_c_block(int x) {{
{body}
  return x;
}}
}}
extern "C" void c_entry(int x) {{
{body}
}}
"""
    found = _long(5, tmp_path, "a.cpp", src)
    assert found == ["f:12", "s_t::s_t:10", "both:11", "in_c_block:11", "c_entry:10"]


def test_checker_counts_lambdas_in_their_function(tmp_path: Path) -> None:
    body = "\n".join(f"    y += {i};" for i in range(8))
    src = f"""
void outer() {{
  int v[3] = {{1, 2, 3}};
  auto step = [&](int y) -> int {{
{body}
    return v[0] + y;
  }};
  step(1);
}}
"""
    assert _long(5, tmp_path, "b.cpp", src) == ["outer:15", "outer::step:11"]


def test_checker_measures_python_functions(tmp_path: Path) -> None:
    src = "def outer():\n    def inner():\n" + "        x = 1\n" * 8 + "    return inner\n"
    assert _long(5, tmp_path, "c.py", src) == ["outer:11", "outer.inner:9"]


def test_checker_leaves_out_python_docstrings(tmp_path: Path) -> None:
    src = 'def f():\n    """Doc.\n\n' + "    text\n" * 20 + '    """\n' + "    x = 1\n" * 4
    assert _long(5, tmp_path, "e.py", src) == []
    assert _long(4, tmp_path, "e.py", src) == ["f:5"]


def test_checker_ignores_strings_comments_and_control_blocks(tmp_path: Path) -> None:
    src = (
        'void g() {\n  const char* s = "{{{";  // }}}\n  if (true) {\n' + "    ;\n" * 8 + "  }\n}\n"
    )
    assert _long(5, tmp_path, "d.cpp", src) == ["g:13"]


def test_no_timings_in_src_comments() -> None:
    found = check_comment_timings.timing_comments()
    assert not found, (
        "comments that quote timings (say why; put the figures in bench/README.md):\n"
        + "\n".join(found)
    )


@pytest.mark.parametrize(
    "comment",
    [
        "// took 40 ms on the 2-core machine",
        "/// 1.17-1.22 s against 1.36 s",
        "/* about 0.4 ms per MiB */",
        "// 2x slower than the sequential one",
        "// 5 us per barrier",
        "// at 12 GB/s",
        "// 340 ns a vertex",
    ],
)
def test_timing_check_sees_timings(tmp_path: Path, comment: str) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.hpp").write_text(f"int x;\n{comment}\nint y;\n")
    assert len(check_comment_timings.timing_comments(tmp_path)) == 1


@pytest.mark.parametrize(
    "line",
    [
        "// R-MAT 20's rows, K = 3",
        "// sorts slots [0, s) of c",
        "// phase k - 1's bin",
        "// 2 x capacity: near, then far",
        'const char* u = "5 ms";  // a label',
        "// 64-bit ids",
    ],
)
def test_timing_check_leaves_other_numbers(tmp_path: Path, line: str) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.hpp").write_text(line + "\n")
    assert check_comment_timings.timing_comments(tmp_path) == []

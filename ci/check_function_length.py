"""Find functions whose bodies are longer than a limit, in dyng's C++/CUDA and Python sources.

A function that carries a whole algorithm hides its steps in numbered comments; the project's rule
(issue 41, docs/developer STYLE "Named steps") is that no function outside GPU kernels is longer
than 80 lines, so that each step has a name. This script lists the ones that are:

    python ci/check_function_length.py            # every function over 80 lines: file:line name
    python ci/check_function_length.py --limit 60 src/dyng/mosp

A function's length is its own span: from the line of its name to the line of its closing brace
(C++) or its last statement (Python), blank and comment lines included, lambdas and nested
functions included (a long lambda keeps its function long). Documentation is not counted: a C++
function's ``///`` block stands above its name, outside the span, and a Python function's
docstring (numpydoc, with its Examples section) is left out of its span alike. Lambdas and
nested functions are also measured on their own, named ``outer::<lambda>`` (or by the variable
they initialise) and ``outer.inner``, so a split into one long lambda still shows.

C++ is read without a compiler: comments, string and character literals and preprocessor lines
are removed, then braces are matched. A brace opens a function body when the text before it (since
the last ``;``, ``{`` or ``}`` of the same scope) is a declarator with a parameter list, or a lambda
introducer; class, struct, union, enum and namespace bodies are scopes searched for more functions.
``__global__`` kernels are left out: a kernel is one unit of launch whose body is the thread's
whole work (the issue counts functions "outside GPU kernels"). ``__device__`` helpers (without
``__host__``) are left out for the same reason: they are pieces of a kernel, inlined into it,
and splitting them further only spreads one thread's loop over several files. ``__host__
__device__`` functions run on the host too and are measured.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 80
CPP_SUFFIXES = (".cpp", ".hpp", ".cu", ".cuh", ".h", ".cc")
CPP_ROOTS = ("src", "python/bindings")
PY_ROOTS = ("python",)

_CONTROL = {
    "if",
    "for",
    "while",
    "switch",
    "catch",
    "return",
    "sizeof",
    "alignof",
    "decltype",
    "noexcept",
    "requires",
    "static_assert",
    "alignas",
    "__launch_bounds__",
    "defined",
    "throw",
    "co_return",
    "co_await",
    "new",
    "delete",
    "typeid",
    "assert",
}
_SCOPE_KEYWORDS = {"class", "struct", "union", "enum", "namespace", "extern"}
_ACCESS = {"public", "private", "protected"}


@dataclass(frozen=True)
class Function:
    path: str  # relative to the repository root, with forward slashes
    line: int  # line of the function's name (C++) or its ``def`` (Python)
    name: str
    length: int  # lines from ``line`` to the end of the body, inclusive

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.name} ({self.length} lines)"


# --------------------------------------------------------------------------------------------
# C++ tokens


@dataclass(frozen=True)
class _Token:
    text: str
    line: int


_TOKEN = re.compile(
    r"""
    (?P<ident>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<number>\.?[0-9](?:[0-9A-Za-z_.]|'(?=[0-9A-Za-z])|[eEpP][+-])*)
  | (?P<punct>::|->|\.\.\.|[{}()\[\];,<>:=&*~!+\-/%^|?.#])
""",
    re.VERBOSE,
)


def _after_word(text: str, i: int) -> bool:
    """Whether text[i] follows a letter, digit or underscore (a ' there is a digit separator, an
    R a name's last letter)."""
    return i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_")


def strip_cpp(text: str) -> str:
    """Blank out comments, string/character literals and preprocessor lines, keeping line breaks.

    Every removed character except a newline becomes a space, so line numbers and columns stay.
    """
    out: list[str] = []
    i, n = 0, len(text)
    line_start = True  # only whitespace since the last newline
    while i < n:
        c = text[i]
        if c == "\n":
            out.append(c)
            i += 1
            line_start = True
            continue
        if line_start and c == "#":
            # A directive runs to the end of the line, continued by a trailing backslash.
            j = i
            while j < n:
                if text[j] == "\n" and text[j - 1] != "\\":
                    break
                j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        if not c.isspace():
            line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i) and not _after_word(text, i):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if m is None:
                out.append(c)
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i)
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"' or (c == "'" and not _after_word(text, i)):
            # A ' after a digit or letter is a digit separator (1'000) or part of a prefix we keep.
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def tokenize_cpp(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    for line_no, line in enumerate(strip_cpp(text).split("\n"), start=1):
        for m in _TOKEN.finditer(line):
            tokens.append(_Token(m.group(0), line_no))
    return tokens


def _match(tokens: list[_Token], i: int, open_: str, close: str) -> int:
    """Index of the token closing the bracket opened at ``i`` (or the last token)."""
    depth = 0
    for j in range(i, len(tokens)):
        t = tokens[j].text
        if t == open_:
            depth += 1
        elif t == close:
            depth -= 1
            if depth == 0:
                return j
    return len(tokens) - 1


def _match_back(tokens: list[_Token], i: int, open_: str, close: str) -> int:
    """Index of the token opening the bracket closed at ``i``."""
    depth = 0
    for j in range(i, -1, -1):
        t = tokens[j].text
        if t == close:
            depth += 1
        elif t == open_:
            depth -= 1
            if depth == 0:
                return j
    return 0


# --------------------------------------------------------------------------------------------
# C++ structure


class _CppScanner:
    def __init__(self, path: str, tokens: list[_Token]) -> None:
        self.path = path
        self.t = tokens
        self.found: list[Function] = []

    # Scopes: namespace, class, file. Collect a header until a brace, then decide what it opens.
    def scope(self, start: int, end: int, prefix: str) -> None:
        header: list[int] = []  # token indices since the last terminator
        i = start
        while i < end:
            text = self.t[i].text
            if text == ";" or text == "}":
                header = []
                i += 1
            elif text == ":" and len(header) == 1 and self.t[header[0]].text in _ACCESS:
                header = []
                i += 1
            elif text in ("(", "["):
                close = _match(self.t, i, text, ")" if text == "(" else "]")
                header.extend(range(i, close + 1))
                i = close + 1
            elif text == "{":
                i = self.brace_at_scope(header, i, prefix)
                header = []
            else:
                header.append(i)
                i += 1

    def brace_at_scope(self, header: list[int], brace: int, prefix: str) -> int:
        """Handles the brace at ``brace`` opened after ``header`` at scope level; returns the
        index after what it opens."""
        words = [self.t[k].text for k in header]
        close = _match(self.t, brace, "{", "}")
        head = words[_skip_template(words) :]
        if (
            head
            and head[0] in _SCOPE_KEYWORDS
            and (head[0] not in ("extern", "namespace") or "(" not in head)
        ):
            # namespace a {, extern "C" {, struct alignas(64) name : base {, enum class e {
            # (but extern "C" void f(...) { is a function)
            kind = head[0]
            name = _scope_name(head) if kind in ("class", "struct", "union", "enum") else ""
            self.scope(brace + 1, close, prefix + name + "::" if name else prefix)
            return close + 1
        if "[" in words and "=" in _top_level(words):
            # inline constexpr auto f = [](...) { ... };  a lambda at namespace scope.
            after = self.lambda_at(brace, header)
            if after is not None:
                return after
        if _constructor_body(words) is not None and not _ends_declarator(self.t[brace - 1].text):
            # ``X::X(args) : a_(b), c_{d} {``: an initializer's braces; the body comes later.
            return self.after_initializer(header, brace, close, prefix)
        if "__global__" in words or ("__device__" in words and "__host__" not in words):
            return close + 1  # a GPU kernel or a piece of one: not measured
        return self.function_at(header, brace, close, prefix)

    def function_at(self, header: list[int], brace: int, close: int, prefix: str) -> int:
        """Records the function whose body is [brace, close] if ``header`` declares one."""
        name_at = _function_name(self.t, header)
        if name_at is None:
            return close + 1  # an initializer, an array, an enum body: nothing to measure
        name, name_index = name_at
        self.record(prefix + name, self.t[name_index].line, self.t[close].line)
        self.body(brace + 1, close, prefix + name)
        return close + 1

    def after_initializer(self, header: list[int], brace: int, close: int, prefix: str) -> int:
        """Goes on through a constructor's initializer list from the initializer brace at
        ``brace`` to the body: the first brace after ``)``, ``}`` or a qualifier."""
        j = close + 1
        extended = header + list(range(brace, close + 1))
        while j < len(self.t):
            text = self.t[j].text
            if text in ("(", "["):
                c = _match(self.t, j, text, ")" if text == "(" else "]")
                extended.extend(range(j, c + 1))
                j = c + 1
            elif text == "{":
                c = _match(self.t, j, "{", "}")
                if _ends_declarator(self.t[j - 1].text):
                    return self.function_at(extended, j, c, prefix)
                extended.extend(range(j, c + 1))
                j = c + 1
            elif text == ";":
                return j + 1
            else:
                extended.append(j)
                j += 1
        return j

    # Function bodies: look for lambdas and local classes only.
    def body(self, start: int, end: int, owner: str) -> None:
        i = start
        while i < end:
            text = self.t[i].text
            if text == "[" and _opens_lambda(self.t, i):
                i = self.lambda_from(i, owner)
            elif (
                text in ("struct", "class")
                and i + 2 < end
                and self.t[i + 2].text in ("{", ":", "final")
            ):
                j = i
                while j < end and self.t[j].text not in ("{", ";"):
                    j += 1
                if j < end and self.t[j].text == "{":
                    close = _match(self.t, j, "{", "}")
                    self.scope(j + 1, close, owner + "::" + self.t[i + 1].text + "::")
                    i = close + 1
                else:
                    i = j + 1
            else:
                i += 1

    def lambda_from(self, bracket: int, owner: str) -> int:
        """Measure the lambda whose introducer opens at ``bracket``; return the index after it."""
        j = _match(self.t, bracket, "[", "]") + 1
        if j < len(self.t) and self.t[j].text == "<":
            j = _match(self.t, j, "<", ">") + 1
        if j < len(self.t) and self.t[j].text == "(":
            j = _match(self.t, j, "(", ")") + 1
        while j < len(self.t) and self.t[j].text not in ("{", ";", ")", ","):
            if self.t[j].text == "(":
                j = _match(self.t, j, "(", ")")
            j += 1
        if j >= len(self.t) or self.t[j].text != "{":
            return bracket + 1
        close = _match(self.t, j, "{", "}")
        name = "<lambda>"
        if (
            bracket >= 2
            and self.t[bracket - 1].text == "="
            and re.match(r"\w+$", self.t[bracket - 2].text)
        ):
            name = self.t[bracket - 2].text
        full = f"{owner}::{name}"
        self.record(full, self.t[bracket].line, self.t[close].line)
        self.body(j + 1, close, full)
        return close + 1

    def lambda_at(self, brace: int, header: list[int]) -> int | None:
        for k in header:
            if self.t[k].text == "[" and _opens_lambda(self.t, k):
                owner = self.t[k - 2].text if k >= 2 and self.t[k - 1].text == "=" else "<lambda>"
                close = _match(self.t, brace, "{", "}")
                self.record(owner, self.t[k].line, self.t[close].line)
                self.body(brace + 1, close, owner)
                return close + 1
        return None

    def record(self, name: str, first: int, last: int) -> None:
        self.found.append(Function(self.path, first, name, last - first + 1))


def _skip_template(words: list[str]) -> int:
    """Index after leading ``template <...>`` clauses and attributes."""
    i = 0
    while i < len(words):
        if words[i] == "template" and i + 1 < len(words) and words[i + 1] == "<":
            depth, i = 0, i + 1
            while i < len(words):
                if words[i] == "<":
                    depth += 1
                elif words[i] == ">":
                    depth -= 1
                    if depth == 0:
                        break
                elif words[i] == "(":
                    i = _skip_parens(words, i)
                i += 1
            i += 1
        elif words[i] == "[" and i + 1 < len(words) and words[i + 1] == "[":
            while i < len(words) and not (words[i] == "]" and i > 0 and words[i - 1] == "]"):
                i += 1
            i += 1
        else:
            return i
    return i


def _skip_parens(words: list[str], i: int) -> int:
    depth = 0
    for j in range(i, len(words)):
        if words[j] == "(":
            depth += 1
        elif words[j] == ")":
            depth -= 1
            if depth == 0:
                return j
    return len(words) - 1


def _scope_name(head: list[str]) -> str:
    for w in head[1:]:
        if w in ("class", "struct", "alignas", "final"):
            continue
        if re.match(r"[A-Za-z_]\w*$", w):
            return w
        if w in (":", "{"):
            break
    return ""


def _ends_declarator(word: str) -> bool:
    """Whether a body brace can follow ``word``: a parameter list's or an initializer's close, or
    a trailing qualifier."""
    return word in (
        ")",
        "}",
        "const",
        "noexcept",
        "override",
        "final",
        "mutable",
        "volatile",
        "&",
        "&&",
        "constexpr",
        "try",
    )


def _constructor_body(words: list[str]) -> int | None:
    """Index of a constructor's initializer-list colon in the header, if it has one."""
    depth = 0
    seen_params = False
    for k, w in enumerate(words):
        if w == "(":
            depth += 1
        elif w == ")":
            depth -= 1
            if depth == 0:
                seen_params = True
        elif w == ":" and depth == 0 and seen_params:
            return k
    return None


def _function_name(tokens: list[_Token], header: list[int]) -> tuple[str, int] | None:
    """The name of the function a header declares, with its token index, or None.

    The parameter list is the last top-level parenthesis group before any initializer-list colon,
    after trailing qualifiers, ``noexcept(...)``, ``requires`` clauses and trailing return types.
    """
    if not header:
        return None
    words = [tokens[k].text for k in header]
    skip = _skip_template(words)
    header, words = header[skip:], words[skip:]
    if not header:
        return None
    if "=" in _top_level(words) and "operator" not in words:
        return None  # a variable with an initializer (``auto x = f(y) {`` is not C++)
    colon = _constructor_body(words)
    stop = colon if colon is not None else len(words)
    # Top-level paren groups in words[:stop].
    groups: list[tuple[int, int]] = []
    k = 0
    while k < stop:
        if words[k] == "(":
            c = _skip_parens(words, k)
            groups.append((k, c))
            k = c + 1
        else:
            k += 1
    for open_, _close in reversed(groups):
        before = open_ - 1
        if before < 0:
            continue
        w = words[before]
        if w in _CONTROL:
            if w in ("noexcept", "requires", "decltype", "alignas", "__launch_bounds__"):
                continue  # qualifier groups: the parameter list is further left
            return None
        if w == ")" and before >= 2 and words[before - 2 : before] == ["operator", "("]:
            return "operator()", header[before - 2]
        for back in range(1, 4):
            if before - back + 1 >= 0 and words[before - back + 1] == "operator":
                at = before - back + 1
                return "operator" + "".join(words[at + 1 : open_]), header[at]
        if re.match(r"[A-Za-z_]\w*$", w):
            name_index = before
            while (
                name_index >= 2
                and words[name_index - 1] == "::"
                and re.match(r"~?[A-Za-z_]\w*$", words[name_index - 2])
            ):
                name_index -= 2
            if name_index >= 1 and words[name_index - 1] == "~":
                name_index -= 1
            name = "".join(words[name_index:open_])
            if w in _SCOPE_KEYWORDS:
                return None
            return name, header[before]
        if w == ">":
            return None  # ``std::vector<int>(n)``-like expression or a specialisation: skip
        return None
    return None


def _top_level(words: list[str]) -> list[str]:
    """The words outside any parentheses."""
    out: list[str] = []
    depth = 0
    for w in words:
        if w == "(":
            depth += 1
        elif w == ")":
            depth -= 1
        elif depth == 0:
            out.append(w)
    return out


def _opens_lambda(tokens: list[_Token], i: int) -> bool:
    """Whether the ``[`` at ``i`` introduces a lambda (not a subscript or an attribute)."""
    if i + 1 < len(tokens) and tokens[i + 1].text == "[":
        return False
    if i > 0 and tokens[i - 1].text == "[":
        return False
    if i == 0:
        return True
    prev = tokens[i - 1].text
    if prev in (")", "]", ">"):
        return False
    if re.match(r"[A-Za-z_0-9]", prev) and prev not in ("return", "co_return"):
        return False
    return True


def cpp_functions(path: Path, rel: str) -> list[Function]:
    tokens = tokenize_cpp(path.read_text(encoding="utf-8", errors="replace"))
    scanner = _CppScanner(rel, tokens)
    scanner.scope(0, len(tokens), "")
    return scanner.found


# --------------------------------------------------------------------------------------------
# Python


def _docstring_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Lines of the function's docstring, 0 without one."""
    first = node.body[0] if node.body else None
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return (first.end_lineno or first.lineno) - first.lineno + 1
    return 0


def py_functions(path: Path, rel: str) -> list[Function]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
    found: list[Function] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + child.name
                end = child.end_lineno or child.lineno
                length = end - child.lineno + 1 - _docstring_lines(child)
                found.append(Function(rel, child.lineno, name, length))
                visit(child, name + ".")
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")
            elif isinstance(child, ast.Lambda):
                continue
            else:
                visit(child, prefix)

    visit(tree, "")
    return found


# --------------------------------------------------------------------------------------------


def source_files(root: Path = ROOT) -> list[Path]:
    files: list[Path] = []
    for top in CPP_ROOTS:
        files.extend(
            p for p in sorted((root / top).rglob("*")) if p.suffix in CPP_SUFFIXES and p.is_file()
        )
    for top in PY_ROOTS:
        files.extend(p for p in sorted((root / top).rglob("*.py")) if p.is_file())
    return files


def functions(paths: list[Path], root: Path = ROOT) -> list[Function]:
    found: list[Function] = []
    for p in paths:
        full = p.resolve()
        rel = full.relative_to(root).as_posix() if full.is_relative_to(root) else p.as_posix()
        found.extend(py_functions(p, rel) if p.suffix == ".py" else cpp_functions(p, rel))
    return found


def long_functions(
    limit: int = LIMIT, paths: list[Path] | None = None, root: Path = ROOT
) -> list[Function]:
    """Every function whose own span is longer than ``limit`` lines, in file order."""
    found = functions(paths if paths is not None else source_files(root), root)
    return [f for f in found if f.length > limit]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "paths", nargs="*", type=Path, help="files or folders (default: src, python)"
    )
    parser.add_argument(
        "--limit", type=int, default=LIMIT, help="longest allowed span in lines (default 80)"
    )
    args = parser.parse_args(argv)
    paths: list[Path] | None = None
    if args.paths:
        paths = []
        for p in args.paths:
            if p.is_dir():
                paths.extend(
                    q
                    for q in sorted(p.rglob("*"))
                    if q.is_file() and q.suffix in CPP_SUFFIXES + (".py",)
                )
            else:
                paths.append(p)
    found = long_functions(args.limit, paths)
    for f in found:
        print(f)
    print(f"{len(found)} function(s) longer than {args.limit} lines", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())

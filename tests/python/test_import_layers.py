"""dyng's modules import each other in layers, never in a circle (docs/developer/architecture.md).

The graph is read from the source with ast: every import statement that can run counts, at module
level or inside a function, because a function-level import that closes a circle is the same
tangle, only deferred. Imports under ``if TYPE_CHECKING:`` never run and do not count; the
package's own ``__init__`` imports its names on first use (PEP 562), so its runtime edges are
none either.
"""

import ast
import pathlib

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[2] / "python" / "dyng"


def module_names(package=PACKAGE):
    """{dotted module name: source path} for every module of the package."""
    names = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _is_type_checking_block(node):
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _runtime_imports(tree):
    """The Import/ImportFrom nodes of `tree` outside ``if TYPE_CHECKING:`` blocks."""
    pending = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        for child in ast.iter_child_nodes(node):
            if not _is_type_checking_block(child):
                pending.append(child)


def _from_base(package, node):
    """The absolute name of the module an ImportFrom in `package` reads from."""
    if not node.level:
        return node.module
    parts = package.split(".")
    parts = parts[: len(parts) - node.level + 1]
    return ".".join(parts + ([node.module] if node.module else []))


def import_graph(names):
    """{module: set of dyng modules it imports}."""
    graph = {}
    for module, path in names.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        targets = set()
        for node in _runtime_imports(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
                continue
            base = _from_base(package, node)
            for alias in node.names:
                # `from dyng import _log` imports a module; `from dyng import CSR` the package.
                full = f"{base}.{alias.name}"
                targets.add(full if full in names else base)
        graph[module] = {t for t in targets if t in names and t != module}
    return graph


def circles(graph):
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle():
    graph = import_graph(module_names())
    assert len(graph) > 50 and "dyng._log" in graph  # the walk found the package
    assert circles(graph) == []


def test_the_check_sees_a_circle_through_a_function_level_import(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg import b\n")
    (package / "b.py").write_text("def f():\n    from pkg.c import g\n")
    (package / "c.py").write_text("import pkg.a\n\nif TYPE_CHECKING:\n    from pkg import d\n")
    (package / "d.py").write_text("from . import c\n")
    assert circles(import_graph(module_names(package))) == [["pkg.a", "pkg.b", "pkg.c"]]


@pytest.mark.parametrize("leaf", ["dyng._log", "dyng._errors"])
def test_leaf_modules_import_nothing_from_dyng(leaf):
    # The log owns the log level and everything logs: it must stand below every other module.
    assert import_graph(module_names())[leaf] == set()

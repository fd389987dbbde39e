"""Every public name of dyng has a complete numpydoc docstring (issue 45, "API reference site").

The public names are the non-module items of ``__all__`` of the package and of each public
module (the algorithm modules as the registry names them, dyng.io, dyng.nx, dyng.testing,
dyng.generators), a submodule that such an ``__all__`` names (dyng.testing.oracles, ...) with
its own ``__all__``, and the public members a public class defines in its own body or inherits
from a private base of dyng (ResultBase, ...: named by the base that defines them). The rules
(numpydoc sections, headers underlined with dashes):

- a function or method: "Parameters" naming exactly the parameters of its signature (besides
  self/cls) when it takes any; "Returns" (or "Yields") unless its return annotation is None;
  "Raises" when it takes a parameter; "Examples" with at least one ``>>>`` line;
- a class (exceptions included): a summary line and "Examples" with ``>>>``;
- a property: a summary line; another attribute (a constant, a dataclass or NamedTuple field):
  an attribute docstring (a string right after its assignment) or an entry in the "Attributes"
  section of its class's or module's docstring;
- no Sphinx role (``:func:``, ``:class:``...) anywhere: mkdocstrings shows them literally. Write
  cross-references such as [`dyng.Graph.apply`][] instead (ci/docs.sh checks they resolve).

The examples themselves run in test_docstring_examples.py. One test per module; a failure lists
every missing item of the module with what it lacks.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import pathlib
import re
import textwrap

import pytest

from dyng import _registry

MODULES = [
    "dyng",
    *(f"dyng.{name}" for name in _registry.ALGORITHM_MODULES),
    "dyng.io",
    "dyng.nx",
    "dyng.testing",
    "dyng.generators",
    "dyng.distributed",
]

#: Modules that need an optional package to import (the test extra installs them all).
NEEDS = {"dyng.nx": "networkx", "dyng.testing.strategies": "hypothesis"}

SPHINX_ROLE = re.compile(r":(?:func|class|meth|attr|exc|mod|data|obj|py:\w+):`")
SECTION_LINE = re.compile(r"^-{3,}\s*$")
ENTRY = re.compile(r"^(\*{0,2}[A-Za-z_][\w]*(?:\s*,\s*\*{0,2}[A-Za-z_][\w]*)*)\s*(?::.*)?$")


def _sections(doc):
    """The numpydoc sections of a docstring: {header: [body lines]}, and the summary line."""
    lines = inspect.cleandoc(doc or "").splitlines()
    sections = {}
    current = None
    for index, line in enumerate(lines):
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if (
            line.strip()
            and SECTION_LINE.match(following.strip())
            and (len(following.strip()) >= len(line.strip()))
        ):
            current = line.strip()
            sections[current] = []
        elif current is not None and not SECTION_LINE.match(line.strip()):
            sections[current].append(line)
    summary = lines[0].strip() if lines else ""
    return summary, sections


def _entry_names(body):
    """The names a Parameters or Attributes section lists (its unindented entry lines)."""
    text = textwrap.dedent("\n".join(body))
    names = set()
    for line in text.splitlines():
        if not line or line[0].isspace():
            continue
        match = ENTRY.match(line.strip())
        if match:
            names.update(name.strip().lstrip("*") for name in match.group(1).split(","))
    return names


def _parameters(function, drop_first):
    """The parameter names of `function` (None when it has no signature), and its return
    annotation."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None, inspect.Signature.empty
    names = [p.name for p in signature.parameters.values()]
    if drop_first and names:
        names = names[1:]
    # A leading underscore marks a parameter for dyng's own callers, not a public one.
    names = [name for name in names if not name.startswith("_")]
    takes_kwargs = any(
        p.kind is inspect.Parameter.VAR_KEYWORD for p in signature.parameters.values()
    )
    return (names, takes_kwargs), signature.return_annotation


def _function_problems(function, drop_first=False):
    summary, sections = _sections(function.__doc__)
    problems = []
    if not summary:
        return ["no docstring"]
    params, returns = _parameters(function, drop_first)
    takes_parameters = params is None or bool(params[0])
    if takes_parameters:
        if "Parameters" not in sections:
            problems.append("no Parameters section")
        elif params is not None:
            names, takes_kwargs = params
            documented = _entry_names(sections["Parameters"])
            missing = [name for name in names if name not in documented]
            if missing:
                problems.append(f"Parameters lacks {', '.join(missing)}")
            extra = sorted(documented - set(names))
            if extra and not takes_kwargs:
                problems.append(f"Parameters names {', '.join(extra)}, not in the signature")
        if "Raises" not in sections:
            problems.append("no Raises section")
    if returns not in (None, "None") and not ({"Returns", "Yields"} & set(sections)):
        problems.append("no Returns section")
    problems.extend(_example_problems(sections))
    return problems


def _example_problems(sections):
    if "Examples" not in sections:
        return ["no Examples section"]
    if not any(line.strip().startswith(">>>") for line in sections["Examples"]):
        return ["Examples has no >>> line"]
    return []


def _source_tree(obj):
    """The parsed source of a class or module, or None when it has none (a native object)."""
    try:
        return ast.parse(textwrap.dedent(inspect.getsource(obj)))
    except (OSError, TypeError, SyntaxError):
        return None


def _attribute_docstrings(body):
    """Names assigned in a class or module body that a string right after documents."""
    names = set()
    for statement, following in zip(body, body[1:]):
        if not (
            isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
            and following.value.value.strip()
        ):
            continue
        targets = statement.targets if isinstance(statement, ast.Assign) else []
        if isinstance(statement, ast.AnnAssign):
            targets = [statement.target]
        names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


def _class_body(cls):
    tree = _source_tree(cls)
    if tree is None:
        return []
    node = next((n for n in tree.body if isinstance(n, ast.ClassDef)), None)
    return node.body if node is not None else []


def _class_members(cls):
    """The public members `cls` defines in its own body: vars() and annotated fields."""
    members = {name: value for name, value in vars(cls).items() if not name.startswith("_")}
    for name in vars(cls).get("__annotations__", {}):
        if not name.startswith("_"):
            members.setdefault(name, None)
    return members


def _class_problems(cls, qualname):
    problems = {}
    summary, sections = _sections(cls.__doc__)
    own = [] if summary else ["no docstring"]
    if summary:
        own.extend(_example_problems(sections))
    if own:
        problems[qualname] = own
    problems.update(_members_problems(cls, qualname))
    # What the class inherits from dyng's own private bases (ResultBase, ...) is public through
    # it: checked where it is defined, named by that base.
    for base in _private_dyng_bases(cls):
        problems.update(_members_problems(base, f"{base.__module__}.{base.__qualname__}"))
    return problems


@functools.cache
def _public_classes():
    """The classes that are public names themselves (each is checked where it is listed)."""
    classes = set()
    for module_name in MODULES:
        try:
            module = importlib.import_module(module_name)
            values = [getattr(module, name) for name in module.__all__]
        except ImportError:  # an optional package (the module's own test skips)
            continue
        classes.update(value for value in values if inspect.isclass(value))
    return classes


def _private_dyng_bases(cls):
    return [
        base
        for base in cls.__mro__[1:]
        if base.__module__.split(".")[0] == "dyng" and base not in _public_classes()
    ]


def _members_problems(cls, qualname):
    """{qualified name: [what it lacks]} over the public members `cls` defines itself."""
    problems = {}
    sections = _sections(cls.__doc__)[1]
    attributes = _entry_names(sections.get("Attributes", [])) | _attribute_docstrings(
        _class_body(cls)
    )
    for name, value in _class_members(cls).items():
        where = f"{qualname}.{name}"
        found = _member_problems(cls, value, name, where, attributes)
        if isinstance(found, dict):
            problems.update(found)
        elif found:
            problems[where] = found
    return problems


def _member_problems(owner, value, name, where, attributes):
    if isinstance(value, (classmethod, staticmethod)):
        return _function_problems(value.__func__, drop_first=isinstance(value, classmethod))
    if inspect.isfunction(value):
        return _function_problems(value, drop_first=True)
    if isinstance(value, property):
        return [] if _sections(value.fget.__doc__)[0] else ["no docstring"]
    if inspect.isclass(value) and value.__qualname__ == f"{owner.__qualname__}.{name}":
        return _class_problems(value, where)  # a class defined in the body, not one assigned
    return [] if name in attributes else ["undocumented attribute"]


def _defining_module_trees(module, name):
    """The parsed sources that may assign module-level `name`: the module's own, the sibling
    modules of its package (a lazily re-exported name lives there) and the native stub."""
    paths = [pathlib.Path(module.__file__)]
    package = pathlib.Path(module.__file__).parent
    paths += sorted(package.glob("*.py")) + sorted(package.glob("*.pyi"))
    trees = []
    for path in dict.fromkeys(paths):
        text = path.read_text()
        if re.search(rf"^{re.escape(name)}\s*[:=]", text, re.MULTILINE):
            trees.append(ast.parse(text))
    return trees


def _data_problems(module, name):
    documented = _entry_names(_sections(module.__doc__)[1].get("Attributes", []))
    if name in documented:
        return []
    for tree in _defining_module_trees(module, name):
        if name in _attribute_docstrings(tree.body):
            return []
        if name in _entry_names(_sections(ast.get_docstring(tree))[1].get("Attributes", [])):
            return []
    return ["undocumented attribute"]


def _import(module_name):
    for prefix, package in NEEDS.items():
        if module_name == prefix or module_name.startswith(prefix + "."):
            pytest.importorskip(package)
    return importlib.import_module(module_name)


def _module_problems(module_name, covered):
    """{qualified name: [what it lacks]} over the public names of one module."""
    module = _import(module_name)
    problems = {}
    roles = SPHINX_ROLE.findall(module.__doc__ or "")
    if roles:
        problems[module_name] = [f"Sphinx roles in the module docstring: {', '.join(roles)}"]
    for name in module.__all__:
        value = getattr(module, name)
        where = f"{module_name}.{name}"
        if inspect.ismodule(value):
            if value.__name__ not in covered and hasattr(value, "__all__"):
                problems.update(_module_problems(value.__name__, covered))
            continue
        if inspect.isclass(value):
            problems.update(_class_problems(value, where))
        elif inspect.isroutine(value):
            found = _function_problems(value)
            if found:
                problems[where] = found
        else:
            found = _data_problems(module, name)
            if found:
                problems[where] = found
    return problems


def _docstrings(module_name, covered):
    """Every docstring the public names of a module show: (qualified name, text)."""
    module = _import(module_name)
    for name in module.__all__:
        value = getattr(module, name)
        if inspect.ismodule(value):
            if value.__name__ not in covered and hasattr(value, "__all__"):
                yield from _docstrings(value.__name__, covered)
            continue
        yield f"{module_name}.{name}", getattr(value, "__doc__", "") or ""
        if inspect.isclass(value):
            yield from _member_docstrings(value, f"{module_name}.{name}")
            for base in _private_dyng_bases(value):
                yield f"{base.__module__}.{base.__qualname__}", base.__doc__ or ""
                yield from _member_docstrings(base, f"{base.__module__}.{base.__qualname__}")


def _member_docstrings(cls, qualname):
    for member, attribute in vars(cls).items():
        if member.startswith("_"):
            continue
        inner = getattr(attribute, "__func__", getattr(attribute, "fget", attribute))
        if inspect.isfunction(inner):
            yield f"{qualname}.{member}", inner.__doc__ or ""


def _check(module_name):
    covered = set(MODULES)
    problems = _module_problems(module_name, covered)
    for where, doc in _docstrings(module_name, covered):
        roles = SPHINX_ROLE.findall(doc)
        if roles:
            problems.setdefault(where, []).append(f"Sphinx roles: {', '.join(roles)}")
    report = "\n".join(f"  {where}: {'; '.join(what)}" for where, what in sorted(problems.items()))
    assert not problems, (
        f"{module_name}: {len(problems)} public names lack parts of their docstrings "
        f"(numpydoc; see this test's docstring for the rules):\n{report}"
    )


@pytest.mark.parametrize("module_name", MODULES)
def test_public_docstrings_complete(module_name):
    _check(module_name)


def test_the_list_covers_every_algorithm():
    assert {f"dyng.{name}" for name in _registry.ALGORITHM_MODULES} <= set(MODULES)


def test_the_rules_catch_what_they_promise():
    def documented(graph, source=0):
        """Short.

        Parameters
        ----------
        graph : dyng.Graph
            The graph.
        source : int, optional
            A vertex.

        Returns
        -------
        int

        Raises
        ------
        dyng.InvalidArgumentError
            If it is bad.

        Examples
        --------
        >>> 1
        1
        """

    def lacking(graph, other):
        """Short, with a :func:`role`.

        Parameters
        ----------
        graph : dyng.Graph
        extra : int
        """

    assert _function_problems(documented) == []
    assert _function_problems(lacking) == [
        "Parameters lacks other",
        "Parameters names extra, not in the signature",
        "no Raises section",
        "no Returns section",
        "no Examples section",
    ]
    assert SPHINX_ROLE.findall(lacking.__doc__) == [":func:`"]


def test_inherited_members_are_checked_where_they_are_defined():
    class Base:
        """A private base of dyng."""

        def shared(self):
            """Short."""

    Base.__module__ = "dyng._not_a_module"

    class Public(Base):
        """Public.

        Examples
        --------
        >>> 1
        1
        """

    assert _class_problems(Public, "dyng.Public") == {
        "dyng._not_a_module.test_inherited_members_are_checked_where_they_are_defined.<locals>"
        ".Base.shared": ["no Returns section", "no Examples section"]
    }

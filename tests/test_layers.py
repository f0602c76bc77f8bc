"""Dependencies point one way, and the folder a module sits in is its layer.

The layers, lowest first: ``law`` (citations, vocabularies, readings, calendars, rule tables),
``model`` (events, the event log, the scenario), ``engine`` (state, the fold, the count, the
result), ``input`` (files in and out, validation, schema, import), ``views`` (what people read),
``analysis`` (what-if, exploration, conformance), ``cli`` (one module per command), and the
package's own top-level files on top (``__init__``, ``__main__`` and ``whatif``, the
what-if API's public face). Every ``import`` counts: at the top of a
file, inside a function and under ``if TYPE_CHECKING:``.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "simulator"
LAYERS = ("law", "model", "engine", "input", "views", "analysis", "cli")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer(module: str) -> int:
    """The rank of a module's layer: its first folder under ``simulator``; the package's own
    top-level files rank above every folder."""
    parts = module.split(".")
    if len(parts) == 1 or parts[1] not in LAYERS:
        assert len(parts) <= 2 and parts[-1] in {"simulator", "__main__", "whatif"}, (
            f"{module} is in no layer folder ({', '.join(LAYERS)})"
        )
        return len(LAYERS)
    return LAYERS.index(parts[1])


def source_of(node: ast.ImportFrom, module: str) -> str:
    """The module a ``from ... import`` in ``module`` reads from, a relative one resolved."""
    if not node.level:
        return node.module or ""
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    base = package.split(".")[: len(package.split(".")) - node.level + 1]
    return ".".join([*base, *([node.module] if node.module else [])])


def imports(module: str) -> set[str]:
    """Every ``simulator`` module that ``module`` imports, wherever the import is written."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            source = source_of(node, module)
            for alias in node.names:
                target = f"{source}.{alias.name}"
                out.add(target if target in MODULES else source)
        elif isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
    return {m for m in out if m in MODULES and m != module}


@cache
def graph() -> nx.DiGraph:
    """Who imports whom among the package's modules (read once, by the test that needs it
    first, not by every test process as it collects the suite)."""
    return nx.DiGraph([(m, d) for m in MODULES for d in imports(m)])


def test_every_module_sits_in_a_layer_folder() -> None:
    for module in MODULES:
        layer(module)


def test_no_module_imports_from_a_higher_layer() -> None:
    upward = [f"{m} imports {d}" for m, d in sorted(graph().edges) if layer(d) > layer(m)]
    assert not upward, "\n".join(upward)


def test_no_import_cycles() -> None:
    cycles = sorted(" -> ".join(c) for c in nx.simple_cycles(graph()))
    assert not cycles, "\n".join(cycles)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from simulator.law import calendar", {"simulator.law.calendar"}),
        ("from simulator.law.cite import Cite", {"simulator.law.cite"}),
        ("import simulator.engine.replay", {"simulator.engine.replay"}),
        ("def f():\n    from simulator.views import charts", {"simulator.views.charts"}),
        ("if TYPE_CHECKING:\n    from simulator.model import events", {"simulator.model.events"}),
    ],
)
def test_every_kind_of_import_is_seen(
    source: str, expected: set[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(MODULES, "simulator.cli.probe", tmp_path / "probe.py")
    (tmp_path / "probe.py").write_text(source, encoding="utf-8")
    assert imports("simulator.cli.probe") == expected


#: The most lines a module of the package may have: one that grows past it does more than one
#: job, and is split by job (docs/development.md).
MOST_LINES = 1000


def test_no_module_of_the_package_is_over_a_thousand_lines() -> None:
    long = {
        m: n
        for m, path in MODULES.items()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert not long, long


#: a function longer than this is hard to hold in mind; a few may be (a server's handlers
#: nested in the function that makes it), no more than MOST_LONG_FUNCTIONS
FUNCTION_LINES, MOST_LONG_FUNCTIONS = 100, 5


def long_functions(tree: ast.AST) -> list[tuple[str, int]]:
    """The functions of a module over FUNCTION_LINES lines, with their lengths."""
    return [
        (f.name, n)
        for f in ast.walk(tree)
        if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
        and (n := (f.end_lineno or f.lineno) - f.lineno + 1) > FUNCTION_LINES
    ]


def test_at_most_five_functions_are_over_a_hundred_lines() -> None:
    long = [
        (m, name, n)
        for m, path in MODULES.items()
        for name, n in long_functions(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert len(long) <= MOST_LONG_FUNCTIONS, sorted(long, key=lambda x: -x[2])


def test_a_long_function_is_seen() -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(FUNCTION_LINES))
    assert long_functions(ast.parse(f"def f():\n{body}\n")) == [("f", FUNCTION_LINES + 1)]
    assert long_functions(ast.parse("def g():\n    pass\n")) == []


# Private names: ``_`` means "this module only". A module uses another's name only when the
# other gives it a public name (and a docstring): what several modules share is named in the
# module that owns it. A package's ``__init__`` is a module like any other: ``from
# simulator.views.charts import _x`` reaches into it as much as into any module.
#
# Private submodules: there are none, and a module file is never named with a leading
# underscore. Which modules may import a module is already said by its layer and its package;
# a ``_`` on a file would be a second, weaker way to say it. So a path through a ``_`` module
# (``import simulator.x._y``, ``from simulator.x._y import z``) is refused like a private name.


def private(name: str) -> bool:
    """A name its module keeps to itself: a leading underscore, and not a dunder."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def reaches_into(module: str) -> list[str]:
    """Each place ``module`` takes another module's private name, wherever it is written (at
    module level, inside a function, under ``if TYPE_CHECKING:``): ``from m import _x``,
    absolute or relative; a path through a private module (``import m._y``, ``from m._y import
    z``); and ``m._x`` read from a module ``m`` it imported. Binding a public name to a private
    alias (``import m.y as _y``) is the importer's own business."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found: list[str] = []
    bound: dict[str, str] = {}  # a name bound to a simulator module: that module's path
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = source_of(node, module)
            if source.split(".")[0] != "simulator" or source == module:
                continue
            if any(private(part) for part in source.split(".")):
                found.append(f"line {node.lineno}: from {source} import ...")
            for alias in node.names:
                if private(alias.name):
                    found.append(f"line {node.lineno}: from {source} import {alias.name}")
                elif f"{source}.{alias.name}" in MODULES:
                    bound[alias.asname or alias.name] = f"{source}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] != "simulator":
                    continue
                if any(private(part) for part in alias.name.split(".")):
                    found.append(f"line {node.lineno}: import {alias.name}")
                bound[alias.asname or "simulator"] = alias.name if alias.asname else "simulator"
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr):
            path = [node.attr]
            value = node.value
            while isinstance(value, ast.Attribute):
                path.append(value.attr)
                value = value.value
            if isinstance(value, ast.Name) and value.id in bound:
                dotted = ".".join([bound[value.id], *reversed(path)])
                found.append(f"line {node.lineno}: {dotted}")
    return found


def test_no_module_takes_another_module_s_private_name() -> None:
    found = [f"{MODULES[m]}: {where}" for m in MODULES for where in reaches_into(m)]
    assert not found, "\n".join(found)


def test_no_module_file_is_named_private() -> None:
    private_files = [str(path) for path in MODULES.values() if private(path.stem)]
    assert not private_files, private_files


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("from simulator.views.charts.text_measure import _wrap", 1),
        ("from simulator.views.charts.lanes import Lane, _Band, _day", 2),
        ("def f():\n    from simulator.views.charts.text_measure import _wrap", 1),
        ("if TYPE_CHECKING:\n    from simulator.views.charts.lanes import _Band", 1),
        ("from .main import _parser", 1),
        ("from simulator.views.charts import _hidden", 1),
        ("import simulator.views._hidden", 1),
        ("from simulator.views._hidden import shown", 1),
        ("from simulator.views.charts import text_measure\ntext_measure._longest", 1),
        ("import simulator.views.charts.lanes\nsimulator.views.charts.lanes._day", 1),
        ("import simulator.views.charts.lanes as lanes\nlanes._day", 1),
        ("from simulator.views.charts.text_measure import wrap_text as _wrap", 0),
        ("from simulator.engine import shown as _shown", 0),
        ("from simulator import __version__", 0),
        ("class A:\n    def f(self) -> int:\n        return self._x", 0),
    ],
)
def test_every_way_of_taking_a_private_name_is_seen(
    source: str, found: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(MODULES, "simulator.cli.probe", tmp_path / "probe.py")
    (tmp_path / "probe.py").write_text(source, encoding="utf-8")
    assert len(reaches_into("simulator.cli.probe")) == found


# One path from a finding to a ruling: the engine asks a law table its question only through
# ``consult`` (simulator/engine/counting/consult.py), which says a gap or a conflict in a ruling
# where the question is named, and reads the interpretation switches of the contest.
CONSULT = "simulator.engine.counting.consult"


def evaluations(source: str) -> list[int]:
    """The lines where ``source`` calls ``.evaluate(...)`` (in the engine, a law table's)."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "evaluate"
    ]


def test_the_engine_asks_the_law_tables_only_through_consult() -> None:
    engine = [m for m in MODULES if m.startswith("simulator.engine.")]
    assert CONSULT in engine
    found = [
        f"{MODULES[m]}:{line}"
        for m in engine
        if m != CONSULT
        for line in evaluations(MODULES[m].read_text(encoding="utf-8"))
    ]
    assert not found, "a table evaluated outside consult():\n" + "\n".join(found)


def test_every_way_of_evaluating_a_table_is_seen() -> None:
    source = (
        "a = TABLE.evaluate(facts)\n"
        "b = tables.ORDER.evaluate(\n    facts, chosen=c\n).effect\n"
        "c = consult(d, TABLE, facts)\n"
        "d = evaluate(facts)\n"
    )
    assert evaluations(source) == [1, 2]

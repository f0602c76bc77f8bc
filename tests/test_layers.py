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


def imports(module: str) -> set[str]:
    """Every ``simulator`` module that ``module`` imports, wherever the import is written."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
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

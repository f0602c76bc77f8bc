"""The package imports plainly and writes no code at run time: no import hook
(``sys.meta_path``), no module that changes its class, no ``exec`` or ``eval``, no module-level
``__getattr__`` that makes names appear on first use. Each saved a few milliseconds of start and
cost every reader of the code more (docs/development.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "simulator"
FILES = sorted(PACKAGE.rglob("*.py"))


def machinery(source: str) -> list[str]:
    """What in ``source`` is import-time machinery or code run from text, one line each."""
    found: list[str] = []
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "meta_path":
            found.append(f"line {node.lineno}: sys.meta_path (an import hook)")
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute) and target.attr == "__class__":
                    found.append(f"line {node.lineno}: __class__ assigned (a module made another)")
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else None
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
                name = func.attr if func.value.id == "builtins" else None
            if name in ("exec", "eval"):
                found.append(f"line {node.lineno}: {name}() (code run from text)")
            if (
                name == "setattr"
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
                and node.args[1].value == "__class__"
            ):
                found.append(f"line {node.lineno}: __class__ assigned (a module made another)")
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name == "__getattr__":
            found.append(f"line {stmt.lineno}: a module-level __getattr__ (names made on use)")
    return found


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_of_the_package_hooks_imports_or_runs_code_from_text(path: Path) -> None:
    found = machinery(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(PACKAGE.parent)}: " + "; ".join(found)


@pytest.mark.parametrize(
    ("source", "what"),
    [
        ("import sys\nsys.meta_path.insert(0, object())", "sys.meta_path"),
        ("import sys\nsys.modules[__name__].__class__ = type", "__class__ assigned"),
        (
            "import types\ndef f(m: types.ModuleType) -> None:\n    m.__class__ = object",
            "__class__",
        ),
        ("setattr(object(), '__class__', object)", "__class__ assigned"),
        ("exec('x = 1')", "exec()"),
        ("import builtins\nbuiltins.exec('x = 1', {})", "exec()"),
        ("def f():\n    return eval('1 + 1')", "eval()"),
        ("def __getattr__(name: str) -> object:\n    raise AttributeError(name)", "__getattr__"),
    ],
)
def test_each_kind_of_machinery_is_seen(source: str, what: str) -> None:
    assert any(what in line for line in machinery(source))


def test_ordinary_code_is_not_taken_for_machinery() -> None:
    plain = (
        "class C:\n"
        "    def __getattr__(self, name: str) -> object:\n"
        "        raise AttributeError(name)\n"
        "def evaluate(table: object) -> object:\n"
        "    return table.evaluate(1)\n"
        "spec.loader.exec_module(module)\n"
    )
    assert machinery(plain) == []

"""The handlers gather facts and apply what the law tables answer: no decision of law, and so no
citation, is written in them (simulator/law/tables/ holds every rule, with its citation)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "simulator" / "engine"
#: the modules that handle the events, and the replay that folds them
MODULES = [*sorted((ENGINE / "handlers").glob("*.py")), ENGINE / "replay.py"]
#: a citation of the General Statutes (163-293, 103-5) or of the Administrative Code (NCAC)
CITATION = re.compile(r"\b1[06]3-\d|NCAC")


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the string constants that are docstrings (documentation, never output)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def citation_literals(source: str) -> list[str]:
    """The string literals of ``source`` (f-string parts included, docstrings and comments
    left out) that hold a citation."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docs
        and CITATION.search(node.value)
    ]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_handler_writes_a_citation(path: Path) -> None:
    assert citation_literals(path.read_text(encoding="utf-8")) == [], path.name


def test_the_check_finds_a_citation_in_a_string_and_an_f_string() -> None:
    source = (
        'def f(x):\n    """G.S. 163-293 (a docstring)."""\n'
        "    # 163-293(c) in a comment\n"
        '    a = "needs 163-293(c)"\n'
        '    b = f"{x} under G.S. 103-5(a)"\n'
        '    c = "08 NCAC 06B .0104"\n'
        '    return a, b, c, "nothing here"\n'
    )
    assert sorted(citation_literals(source)) == [
        " under G.S. 103-5(a)",
        "08 NCAC 06B .0104",
        "needs 163-293(c)",
    ]


def written_rulings(source: str) -> list[int]:
    """The lines of ``source`` where a ruling (``d.rule(kind, cites, text, ...)``) is given its
    text as a string or an f-string written there, not words taken from the law."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "rule"
        and len(node.args) >= 3
        and _written(node.args[2])
    ]


def _written(text: ast.expr) -> bool:
    """A string or f-string, or a sum with one in it (words added to the law's are written)."""
    if isinstance(text, ast.BinOp):
        return _written(text.left) or _written(text.right)
    return isinstance(text, ast.JoinedStr) or (
        isinstance(text, ast.Constant) and isinstance(text.value, str)
    )


#: the modules whose rulings are said in the law's words, each kept beside the rule or table it
#: belongs to (simulator/law/tables/; departure_words.py for a departure's effects): every
#: handler of an event, the timers, and the count's ties
WORDED = [
    *sorted((ENGINE / "handlers").glob("*.py")),
    ENGINE / "timers.py",
    ENGINE / "counting" / "ties.py",
]


@pytest.mark.parametrize("path", WORDED, ids=lambda p: p.name)
def test_the_handlers_say_their_rulings_in_the_law_s_words(path: Path) -> None:
    assert written_rulings(path.read_text(encoding="utf-8")) == [], path.name


def test_the_check_finds_a_ruling_written_in_the_engine() -> None:
    source = (
        "def f(d, k, c, name, said):\n"
        '    d.rule(k, c, f"{name} died", [name])\n'
        '    d.rule(k, c, "no primary", [])\n'
        '    d.rule(k, c, "after " + name, [])\n'
        "    d.rule(k, c, said, [name])\n"
        "    d.rule(k, c, WORDS.format(name=name) + finding.note(), [name])\n"
        '    d.rule(k, c, WORDS.format(name=name) + "; and more", [name])\n'
    )
    assert written_rulings(source) == [2, 3, 4, 7]

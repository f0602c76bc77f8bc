"""The handlers and the count gather facts and apply what the law tables answer: no decision of
law, and so no citation, is written in them (simulator/law/tables/ holds every rule, with its
citation), and every ruling is said in the law's words, kept beside the table whose finding it
states: the engine gives only names, dates and numbers."""

from __future__ import annotations

import ast
import importlib
import re
import string
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


def _literals(tree: ast.Module, skip: set[int]) -> list[str]:
    """The string literals of ``tree`` (f-string parts included; comments are not in it) but
    those in ``skip``."""
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
    ]


def citation_literals(source: str) -> list[str]:
    """The string literals of ``source`` (docstrings left out) that hold a citation."""
    tree = ast.parse(source)
    return [x for x in _literals(tree, _docstrings(tree)) if CITATION.search(x)]


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


#: the count: the first round's result, the majority, declarations, runoffs, ties, standings
COUNTING = sorted((ENGINE / "counting").glob("*.py"))
#: the modules whose rulings are said in the law's words, each kept beside the rule or table it
#: belongs to (simulator/law/tables/; departure_words.py for a departure's effects): every
#: handler of an event, the timers, and the count (a ``no_provision`` ruling, of every table
#: alike, in simulator/law/rules.py's ``NO_PROVISION`` and the tables' ``choices``); and the
#: remarks, each said by its rule (simulator/law/remarks.py); the contest's state, its deadlines'
#: states and the decisions it waits for (their words are the calendar's and the departure
#: table's)
WORDED = [
    *sorted((ENGINE / "handlers").glob("*.py")),
    ENGINE / "timers.py",
    *COUNTING,
    ENGINE / "remarks.py",
    ENGINE / "state.py",
    ENGINE / "deadline_states.py",
    ENGINE / "decisions.py",
]


@pytest.mark.parametrize("path", WORDED, ids=lambda p: p.name)
def test_the_handlers_say_their_rulings_in_the_law_s_words(path: Path) -> None:
    assert written_rulings(path.read_text(encoding="utf-8")) == [], path.name


#: a word of prose (a strftime field such as ``%Y`` is none; an identifier is one word)
WORD = re.compile(r"(?<![%\w])[A-Za-z][\w'-]*")
#: a string literal of this many words or more is prose
PROSE = 2


def _not_output(tree: ast.Module) -> set[int]:
    """The ids of the nodes whose words say what went wrong in the program, not a ruling: the
    message of an ``assert`` or a ``raise``. (What the engine asks of a table, which opens a
    ``no_provision`` ruling, is the law's too: the table's ``asked``, the engine giving only its
    fields.)"""
    out: set[int] = set()
    for node in ast.walk(tree):
        parts: list[ast.expr] = []
        if isinstance(node, ast.Assert) and node.msg is not None:
            parts = [node.msg]
        elif isinstance(node, ast.Raise) and node.exc is not None:
            parts = [node.exc]
        for part in parts:
            out |= {id(n) for n in ast.walk(part)}
    return out


def prose_literals(source: str) -> list[str]:
    """The string literals of ``source`` (f-string parts included) of :data:`PROSE` words or
    more: words a ruling, a reason or a declaration would say, written in the engine.
    Docstrings and the messages of ``assert`` and ``raise`` are left out."""
    tree = ast.parse(source)
    skip = _docstrings(tree) | _not_output(tree)
    return [x for x in _literals(tree, skip) if len(WORD.findall(x)) >= PROSE]


@pytest.mark.parametrize("path", WORDED, ids=lambda p: p.name)
def test_the_handlers_and_the_count_write_no_words_of_the_law(path: Path) -> None:
    assert prose_literals(path.read_text(encoding="utf-8")) == [], path.name


def test_the_check_finds_prose_in_a_variable_a_reason_a_declaration_and_a_question() -> None:
    source = (
        'def f(d, name, due, c):\n    """Docstrings are documentation."""\n'
        '    why = f"{name} requested in time"\n'
        '    declare(d, [name], c, "no runoff: elected")\n'
        '    d.rule(k, c, WORDS.format(name=name), [name], reason="too late")\n'
        '    x = due.strftime("%Y-%m-%d %H:%M"), "lots", ", ", "left_after_primary_day"\n'
        '    consult(d, TABLE, facts, [name], f"{name} polled the highest vote")\n'
        '    assert name, "a ruling of the result tables is always a rule"\n'
        '    raise ValueError(f"{name}: a question asked without a draft")\n'
    )
    assert sorted(prose_literals(source)) == [
        " polled the highest vote",
        " requested in time",
        "no runoff: elected",
        "too late",
    ]


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


def _module(path: Path) -> object:
    """The engine module at ``path``, imported."""
    rel = path.relative_to(ENGINE.parents[1]).with_suffix("")
    return importlib.import_module(".".join(rel.parts))


def _resolve(module: object, expr: ast.expr) -> object:
    """The value of a name or an attribute chain (``ties.TIE_AT``) in ``module``."""
    if isinstance(expr, ast.Attribute):
        return getattr(_resolve(module, expr.value), expr.attr)
    assert isinstance(expr, ast.Name), ast.unparse(expr)
    return getattr(module, expr.id)


def _keys(expr: ast.expr, func: ast.AST, line: int) -> set[str] | None:
    """The fields a ``consult()`` fills: the keys of its dict (either branch of ``x if c else
    None``; a name, the dict last assigned to it before ``line`` in ``func``), None if none."""
    if isinstance(expr, ast.IfExp):
        return _keys(expr.body, func, line) or _keys(expr.orelse, func, line)
    if isinstance(expr, ast.Name):
        values = [
            n.value
            for n in ast.walk(func)
            if isinstance(n, ast.Assign)
            and n.lineno < line
            and any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets)
        ]
        return _keys(values[-1], func, line) if values else None
    if isinstance(expr, ast.Dict):
        return {k.value for k in expr.keys if isinstance(k, ast.Constant)}
    return None


def asked_fields(path: Path) -> list[tuple[int, str, set[str], set[str]]]:
    """Each ``consult()`` of ``path`` that says a gap: (line, the question's template, its
    fields, the fields the engine fills)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module = _module(path)
    out = []
    for func in ast.walk(tree):
        if not isinstance(func, ast.FunctionDef):
            continue
        for call in ast.walk(func):
            if not (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Name)
                and call.func.id == "consult"
            ):
                continue
            kw = {k.arg: k.value for k in call.keywords}
            given = call.args[4] if len(call.args) > 4 else kw.get("fields")
            if given is None:
                continue
            keys = _keys(given, func, call.lineno)
            assert keys is not None, f"{path.name}:{call.lineno}: fields not found"
            other = kw.get("asked")
            asked = _resolve(module, other) if other is not None else None
            template = asked or _resolve(module, call.args[1]).asked  # type: ignore[attr-defined]
            assert isinstance(template, str)
            fields = {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}
            out.append((call.lineno, template, fields, keys))
    return out


@pytest.mark.parametrize("path", WORDED, ids=lambda p: p.name)
def test_the_engine_fills_each_question_the_law_asks(path: Path) -> None:
    # what a ``no_provision`` ruling opens with is the table's question (or another wording of it
    # kept beside the table), and the engine gives exactly the fields it names
    for line, template, fields, keys in asked_fields(path):
        assert template, f"{path.name}:{line}: the table says nothing of what is asked of it"
        assert fields == keys, f"{path.name}:{line}: {template!r} is given {sorted(keys)}"


def test_every_question_the_engine_puts_is_checked() -> None:
    asked = {p.name: len(asked_fields(p)) for p in WORDED}
    assert sum(asked.values()) >= 20, asked

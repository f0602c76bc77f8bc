"""``electsim cite 163-294.4(c)``: everything that implements or exercises a subsection.

A citation is matched by its one-string form (``163-294.4(c)``); asking for a subsection also
finds its parts (``163-293(b)`` finds ``163-293(b)(1)``). The places searched:

- the rule tables: the contingency rules and gaps (:mod:`simulator.law.tables.departures`), and
  the rules, gaps and conflicts of the tables of filing, the result and the count
  (:mod:`simulator.law.tables`);
- the state machine's transitions (:mod:`simulator.law.machine`);
- every other citation written in the engine's code (rulings and deadlines);
- the scenarios (``scenarios/``) that cite it in their story or their expectations;
- the tests (``tests/``) that cite it, by test function.

:data:`UNMODELED` lists the subsections of the five primary statutes the simulator deliberately
does not model, each with the reason; a test keeps every other subsection implemented.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from pathlib import Path

import attrs

from simulator.law.cite import Cite, key
from simulator.law.machine import TRANSITIONS
from simulator.law.tables import HOMES, departures

ROOT = Path(__file__).resolve().parents[2]

#: A citation in free text or code: ``163-294.4(c)``, ``G.S. 163-293(b)(1)``, ``163-291(2)a``,
#: and in regular expressions ``163-294\.4\(c\)`` (backslashes are removed before matching).
CITATION = re.compile(
    r"\b(\d{3}[A-Z]?-\d+(?:\.\d+)?)((?:\([0-9a-z]+\))*)([a-e](?![a-z]))?", re.ASCII
)
#: ``gs("163-293", "(b)(1)")`` in code
GS_CALL = re.compile(r'gs\(\s*"([^"]+)"(?:\s*,\s*"([^"]*)")?\s*\)')

#: Subsections of the five primary statutes that are deliberately not modeled, and why.
UNMODELED: dict[str, str] = {
    "163-291(4)": "the municipal ballot's layout (not combined with other ballots) is outside "
    "a simulator of filings, counts and deadlines",
    "163-294.1(a)": "applicability only: every contest the simulator models is a municipal one",
}


@attrs.frozen
class Reference:
    """One place that implements or exercises a citation."""

    kind: str  # rule | gap | conflict | transition | code | scenario | test
    id: str
    cite: str  # the citation as found, one string
    where: str  # module, file or test path
    summary: str = ""

    def to_json(self) -> dict[str, str]:
        return attrs.asdict(self)


#: How a General Statutes citation may begin: ``G.S.``, ``GS``, ``N.C.G.S.``, ``N.C. Gen. Stat.``,
#: ``§``, ``§§``, ``section`` (any of them, in any case, with or without dots and spaces)
_PREFIX = re.compile(
    r"^(?:N\.?\s*C\.?\s*)?(?:G\.?\s*S\.?|Gen(?:eral)?\.?\s*Stat(?:utes?|s?\.)?)?\s*"
    r"(?:§+|sec(?:tion|t?\.)?)?\s*(?=\d)",
    re.IGNORECASE,
)


@functools.lru_cache(maxsize=1 << 16)
def normalize(text: str) -> str:
    """``G.S. 163-294.4(c)``, ``§ 163-294.4(c)``, ``N.C. Gen. Stat. § 163-294.4(c)`` and
    ``163-294\\.4\\(c\\)`` all become ``163-294.4(c)`` (remembered: a query is matched
    against every reference's citation, a few thousand, of a few hundred distinct ones)."""
    plain = text.replace("\\", "").strip()
    if not plain.upper().startswith("08 NCAC"):
        plain = _PREFIX.sub("", plain, count=1)
        plain = re.sub(r"\s+(?=\()", "", plain)  # 163-293 (c)
    return key(plain)


def matches(query: str, found: str) -> bool:
    """Whether ``found`` is ``query`` or one of its parts (``163-293(b)`` has ``(b)(1)``)."""
    q, f = normalize(query), normalize(found)
    return f == q or (f.startswith(q) and f[len(q)] in "(abcde")


def citations_in(text: str) -> Iterator[str]:
    """Every citation written in a text (free text, YAML, regular expressions, code)."""
    plain = text.replace("\\", "")
    for m in CITATION.finditer(plain):
        yield m.group(1) + m.group(2) + (m.group(3) or "")
    for m in GS_CALL.finditer(text):
        yield m.group(1) + (m.group(2) or "")


def _tables() -> Iterator[Reference]:
    for r in departures.RULES:
        yield Reference("rule", r.id, key(r.cite), "simulator/law/tables/departures.py", r.summary)
    for g in departures.GAPS:
        for near in g.near:
            yield Reference("gap", g.id, key(near), "simulator/law/tables/departures.py", g.open)
    for table, home in HOMES:
        summaries = {r.id: r.summary for r in table.rules}
        summaries |= {g.id: g.open for g in table.gaps}
        summaries |= {c.id: c.open for c in table.conflicts}
        for text, kind, rid in table.citations():
            yield Reference(
                kind,
                f"{table.name}/{rid}",
                key(text),
                home,
                summaries.get(rid, ""),
            )
    for t in TRANSITIONS:
        yield Reference(
            "transition",
            f"{t.source.value} --{t.trigger}--> {t.target.value}",
            key(t.cite),
            "simulator/law/machine.py",
            t.label,
        )


def _code(root: Path) -> Iterator[Reference]:
    # the tables are listed by id above; the contingency rules' effects cite further subsections

    skip = {
        *(home.removeprefix("simulator/") for _, home in HOMES),
        "analysis/gaps.py",
        "law/machine.py",
        "analysis/references.py",
    }
    package = root / "simulator"
    for path in sorted(package.rglob("*.py")):
        name = path.relative_to(package).as_posix()
        if name in skip:
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            for c in dict.fromkeys(citations_in(line)):
                yield Reference("code", f"{name}:{n}", normalize(c), f"simulator/{name}")


def _scenarios(root: Path) -> Iterator[Reference]:
    base = root / "scenarios"
    for path in sorted(base.rglob("*.y*ml")):
        text = path.read_text()
        title = next((ln[6:].strip() for ln in text.splitlines() if ln.startswith("title:")), "")
        rel = str(path.relative_to(root))
        for c in dict.fromkeys(normalize(c) for c in citations_in(text)):
            yield Reference("scenario", rel, c, rel, title)


_TEST_DEF = re.compile(r"^\s*def (test_\w+)")


def _tests(root: Path) -> Iterator[Reference]:
    for path in sorted((root / "tests").rglob("*.py")):
        rel = str(path.relative_to(root))
        current = ""
        seen: set[tuple[str, str]] = set()
        for line in path.read_text().splitlines():
            m = _TEST_DEF.match(line)
            if m:
                current = m.group(1)
            elif line and not line[0].isspace() and not line.startswith(("#", "@", ")")):
                current = ""  # the module level again
            for c in citations_in(line):
                c = normalize(c)
                name = current or "(module)"
                if (name, c) not in seen:
                    seen.add((name, c))
                    yield Reference("test", f"{rel}::{name}", c, rel)


@functools.lru_cache(maxsize=4)
def all_references(root: Path = ROOT) -> tuple[Reference, ...]:
    """Every reference the project holds, of every kind (read once per process)."""
    out = list(_tables()) + list(_code(root))
    if (root / "scenarios").is_dir():
        out += list(_scenarios(root))
    if (root / "tests").is_dir():
        out += list(_tests(root))
    return tuple(out)


def references(query: str, *, root: Path = ROOT) -> list[Reference]:
    """The references to ``query`` or any of its parts."""
    return [r for r in all_references(root) if matches(query, r.cite)]


KINDS = ("rule", "conflict", "gap", "transition", "code", "scenario", "test")

#: The forms of a citation ``electsim cite`` reads, as its message on other text shows them
#: (written here, in a module the references are not searched in, so that they count as none)
CITATION_FORMS = "163-294.4(c), G.S. 163-293(b)(1), § 163-293(c) or 163-114"


def section_order(section: str) -> tuple[int, ...]:
    """``163-294.1`` after ``163-294`` and before ``163-294.4``; a rule of the NCAC last."""
    if section.startswith("08 NCAC"):
        return (10**6,)
    return tuple(int(part) for part in re.findall(r"\d+", section))


__all__ = ["UNMODELED", "Cite", "Reference", "all_references", "references"]

"""docs/gaps.md: the catalogue of every gap and conflict of the law, one entry per stable id.

It is made from three sources, so that it cannot drift from the code:

- the rule tables (:data:`simulator.law.tables.EVERY_TABLE`, the departures table among them):
  every combination of their facts is explored, and each gap or conflict found gives the
  provisions, what the text leaves open, the facts that reach it, the fallback and the other
  readings a scenario may choose;
- the explorer: the findings of the K=1 grid (every method, seats 1 to 3, 1 to 8 candidates, one
  departure) are recorded in docs/gaps-explored.json by ``python -m simulator.analysis.catalogue
  --explore`` (the grid takes minutes, so the file is checked in and the tests compare the
  catalogue with it, and a sample of the grid with the file);
- the bundled scenarios: each entry's witness is a scenario under scenarios/gaps or
  scenarios/collisions whose replay gives the ``no_provision`` ruling of that id under the
  default readings, and each other reading names a scenario that chooses it.

``python -m simulator.analysis.catalogue`` writes docs/gaps.md afresh; a test keeps it current.
Where a gap or conflict has no other reading, :data:`NO_OTHER_READING` says why.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

from simulator.analysis.explore.config import Config
from simulator.analysis.explore.exploration import explore_grid
from simulator.analysis.explore.findings import grid_findings
from simulator.engine.replay import replay
from simulator.input.loader import load_scenario
from simulator.law.labels import fact_words
from simulator.law.rules import Verdict
from simulator.law.tables import EVERY_TABLE
from simulator.law.vocab import Method

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "gaps.md"
EXPLORED = ROOT / "docs" / "gaps-explored.json"
#: the folders a witness is taken from, in the order of preference
WITNESS_FOLDERS = ("scenarios/gaps", "scenarios/collisions")

#: How the title of a scenario ``electsim explore`` wrote begins (a witness it found)
EXPLORED_TITLE = "Explored: "

#: The explorer's K=1 grid, as ``electsim explore`` reads it.
GRID_SEATS, GRID_CANDIDATES = 3, 8

#: Other readings of a gap that its table's facts carry rather than the gap itself (the
#: departures table reads late_notice, late_nonpartisan_withdrawal, only_candidate_dies,
#: no_candidate_left, group_death_within_30, disqualified_before_printing and
#: left_after_primary_day as facts): (switch, setting, the reading's
#: fallback).
FACT_READINGS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "late-notice": (
        (
            "late_notice",
            "notice_date",
            "the date of the notice decides: the death is treated as one more than 30 days "
            "after the close (163-112(d)): filing does not reopen and the primary is held with "
            "the others",
        ),
    ),
    "nonpartisan-left-before-printing": (
        (
            "late_nonpartisan_withdrawal",
            "no_effect",
            "a withdrawal after the filing deadline has no effect, since 163-294.2(d) allows one "
            "only until then: the name is printed, its votes count and the candidacy stands, as "
            "163-106(e) has it for a party candidate who withdraws late (a disqualification "
            "still takes the name off)",
        ),
    ),
    "only-candidate-dies": (
        (
            "only_candidate_dies",
            "reopen",
            "filing is reopened as 163-294.4(b) reopens it (five days before printing, three "
            "after), read a fortiori: if the death of one of two candidates reopens it, the "
            "death of the only one does too",
        ),
    ),
    "no-candidate-left": (
        (
            "no_candidate_left",
            "committee_names",
            "the party's executive committee names the nominee under 163-114, as 163-112(d)(4) "
            "provides for a group left with fewer candidates than places",
        ),
    ),
    "112c-more-than-seats": (
        (
            "group_death_within_30",
            "reopen",
            "filing is reopened for three days, as 163-112(b) does for a single office after any "
            "death within the 30 days, whatever the number of candidates left; the primary is "
            "held",
        ),
    ),
    "left-after-primary-day": (
        (
            "left_after_primary_day",
            "committee_fills",
            "in a party primary, a place the votes give the candidate who left (over the "
            "substantial plurality) is a vacancy in the nomination, filled by the party's "
            "executive committee under 163-114, as for a nominee who leaves after the primary",
        ),
    ),
    "disqualified-before-printing": (
        (
            "disqualified_before_printing",
            "name_off",
            "163-112 speaks of deaths only: the disqualified candidate's name is simply left off "
            "the ballot, without the reopening or the certification 163-112 attaches to a death",
        ),
    ),
}

#: Why a gap or conflict offers no other reading, in our own words: no other outcome the text
#: could be read to give, or one the engine's fallback already is.
NO_OTHER_READING: dict[str, str] = {
    "nominated-twice": (
        "the other reading (the person keeps the place the count gives, the voters' choice, and "
        "the committee's nomination becomes the vacancy) comes to the same thing: a party's "
        "nominations for the office are not tied to particular places, so under either reading "
        "the same person is nominated once and one nomination is left for the committee to "
        "fill; the readings differ only in the provision the person's nomination is said to rest "
        "on, so a switch would change no outcome"
    ),
    "partisan-general-election": (
        "the rule 163-291's opening paragraph refers to is not in the sources; the highest vote "
        "is the rule of every other municipal general election, and no provision in the sources "
        "sets another"
    ),
    "request-after-late-departure": (
        "a right that comes into being only at the departure cannot have lapsed before it; "
        "counting the deadline from the canvass would end a right before it began, which no text "
        "supports (unlike a drawing of lots, which can be read as completing the canvass's "
        "declaration, request_after_lot)"
    ),
    "demand-after-late-departure": (
        "as for request-after-late-departure: a right that begins at the departure cannot have "
        "lapsed before it began"
    ),
    "runoff-called-after-its-day": (
        "the runoff has no day the law fixes once that day has passed; holding it on its day is "
        "impossible, and calling no runoff would take away a right 163-293 gives; the board "
        "setting a day is the one course left"
    ),
    "second-primary-called-after-its-day": (
        "as for runoff-called-after-its-day: the day is past, and refusing the second primary "
        "would take away the right to it"
    ),
    "second-departure": (
        "what the first departure did (the name, the votes, a vacancy) was ruled when it "
        "happened; the statutes speak of a candidate, and a person who is no longer one cannot "
        "die, withdraw or be disqualified as one a second time"
    ),
    "every-tied-candidate-left": (
        "with every tied candidate gone there is nobody to elect and nobody to hold a runoff "
        "with; every reading ends with the office vacant"
    ),
    "second-primary-tie": (
        "the part of 163-111 on second primaries is not in the sources; a drawing of lots is "
        "the rule the sources give for every other tie decided by the highest vote, and "
        "163-182.8 (a new election) does not apply to a primary"
    ),
    "runoff-tie-of-three": (
        "(f) settles a runoff tie by lot; with three tied the same lot among all of them is the "
        "one reading that keeps (f)'s rule, since no fourth round exists in the text"
    ),
    "tie-over-threshold": (
        "in a party primary the part of 163-111 on ties is not in the sources, and 163-182.8's "
        "new election is written for ties other than in a primary, so a drawing of lots is the "
        "one rule left"
    ),
    "primary-tie": (
        "the part of 163-111 on ties is not in the sources; 163-182.8's new election applies "
        "to ties other than in a primary, so a drawing of lots is the one rule left"
    ),
    "recount-before-result": (
        "with no result declared there is nothing for the recount to confirm or replace; the "
        "canvass that follows counts the returns as reported"
    ),
}


#: Gaps with a defensible other reading that no interpretation switch offers yet: the reading,
#: in our own words. The catalogue says so rather than claim there is none.
NOT_YET_SWITCHABLE: dict[str, str] = {}

#: Why a gap or conflict of the tables has no witness scenario: facts the rule table names that
#: no replay presents today.
NO_WITNESS: dict[str, str] = {}


@attrs.frozen
class Variant:
    """One way a gap or conflict is met: the table, provisions, text and fallback."""

    table: str
    home: str
    cite: str
    open: str
    fallback: str
    facts: str  # the facts that reach it, in words
    combinations: int
    of: int
    readings: tuple[tuple[str, str, str], ...]  # (switch, setting, fallback)


@attrs.frozen
class Entry:
    """One gap or conflict of the catalogue, by its stable id."""

    id: str  # gap:ID or conflict:ID
    variants: tuple[Variant, ...]
    explored: dict[str, Any] | None  # the K=1 grid's first finding of it
    witness: str | None  # a scenario path from the repository's root
    also: tuple[str, ...]  # other scenarios that reach it under the default readings
    reading_witnesses: dict[tuple[str, str], str]  # (switch, setting) -> a scenario path

    @property
    def kind(self) -> str:
        return self.id.split(":", 1)[0]

    @property
    def name(self) -> str:
        return self.id.split(":", 1)[1]

    @property
    def readings(self) -> tuple[tuple[str, str, str], ...]:
        seen: dict[tuple[str, str], tuple[str, str, str]] = {}
        for v in self.variants:
            for r in v.readings:
                seen.setdefault((r[0], r[1]), r)
        return tuple(seen.values())

    @property
    def provisions(self) -> list[str]:
        return list(dict.fromkeys(c for v in self.variants for c in v.cite.split("; ")))


def describe_facts(reaching: Sequence[Any], universe: Sequence[Any]) -> str:
    """The facts of ``reaching`` in words: each field whose values there are fewer than over
    ``universe`` (every combination the table reads), with the values it takes."""
    if not reaching or not attrs.has(type(reaching[0])):
        return ""
    parts = []
    for field in attrs.fields(type(reaching[0])):
        here = list(dict.fromkeys(getattr(f, field.name) for f in reaching))
        every = {getattr(f, field.name) for f in universe}
        if len(set(here)) < len(every):
            parts.append(fact_words(field.name, here))
    return "; ".join(parts)


def table_variants() -> dict[str, list[Variant]]:
    """Every gap and conflict of the rule tables, by stable id, with each way it is met."""

    out: dict[str, list[Variant]] = defaultdict(list)
    for table, home in EVERY_TABLE:
        universe: list[Any] = []
        reaching: dict[tuple[str, str, str], list[Any]] = defaultdict(list)
        first: dict[tuple[str, str, str], Any] = {}
        for facts, finding in table.explore():
            universe.append(facts)
            if not finding.no_provision:
                continue
            kind = "conflict" if finding.verdict is Verdict.CONFLICT else "gap"
            key = (
                f"{kind}:{finding.id}",
                "; ".join(f"G.S. {c}" for c in finding.near),
                finding.fallback,
            )
            reaching[key].append(facts)
            first.setdefault(key, finding)
        for key, facts_list in reaching.items():
            finding = first[key]
            named = finding.conflict if finding.conflict is not None else finding.gap
            others = tuple(
                (r.switch, r.value, r.fallback) for r in (named.readings if named else ())
            ) or FACT_READINGS.get(finding.id, ())
            out[key[0]].append(
                Variant(
                    table.name,
                    home,
                    key[1],
                    finding.open,
                    key[2],
                    describe_facts(facts_list, universe),
                    len(facts_list),
                    0,
                    others,
                )
            )
        total = len(universe)
        for variants in out.values():
            for i, v in enumerate(variants):
                if v.table == table.name and v.of == 0:
                    variants[i] = attrs.evolve(v, of=total)
    return dict(out)


@attrs.frozen
class Reached:
    """A bundled scenario whose replay gives a ``no_provision`` ruling of one gap or conflict."""

    path: str  # from the repository's root
    id: str  # gap:ID or conflict:ID
    reading: str | None  # the other reading the ruling records, if any
    settings: tuple[tuple[str, bool | str], ...]  # the switches the scenario changed
    #: written by ``electsim explore`` (a shortest course, its title "Explored: ..."), not by hand
    explored: bool = False
    events: int = 0  # how many events its log has


def scenario_findings(folders: Iterable[str] = ("scenarios",)) -> list[Reached]:
    """Every ``no_provision`` ruling of a gap or conflict the bundled scenarios' replays give,
    once per scenario and id, in the order of the paths."""

    out: list[Reached] = []
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.yaml")):
            scenario = load_scenario(path)
            result = replay(scenario)
            name = path.relative_to(ROOT).as_posix()
            seen: set[tuple[str, str | None]] = set()
            for contest in result.contests:
                for r in contest.rulings:
                    if r.kind.value != "no_provision" or r.get("gap") is None:
                        continue
                    kind = "conflict" if r.get("conflict") else "gap"
                    key = (f"{kind}:{r.get('gap')}", r.get("reading"))
                    if key not in seen:
                        seen.add(key)
                        out.append(
                            Reached(
                                name,
                                key[0],
                                key[1],
                                scenario.interpretations.changed(),
                                explored=scenario.title.startswith(EXPLORED_TITLE),
                                events=len(scenario.events),
                            )
                        )
    return out


def read_explored(path: Path = EXPLORED) -> dict[str, Any]:
    """The recorded findings of the K=1 grid (docs/gaps-explored.json)."""
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


def record_explored(path: Path = EXPLORED, *, workers: int = 1) -> dict[str, Any]:
    """Explore the K=1 grid and write its findings to ``path`` (each with its shortest
    witness); the document written."""

    configs = [
        Config(method=m, seats=s, candidates=n, departures=1, general=g)
        for m in Method
        for g in ((False, True) if m is Method.PARTISAN else (False,))
        for s in range(1, GRID_SEATS + 1)
        for n in range(1, GRID_CANDIDATES + 1)
    ]
    results = explore_grid(configs, workers=workers)
    errors = [(ex.config.label, c, e) for ex in results for c, e in ex.errors]
    if errors:
        raise RuntimeError(f"the grid made the engine fail: {errors[:3]}")
    doc = {
        "grid": (
            f"every method (the partisan one as its primary and its general election), seats 1 "
            f"to {GRID_SEATS}, 1 to {GRID_CANDIDATES} candidates, one departure"
        ),
        "command": (
            f"electsim explore --grid --seats {GRID_SEATS} --max-candidates {GRID_CANDIDATES}"
        ),
        "configurations": len(configs),
        "courses": sum(ex.courses for ex in results),
        "findings": [
            {
                "id": f,
                "configuration": config.label,
                "outcome": o.describe(),
                "witness": list(w.course.steps[1:]),
            }
            for f, config, o, w in grid_findings(results)
        ],
    }
    path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    return doc


def entries(explored: dict[str, Any] | None = None) -> list[Entry]:
    """Every gap and conflict of the tables and of the recorded grid, sorted by id."""
    explored = read_explored() if explored is None else explored
    variants = table_variants()
    grid = {f["id"]: f for f in explored["findings"]}
    found = scenario_findings()
    machine_written = {r.path for r in found if r.explored}
    length = {r.path: r.events for r in found}
    switched = {r.path for r in found if r.settings}
    out = []
    for fid in sorted(set(variants) | set(grid)):
        here = [r for r in found if r.id == fid]
        default = [r.path for r in here if r.reading is None]
        preferred = [p for folder in WITNESS_FOLDERS for p in default if p.startswith(folder + "/")]
        named = f"scenarios/gaps/{fid.replace(':', '-')}.yaml"
        # a plain scenario, written to be read, before one the explorer wrote (its shortest
        # course, with made-up counts); one under the default readings first, then the
        # shortest story; among those the explorer wrote, the one named for the id
        preferred.sort(key=lambda p: (p in machine_written, p in switched, p != named, length[p]))
        witness = preferred[0] if preferred else None
        also = tuple(p for p in default if p != witness)
        vs = tuple(variants.get(fid, ()))
        chosen: dict[tuple[str, str], str] = {}
        for v in vs:
            for switch, setting, _fb in v.readings:
                # a scenario that chooses the reading and reaches the gap or conflict
                paths = [r.path for r in here if (switch, setting) in r.settings]
                if paths:
                    chosen.setdefault((switch, setting), paths[0])
        out.append(Entry(fid, vs, grid.get(fid), witness, also, chosen))
    return out


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _link(path: str) -> str:
    return f"[{Path(path).name}](../{path})"


def _anchor(fid: str) -> str:
    return fid.replace(":", "")


INTRO = """\
# Gaps and conflicts of the law

<!-- generated by `python -m simulator.analysis.catalogue` from the rule tables, the explorer's
findings (docs/gaps-explored.json) and the bundled scenarios; do not edit: a test keeps it
current -->

Where no provision covers the facts (a **gap**) or two provisions reach them and disagree with
nothing to say which prevails (a **conflict**), a replay says so with a `no_provision` ruling that
names the provisions and the gap's id, and goes on with a fallback. This page lists every one of
them, by its stable id, as `electsim gaps` and `electsim explore` report them: the provisions
involved, the facts that reach it, what the text leaves open, the fallback the simulator uses, the
other readings a scenario can choose under `interpretations:` ([readings](readings.md)) or why
there is none, and a witness: a bundled scenario whose replay reaches it (one written to be
read where one exists, before the shortest course `electsim explore` wrote).{not_yet}

The ids are stable: `electsim gaps --ids` prints them, and `electsim gaps --accept FILE` or
`electsim explore --accept FILE` fails (exit 4) only on one not in FILE ([the command
line](cli.md#electsim-gaps)), so a board or a lawyer can keep a list of the gaps already known
and be told of new ones.

The entries are made from the rule tables (every combination of their facts explored), from the
findings of `electsim explore` over the grid of every method, seats 1 to 3, 1 to 8 candidates and
one departure (recorded in [gaps-explored.json](gaps-explored.json)), and from a replay of every
bundled scenario. "Facts that reach it" names the facts of the rule table that decide it, and the
values they take there (a fact not named can take any value).
"""


def catalogue_markdown(items: Sequence[Entry] | None = None) -> str:
    """docs/gaps.md's text."""
    items = entries() if items is None else items
    not_yet = (
        " A few gaps have a defensible other reading that no switch offers yet; their entries "
        'say which ("not yet a switch" in the table below).'
        if NOT_YET_SWITCHABLE
        else ""
    )
    lines = [INTRO.format(not_yet=not_yet)]
    lines += [
        "| id | provisions | other reading | witness |",
        "| --- | --- | --- | --- |",
    ]
    for e in items:
        other = ", ".join(f"`{s}: {v}`" for s, v, _ in e.readings) or (
            "not yet a switch" if e.name in NOT_YET_SWITCHABLE else "none"
        )
        lines.append(
            f"| [`{e.id}`](#{_anchor(e.id)}) | {_cell('; '.join(e.provisions))} | {other} | "
            f"{_link(e.witness) if e.witness else 'none'} |"
        )
    for e in items:
        lines += ["", f"## {e.id}", ""]
        kind = "A conflict" if e.kind == "conflict" else "A gap"
        tables = ", ".join(dict.fromkeys(f"`{v.table}`" for v in e.variants))
        where = f" of the rule table {tables}" if tables else ""
        lines.append(f"{kind}{where}. Provisions: {'; '.join(e.provisions)}.")
        opens = {" ".join(v.open.split()) for v in e.variants}
        shared = len(e.variants) > 1 and len(opens) == 1
        if shared:
            lines += ["", f"What the text leaves open: {opens.pop()}."]
        for v in e.variants:
            lines.append("")
            if len(e.variants) > 1:
                lines.append(f"- **{v.cite}**")
                pad = "  "
            else:
                pad = ""
            if v.facts:
                lines.append(
                    f"{pad}- Facts that reach it: {v.facts} ({v.combinations} of {v.of} "
                    f"combinations of the table `{v.table}`)."
                )
            else:
                lines.append(f"{pad}- Reached in the table `{v.table}`.")
            if not shared:
                lines.append(f"{pad}- What the text leaves open: {' '.join(v.open.split())}.")
            lines.append(f"{pad}- Fallback: {' '.join(v.fallback.split())}.")
        if e.explored is not None:
            course = "; ".join(e.explored["witness"])
            lines += [
                "",
                f"Reached by `electsim explore` (first in {e.explored['configuration']}): "
                f"{course}.",
            ]
        lines.append("")
        why = NO_OTHER_READING.get(e.name, "")
        if e.readings:
            lines.append("Other readings:")
            lines.append("")
            for switch, setting, fallback in e.readings:
                shown = e.reading_witnesses.get((switch, setting))
                tail = f" Scenario: {_link(shown)}." if shown else ""
                having = [
                    v.cite for v in e.variants if (switch, setting) in {r[:2] for r in v.readings}
                ]
                only = ""
                if len(having) < len(e.variants):
                    only = f" (where the provisions are {' or '.join(having)})"
                lines.append(f"- `{switch}: {setting}`{only}: {' '.join(fallback.split())}.{tail}")
            if why:
                lines += ["", f"Where the provisions are others, no other reading: {why}."]
        elif e.name in NOT_YET_SWITCHABLE:
            lines.append(
                "Another reading, not yet offered as an interpretation switch (the fallback "
                f"above is the only one a replay uses): {NOT_YET_SWITCHABLE[e.name]}."
            )
        else:
            lines.append(f"No other reading: {why}." if why else "No other reading.")
        lines.append("")
        if e.witness:
            also = ""
            if e.also:
                shown = ", ".join(_link(p) for p in e.also[:4])
                more = f" and {len(e.also) - 4} more" if len(e.also) > 4 else ""
                also = f" Also reached by {shown}{more}."
            lines.append(f"Witness: {_link(e.witness)}.{also}")
        else:
            why = NO_WITNESS.get(e.id, "")
            lines.append(f"Witness: none: {why}." if why else "Witness: none.")
    return "\n".join(lines) + "\n"


def write(path: Path = DOC) -> bool:
    """Write the catalogue to ``path``; whether it changed."""
    text = catalogue_markdown()
    old = path.read_text(encoding="utf-8") if path.exists() else None
    if old == text:
        return False
    path.write_text(text, encoding="utf-8")
    return True


def main(argv: Sequence[str]) -> int:
    """``python -m simulator.analysis.catalogue [--explore] [--workers N]``."""

    p = argparse.ArgumentParser(
        prog="python -m simulator.analysis.catalogue",
        description="Write docs/gaps.md afresh; with --explore, first explore the K=1 grid and "
        "record its findings in docs/gaps-explored.json.",
    )
    p.add_argument("--explore", action="store_true", help="explore the K=1 grid first (minutes)")
    p.add_argument("--workers", type=int, default=1, help="processes for --explore (1)")
    args = p.parse_args(list(argv))
    if args.explore:
        doc = record_explored(workers=args.workers)
        print(f"{EXPLORED.relative_to(ROOT)}: {len(doc['findings'])} findings recorded")
    print(f"{DOC.relative_to(ROOT)}: {'updated' if write() else 'already up to date'}")
    return 0


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))

"""A first scenario for a town's contest, as ``electsim new`` writes it: a YAML file that is
valid as it stands, commented with the statutory dates it was built from (each with its
citation, as ``electsim calendar`` computes them), holding one filing per candidate inside the
filing period and, commented out, the returns (placeholder counts) and the canvass on their
statutory days. Removing the comment marks of those lines (:data:`COMMENTED`) gives a story that
fits the law: it replays to a decided contest.

Where the filings alone decide the contest (a nonpartisan primary with no more than two
candidates a seat is not held, G.S. 163-294(a)), no returns are written, and the comment quotes
the ruling that decided it.
"""

from __future__ import annotations

import json
import re
import textwrap
from datetime import date, datetime, timedelta

import attrs
import yaml

from simulator.law.calendar import Deadline, OfficeCalendar, statutory_calendar
from simulator.law.vocab import DeadlineKind, Method, Stage
from simulator.views.ical import title_of

__all__ = ["COMMENTED", "NewContest", "first_scenario", "placeholder_counts"]

#: The mark before each event line left for the user to uncomment.
COMMENTED = "  # - "
#: When the placeholder returns are reported on election day (an hour after the polls close
#: at 7:30 p.m., G.S. 163-1(b)); the filings, an hour after filing opens.
RETURNS_AT = (21, 0)
FILED_AFTER = timedelta(hours=1)
_WIDTH = 98
#: the vote whose returns the file holds, by its day
_VOTE = {DeadlineKind.PRIMARY_DAY: "primary", DeadlineKind.ELECTION_DAY: "election"}


@attrs.frozen
class NewContest:
    """What ``electsim new`` was told (and assumed) of a contest."""

    municipality: str
    office: str
    year: int
    method: Method
    #: each candidate's name and, in a partisan contest, party
    candidates: tuple[tuple[str, str | None], ...]
    seats: int = 1
    stage: Stage = Stage.ELECTION
    party: str | None = None  # whose primary, for a partisan primary
    district_based: bool = False
    closed: tuple[date, ...] = ()
    #: where the method comes from, in words (a sentence for the file's comment)
    method_source: str = ""

    @property
    def title(self) -> str:
        stage = f", {self.party} primary" if self.party else ""
        if self.stage is Stage.PRIMARY and not self.party:
            stage = ", primary"
        return f"{self.municipality} {self.office}{stage}, {self.year}"

    @property
    def contest_id(self) -> str:
        slug = re.sub(r"[^a-z0-9]+", "-", self.office.casefold()).strip("-")
        return slug or "contest"

    def deadlines(self) -> list[Deadline]:
        """The statutory dates of this contest's stage, with the office's closed days."""
        return statutory_calendar(
            self.year,
            self.method,
            district_based=self.district_based,
            calendar=OfficeCalendar(extra_closed=frozenset(self.closed)),
            stage=self.stage,
        )


def first_scenario(contest: NewContest) -> str:
    """The YAML text of a first scenario for ``contest`` (see the module's docstring)."""
    deadlines = contest.deadlines()
    opens = _due(deadlines, DeadlineKind.FILING_OPENS)
    vote = next(
        d for d in deadlines if d.kind in (DeadlineKind.PRIMARY_DAY, DeadlineKind.ELECTION_DAY)
    )
    canvass = next(d for d in deadlines if d.kind is DeadlineKind.CANVASS)
    filed_at = opens + FILED_AFTER
    filings = [_filing(contest, name, party, filed_at) for name, party in contest.candidates]
    returns = [
        "{type: returns_reported, at: "
        + _quoted(_moment(vote.due.replace(hour=RETURNS_AT[0], minute=RETURNS_AT[1])))
        + ", counts: {"
        + ", ".join(f"{_scalar(n)}: {v}" for n, v in placeholder_counts(contest))
        + "}}",
        "{type: canvass_held, at: " + _quoted(_moment(canvass.due)) + "}",
    ]
    head = _header(contest, deadlines)
    closes = _due(deadlines, DeadlineKind.FILING_CLOSES)
    body = _document(contest, filings, opens, closes)
    decided_by = _decided_by_filings(head + body)
    lines = [head + body.rstrip("\n")]
    if decided_by is None:
        lines.append(
            _comment(
                f"the returns of the {_VOTE[vote.kind]} and its canvass, on "
                'their statutory days: remove the "# " before the two lines below to count the '
                "votes (the counts are placeholders: write the real ones)",
                indent="  ",
            )
        )
        lines.extend(COMMENTED + line for line in returns)
    else:
        lines.append(
            _comment(
                f"no vote is counted: the filings decide the contest ({decided_by})",
                indent="  ",
            )
        )
    return "\n".join(lines) + "\n"


def placeholder_counts(contest: NewContest) -> list[tuple[str, int]]:
    """Votes that decide the contest at its canvass: the first as many candidates as there are
    places (the seats; twice the seats in a nonpartisan primary, G.S. 163-294(b)) well over
    any majority or substantial plurality and apart from each other, the others far behind."""
    places = contest.seats * (
        2 if contest.method is Method.PRIMARY and contest.stage is Stage.PRIMARY else 1
    )
    names = [n for n, _ in contest.candidates]
    rest = [max(1, 100 - i) for i in range(len(names) - places)]
    base = max(1000, 2 * sum(rest) + 100, 50 * places)
    base = -(-base // 100) * 100
    return [(n, base - 10 * i) for i, n in enumerate(names[:places])] + list(
        zip(names[places:], rest, strict=True)
    )


def _header(contest: NewContest, deadlines: list[Deadline]) -> str:
    out = [
        _comment(
            f"A first scenario for {contest.title}, written by `electsim new`. Add what happens "
            "as it happens, in the order the board learns of it (the events: docs/scenarios.md); "
            "`electsim replay` this file to see the rulings and the dates."
        ),
        "#",
    ]
    if contest.method_source:
        said = contest.method_source
        out += [_comment(said[0].upper() + said[1:] + "."), "#"]
    calendar = f"electsim calendar {contest.year} --method {contest.method.value}"
    if contest.district_based:
        calendar += " --district-based"
    out.append(_comment(f"The statutory dates it was built from (as `{calendar}` computes them):"))
    titles = [title_of(d, deadlines) for d in deadlines]
    wide = max(map(len, titles))
    for d, title in zip(deadlines, titles, strict=True):
        when = d.due.strftime("%a %Y-%m-%d" if d.all_day else "%a %Y-%m-%d %H:%M")
        out.append(f"#   {title.ljust(wide)}  {when.ljust(20)}  {d.cite}")
        if d.moved_from is not None:
            moved = f"moved from {d.moved_from:%a %Y-%m-%d} (G.S. 103-5): {d.why_moved}"
            out.append(_comment(moved, lead=" " * (wide + 6)))
    return "\n".join(out) + "\n"


def _document(contest: NewContest, filings: list[str], opens: datetime, closes: datetime) -> str:
    head: dict[str, object] = {
        "format": "electsim/v1",
        "title": contest.title,
        "description": "A first scenario written by electsim new on the statutory calendar.",
    }
    text = yaml.safe_dump(head, sort_keys=False, allow_unicode=True, width=_WIDTH)
    if contest.closed:
        days = ", ".join(d.isoformat() for d in sorted(set(contest.closed)))
        text += f"office_closed: [{days}]\n"
    fields = [
        ("id", contest.contest_id),
        ("municipality", contest.municipality),
        ("office", contest.office),
        ("seats", contest.seats),
        ("method", contest.method.value),
    ]
    if contest.stage is not Stage.ELECTION:
        fields.append(("stage", contest.stage.value))
    if contest.party is not None:
        fields.append(("party", contest.party))
    fields.append(("year", contest.year))
    if contest.district_based:
        fields.append(("district_based", True))
    text += "contests:\n  - {" + ", ".join(f"{k}: {_scalar(v)}" for k, v in fields) + "}\n"
    period = f"{opens:%a %Y-%m-%d %H:%M} to {closes:%a %Y-%m-%d %H:%M}"
    text += "events:\n" + _comment(f"the filings, inside the filing period ({period})", indent="  ")
    return text + "\n" + "".join(f"  - {f}\n" for f in filings)


def _filing(contest: NewContest, name: str, party: str | None, at: datetime) -> str:
    party = party or contest.party
    tail = f", party: {_scalar(party)}" if party else ""
    return (
        f"{{type: candidate_filed, at: {_quoted(_moment(at))}, candidate: {_scalar(name)}{tail}}}"
    )


def _decided_by_filings(text: str) -> str | None:
    """The ruling that decides the contest on its filings alone, in words; None when the
    contest waits for votes."""
    from simulator.engine.replay import replay  # (the engine, only to write the file)
    from simulator.input.loader import parse_scenario

    (result,) = replay(parse_scenario(text)).contests
    if result.state != "decided":
        return None
    last = result.rulings[-1]
    return f"{last.text}, {last.cite}" if last.cites else last.text


def _due(deadlines: list[Deadline], kind: DeadlineKind) -> datetime:
    return next(d.due for d in deadlines if d.kind is kind)


def _moment(at: datetime) -> str:
    """A time as a scenario writes it: to the minute, without its offset (the scenario's zone)."""
    return at.strftime("%Y-%m-%dT%H:%M")


def _quoted(text: str) -> str:
    return '"' + text + '"'


_PLAIN = re.compile(r"[A-Za-z][\w .'()-]*[\w.)]|[A-Za-z]", re.UNICODE)


def _scalar(value: object) -> str:
    """A value as a YAML flow scalar that reads back as itself: plain where it can be, else
    double-quoted (JSON's quoting, which YAML reads)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if _PLAIN.fullmatch(text) and yaml.safe_load(f"k: {text}") == {"k": text}:
        return text
    return json.dumps(text, ensure_ascii=False)


def _comment(text: str, *, indent: str = "", lead: str = " ") -> str:
    """``text`` as YAML comment lines, wrapped: ``indent``, ``#``, ``lead``, the text."""
    return "\n".join(
        textwrap.wrap(
            text,
            width=_WIDTH,
            initial_indent=indent + "#" + lead,
            subsequent_indent=indent + "#" + lead,
            break_on_hyphens=False,
            break_long_words=False,
        )
    )

"""The contests of a scenario (docs/scenarios.md): each one's id, method, stage, party, year,
seats, date, filing period and money, checked field by field; ids that print alike refused;
a filing period set on one side checked against the statutory other side, and the filing fee
against G.S. 163-291(3)'s bounds."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any

from simulator.input.loader.clock import Clock
from simulator.input.loader.fields import CONTEST_KEYS, FILING_KEYS
from simulator.input.loader.names import folded_id
from simulator.input.loader.problems import Problems, did_you_mean
from simulator.input.loader.values import (
    PRINTABLE,
    BadValue,
    as_text,
    has_controls,
    read_amount,
    read_date,
)
from simulator.input.parse.messages import show
from simulator.input.parse.trees import MISSING, Map
from simulator.law.calendar import OfficeCalendar, filing_period
from simulator.law.tables import filing as filing_rules
from simulator.law.vocab import Method, Stage, is_partisan_primary
from simulator.model.scenario import Contest

_FIRST_YEAR, _LAST_YEAR = 1973, 2200  # contest years (municipal elections under G.S. 163-279)
_METHODS = tuple(m.value for m in Method)
_STAGES = tuple(s.value for s in Stage)
_PRIMARY_METHODS = (Method.PARTISAN, Method.PRIMARY)


class ContestReader:
    """Reads the ``contests`` list, reporting to ``problems``; times by ``clock``, and the
    statutory filing period with the office's extra closed days ``closed``."""

    def __init__(self, problems: Problems, clock: Clock, closed: tuple[date, ...]) -> None:
        self.problems = problems
        self.clock = clock
        self.closed = closed

    def contests(self, raw: Any) -> tuple[tuple[Contest, ...], frozenset[str], str | None]:
        if raw is MISSING:
            self.problems.missing(
                ("contests",), "a list of contests, each with at least id, method, year"
            )
            return (), frozenset(), None
        if not isinstance(raw, list) or not raw:
            self.problems.add(
                ("contests",),
                "a non-empty list of contests, each with at least id, method, year",
                show(raw),
            )
            return (), frozenset(), None
        contests = []
        ids: list[str] = []
        folded: dict[str, int] = {}  # each id, letter case and spacing aside -> its contest
        for i, item in enumerate(raw):
            contest, cid = self.contest(i, item, ids)
            if cid is not None and (j := folded.setdefault(folded_id(cid), i)) != i:
                # (two contests that print alike: `[mayor]` and `[mayor ]`, Mayor and mayor)
                self.problems.add(
                    ("contests", i, "id"),
                    f"an id that differs from those of the other contests by more than letter "
                    f"case, spacing or invisible characters: contests[{j}] is {raw[j]['id']!r}",
                    show(cid),
                )
                contest = cid = None
            if cid is not None:
                ids.append(cid)
            if contest is not None:
                contests.append(contest)
        default = ids[0] if len(raw) == 1 and ids else None
        return tuple(contests), frozenset(ids), default

    def contest(self, i: int, raw: Any, seen: list[str]) -> tuple[Contest | None, str | None]:
        """The ``i``-th contest, each field read in the order of docs/scenarios.md and each
        problem reported; None for the contest when any field is wrong, and its id when the
        id itself is good (``seen``: the ids of the contests before it)."""
        here: tuple[Any, ...] = ("contests", i)
        if not isinstance(raw, dict):
            self.problems.add(here, "a mapping with at least id, method and year", show(raw))
            return None, None
        before = len(self.problems)
        self.problems.unknown_keys(here, raw, CONTEST_KEYS, "the fields of a contest")
        line = raw.line if isinstance(raw, Map) else None
        good_id = self._id(here, raw, seen)
        method = self._method(here, raw)
        stage = self._stage(here, raw, method)
        party = self._party(here, raw, method, stage)
        year = self._year(here, raw)
        seats = self._seats(here, raw)
        strings = self._texts(here, raw)
        day: date | None = None
        if "date" in raw:
            try:
                day = read_date(raw["date"])
            except BadValue as error:
                self.problems.bad((*here, "date"), error)
        district_based = raw.get("district_based", False) is True
        if type(raw.get("district_based", False)) is not bool:
            self.problems.add(
                (*here, "district_based"), "true or false", show(raw["district_based"])
            )
        opens, closes = self.filing(here, raw.get("filing", MISSING))
        if (opens is None) != (closes is None) and year and method is not None:
            self.statutory_side(here, opens, closes, year, method, district_based)
        amounts = self._amounts(here, raw)
        self.check_fee(here, amounts["filing_fee"], amounts["salary"])

        if len(self.problems) > before or good_id is None or method is None:
            return None, good_id
        return (
            Contest(
                id=good_id,
                method=method,
                year=year,
                seats=seats,
                stage=stage,
                municipality=strings["municipality"],
                office=strings["office"],
                party=party,
                date=day,
                district_based=district_based,
                filing_opens=opens,
                filing_closes=closes,
                filing_fee=amounts["filing_fee"],
                salary=amounts["salary"],
                line=line,
            ),
            good_id,
        )

    def _id(self, here: tuple[Any, ...], raw: dict[str, Any], seen: list[str]) -> str | None:
        """The contest's id: given, printable, and no other contest's."""
        cid = raw.get("id", MISSING)
        if cid is MISSING:
            self.problems.missing((*here, "id"), "an `id` for the contest, like cary-d")
        elif type(cid) is not str or not cid.strip():
            self.problems.add((*here, "id"), "a non-empty id, like cary-d", show(cid))
        elif has_controls(cid):
            self.problems.add((*here, "id"), f"an id of {PRINTABLE}, like cary-d", show(cid))
        elif cid in seen:
            self.problems.add((*here, "id"), "an id no other contest uses", f"{cid!r} again")
        else:
            return cid
        return None

    def _method(self, here: tuple[Any, ...], raw: dict[str, Any]) -> Method | None:
        """The contest's method, one of the four."""
        written_method = raw.get("method", MISSING)
        if written_method is MISSING:
            self.problems.missing((*here, "method"), "a `method`: one of " + ", ".join(_METHODS))
        elif isinstance(written_method, str) and written_method in _METHODS:
            return Method(written_method)
        else:
            self.problems.add(
                (*here, "method"),
                "one of " + ", ".join(_METHODS),
                show(written_method) + did_you_mean(written_method, _METHODS),
            )
        return None

    def _stage(self, here: tuple[Any, ...], raw: dict[str, Any], method: Method | None) -> Stage:
        """The contest's stage (the election by default); a primary only for the methods that
        have one."""
        stage = Stage.ELECTION
        written_stage = raw.get("stage", "election")
        if isinstance(written_stage, str) and written_stage in _STAGES:
            stage = Stage(written_stage)
        else:
            self.problems.add(
                (*here, "stage"),
                "one of " + ", ".join(_STAGES),
                show(written_stage) + did_you_mean(written_stage, _STAGES),
            )
        if stage is Stage.PRIMARY and method is not None and method not in _PRIMARY_METHODS:
            # G.S. 163-291, 163-294: only the partisan and nonpartisan-primary methods have one.
            self.problems.add(
                (*here, "stage"),
                "stage `election` for the nonpartisan-plurality and nonpartisan-runoff methods "
                "(only partisan and nonpartisan-primary contests have a primary)",
                show(written_stage),
            )
        return stage

    def _party(
        self, here: tuple[Any, ...], raw: dict[str, Any], method: Method | None, stage: Stage
    ) -> str | None:
        """The party whose primary a partisan contest is: required for a partisan primary,
        refused for the other methods."""
        written_party = raw.get("party", MISSING)
        if written_party is not MISSING:
            if method is not None and method is not Method.PARTISAN:
                self.problems.add(
                    (*here, "party"),
                    f"no party for a {method.value} contest (remove `party`)",
                    show(written_party),
                )
            elif (
                type(written_party) is str and written_party.strip() and has_controls(written_party)
            ):
                self.problems.add(
                    (*here, "party"),
                    f"the party's abbreviation, of {PRINTABLE}",
                    show(written_party),
                )
            elif type(written_party) is str and written_party.strip():
                return written_party
            else:
                self.problems.add(
                    (*here, "party"),
                    "the party's abbreviation, like DEM",
                    show(written_party),
                )
        elif method is not None and is_partisan_primary(method, stage):
            self.problems.missing(
                (*here, "party"), "a `party` for a partisan primary: whose primary it is, like DEM"
            )
        return None

    def _year(self, here: tuple[Any, ...], raw: dict[str, Any]) -> int:
        """The election's year (0 when it is wrong: reported)."""
        written_year = raw.get("year", MISSING)
        if written_year is MISSING:
            self.problems.missing((*here, "year"), "the election `year`, like 2027")
        elif type(written_year) is int and _FIRST_YEAR <= written_year <= _LAST_YEAR:
            return written_year
        else:
            self.problems.add(
                (*here, "year"),
                f"an election year from {_FIRST_YEAR} to {_LAST_YEAR}, like 2027",
                show(written_year),
            )
        return 0

    def _seats(self, here: tuple[Any, ...], raw: dict[str, Any]) -> int:
        """The number of seats (1 by default)."""
        written_seats = raw.get("seats", 1)
        if type(written_seats) is int and written_seats >= 1:
            return written_seats
        self.problems.add(
            (*here, "seats"),
            "a whole number of seats, 1 or more (1 = a single office; a bare number, "
            "not a word or true/false)",
            show(written_seats),
        )
        return 1

    def _texts(self, here: tuple[Any, ...], raw: dict[str, Any]) -> dict[str, str]:
        """The municipality and the office, as printable text (empty when not given)."""
        strings: dict[str, str] = {}
        for field in ("municipality", "office"):
            value = raw.get(field, "")
            if isinstance(value, str) and has_controls(value):
                self.problems.add((*here, field), f"text of {PRINTABLE}", show(value))
            elif isinstance(value, str):
                strings[field] = value
            else:
                self.problems.add((*here, field), as_text("text", value), show(value))
        return strings

    def _amounts(self, here: tuple[Any, ...], raw: dict[str, Any]) -> dict[str, Decimal | None]:
        """The filing fee and the salary, each an amount of money when given."""
        amounts: dict[str, Decimal | None] = {"filing_fee": None, "salary": None}
        for field in amounts:
            if field in raw:
                try:
                    amounts[field] = read_amount(raw[field], f"the {field.replace('_', ' ')}")
                except BadValue as error:
                    self.problems.bad((*here, field), error)
        return amounts

    def filing(self, here: tuple[Any, ...], raw: Any) -> tuple[datetime | None, datetime | None]:
        if raw is MISSING:
            return None, None
        where = (*here, "filing")
        if not isinstance(raw, dict):
            self.problems.add(
                where,
                "a mapping like {opens: 2027-07-02T12:00, closes: 2027-07-16T12:00}",
                show(raw),
            )
            return None, None
        self.problems.unknown_keys(where, raw, FILING_KEYS)
        got: dict[str, datetime | None] = {"opens": None, "closes": None}
        for field in FILING_KEYS:
            if field in raw:
                try:
                    got[field] = self.clock.time(raw[field])
                except BadValue as error:
                    self.problems.bad((*where, field), error)
        opens, closes = got["opens"], got["closes"]
        if opens is not None and closes is not None and closes <= opens:
            self.problems.add(
                (*where, "closes"),
                f"a close after the opening ({opens.isoformat()})",
                closes.isoformat(),
            )
        return opens, closes

    def statutory_side(
        self,
        here: tuple[Any, ...],
        opens: datetime | None,
        closes: datetime | None,
        year: int,
        method: Method,
        district_based: bool,
    ) -> None:
        """A filing period set on one side keeps the statutory other side, and must still open
        before it closes (``filing: {closes: 2027-06-01}`` made a period from July 2 to June 1,
        and every filing was rejected as outside it; both sides given so are refused)."""

        office = OfficeCalendar(timezone=self.clock.tz_name, extra_closed=frozenset(self.closed))
        statutory = filing_period(
            year, calendar=office, district_based=district_based, method=method
        )
        if closes is not None and closes <= statutory[0].due:
            self.problems.add(
                (*here, "filing", "closes"),
                f"a close after the opening, the statutory one ({statutory[0].due.isoformat()}, "
                f"{statutory[0].how}) since `opens` is not given",
                closes.isoformat(),
            )
        if opens is not None and opens >= statutory[1].due:
            self.problems.add(
                (*here, "filing", "opens"),
                f"an opening before the close, the statutory one ({statutory[1].due.isoformat()}, "
                f"{statutory[1].how}) since `closes` is not given",
                opens.isoformat(),
            )

    def check_fee(self, here: tuple[Any, ...], fee: Decimal | None, salary: Decimal | None) -> None:
        """G.S. 163-291(3)'s bounds on the fee: the ``fee-bounds`` table of
        :mod:`simulator.law.tables.filing`."""
        if fee is None:
            return
        problem = filing_rules.fee_bounds(fee, salary)
        if problem is not None:
            self.problems.add((*here, "filing_fee"), *problem)

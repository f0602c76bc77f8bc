"""Statutory dates as pure functions over a calendar of office closures.

Election days come from G.S. 163-279, filing periods from G.S. 163-291(2) and 163-294.2(c),
canvasses from 163-291(5), 163-293(c) and 163-294(b) (the 11:00 meeting of 163-182.5(b)), and every
day for an act in the board's office moves to the next day the office is open (G.S. 103-5).

Office closures are the State's holiday schedule for North Carolina in the ``holidays`` package
(precomputed in :mod:`simulator.law.closures`) plus a scenario's ``office_closed`` days (reading
3). All times are timezone-aware in the scenario's zone (``America/New_York`` by default);
pendulum places the wall times at a change of clocks (see :func:`local`).

>>> election_day(2027)
datetime.date(2027, 11, 2)
>>> first_election_day(2027, Method.RUNOFF)
datetime.date(2027, 10, 5)
>>> cal = OfficeCalendar()
>>> d = filing_period(2025, calendar=cal)[0]
>>> d.due.isoformat(), d.moved_from.date().isoformat()
('2025-07-07T12:00:00-04:00', '2025-07-04')
>>> d.why_moved.split("; ")[0]
'2025-07-04 Independence Day (North Carolina holiday)'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import date, datetime, time, timedelta
from functools import cache, lru_cache
from typing import Any
from zoneinfo import ZoneInfo

import attrs

from simulator.law.cite import Cite, joined, statute
from simulator.law.closures import closures
from simulator.law.instants import instant
from simulator.law.labels import label
from simulator.law.parameters import COUNTY_CANVASS_DAY
from simulator.law.readings import FilingOpening, RunoffCanvass
from simulator.law.tables.canvass import canvass_cite
from simulator.law.vocab import DeadlineKind, DeadlineState, Method, RulingKind, Stage

NEW_YORK = "America/New_York"
NOON = time(12, 0)
END_OF_DAY = time(23, 59, 59)
CANVASS_HOUR = time(11, 0)  # G.S. 163-182.5(b): the board meets at 11:00 A.M.
#: The start of the board office's business day, for `filing_opening` (``filing_opening:
#: start_of_business``): no statute in the sources sets the office's hours; 8:00 a.m. is the
#: hour county boards of elections in North Carolina commonly open (their business hours are
#: 8:00 a.m. to 5:00 p.m.).
OFFICE_OPENS = time(8, 0)
#: G.S. 163-106(e) ends a party candidate's right to withdraw at "the close of business" on a day
#: and names no hour. 5:00 pm is the hour county boards of elections close their offices on a
#: business day (their offices keep 8:00 am to 5:00 pm hours), so it is the hour used.
CLOSE_OF_BUSINESS = time(17, 0)

MON, TUE, WED, THU, FRI, SAT, SUN = range(7)
_DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


#: why a deadline no longer applies (its ``void_words``; {why}: the words of the ruling that
#: ended it): the primary was not held, nobody may ask for a runoff, or no runoff is held
VOID_NO_PRIMARY = "no primary: {why}"
VOID_NOBODY_MAY_ASK = "nobody may ask: {why}"
VOID_NO_RUNOFF = "no runoff: {why}"
#: how a filing period's opening or close that the scenario sets is computed
SET_BY_SCENARIO = "set by the scenario"
#: what a deadline counted from the declaration is counted from (:func:`recomputed`'s ``since``)
SINCE_DECLARATION = "the declaration of {day}"


@attrs.frozen(cache_hash=True)  # replays look each one up (deadline_states)
class Deadline:
    """A statutory date or deadline, with how it was computed and its 103-5 move if any."""

    kind: DeadlineKind
    due: datetime
    cites: tuple[Cite, ...]
    moved_from: datetime | None = None
    why_moved: str | None = None
    how: str = ""
    all_day: bool = False  # a day (an election day) rather than a moment
    #: where it stands at a replay's moment (None: a date of the calendar, not of a replay)
    state: DeadlineState | None = None
    #: the kind of the ruling that ended it (state ``void``), and that ruling's words
    void_because: RulingKind | None = None
    void_words: str = ""
    #: computed from the day the law fixes for the act it counts from (the canvass), before that
    #: act: the one computed from the act itself takes its place (:func:`recomputed`)
    provisional: bool = False

    @property
    def cite(self) -> str:
        return joined(self.cites)

    def state_words(self) -> str:
        """Where it stands, in words: ``met``, ``no longer applies: no runoff: ...``; "" without
        a state."""
        if self.state is None:
            return ""
        words = label(self.state)
        return f"{words}: {self.void_words}" if self.void_words else words

    def words(self) -> str:
        """The deadline in one line of words: ``runoff request deadline: Thu 2023-10-19 12:00
        (G.S. 163-293(c)); noon, first Thursday after the result is declared``."""
        when = f"{self.due:%a %Y-%m-%d}" if self.all_day else f"{self.due:%a %Y-%m-%d %H:%M}"
        cite = f" ({self.cite})" if self.cites else ""
        how = f"; {self.how}" if self.how else ""
        moved = (
            f"; moved from {self.moved_from:%a %Y-%m-%d}: {self.why_moved}"
            if self.moved_from is not None
            else ""
        )
        state = f"; {self.state_words()}" if self.state is not None else ""
        return f"{label(self.kind)}: {when}{cite}{how}{moved}{state}"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """IPython's plain-text display (Jupyter): :meth:`words`."""
        p.text(self.words())

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "due": self.due.isoformat(),
            "cite": self.cite,
            "moved_from": self.moved_from.isoformat() if self.moved_from else None,
            "why_moved": self.why_moved,
            "how": self.how,
            "url": self.cites[0].url if self.cites else None,
        } | (
            {
                "state": self.state.value,
                "void_because": self.void_because.value if self.void_because else None,
            }
            if self.state is not None
            else {}
        )


def recomputed(listed: Deadline, new: Deadline, since: str) -> Deadline:
    """``new``, computed from what happened (``since``: "the declaration of 2027-10-14"), in the
    place of ``listed``, computed before from the day the law fixes for it: its ``how`` says how
    the listed deadline changed."""
    if new.due == listed.due:
        return new
    was = f"{listed.due:%a %Y-%m-%d %H:%M}"
    return attrs.evolve(
        new,
        how=f"{new.how}; listed before as {was}, counted from the day the law fixes for the "
        f"canvass, and counted again from {since}",
    )


def _nc_holidays(year: int) -> dict[date, str]:
    return closures(year)


def _dates(days: Iterable[date]) -> frozenset[date]:
    return frozenset(days)


@attrs.frozen
class OfficeCalendar:
    """When the board of elections' office is open for transactions (G.S. 103-5(a))."""

    timezone: str = NEW_YORK
    extra_closed: frozenset[date] = attrs.field(default=frozenset(), converter=_dates)

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    def closure_reason(self, d: date) -> str | None:
        """Why the office is closed on ``d``, or None when it is open."""
        if d.weekday() == SAT:
            return "Saturday"
        if d.weekday() == SUN:
            return "Sunday"
        name = _nc_holidays(d.year).get(d)
        if name is not None:
            return f"{name} (North Carolina holiday)"
        if d in self.extra_closed:
            return "office closed (scenario office_closed)"
        return None

    def is_open(self, d: date) -> bool:
        return self.closure_reason(d) is None

    def next_open_day(self, d: date) -> date:
        """``d`` itself when the office is open, else the next day it is (G.S. 103-5(a))."""
        while not self.is_open(d):
            d += timedelta(days=1)
        return d


@cache
def local(d: date, t: time, tz: ZoneInfo | str = NEW_YORK) -> datetime:
    """The wall-clock moment ``t`` on day ``d`` in ``tz``, DST-correct.

    A wall time that is neither skipped nor repeated by a change of clocks has one offset
    (pendulum marks it ``fold=1``, and so does this); one at a change of clocks is placed by
    pendulum (imported only then: most days have no change of clocks)."""
    name = tz if isinstance(tz, str) else tz.key
    zone = ZoneInfo(name)
    moment = datetime(d.year, d.month, d.day, t.hour, t.minute, t.second, tzinfo=zone, fold=1)
    if moment.utcoffset() == moment.replace(fold=0).utcoffset():
        return moment
    import pendulum

    p = pendulum.datetime(d.year, d.month, d.day, t.hour, t.minute, t.second, tz=name)
    return instant(moment.replace(fold=p.fold))  # (a repeated hour's: its fixed offset)


@lru_cache(maxsize=4096)
def nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    """The n-th given weekday (0 = Monday) of a month."""
    first = date(year, month, 1)
    first += timedelta(days=(weekday - first.weekday()) % 7)
    return first + timedelta(weeks=n - 1)


@lru_cache(maxsize=4096)
def election_day(year: int) -> date:
    """Tuesday after the first Monday in November (G.S. 163-279(a)(1)-(3))."""
    return nth_weekday(year, 11, MON, 1) + timedelta(days=1)


def labor_day(year: int) -> date:
    return nth_weekday(year, 9, MON, 1)


def tuesdays_before(d: date, n: int) -> date:
    """The n-th Tuesday before day ``d`` (counting back, not counting ``d`` itself)."""
    back = (d.weekday() - TUE) % 7 or 7
    return d - timedelta(days=back) - timedelta(weeks=n - 1)


def partisan_primary_day(year: int) -> date:
    """Second Tuesday after Labor Day (G.S. 163-279(a)(2), applied by 163-291(1))."""
    return labor_day(year) + timedelta(days=1) + timedelta(weeks=1)


def fourth_tuesday_before_election(year: int) -> date:
    """G.S. 163-279(a)(2)-(4): the second primary, the nonpartisan primary, the first election."""
    return tuesdays_before(election_day(year), 4)


def first_election_day(year: int, method: Method) -> date:
    """The day of the first (or only) election of the method (G.S. 163-279(a))."""
    return rounds(method, Stage.ELECTION)[0].day_of(year)


def primary_day(year: int, method: Method) -> date | None:
    """The day of the method's primary (G.S. 163-279(a)(2)-(3)); None for a method without one."""
    first = rounds(method, Stage.PRIMARY)[0]
    return first.day_of(year) if first.kind is DeadlineKind.PRIMARY_DAY else None


@lru_cache(maxsize=4096)
def move(
    kind: DeadlineKind,
    due: datetime,
    cites: tuple[Cite, ...],
    calendar: OfficeCalendar,
    how: str,
) -> Deadline:
    """Apply G.S. 103-5(a): an act's last day that falls on a closed day moves to the next open
    day, at the same time of day."""
    d = due.date()
    reason = calendar.closure_reason(d)
    if reason is None:
        return Deadline(kind, due, cites, how=how)
    new_day = calendar.next_open_day(d)
    moved = local(new_day, due.timetz().replace(tzinfo=None), calendar.tz)
    skipped = [
        f"{x.isoformat()} {calendar.closure_reason(x)}"
        for x in (d + timedelta(days=i) for i in range((new_day - d).days))
    ]
    why = "; ".join(skipped)
    return Deadline(
        kind,
        moved,
        (*cites, statute("103-5(a)")),
        moved_from=due,
        why_moved=why,
        how=how + f"; the office is closed ({why}), so it moves to {new_day.isoformat()}",
    )


@lru_cache(maxsize=4096)
def day_deadline(
    kind: DeadlineKind, d: date, cites: tuple[Cite, ...], how: str, tz: ZoneInfo | str = NEW_YORK
) -> Deadline:
    """A day (an election day), never moved: elections are not acts in the office."""
    return Deadline(kind, local(d, time(0, 0), tz), cites, how=how, all_day=True)


def _ordinal(n: int) -> str:
    """``3`` -> ``"3rd"``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def census_year(year: int) -> int:
    """0 for a decennial census year, 1 the year after, and so on."""
    return year % 10


def filing_period(
    year: int,
    *,
    calendar: OfficeCalendar,
    district_based: bool = False,
    method: Method = Method.PLURALITY,
    opening: FilingOpening = FilingOpening.NOON,
) -> tuple[Deadline, Deadline]:
    """Opening and close of the statutory filing period, with 103-5 moves.

    Noon on the first Friday in July to noon on the third Friday in July (G.S. 163-291(2) for
    partisan, 163-294.2(c) for nonpartisan), except in the year after a census for cities
    electing by district: noon fourth Monday in July to noon second Friday in August
    (163-291(2)a, 163-294.2(c)(1)); and in the second year after a census, with the county
    offices (163-291(2)b; G.S. 163-106.2 is not in our sources: modeled as noon on the first
    Monday in December to noon on the third Friday in December of the year before). For a
    nonpartisan contest that year the provision is 163-294.2(c)(2), whose text our copy cuts
    off after its first words: it is read as the same rule as 163-291(2)b, and cited as
    163-294.2(c)(2), since 163-291 governs partisan contests only.

    An opening moved by G.S. 103-5(a) is at noon of the next open day, or under `filing_opening`
    (``opening`` START_OF_BUSINESS) at the start of that day's business (:data:`OFFICE_OPENS`).
    """
    base = statute("163-291(2)") if method is Method.PARTISAN else statute("163-294.2(c)")
    if district_based and census_year(year) == 1:
        cite = statute("163-291(2)a") if method is Method.PARTISAN else statute("163-294.2(c)(1)")
        opens_d, closes_d = nth_weekday(year, 7, MON, 4), nth_weekday(year, 8, FRI, 2)
        how_o, how_c = "noon, fourth Monday in July", "noon, second Friday in August"
    elif census_year(year) == 2:
        partisan = method is Method.PARTISAN
        cite = statute("163-291(2)b") if partisan else statute("163-294.2(c)(2)")
        opens_d, closes_d = nth_weekday(year - 1, 12, MON, 1), nth_weekday(year - 1, 12, FRI, 3)
        read = "" if partisan else "; 163-294.2(c)(2), cut off in the sources, read as 163-291(2)b"
        how_o = "noon, first Monday in December of the year before (with county offices)" + read
        how_c = "noon, third Friday in December of the year before (with county offices)" + read
    else:
        cite = base
        opens_d, closes_d = nth_weekday(year, 7, FRI, 1), nth_weekday(year, 7, FRI, 3)
        how_o, how_c = "noon, first Friday in July", "noon, third Friday in July"
    tz = calendar.tz
    opens = move(DeadlineKind.FILING_OPENS, local(opens_d, NOON, tz), (cite,), calendar, how_o)
    if opening is FilingOpening.START_OF_BUSINESS and opens.moved_from is not None:
        # `filing_opening`: the act 103-5(a) lets be done on the next open day may be done from the
        # start of that day's business
        opens = attrs.evolve(
            opens,
            due=local(opens.due.date(), OFFICE_OPENS, tz),
            how=opens.how + ", at the start of the day's business, 8:00 a.m. (interpretation "
            "filing_opening: start_of_business)",
        )
    closes = move(DeadlineKind.FILING_CLOSES, local(closes_d, NOON, tz), (cite,), calendar, how_c)
    return opens, closes


def business_days_before(d: date, n: int, calendar: OfficeCalendar) -> date:
    """The ``n``th day before ``d`` on which the office is open (a business day: not a
    Saturday, a Sunday, a State holiday or a day the scenario closes the office)."""
    for _ in range(n):
        d -= timedelta(days=1)
        while not calendar.is_open(d):
            d -= timedelta(days=1)
    return d


def party_withdrawal_deadline(filing_closes: datetime, calendar: OfficeCalendar) -> datetime:
    """G.S. 163-106(e): a party primary candidate may withdraw the notice of candidacy until the
    close of business (:data:`CLOSE_OF_BUSINESS`) on the third business day before the day the
    right to file expires (the day filing closes, after any 103-5 move)."""
    tz = calendar.tz
    day = business_days_before(filing_closes.astimezone(tz).date(), 3, calendar)
    return local(day, CLOSE_OF_BUSINESS, tz)


def canvass(
    election: date,
    cite: Cite,
    calendar: OfficeCalendar,
    *,
    runoff: RunoffCanvass | None = None,
) -> Deadline:
    """The canvass of an election at 11:00, moved by 103-5: the seventh day after a municipal
    primary, second primary or runoff city's first election (``cite``: 163-291(5), 163-294(b),
    163-293(c)); the day G.S. 163-182.5(b) sets for every other election (``cite``: that
    subsection), in force on the election's day (``COUNTY_CANVASS_DAY`` in
    :mod:`simulator.law.parameters`): the tenth from 2017 (S.L. 2016-109), the seventh before.
    An election held on the same day as the November general election of an even-numbered year
    (a municipal election postponed under G.S. 163-291(2)b) is canvassed on the tenth day under
    either text.

    ``runoff``: for the canvass of a 163-293 runoff, the reading of its day (the runoff_canvass
    reading):
    ``first_election_seventh_day`` canvasses it on the seventh day, as the first election.

    >>> canvass(date(2022, 11, 8), statute("163-182.5(b)"), OfficeCalendar()).due.date()
    datetime.date(2022, 11, 18)
    >>> c = canvass(date(2027, 11, 2), statute("163-182.5(b)"), OfficeCalendar())
    >>> c.due.date(), c.how.split(", 11:00 ")[1]
    (datetime.date(2027, 11, 12), '(G.S. 163-182.5(b) as rewritten by S.L. 2016-109)')
    """
    n, cites, source = _canvass_day(election, cite, runoff)
    d = election + timedelta(days=n)
    return move(
        DeadlineKind.CANVASS,
        local(d, CANVASS_HOUR, calendar.tz),
        cites,
        calendar,
        f"{_ORDINAL_WORDS[n]} day after the election of {election.isoformat()}, 11:00{source}",
    )


_ORDINAL_WORDS = {7: "seventh", 10: "tenth"}
_COUNTY = statute(COUNTY_CANVASS_DAY.cite)


def _canvass_day(
    election: date, cite: Cite, runoff: RunoffCanvass | None
) -> tuple[int, tuple[Cite, ...], str]:
    """The days after ``election`` to its canvass, the canvass's citations and the words that
    name the text the day comes from (none for a municipal section's seventh day)."""
    if election.year % 2 == 0 and election == election_day(election.year):
        # with an even year's general election: the tenth day under both texts of 163-182.5(b)
        found = COUNTY_CANVASS_DAY.at(election)
        if found.days == 10:
            return 10, (_COUNTY,), f" ({found.source})"
        return 10, (_COUNTY,), f" ({found.source}: {_WITH_GENERAL})"
    if runoff is RunoffCanvass.FIRST_ELECTION_SEVENTH_DAY:
        return (
            7,
            (statute("163-293(c)"), statute("163-293(e)")),
            " (G.S. 163-293(c), which 163-293(e) applies to the runoff: interpretation "
            "runoff_canvass: first_election_seventh_day)",
        )
    if cite != _COUNTY:
        return 7, (cite,), ""
    found = COUNTY_CANVASS_DAY.at(election)
    return found.days, (cite,), f" ({found.source})"


_WITH_GENERAL = "an election held with an even year's November general election"


def noon_thursday_after(
    kind: DeadlineKind,
    declared: date,
    cite: Cite,
    calendar: OfficeCalendar,
    *,
    since: str = "result declared",
) -> Deadline:
    """12:00 noon on the first Thursday after the day a result is declared (`early_request`), or
    after the day of what ``since`` names (a drawing of lots, `request_after_lot`)."""
    d = declared + timedelta(days=(THU - declared.weekday()) % 7 or 7)
    return move(
        kind,
        local(d, NOON, calendar.tz),
        (cite,),
        calendar,
        f"noon on the first Thursday after {declared.isoformat()} ({since})",
    )


def end_of_nth_day_after(
    kind: DeadlineKind, start: date, n: int, cite: Cite, calendar: OfficeCalendar
) -> Deadline:
    """'Within n days after X': through 23:59:59 of the n-th day after X's date (the day-counting
    reading)."""
    d = start + timedelta(days=n)
    return move(
        kind,
        local(d, END_OF_DAY, calendar.tz),
        (cite,),
        calendar,
        f"end of the {_ordinal(n)} day after {start.isoformat()}",
    )


def reopened_period(
    notice: datetime, days: int, cite: Cite, calendar: OfficeCalendar
) -> tuple[datetime, Deadline]:
    """A reopened filing period (the day-counting reading): opens at noon of the first open day on
    or after the notice (the next such day when notice came after noon) and closes at noon ``days``
    calendar days later, the close moved by 103-5."""
    notice = notice.astimezone(calendar.tz)
    d = notice.date()
    if notice.timetz().replace(tzinfo=None) > NOON:
        d += timedelta(days=1)
    d = calendar.next_open_day(d)
    opens = local(d, NOON, calendar.tz)
    close = move(
        DeadlineKind.REOPENED_FILING_CLOSES,
        local(d + timedelta(days=days), NOON, calendar.tz),
        (cite,),
        calendar,
        f"reopened at noon {d.isoformat()} for {days} days",
    )
    return opens, close


def extended_close(original_close: datetime, cite: Cite, calendar: OfficeCalendar) -> Deadline:
    """G.S. 163-294.4(a): noon five days after the original close (the day-counting reading), moved
    by 103-5."""
    d = original_close.astimezone(calendar.tz).date() + timedelta(days=5)
    return move(
        DeadlineKind.EXTENDED_FILING_CLOSES,
        local(d, NOON, calendar.tz),
        (cite,),
        calendar,
        "noon five days after the original close",
    )


def thirty_days_after(close: datetime, tz: ZoneInfo) -> date:
    """The last day 'within 30 days after the filing period closes' (163-112); never moved."""
    return close.astimezone(tz).date() + timedelta(days=30)


_NOV = "Tuesday after the first Monday in November"
_FOURTH = "fourth Tuesday before the November election"
DK_ELECTION = DeadlineKind.ELECTION_DAY


@attrs.frozen
class Round:
    """One election of a method's cycle (G.S. 163-279(a)): its day in a given year, the
    subsection that sets it, how that day is found, the canvass that follows (its citation) and
    the request the canvass opens (a runoff or a second primary), if any."""

    kind: DeadlineKind
    day_of: Callable[[int], date]
    cite: Cite
    how: str
    canvass: Cite
    request: Cite | None = None
    #: the provision that applies ``cite`` to this election, if another does (G.S. 163-291(1)
    #: gives a party's municipal primaries and election the days of 163-279)
    via: Cite | None = None

    def canvass_of(
        self,
        day: date,
        calendar: OfficeCalendar,
        runoff: RunoffCanvass = RunoffCanvass.COUNTY_TENTH_DAY,
    ) -> Deadline:
        """The canvass of this election held on ``day`` (:func:`canvass`); a 163-293 runoff's
        under the reading ``runoff`` (the runoff_canvass reading)."""
        is_runoff = self.kind is DeadlineKind.RUNOFF_ELECTION
        return canvass(day, self.canvass, calendar, runoff=runoff if is_runoff else None)

    @lru_cache(maxsize=1024)  # noqa: B019 (the rounds are module constants, never let go)
    def deadline(self, year: int, tz: ZoneInfo | str, *, day: date | None = None) -> Deadline:
        """The election's day in ``year`` (``day``, when a scenario sets it, overrides it)."""
        statutory = self.day_of(year)
        how = self.how if day in (None, statutory) else "set by the scenario"
        cites = (self.cite,) if self.via is None else (self.cite, self.via)
        return day_deadline(self.kind, day or statutory, cites, how, tz)


def _round(
    method: Method,
    kind: DeadlineKind,
    day_of: Callable[[int], date],
    cite: str,
    how: str,
    request: Cite | None = None,
) -> Round:
    """One election of ``method``'s cycle; its canvass cites the ``canvass`` table's rule. A
    party's days are 163-279(a)(2)'s by way of 163-291(1)."""
    via = statute("163-291(1)") if method is Method.PARTISAN else None
    return Round(kind, day_of, statute(cite), how, canvass_cite(method, kind), request, via)


_P, _NP, _R = Method.PARTISAN, Method.PRIMARY, Method.RUNOFF

#: Each method's elections in a year, in order (G.S. 163-279(a)).
CYCLE: dict[Method, tuple[Round, ...]] = {
    Method.PLURALITY: (_round(Method.PLURALITY, DK_ELECTION, election_day, "163-279(a)(1)", _NOV),),
    _P: (
        _round(
            _P,
            DeadlineKind.PRIMARY_DAY,
            partisan_primary_day,
            "163-279(a)(2)",
            "second Tuesday after Labor Day",
            statute("163-291(6)"),
        ),
        _round(
            _P,
            DeadlineKind.SECOND_PRIMARY,
            fourth_tuesday_before_election,
            "163-279(a)(2)",
            _FOURTH,
        ),
        _round(_P, DK_ELECTION, election_day, "163-279(a)(2)", _NOV),
    ),
    _NP: (
        _round(
            _NP, DeadlineKind.PRIMARY_DAY, fourth_tuesday_before_election, "163-279(a)(3)", _FOURTH
        ),
        _round(_NP, DK_ELECTION, election_day, "163-279(a)(3)", _NOV),
    ),
    _R: (
        _round(
            _R,
            DK_ELECTION,
            fourth_tuesday_before_election,
            "163-279(a)(4)",
            _FOURTH,
            statute("163-293(c)"),
        ),
        _round(_R, DeadlineKind.RUNOFF_ELECTION, election_day, "163-279(a)(4)", _NOV),
    ),
}
_REQUEST_KIND = {
    Method.PARTISAN: DeadlineKind.SECOND_PRIMARY_REQUEST,
    Method.RUNOFF: DeadlineKind.RUNOFF_REQUEST,
}


def request_kind(method: Method) -> DeadlineKind:
    """The deadline to ask for the method's second round: a runoff or a second primary."""
    return _REQUEST_KIND[method]


def rounds(method: Method, stage: Stage) -> tuple[Round, ...]:
    """The elections one stage of a contest may hold, in order: a primary's are those before the
    November election (the primary, and a second primary if demanded); an election's the rest
    (the election, and a runoff if demanded).

    >>> [r.kind.value for r in rounds(Method.PARTISAN, Stage.PRIMARY)]
    ['primary_day', 'second_primary']
    >>> [r.kind.value for r in rounds(Method.RUNOFF, Stage.ELECTION)]
    ['election_day', 'runoff_election']
    """
    cycle = CYCLE[method]
    n = next(i for i, r in enumerate(cycle) if r.kind is DeadlineKind.ELECTION_DAY)
    return cycle[:n] if stage is Stage.PRIMARY and n else cycle[n:]


def round_of(method: Method, kind: DeadlineKind) -> Round:
    """The election of ``method``'s cycle held on the day of ``kind`` (G.S. 163-279(a)).

    >>> round_of(Method.RUNOFF, DeadlineKind.RUNOFF_ELECTION).canvass
    Cite(section='163-182.5', sub='(b)')
    """
    return next(r for r in CYCLE[method] if r.kind is kind)


def statutory_calendar(
    year: int,
    method: Method,
    *,
    district_based: bool = False,
    calendar: OfficeCalendar | None = None,
    stage: Stage | None = None,
) -> list[Deadline]:
    """Every statutory date of one year's municipal cycle for a method (``electsim calendar``);
    with ``stage``, the filing period and that stage's elections only (:func:`rounds`: the
    dates a contest of that stage replays to, ``electsim new``).

    >>> [d.kind.value for d in statutory_calendar(2027, Method.RUNOFF)][2:]
    ['election_day', 'canvass', 'runoff_request', 'runoff_election', 'canvass']
    >>> [d.kind.value for d in statutory_calendar(2027, Method.PARTISAN, stage=Stage.ELECTION)]
    ['filing_opens', 'filing_closes', 'election_day', 'canvass']
    """
    cal = calendar or OfficeCalendar()
    out: list[Deadline] = list(
        filing_period(year, calendar=cal, district_based=district_based, method=method)
    )
    for r in CYCLE[method] if stage is None else rounds(method, stage):
        out.append(r.deadline(year, cal.tz))
        held = r.canvass_of(r.day_of(year), cal)
        out.append(held)
        if r.request is not None:
            out.append(noon_thursday_after(request_kind(method), held.due.date(), r.request, cal))
    return out

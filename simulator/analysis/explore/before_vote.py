"""The beginnings of the courses of events, up to the vote: the filings, who leaves before the
vote, how and when, a late filer, the board extending or reopening filing, the party naming a
nominee.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime, timedelta
from itertools import product
from typing import Any

from simulator.analysis.explore.config import (
    BEFORE_VOTE,
    LEAVING_EVENT,
    NAMES,
    Config,
    Departure,
    Region,
)
from simulator.analysis.explore.documents import dates_of, iso_minutes, learned_at
from simulator.analysis.explore.folds import folds_of, run
from simulator.law.vocab import DeadlineKind
from simulator.model.events import (
    BallotsPrinted,
    CandidateDied,
    CandidateFiled,
    FilingExtended,
    NomineeNamed,
    ReprintDetermined,
)


def filings_of(config: Config) -> list[dict[str, Any]]:
    opens = dates_of(config)["opens"]
    out = []
    for i in range(config.candidates):
        ev: dict[str, Any] = {
            "type": CandidateFiled.type,
            "at": iso_minutes(opens + timedelta(minutes=30 * (i + 1))),
            "candidate": NAMES[i],
        }
        party = config.party(NAMES[i])
        if party is not None:
            ev["party"] = party
        out.append(ev)
    return out


def _leave_events(
    kind: Departure, region: Region, name: str, d: dict[str, datetime]
) -> list[dict[str, Any]]:
    close = d["close"]

    def ev(t: datetime) -> dict[str, Any]:
        return {"type": LEAVING_EVENT[kind], "at": iso_minutes(t), "candidate": name}

    if region is Region.FILING:
        # a week before the close: in time for a party primary's withdrawal too (G.S.
        # 163-106(e) ends it three business days before the close; one after that deadline
        # has the effect of one after the close, which the next region explores)
        return [ev(close - timedelta(days=7))]
    if region is Region.EARLY:
        return [ev(close + timedelta(days=10))]
    if region is Region.LATE:
        return [ev(close + timedelta(days=35))]
    printed = close + timedelta(days=40)
    return [
        {"type": BallotsPrinted.type, "at": iso_minutes(printed)},
        ev(printed + timedelta(days=3)),
        {
            "type": ReprintDetermined.type,
            "at": iso_minutes(printed + timedelta(days=4)),
            "enough_time": region is Region.REPRINT,
        },
    ]


LATE_FILER = "Zed"

Prefix = tuple[list[str], list[dict[str, Any]], list[str], bool]


def _filed(config: Config, name: str, at: datetime) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": CandidateFiled.type, "at": iso_minutes(at), "candidate": name}
    party = config.party(name)
    if party is not None:
        ev["party"] = party
    return ev


def courses_before_vote(
    config: Config, d: dict[str, datetime], names: Sequence[str]
) -> Iterator[Prefix]:
    """The courses up to the vote: (steps, events after the filings, the departed, whether the
    course ends there). Nobody leaves; one candidate leaves, in every way and every region; a
    death whose notice comes later; a late filer; the board extends filing (G.S. 163-294.4(a));
    a newcomer files while filing is reopened; with K = 2, two candidates leave."""
    close = d["close"]
    yield [], [], [], False
    if config.departures < 1 or not names:
        return
    who = names[-1]
    singles: list[tuple[Departure, Region, list[dict[str, Any]]]] = [
        (kind, region, _leave_events(kind, region, who, d))
        for region, kind in product(BEFORE_VOTE, Departure)
    ]
    # the loader reads each way and moment of their leaving in one pass (a departure is read
    # the same in any of the logs)
    leaving = [e for kind, _, evs in singles for e in evs if e["type"] == LEAVING_EVENT[kind]]
    folds_of(config).read_ahead(filings_of(config), leaving)
    for kind, region, evs in singles:
        yield [f"{who} {kind.value} {region.value}"], evs, [who], False
        reopened = _reopened_close(config, evs, d)
        if reopened is not None:
            # G.S. 163-112, 163-294.4(b)-(c): filing reopens; a newcomer files inside it
            filed = _filed(config, LATE_FILER, reopened - timedelta(days=1))
            steps = [
                f"{who} {kind.value} {region.value}",
                f"{LATE_FILER} files while filing is reopened",
            ]
            yield steps, [*evs, filed], [who], False
    # a death the board learns of later: after day 30, or after the ballots are printed
    died = close + timedelta(days=10)
    printed = close + timedelta(days=40)
    late = {"type": CandidateDied.type, "at": iso_minutes(died), "candidate": who}
    yield (
        [f"{who} died within 30 days after the close, the board learns of it after day 30"],
        [late | {"notice_at": iso_minutes(close + timedelta(days=35))}],
        [who],
        False,
    )
    for enough in (True, False):
        printing: list[dict[str, Any]] = [
            {"type": BallotsPrinted.type, "at": iso_minutes(printed)},
            late | {"notice_at": iso_minutes(printed + timedelta(days=3))},
            {
                "type": ReprintDetermined.type,
                "at": iso_minutes(printed + timedelta(days=4)),
                "enough_time": enough,
            },
        ]
        board = "finds time to reprint" if enough else "finds no time to reprint"
        yield (
            [
                f"{who} died before printing, the board learns of it after printing and {board}",
            ],
            printing,
            [who],
            False,
        )
    # a notice of candidacy after the close, and the board extending filing (163-294.4(a))
    yield (
        [f"{LATE_FILER} files after the filing closed"],
        [_filed(config, LATE_FILER, close + timedelta(days=1))],
        [],
        True,
    )
    extend = {"type": FilingExtended.type, "at": iso_minutes(close + timedelta(hours=1))}
    short = len(names) < config.seats
    yield ["the board extends filing"], [extend], [], not short
    if short:
        filed = _filed(config, LATE_FILER, close + timedelta(days=2))
        yield (
            ["the board extends filing", f"{LATE_FILER} files in the extension"],
            [
                extend,
                filed,
            ],
            [],
            False,
        )
    if config.departures < 2 or len(names) < 2:
        return
    other = names[-2]
    for i, (kind1, region1, evs1) in enumerate(singles):
        for kind2, region2, _ in singles[i:]:
            if BEFORE_VOTE.index(region2) < BEFORE_VOTE.index(region1):
                continue
            if region1 in BEFORE_VOTE[3:] and region2 is not region1:
                continue  # one printing, one determination of the board
            evs2 = [
                e
                for e in _leave_events(kind2, region2, other, d)
                if e["type"] not in (BallotsPrinted.type, ReprintDetermined.type)
                or not any(x["type"] == e["type"] for x in evs1)
            ]
            for e in evs2:
                if e["type"] == LEAVING_EVENT[kind2]:
                    e["at"] = iso_minutes(datetime.fromisoformat(e["at"]) + timedelta(hours=2))
            steps = [
                f"{who} {kind1.value} {region1.value}",
                f"{other} {kind2.value} {region2.value}",
            ]
            yield steps, [*evs1, *evs2], [who, other], False


def _reopened_close(
    config: Config, evs: list[dict[str, Any]], d: dict[str, datetime]
) -> datetime | None:
    """When filing reopened by a departure closes, if it reopens."""
    result = run(config, [*filings_of(config), *evs])
    for dl in result.deadlines:
        if dl.kind is DeadlineKind.REOPENED_FILING_CLOSES:
            return dl.due
    return None


def nominee_event(
    config: Config, log: Sequence[dict[str, Any]], gone: Sequence[str]
) -> dict[str, Any]:
    """G.S. 163-114: the party's executive committee names a nominee (of the departed
    candidate's party), two days after the last event of ``log``."""
    last = max(learned_at(e) for e in log)
    named: dict[str, Any] = {
        "type": NomineeNamed.type,
        "at": iso_minutes(last + timedelta(days=2)),
        "candidate": LATE_FILER,
    }
    party = config.party(gone[-1]) if gone else config.party(LATE_FILER)
    if party is not None:
        named["party"] = party
    return named

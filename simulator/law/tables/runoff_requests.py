"""A request for a runoff or a second primary: rule tables (see :mod:`simulator.law.rules`).

- ``request``: a candidate asks for a runoff (163-293(b)) or demands a second primary
  (163-111(b)): is the request effective?
- ``request-window-closes``: the deadline to request passes: is the next round called?
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from enum import StrEnum
from typing import Any

import attrs

from simulator.law.machine import Phase
from simulator.law.rules import Rule, Table


class Moment(StrEnum):
    """Where the contest stands when a request comes."""

    NO_RUNOFF_METHOD = "no_runoff_method"  # the method has no runoff and no second primary
    #: the first election's count has not yet settled who may request (see :class:`Awaiting`)
    BEFORE_RESULT = "before_result"
    TIE_FOR_SECOND = "tie_for_second"  # 163-293(d)(2)'s withdrawal window is open
    TIE_FOR_FIRST = "tie_for_first"  # 163-293(d)(1)'s withdrawal window is open
    WINDOW = "window"  # the request window of 163-293(c) / 163-291(6) is open
    CLOSED = "closed"  # no window is open


class Awaiting(StrEnum):
    """What the first election's count still waits for before it says who may request a runoff
    (demand a second primary): the request's maker's right is not yet settled."""

    CANVASS = "the canvass"  # the result is not yet declared
    RECOUNT = "the recount"  # a tie for first is to be recounted (163-293(d)(1))
    LOT = "the drawing of lots"  # a tie for a place is to be drawn by lot


#: the phases of the first election's count in which nobody's right to request is settled yet
_UNSETTLED = {
    Phase.FILING: Awaiting.CANVASS,
    Phase.FILING_REOPENED: Awaiting.CANVASS,
    Phase.FILING_EXTENDED: Awaiting.CANVASS,
    Phase.BALLOT: Awaiting.CANVASS,
    Phase.COUNTING: Awaiting.CANVASS,
    Phase.AWAITING_RECOUNT: Awaiting.RECOUNT,
    Phase.AWAITING_LOT: Awaiting.LOT,
}


def unsettled(phase: Phase, round_: int) -> Awaiting | None:
    """What the count waits for before it says who may request (None: it has said). Only the
    first election's: a request once the runoff (second primary) is called is weighed at once
    (163-293(f) refuses a second runoff)."""
    if round_ != 0:
        return None
    return _UNSETTLED.get(phase)


class Answer(StrEnum):
    ACCEPTED = "accepted"
    #: `early_request`: weighed, as of the time it was made, once the count says who may request
    HELD = "held"
    NO_RUNOFF_METHOD = "no runoff under this method"
    PREMATURE = "before the count said who may request"
    NOT_TIED = "only the candidates tied for second may demand a runoff"
    NOT_NEEDED = (
        "a runoff between the tied candidates follows unless one withdraws; no request is needed"
    )
    ELECTED_BY_MAJORITY = "a candidate declared elected by majority may not"
    NOT_ENTITLED = "only the runner(s)-up the statute names may request one"
    LEFT_RACE = "no longer a candidate"
    LATE = "the request came after the deadline"
    ALREADY_CALLED = "already called"
    VACANT = "the office has been declared vacant: no runoff is held"
    NONE_AVAILABLE = "no runoff is available to this candidate"
    SECOND_RUNOFF = "a second runoff is not held: the runoff has been voted on"


@attrs.frozen
class RequestFacts:
    moment: Moment
    primary: bool = False  # a second primary (163-291(6)) rather than a runoff (163-293(c))
    group: bool = False
    no_runoff_under: str = ""  # NO_RUNOFF_METHOD: "plurality" | "primary" | "partisan"
    entitled: bool = True  # among the candidates the statute names
    elected_by_majority: bool = False
    left: bool = False  # the requester has left the race
    late: bool = False
    called: bool = False  # a runoff (second primary) is already called or held
    vacant: bool = False  # CLOSED: the office was declared vacant
    early_wait: bool = True  # `early_request`
    #: BEFORE_RESULT: what the count still waits for before it says who may request
    awaiting: Awaiting = Awaiting.CANVASS
    #: CLOSED, a runoff (not a second primary): the runoff has been voted on (163-293(f))
    second_round: bool = False


def _request_facts() -> Iterator[RequestFacts]:
    for under in ("plurality", "primary", "partisan"):
        yield RequestFacts(Moment.NO_RUNOFF_METHOD, no_runoff_under=under)
    flags = (False, True)
    for primary, group in itertools.product(flags, flags):
        for wait, left, awaiting in itertools.product(flags, flags, Awaiting):
            yield RequestFacts(
                Moment.BEFORE_RESULT, primary, group, left=left, early_wait=wait, awaiting=awaiting
            )
        if not primary and not group:
            for entitled, late, left in itertools.product(flags, flags, flags):
                yield RequestFacts(Moment.TIE_FOR_SECOND, entitled=entitled, late=late, left=left)
            for left in flags:
                yield RequestFacts(Moment.TIE_FOR_FIRST, left=left)
        for entitled, maj, left, late, called in itertools.product(*([flags] * 5)):
            if maj and entitled:
                continue
            yield RequestFacts(
                Moment.WINDOW,
                primary,
                group,
                entitled=entitled,
                elected_by_majority=maj,
                left=left,
                late=late,
                called=called,
            )
        for late, called, vacant, left in itertools.product(*([flags] * 4)):
            for second in (False, True) if not primary else (False,):
                yield RequestFacts(
                    Moment.CLOSED,
                    primary,
                    group,
                    left=left,
                    late=late,
                    called=called,
                    vacant=vacant,
                    second_round=second,
                )


def _when(
    primary: bool, moment: Moment, test: Callable[[RequestFacts], bool]
) -> Callable[[RequestFacts], bool]:
    return lambda f: f.moment is moment and f.primary is primary and test(f)


def _waits(f: RequestFacts) -> bool:
    """`early_request`: a request before the canvass is held (or, switched, premature); one made
    once the canvass has declared the result, while a recount or a drawing of lots is awaited, is
    held under either reading: the declaration the deadline runs from has been made."""
    return f.early_wait or f.awaiting is not Awaiting.CANVASS


def _not_entitled(group: bool) -> Callable[[RequestFacts], bool]:
    return lambda f: f.group is group and not f.entitled


def _request_rules() -> tuple[Rule[RequestFacts, Answer], ...]:
    """The questions asked once (a method with no runoff, a tie), then each ground once for a
    runoff (163-293(c)) and once for a second primary (163-291(6)); the grounds exclude one
    another in the order the board would meet them."""
    return (*_asked_once(), *_grounds(primary=False), *_grounds(primary=True))


def _asked_once() -> list[Rule[RequestFacts, Answer]]:
    """A method with no runoff to request, and the requests a tie answers."""
    return [
        Rule(
            id="plurality-no-runoff",
            cite="163-292",
            summary="the plurality method elects the highest: there is no runoff to request",
            applies=lambda f: (
                f.moment is Moment.NO_RUNOFF_METHOD and f.no_runoff_under == "plurality"
            ),
            effect=Answer.NO_RUNOFF_METHOD,
        ),
        Rule(
            id="nonpartisan-primary-no-runoff",
            cite="163-294(b)",
            summary="a nonpartisan primary nominates the highest: there is no runoff to request",
            applies=lambda f: (
                f.moment is Moment.NO_RUNOFF_METHOD and f.no_runoff_under == "primary"
            ),
            effect=Answer.NO_RUNOFF_METHOD,
        ),
        Rule(
            id="partisan-no-runoff",
            cite="163-293(a)",
            summary="the runoff of 163-293 is for nonpartisan elections under the election and "
            "runoff method: a partisan general election has none",
            applies=lambda f: (
                f.moment is Moment.NO_RUNOFF_METHOD and f.no_runoff_under == "partisan"
            ),
            effect=Answer.NO_RUNOFF_METHOD,
        ),
        Rule(
            id="tie-demand-by-departed",
            cite="163-293(c)",
            summary="a candidate who has died, withdrawn or been disqualified is no longer a "
            "candidate and cannot file the written demand (163-293(c)) that 163-293(d)(2) asks of "
            "the tied runner-up who remains",
            applies=lambda f: f.moment is Moment.TIE_FOR_SECOND and f.left,
            effect=Answer.LEFT_RACE,
        ),
        Rule(
            id="tie-demand-not-tied",
            cite="163-293(c)",
            summary="while the tie for second is open only the tied candidates may demand a runoff",
            applies=lambda f: f.moment is Moment.TIE_FOR_SECOND and not f.left and not f.entitled,
            effect=Answer.NOT_TIED,
        ),
        Rule(
            id="tie-demand-late",
            cite="163-293(c)",
            summary="a tied runner-up's demand after noon on the Thursday is too late",
            applies=lambda f: (
                f.moment is Moment.TIE_FOR_SECOND and not f.left and f.entitled and f.late
            ),
            effect=Answer.LATE,
        ),
        Rule(
            id="tie-demand-in-time",
            cite="163-293(d)(2)",
            summary="a tied runner-up demands a runoff in time: it counts once all the others "
            "withdraw",
            applies=lambda f: (
                f.moment is Moment.TIE_FOR_SECOND and not f.left and f.entitled and not f.late
            ),
            effect=Answer.ACCEPTED,
        ),
        Rule(
            id="tie-for-first-request-by-departed",
            cite="163-293(c)",
            summary="a candidate who has died, withdrawn or been disqualified is no longer a "
            "candidate and cannot file a request (163-293(c)); whether the tie still calls a "
            "runoff is the tie's own question",
            applies=lambda f: f.moment is Moment.TIE_FOR_FIRST and f.left,
            effect=Answer.LEFT_RACE,
        ),
        Rule(
            id="tie-for-first-no-request",
            cite="163-293(d)(1)",
            summary="a tie for first after the recount calls a runoff unless one withdraws; no "
            "request",
            applies=lambda f: f.moment is Moment.TIE_FOR_FIRST and not f.left,
            effect=Answer.NOT_NEEDED,
        ),
    ]


def _grounds(*, primary: bool) -> list[Rule[RequestFacts, Answer]]:
    """The grounds of a request for a runoff (163-293(c)), or of a demand for a second primary
    (163-291(6)) when ``primary``: before the result, in its window, then after it closes."""
    out: list[Rule[RequestFacts, Answer]] = []
    when = "163-291(6)" if primary else "163-293(c)"
    tag = "second-primary" if primary else "runoff"

    for group in (False, True):
        who = "163-111(b)" if primary else "163-293(b)(2)" if group else "163-293(b)(1)"
        out.append(
            Rule(
                id=f"{tag}-{'group-' if group else ''}not-entitled",
                cite=who,
                summary="only the candidates the statute names (the runner-up, or the next as many "
                "as the seats left) may request; one elected by majority may not",
                applies=_when(primary, Moment.WINDOW, _not_entitled(group)),
                effect=Answer.NOT_ENTITLED,
            )
        )
    out += [
        Rule(
            id=f"{tag}-early-left",
            cite=when,
            summary="a candidate who has died, withdrawn or been disqualified is no longer a "
            "candidate: there is no request to hold until the count says who may request",
            applies=_when(primary, Moment.BEFORE_RESULT, lambda f: f.left),
            effect=Answer.LEFT_RACE,
        ),
        Rule(
            id=f"{tag}-early-held",
            cite=when,
            summary="the statute fixes only the latest time to ask, so asking early loses nothing: "
            "a request made before the count says who may request (before the canvass, or while a "
            "recount or a drawing of lots for a place is awaited) is held, and weighed as of the "
            "time it was made once the canvass, recount or lot says it (interpretation "
            "early_request: wait)",
            applies=_when(primary, Moment.BEFORE_RESULT, lambda f: not f.left and _waits(f)),
            effect=Answer.HELD,
        ),
        Rule(
            id=f"{tag}-early-rejected",
            cite=when,
            summary="a request made before the canvass declares the result is premature "
            "(interpretation early_request: reject; once the canvass is held, one made while a "
            "recount or a drawing of lots is awaited is held under either reading)",
            applies=_when(primary, Moment.BEFORE_RESULT, lambda f: not f.left and not _waits(f)),
            effect=Answer.PREMATURE,
        ),
        Rule(
            id=f"{tag}-left",
            cite=when,
            summary="a candidate who has left the race cannot request",
            applies=_when(primary, Moment.WINDOW, lambda f: f.entitled and f.left),
            effect=Answer.LEFT_RACE,
        ),
        Rule(
            id=f"{tag}-late",
            cite=when,
            summary="a request after noon on the Thursday after the declaration is too late",
            applies=_when(primary, Moment.WINDOW, lambda f: f.entitled and not f.left and f.late),
            effect=Answer.LATE,
        ),
        Rule(
            id=f"{tag}-called",
            cite=when,
            summary="a single office's runoff is already called by an earlier request",
            applies=_when(
                primary,
                Moment.WINDOW,
                lambda f: f.entitled and not (f.left or f.late) and f.called and not f.group,
            ),
            effect=Answer.ALREADY_CALLED,
        ),
        Rule(
            id=f"{tag}-in-time",
            cite=when,
            summary="an entitled candidate requests in time: the request counts",
            applies=_when(
                primary,
                Moment.WINDOW,
                lambda f: f.entitled and not (f.left or f.late) and (f.group or not f.called),
            ),
            effect=Answer.ACCEPTED,
        ),
    ]
    return out + _after_close(primary=primary)


def _after_close(*, primary: bool) -> list[Rule[RequestFacts, Answer]]:
    """A request (or a demand) once its window has closed."""
    when = "163-291(6)" if primary else "163-293(c)"
    tag = "second-primary" if primary else "runoff"
    out: list[Rule[RequestFacts, Answer]] = [
        Rule(
            id=f"{tag}-closed-left",
            cite=when,
            summary="a candidate who has died, withdrawn or been disqualified is no longer a "
            "candidate and cannot request",
            applies=_when(primary, Moment.CLOSED, lambda f: f.left),
            effect=Answer.LEFT_RACE,
        ),
        Rule(
            id=f"{tag}-closed-late",
            cite=when,
            summary="no window is open and the deadline has passed",
            applies=_when(
                primary, Moment.CLOSED, lambda f: not (f.left or f.second_round) and f.late
            ),
            effect=Answer.LATE,
        ),
        Rule(
            id=f"{tag}-closed-called",
            cite=when,
            summary="the runoff (second primary) is already called",
            applies=_when(
                primary,
                Moment.CLOSED,
                lambda f: not (f.left or f.late or f.second_round) and f.called,
            ),
            effect=Answer.ALREADY_CALLED,
        ),
        Rule(
            id=f"{tag}-closed-vacant",
            cite=when,
            summary="the office was declared vacant at the canvass: no runoff follows",
            applies=_when(
                primary,
                Moment.CLOSED,
                lambda f: not (f.left or f.late or f.called or f.second_round) and f.vacant,
            ),
            effect=Answer.VACANT,
        ),
        Rule(
            id=f"{tag}-closed-none",
            cite=when,
            summary="no runoff is available to this candidate",
            applies=_when(
                primary,
                Moment.CLOSED,
                lambda f: not (f.left or f.late or f.called or f.vacant or f.second_round),
            ),
            effect=Answer.NONE_AVAILABLE,
        ),
    ]
    if not primary:
        out.append(
            Rule(
                id="second-runoff-refused",
                cite="163-293(f)",
                summary="a request after the runoff has been voted on asks for a second runoff, "
                "which is not held",
                applies=_when(primary, Moment.CLOSED, lambda f: not f.left and f.second_round),
                effect=Answer.SECOND_RUNOFF,
            )
        )
    return out


REQUEST: Table[RequestFacts, Answer] = Table(
    "request",
    "a candidate asks for a runoff (or demands a second primary): is the request effective?",
    _request_rules(),
    facts=_request_facts,
    asked="{name}'s request for a runoff",
)

#: what the ruling that rejects a request says, by the ``request`` table's finding ({name}: who
#: asked; {before}: what had not yet said who may request)
REQUEST_WORDS: dict[Answer, str] = {
    Answer.NO_RUNOFF_METHOD: "{name} asked for a runoff, but this method has none",
    Answer.PREMATURE: "{name}'s request came before {before} said who may request",
}
#: a request made before the result a canvass held before its day declared as of that day
#: ({day}; `canvass_before_its_day`)
BEFORE_THE_DECLARATION = "the declaration of the result, as of {day},"
#: what the ruling that rejects a request on any other ground says ({why}: the finding's words,
#: or those below)
REQUEST_REJECTED = "{name}'s request is rejected: {why}"
#: the ground of a request by a candidate who has left ({verb}: how)
LEFT_THE_RACE = "{name} {verb} and is no longer a candidate"
#: the ground of a request once the next round is called ({round}: its name, where it is known)
ROUND_CALLED = "the {round} is already called"
RUNOFF_CALLED = "a runoff is already called"


class WindowClose(StrEnum):
    RUNOFF = "runoff"  # the requests made in time call the runoff (second primary)
    LEADERS = "leaders"  # nobody asked in time: the leaders are declared


@attrs.frozen
class WindowCloseFacts:
    primary: bool  # a party primary (a second primary, 163-111(b))
    group: bool
    requested: bool  # an entitled candidate asked in time


def _window_close(primary: bool, group: bool | None, requested: bool) -> Any:
    return lambda f: (
        f.primary is primary and (group is None or f.group is group) and f.requested is requested
    )


WINDOW_CLOSE: Table[WindowCloseFacts, WindowClose] = Table(
    "request-window-closes",
    "the deadline to request a runoff (or demand a second primary) passes: is the next round "
    "called, or are the leaders declared?",
    (
        Rule(
            id="runner-up-no-request",
            cite="163-293(b)(1)",
            summary="the runner-up did not request a runoff in time: the highest is declared "
            "elected",
            applies=_window_close(False, False, False),
            effect=WindowClose.LEADERS,
        ),
        Rule(
            id="runner-up-requested",
            cite="163-293(b)(1)",
            summary="the runner-up requested in time: the runoff is held (called when the request "
            "came)",
            applies=_window_close(False, False, True),
            effect=WindowClose.RUNOFF,
        ),
        Rule(
            id="next-candidates-no-request",
            cite="163-293(b)(2)",
            summary="none of the next candidates requested a runoff in time: the highest for the "
            "seats left are declared elected",
            applies=_window_close(False, True, False),
            effect=WindowClose.LEADERS,
        ),
        Rule(
            id="next-candidates-requested",
            cite="163-293(b)(2)",
            summary="some of the next candidates requested in time: the runoff is called when the "
            "window closes, every requester on its ballot (interpretation group_runoff_ballot: "
            "remaining_and_requesters)",
            applies=_window_close(False, True, True),
            effect=WindowClose.RUNOFF,
        ),
        Rule(
            id="runner-up-no-demand",
            cite="163-111(b)",
            summary="the runner-up did not demand a second primary in time: the leaders are "
            "nominated",
            applies=_window_close(True, None, False),
            effect=WindowClose.LEADERS,
        ),
        Rule(
            id="runner-up-demanded",
            cite="163-111(b)",
            summary="the runner-up demanded a second primary in time: it is held",
            applies=_window_close(True, None, True),
            effect=WindowClose.RUNOFF,
        ),
    ),
    facts=lambda: (
        WindowCloseFacts(p, g, r) for p, g, r in itertools.product((False, True), repeat=3)
    ),
)


#: why the leaders are declared when the request period ends with no request in time: a second
#: primary the runner-up did not demand, or a runoff nobody requested
NO_DEMAND_IN_TIME = "the runner-up did not demand a second primary in time"
NO_REQUEST_IN_TIME = "no runoff was requested in time"


# --- what the rulings that call, or close, the next round on the requests say -------------------

#: why the leaders are declared when a drawing settled who may ask only after the deadline counted
#: from the canvass (``window-close``; `request_after_lot`: from_canvass), by whether the next
#: round is a second primary
PASSED_BEFORE_THE_DRAWING: dict[bool, str] = {
    True: "the deadline to demand a second primary passed before the drawing",
    False: "the deadline to request a runoff passed before the drawing",
}
#: why a runoff is called ({names}: those who requested it)
REQUESTED_IN_TIME = "{names} requested in time"
#: the leaders a group runoff does not contest, declared (`group_runoff_ballot`: pairwise)
#: ({names})
PAIRWISE_SEATED = "no runoff was requested for their places (pairwise reading): {names} elected"

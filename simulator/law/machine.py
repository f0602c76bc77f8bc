"""The contest state machine as data: phases and the transitions the law allows between them.

The replay engine refuses any phase change that is not in :data:`TRANSITIONS` (a bug, not a
ruling), and the state-graph export draws exactly this table, so the picture and the behaviour
cannot drift apart. A trigger is an event type (docs/scenarios.md) or a timer: a statutory deadline
passing unused (``*_passes``) or a derived moment (``filing_closes``).
"""

from __future__ import annotations

from enum import StrEnum

import attrs

from simulator.law.cite import Cite, statute
from simulator.law.vocab import EventType, TimerTrigger


class Phase(StrEnum):
    FILING = "filing"  # the filing period has not closed
    FILING_REOPENED = "filing_reopened"  # G.S. 163-112, 163-294.4(b)
    FILING_EXTENDED = EventType.FILING_EXTENDED  # G.S. 163-294.4(a)
    AWAITING_NOMINATION = "awaiting_nomination"  # a party executive committee must name nominees
    BALLOT = "awaiting_votes"  # filing closed, waiting for the election's votes
    COUNTING = "counting"  # returns coming in, waiting for the canvass
    AWAITING_RECOUNT = "awaiting_recount"  # G.S. 163-293(d)(1)
    TIE_WITHDRAWAL = "tie_withdrawal"  # G.S. 163-293(d)
    RUNOFF_REQUEST = "runoff_request"  # a runoff / second primary may be requested
    AWAITING_LOT = "awaiting_lot"  # the board must draw lots
    AWAITING_NEW_ELECTION = "awaiting_new_election"  # G.S. 163-182.8(1): the State Board orders one
    RUNOFF_CALLED = "runoff_called"  # waiting for the runoff's (second primary's) votes
    RUNOFF_COUNTING = "runoff_counting"
    DECIDED = "decided"


@attrs.frozen
class Transition:
    source: Phase
    trigger: EventType | TimerTrigger  # an event of that type, or a timer
    target: Phase
    cite: Cite
    label: str


_T = Transition

TRANSITIONS: tuple[Transition, ...] = (
    # filing
    _T(
        Phase.FILING,
        TimerTrigger.FILING_CLOSES,
        Phase.BALLOT,
        statute("163-294.2(c)"),
        "filing period closes",
    ),
    _T(
        Phase.FILING,
        EventType.FILING_CLOSED,
        Phase.BALLOT,
        statute("163-294.2(c)"),
        "board closes filing",
    ),
    _T(
        Phase.FILING,
        TimerTrigger.FILING_CLOSES,
        Phase.DECIDED,
        statute("163-294(a)"),
        "too few candidates: no primary, all nominated (163-294(a), 163-110)",
    ),
    _T(
        Phase.FILING,
        EventType.FILING_CLOSED,
        Phase.DECIDED,
        statute("163-110"),
        "too few candidates: no primary, all nominated",
    ),
    _T(
        Phase.BALLOT,
        EventType.FILING_EXTENDED,
        Phase.FILING_EXTENDED,
        statute("163-294.4(a)"),
        "board extends filing five days",
    ),
    _T(
        Phase.FILING_EXTENDED,
        TimerTrigger.EXTENDED_FILING_CLOSES,
        Phase.BALLOT,
        statute("163-294.4(a)"),
        "extended filing closes",
    ),
    _T(
        Phase.BALLOT,
        EventType.CANDIDATE_DIED,
        Phase.FILING_REOPENED,
        statute("163-294.4(b)"),
        "death reopens filing",
    ),
    _T(
        Phase.BALLOT,
        EventType.CANDIDATE_WITHDREW,
        Phase.FILING_REOPENED,
        statute("163-112(a)"),
        "withdrawal reopens filing (163-294.1(b) applies 163-112)",
    ),
    _T(
        Phase.BALLOT,
        EventType.CANDIDATE_DISQUALIFIED,
        Phase.FILING_REOPENED,
        statute("163-112(a)"),
        "disqualification reopens filing (163-294.1(b) applies 163-112)",
    ),
    _T(
        Phase.BALLOT,
        EventType.REPRINT_DETERMINED,
        Phase.FILING_REOPENED,
        statute("163-294.4(b)"),
        "time to reprint: filing reopened for three days",
    ),
    _T(
        Phase.FILING_REOPENED,
        TimerTrigger.REOPENED_FILING_CLOSES,
        Phase.BALLOT,
        statute("163-294.4(b)"),
        "reopened filing closes; the contest goes on",
    ),
    _T(
        Phase.FILING_REOPENED,
        TimerTrigger.REOPENED_FILING_CLOSES,
        Phase.DECIDED,
        statute("163-112(a)"),
        "nobody filed: the remaining candidates are certified",
    ),
    _T(
        Phase.BALLOT,
        EventType.CANDIDATE_DIED,
        Phase.DECIDED,
        statute("163-112(b)"),
        "one candidate left (or two per seat): certified / no primary",
    ),
    _T(
        Phase.BALLOT,
        EventType.CANDIDATE_WITHDREW,
        Phase.DECIDED,
        statute("163-294.1(b)"),
        "withdrawal leaves too few: no primary, all nominated",
    ),
    _T(
        Phase.BALLOT,
        EventType.CANDIDATE_DISQUALIFIED,
        Phase.DECIDED,
        statute("163-294.1(b)"),
        "disqualification leaves too few: no primary, all nominated",
    ),
    _T(
        Phase.BALLOT,
        EventType.CANDIDATE_DIED,
        Phase.AWAITING_NOMINATION,
        statute("163-112(d)(4)"),
        "fewer candidates than seats: the party executive committee nominates",
    ),
    _T(
        Phase.BALLOT,
        EventType.CANDIDATE_DISQUALIFIED,
        Phase.AWAITING_NOMINATION,
        statute("163-112(d)(4)"),
        "fewer candidates than seats: the party executive committee nominates",
    ),
    _T(
        Phase.BALLOT,
        EventType.CANDIDATE_WITHDREW,
        Phase.AWAITING_NOMINATION,
        statute("163-112(d)(4)"),
        "fewer candidates than seats: the party executive committee nominates",
    ),
    _T(
        Phase.AWAITING_NOMINATION,
        EventType.NOMINEE_NAMED,
        Phase.DECIDED,
        statute("163-114"),
        "the party executive committee names the nominees",
    ),
    _T(
        Phase.AWAITING_NOMINATION,
        EventType.NOMINEE_NAMED,
        Phase.BALLOT,
        statute("163-114"),
        "the replacement nominee goes on the general election ballot",
    ),
    _T(
        Phase.DECIDED,
        EventType.CANDIDATE_DIED,
        Phase.AWAITING_NOMINATION,
        statute("163-294.1(b)"),
        "a party nominee dies: 163-114 vacancy",
    ),
    _T(
        Phase.DECIDED,
        EventType.CANDIDATE_WITHDREW,
        Phase.AWAITING_NOMINATION,
        statute("163-294.1(b)"),
        "a party nominee withdraws: 163-114 vacancy",
    ),
    _T(
        Phase.DECIDED,
        EventType.CANDIDATE_DISQUALIFIED,
        Phase.AWAITING_NOMINATION,
        statute("163-294.1(b)"),
        "a party nominee is disqualified: 163-114 vacancy",
    ),
    # the election
    _T(Phase.BALLOT, EventType.VOTES_CAST, Phase.COUNTING, statute("163-279(a)"), "votes come in"),
    _T(
        Phase.BALLOT,
        EventType.RETURNS_REPORTED,
        Phase.COUNTING,
        statute("163-279(a)"),
        "returns come in",
    ),
    _T(
        Phase.BALLOT,
        EventType.CANVASS_HELD,
        Phase.DECIDED,
        statute("163-182.5(b)"),
        "canvass with no returns",
    ),
    _T(
        Phase.COUNTING, EventType.CANVASS_HELD, Phase.DECIDED, statute("163-292"), "result declared"
    ),
    _T(
        Phase.COUNTING,
        EventType.CANVASS_HELD,
        Phase.RUNOFF_REQUEST,
        statute("163-293(b)"),
        "no majority: runner-up may request a runoff",
    ),
    _T(
        Phase.COUNTING,
        EventType.CANVASS_HELD,
        Phase.AWAITING_RECOUNT,
        statute("163-293(d)(1)"),
        "tie for first: recount",
    ),
    _T(
        Phase.COUNTING,
        EventType.CANVASS_HELD,
        Phase.TIE_WITHDRAWAL,
        statute("163-293(d)(2)"),
        "tie for second: withdrawal window",
    ),
    _T(
        Phase.COUNTING,
        EventType.CANVASS_HELD,
        Phase.AWAITING_LOT,
        statute("163-292(3)"),
        "tie: lot",
    ),
    _T(
        Phase.COUNTING,
        EventType.CANVASS_HELD,
        Phase.AWAITING_NEW_ELECTION,
        statute("163-182.8(1)"),
        "tie with more than 5,000 voters: a new election",
    ),
    _T(
        Phase.AWAITING_RECOUNT,
        EventType.RECOUNT_HELD,
        Phase.TIE_WITHDRAWAL,
        statute("163-293(d)(1)"),
        "recount still tied: withdrawal window before the runoff",
    ),
    _T(
        Phase.AWAITING_RECOUNT,
        EventType.RECOUNT_HELD,
        Phase.DECIDED,
        statute("163-293(a)"),
        "recount breaks the tie",
    ),
    _T(
        Phase.AWAITING_RECOUNT,
        EventType.RECOUNT_HELD,
        Phase.RUNOFF_REQUEST,
        statute("163-293(b)(1)"),
        "recount breaks the tie, no majority",
    ),
    _T(
        Phase.AWAITING_RECOUNT,
        EventType.RECOUNT_HELD,
        Phase.AWAITING_LOT,
        statute("163-293(d)"),
        "recount leaves a tie the statute does not settle",
    ),
    _T(
        Phase.TIE_WITHDRAWAL,
        EventType.CANDIDATE_WITHDREW,
        Phase.DECIDED,
        statute("163-293(d)(1)"),
        "a tied candidate withdraws: the other is elected",
    ),
    _T(
        Phase.TIE_WITHDRAWAL,
        EventType.CANDIDATE_WITHDREW,
        Phase.RUNOFF_CALLED,
        statute("163-293(d)(2)"),
        "all but one tied withdraw and the last has requested a runoff",
    ),
    _T(
        Phase.TIE_WITHDRAWAL,
        EventType.RUNOFF_REQUESTED,
        Phase.RUNOFF_CALLED,
        statute("163-293(d)(2)"),
        "the last tied candidate requests a runoff",
    ),
    _T(
        Phase.TIE_WITHDRAWAL,
        TimerTrigger.TIE_WITHDRAWAL_PASSES,
        Phase.RUNOFF_CALLED,
        statute("163-293(d)(1)"),
        "nobody withdrew: runoff between the tied",
    ),
    _T(
        Phase.TIE_WITHDRAWAL,
        TimerTrigger.TIE_WITHDRAWAL_PASSES,
        Phase.DECIDED,
        statute("163-293(d)(2)"),
        "tied runners-up did not withdraw: the leader is elected",
    ),
    _T(
        Phase.TIE_WITHDRAWAL,
        TimerTrigger.RUNOFF_REQUEST_PASSES,
        Phase.DECIDED,
        statute("163-293(d)(2)"),
        "no runoff demanded: the leader is elected",
    ),
    _T(
        Phase.RUNOFF_REQUEST,
        EventType.RUNOFF_REQUESTED,
        Phase.RUNOFF_CALLED,
        statute("163-293(c)"),
        "runoff requested in time",
    ),
    _T(
        Phase.RUNOFF_REQUEST,
        TimerTrigger.RUNOFF_REQUEST_PASSES,
        Phase.DECIDED,
        statute("163-293(b)"),
        "no request: the leaders are elected",
    ),
    _T(
        Phase.RUNOFF_REQUEST,
        TimerTrigger.RUNOFF_REQUEST_PASSES,
        Phase.RUNOFF_CALLED,
        statute("163-293(b)(2)"),
        "group: requests in time call the runoff",
    ),
    _T(
        Phase.RUNOFF_REQUEST,
        EventType.CANVASS_HELD,
        Phase.RUNOFF_CALLED,
        statute("163-293(c)"),
        "an early request takes effect at the canvass",
    ),
    _T(
        Phase.TIE_WITHDRAWAL,
        EventType.CANVASS_HELD,
        Phase.RUNOFF_CALLED,
        statute("163-293(d)(2)"),
        "an early demand by the one tied runner-up left takes effect at the canvass",
    ),
    _T(
        Phase.RUNOFF_REQUEST,
        EventType.LOT_DRAWN,
        Phase.RUNOFF_CALLED,
        statute("163-293(c)"),
        "a request held while the lot was awaited takes effect",
    ),
    _T(
        Phase.TIE_WITHDRAWAL,
        EventType.LOT_DRAWN,
        Phase.RUNOFF_CALLED,
        statute("163-293(d)(2)"),
        "a demand held while the lot was awaited takes effect",
    ),
    _T(
        Phase.RUNOFF_REQUEST,
        EventType.RECOUNT_HELD,
        Phase.RUNOFF_CALLED,
        statute("163-293(c)"),
        "a request held while the recount was awaited takes effect",
    ),
    _T(
        Phase.TIE_WITHDRAWAL,
        EventType.RECOUNT_HELD,
        Phase.RUNOFF_CALLED,
        statute("163-293(d)(2)"),
        "a demand held while the recount was awaited takes effect",
    ),
    _T(Phase.AWAITING_LOT, EventType.LOT_DRAWN, Phase.DECIDED, statute("163-292(3)"), "lot drawn"),
    _T(
        Phase.AWAITING_LOT,
        EventType.LOT_DRAWN,
        Phase.RUNOFF_REQUEST,
        statute("163-293(b)"),
        "lot ranks the tied; runoff may be requested",
    ),
    _T(
        Phase.AWAITING_LOT,
        EventType.LOT_DRAWN,
        Phase.RUNOFF_CALLED,
        statute("163-293(d)"),
        "lot ranks the tied; runoff called",
    ),
    # the runoff / second primary
    _T(
        Phase.RUNOFF_CALLED,
        EventType.VOTES_CAST,
        Phase.RUNOFF_COUNTING,
        statute("163-293(e)"),
        "runoff votes come in",
    ),
    _T(
        Phase.RUNOFF_CALLED,
        EventType.RETURNS_REPORTED,
        Phase.RUNOFF_COUNTING,
        statute("163-293(e)"),
        "runoff returns come in",
    ),
    _T(
        Phase.RUNOFF_COUNTING,
        EventType.CANVASS_HELD,
        Phase.DECIDED,
        statute("163-293(f)"),
        "runoff decided",
    ),
    _T(
        Phase.RUNOFF_COUNTING,
        EventType.CANVASS_HELD,
        Phase.AWAITING_LOT,
        statute("163-293(f)"),
        "runoff tie: lot",
    ),
    _T(
        Phase.RUNOFF_COUNTING,
        EventType.CANVASS_HELD,
        Phase.AWAITING_NEW_ELECTION,
        statute("163-182.8(1)"),
        "group runoff tie with more than 5,000 voters: a new election (the group_runoff_tie "
        "reading)",
    ),
    _T(
        Phase.RUNOFF_COUNTING,
        EventType.RECOUNT_HELD,
        Phase.RUNOFF_COUNTING,
        statute("163-293(f)"),
        "runoff recount",
    ),
    # after the result
    _T(
        Phase.DECIDED,
        EventType.RECOUNT_HELD,
        Phase.DECIDED,
        statute("163-293(d)(1)"),
        "recount confirms",
    ),
    _T(
        Phase.DECIDED,
        EventType.RECOUNT_HELD,
        Phase.AWAITING_LOT,
        statute("163-292(3)"),
        "recount ties",
    ),
    _T(
        Phase.DECIDED,
        EventType.RECOUNT_HELD,
        Phase.RUNOFF_REQUEST,
        statute("163-293(b)"),
        "recount changes the result",
    ),
)

# Contingencies while filing is reopened or extended, or after early votes: a death, withdrawal or
# disqualification has the effects it has at the ballot stage (simulator.contingencies).
_LEAVES = (EventType.CANDIDATE_DIED, EventType.CANDIDATE_WITHDREW, EventType.CANDIDATE_DISQUALIFIED)
_AFTER_LEAVING = (
    (
        Phase.FILING_REOPENED,
        Phase.DECIDED,
        statute("163-112(b)"),
        "while filing is reopened, a departure leaves one candidate (or as many as seats): "
        "certified / no primary",
    ),
    (
        Phase.FILING_REOPENED,
        Phase.AWAITING_NOMINATION,
        statute("163-112(d)(4)"),
        "while filing is reopened, fewer candidates than seats: the party nominates",
    ),
    (
        Phase.FILING_EXTENDED,
        Phase.FILING_REOPENED,
        statute("163-294.4(b)"),
        "a death while filing is extended reopens filing",
    ),
    (
        Phase.FILING_EXTENDED,
        Phase.DECIDED,
        statute("163-294.1(b)"),
        "a departure while filing is extended leaves two per seat: no primary",
    ),
    (
        Phase.COUNTING,
        Phase.FILING_REOPENED,
        statute("163-112(b)"),
        "a death after early votes reopens a party primary's filing",
    ),
    (
        Phase.COUNTING,
        Phase.DECIDED,
        statute("163-112(b)"),
        "a departure after early votes leaves too few: certified / no primary",
    ),
    (
        Phase.COUNTING,
        Phase.AWAITING_NOMINATION,
        statute("163-114"),
        "a party nominee leaves after early votes: the party nominates",
    ),
    (
        Phase.RUNOFF_REQUEST,
        Phase.DECIDED,
        statute("163-294.1(b)"),
        "a primary's leader leaves in the request window: the place passes to the next (an "
        "office's leader short of a majority: the office is vacant, 163-294.1(c), conflict "
        "leader-left-before-declaration)",
    ),
    (
        Phase.RUNOFF_REQUEST,
        Phase.RUNOFF_CALLED,
        statute("163-293(b)(2)"),
        "one best placed for a group seat leaves in the request window, the seat vacant at once "
        "(interpretation left_best_for_group_seat: vacant): a request already made for the "
        "seats left calls the runoff",
    ),
    (
        Phase.RUNOFF_REQUEST,
        Phase.AWAITING_LOT,
        statute("163-294.1(b)"),
        "a primary's leader leaves in the request window: the next are tied for the place",
    ),
    (
        Phase.RUNOFF_CALLED,
        Phase.DECIDED,
        statute("163-293(e)"),
        "a runoff candidate leaves: the other is declared without the runoff (interpretation "
        "left_runoff_ballot: other_declared)",
    ),
    (
        Phase.RUNOFF_COUNTING,
        Phase.DECIDED,
        statute("163-293(e)"),
        "a runoff candidate leaves during its vote: the other is declared (the left_runoff_ballot "
        "reading)",
    ),
)
TRANSITIONS += (
    *(
        _T(src, trig, dst, cite, label)
        for trig in _LEAVES
        for src, dst, cite, label in _AFTER_LEAVING
    ),
    # a withdrawal here is the tie's own row (163-293(d)(1)); a death or disqualification of the
    # leader while those tied for second may still withdraw leaves the office vacant
    *(
        _T(
            Phase.TIE_WITHDRAWAL,
            trig,
            Phase.DECIDED,
            statute("163-294.1(c)"),
            "the leader, short of a majority, leaves while those tied for second may withdraw: "
            "the office is vacant (conflict leader-left-before-declaration)",
        )
        for trig in (EventType.CANDIDATE_DIED, EventType.CANDIDATE_DISQUALIFIED)
    ),
    _T(
        Phase.DECIDED,
        EventType.FILING_EXTENDED,
        Phase.FILING_EXTENDED,
        statute("163-294.4(a)"),
        "a nonpartisan primary decided at the close for want of candidates: filing extended",
    ),
    _T(
        Phase.FILING_EXTENDED,
        TimerTrigger.EXTENDED_FILING_CLOSES,
        Phase.DECIDED,
        statute("163-294(a)"),
        "extended filing closes with at most two candidates per seat: no primary",
    ),
)

# A canvass of an election that received no returns at all declares the same results a canvass
# after returns would (every candidate at zero votes).
TRANSITIONS += tuple(
    _T(Phase.BALLOT, t.trigger, t.target, t.cite, t.label + " (no returns)")
    for t in TRANSITIONS
    if t.source is Phase.COUNTING
    and t.trigger == EventType.CANVASS_HELD
    and t.target is not Phase.DECIDED
)

# A runoff canvassed without any runoff returns (none came, or only early votes) declares what a
# canvass of returns would: every runoff candidate at the votes received (163-293(e), (f)).
TRANSITIONS += tuple(
    _T(Phase.RUNOFF_CALLED, t.trigger, t.target, t.cite, t.label + " (no runoff returns)")
    for t in TRANSITIONS
    if t.source is Phase.RUNOFF_COUNTING and t.trigger == EventType.CANVASS_HELD
)

# A recount replaces a declared round's totals and declares the result again: from any phase that
# follows a declaration it may lead wherever the declaration itself could (163-293(d)(1), (f)).
#: the phases that follow a round's declared result: those a recount may declare again from
RECOUNTABLE = (
    Phase.AWAITING_RECOUNT,
    Phase.RUNOFF_REQUEST,
    Phase.TIE_WITHDRAWAL,
    Phase.AWAITING_LOT,
    Phase.AWAITING_NEW_ELECTION,
    Phase.DECIDED,
)
_DECLARES = sorted(
    {
        t.target
        for t in TRANSITIONS
        if t.trigger == EventType.CANVASS_HELD
        and t.source in (Phase.COUNTING, Phase.RUNOFF_COUNTING)
    },
    key=list(Phase).index,
)
_HAVE = {(t.source, t.trigger, t.target) for t in TRANSITIONS}
TRANSITIONS += tuple(
    _T(
        src,
        EventType.RECOUNT_HELD,
        dst,
        statute("163-293(d)(1)"),
        "a recount declares the result again",
    )
    for src in RECOUNTABLE
    for dst in _DECLARES
    if src != dst and (src, EventType.RECOUNT_HELD, dst) not in _HAVE
)

# A tied candidate who leaves before the drawing of lots the count waits for: the count is
# decided again at once (the drawing would decide it so), which may lead wherever a declaration
# could (163-294.1(c) for a death on or after election day; the tie tables say the rest).
TRANSITIONS += tuple(
    _T(
        Phase.AWAITING_LOT,
        trig,
        dst,
        statute("163-294.1(c)"),
        "a tied candidate leaves before the drawing: the count is decided again",
    )
    for trig in _LEAVES
    for dst in _DECLARES
    if dst is not Phase.AWAITING_LOT and (Phase.AWAITING_LOT, trig, dst) not in _HAVE
)

#: The phases of the count, from which a decision can leave the party a nomination to make
_COUNT_PHASES = frozenset(
    {
        Phase.COUNTING,
        Phase.AWAITING_RECOUNT,
        Phase.TIE_WITHDRAWAL,
        Phase.RUNOFF_REQUEST,
        Phase.AWAITING_LOT,
        Phase.RUNOFF_CALLED,
        Phase.RUNOFF_COUNTING,
    }
)

# A decision that leaves the party executive committee a nomination to make (a place the count
# gave to someone who left, G.S. 163-114) is not final until the committee names the nominee:
# each way from the count into ``decided`` leads to ``awaiting_nomination`` instead while the
# nomination is outstanding, so that a contest's state and what it waits for agree
# (:func:`settled_phase`).
_HAVE = {(t.source, t.trigger, t.target) for t in TRANSITIONS}
TRANSITIONS += tuple(
    _T(
        t.source,
        t.trigger,
        Phase.AWAITING_NOMINATION,
        statute("163-114"),
        t.label + "; the party executive committee has a nomination to make",
    )
    for t in TRANSITIONS
    if t.target is Phase.DECIDED
    and t.source in _COUNT_PHASES
    and (t.source, t.trigger, Phase.AWAITING_NOMINATION) not in _HAVE
)

_INDEX: frozenset[tuple[Phase, str, Phase]] = frozenset(
    (t.source, t.trigger, t.target) for t in TRANSITIONS
)


def settled_phase(source: Phase, trigger: str, target: Phase, *, to_nominate: int) -> Phase:
    """The phase a change to ``target`` leads to: ``awaiting_nomination`` instead of ``decided``
    while the party has a nomination to make and the table has that way (a contest is decided
    exactly when it waits for nothing)."""
    waits = to_nominate > 0 and allowed(source, trigger, Phase.AWAITING_NOMINATION)
    return Phase.AWAITING_NOMINATION if target is Phase.DECIDED and waits else target


def allowed(source: Phase, trigger: str, target: Phase) -> bool:
    """Whether the table has this transition (a phase may always stay where it is)."""
    return source == target or (source, trigger, target) in _INDEX


class IllegalTransition(RuntimeError):
    """The engine tried a phase change the table does not have: a bug in electsim."""

"""Words for people: the label and a one-line meaning of every state, deadline, period, pending
item, runoff status, ruling kind and moment that moves a contest on.

Identifiers (``runoff_request``) are for programs and stay in the JSON; text, reports, charts and
notebooks say "runoff request deadline". :func:`label` gives the words for any member of these
vocabularies, and docs/glossary.md lists them all (made from :func:`glossary_markdown`).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from simulator.law.machine import Phase
from simulator.law.vocab import (
    CandStatus,
    Choice,
    DeadlineKind,
    DeadlineState,
    Decider,
    Decision,
    Method,
    Pending,
    PeriodKind,
    RemarkKind,
    RulingKind,
    RunoffStatus,
    Stage,
    TimerTrigger,
)

#: (label, what it means) for each member, by vocabulary; the order is the glossary's
WORDS: dict[type[Enum], tuple[str, str, dict[Enum, tuple[str, str]]]] = {
    Phase: (
        "States of a contest",
        "Where a contest stands as the board's records are replayed.",
        {
            Phase.FILING: ("filing open", "the filing period has not closed"),
            Phase.FILING_REOPENED: (
                "filing reopened",
                "filing is open again after a candidate left (G.S. 163-112, 163-294.4(b))",
            ),
            Phase.FILING_EXTENDED: (
                "filing extended",
                "nobody filed, and the board extended filing by five days (G.S. 163-294.4(a))",
            ),
            Phase.AWAITING_NOMINATION: (
                "awaiting the party's nominee",
                "a party executive committee must name a nominee",
            ),
            Phase.BALLOT: ("awaiting the vote", "filing has closed; the election is still ahead"),
            Phase.COUNTING: ("counting", "returns are coming in; the canvass is still ahead"),
            Phase.AWAITING_RECOUNT: ("awaiting a recount", "a tie for first must be recounted"),
            Phase.TIE_WITHDRAWAL: (
                "tied candidates may withdraw",
                "the three days in which a tied candidate may withdraw (G.S. 163-293(d))",
            ),
            Phase.RUNOFF_REQUEST: (
                "runoff may be requested",
                "the runner-up may ask for a runoff or second primary",
            ),
            Phase.AWAITING_LOT: ("awaiting a drawing of lots", "the board must draw lots"),
            Phase.AWAITING_NEW_ELECTION: (
                "awaiting a new election",
                "the State Board must order a new election",
            ),
            Phase.RUNOFF_CALLED: ("runoff called", "a runoff or second primary will be held"),
            Phase.RUNOFF_COUNTING: ("counting the runoff", "the runoff's returns are coming in"),
            Phase.DECIDED: ("decided", "the result is declared"),
        },
    ),
    DeadlineKind: (
        "Dates and deadlines",
        "Each date the law sets, shown with how it was computed.",
        {
            DeadlineKind.FILING_OPENS: ("filing opens", "the first moment a notice may be filed"),
            DeadlineKind.FILING_CLOSES: ("filing closes", "the last moment a notice may be filed"),
            DeadlineKind.REOPENED_FILING_CLOSES: (
                "reopened filing closes",
                "the end of filing reopened after a candidate left",
            ),
            DeadlineKind.EXTENDED_FILING_CLOSES: (
                "extended filing closes",
                "the end of the five days' extension",
            ),
            DeadlineKind.PRIMARY_DAY: ("primary day", "the day of the primary"),
            DeadlineKind.SECOND_PRIMARY: ("second primary day", "the day of a second primary"),
            DeadlineKind.ELECTION_DAY: ("election day", "the day of the election"),
            DeadlineKind.RUNOFF_ELECTION: ("runoff day", "the day of a runoff election"),
            DeadlineKind.CANVASS: ("canvass", "when the board declares the result"),
            DeadlineKind.RUNOFF_REQUEST: (
                "runoff request deadline",
                "the last moment the runner-up may ask for a runoff",
            ),
            DeadlineKind.SECOND_PRIMARY_REQUEST: (
                "second primary request deadline",
                "the last moment the runner-up may demand a second primary",
            ),
            DeadlineKind.TIE_WITHDRAWAL: (
                "tie withdrawal deadline",
                "the last moment a tied candidate may withdraw",
            ),
        },
    ),
    DeadlineState: (
        "States of a deadline",
        "Where each listed date or deadline stands at the replay's moment (the as-of time, or "
        "the end of the log).",
        {
            DeadlineState.UPCOMING: ("still to come", "its moment is after the replay's moment"),
            DeadlineState.MET: (
                "met",
                "its moment has come and what it bounds was done in time (a day the law fixes "
                "for an election or a canvass is met once it has come)",
            ),
            DeadlineState.PASSED: ("passed", "its moment has come and it ran out unused"),
            DeadlineState.VOID: (
                "no longer applies",
                "a ruling ended it (a majority leaves no runoff to request or hold); the "
                "deadline names that ruling's kind",
            ),
        },
    ),
    PeriodKind: (
        "Periods",
        "Spans of time a timeline shades.",
        {
            PeriodKind.FILING: ("filing period", "when notices of candidacy are accepted"),
            PeriodKind.FILING_REOPENED: ("filing reopened", "filing open again after a departure"),
            PeriodKind.FILING_EXTENDED: ("filing extended", "the five days' extension"),
            PeriodKind.RUNOFF_REQUEST: (
                "runoff request period",
                "when a runoff or second primary may be requested",
            ),
            PeriodKind.TIE_WITHDRAWAL: (
                "tie withdrawal period",
                "when a tied candidate may withdraw",
            ),
        },
    ),
    Pending: (
        "What a contest waits for",
        "The next thing that must happen before a contest can go on.",
        {
            Pending.VOTES: ("votes", "the election's returns"),
            Pending.CANVASS: ("the canvass", "the board's declaration of the result"),
            Pending.RUNOFF_REQUEST: ("a runoff request", "the runner-up's decision to ask"),
            Pending.RECOUNT: ("a recount", "the recount of a tie for first"),
            Pending.WITHDRAWAL: ("a tied candidate's withdrawal", "the end of the three days"),
            Pending.LOT: ("a drawing of lots", "the board's drawing"),
            Pending.FILING: ("filing", "the end of the filing period"),
            Pending.NOMINATION: ("a nomination", "the party's choice of a nominee"),
            Pending.NEW_ELECTION: ("a new election", "the State Board's order"),
        },
    ),
    Decision: (
        "Decisions still to be made",
        "A decision the law leaves to someone that the log has not recorded yet: shown from the "
        "moment the facts that call for it are known, with each answer open and what it leads "
        "to, never ruled by default where the log stops.",
        {
            Decision.REPRINT: (
                "reprint determination",
                "whether there is time to reprint the printed ballots after a candidate left "
                "(G.S. 163-294.4(b), (c))",
            ),
        },
    ),
    Decider: (
        "Who decides",
        "Who makes a decision still to be made.",
        {
            Decider.COUNTY_BOARD: (
                "the county board of elections",
                "the board that conducts the municipal election",
            ),
        },
    ),
    Choice: (
        "Answers to a decision",
        "The answers open to a decision still to be made, each as the event that records it.",
        {
            Choice.ENOUGH_TIME: (
                "there is time to reprint",
                "recorded as reprint_determined with enough_time: true",
            ),
            Choice.NOT_ENOUGH_TIME: (
                "there is not enough time to reprint",
                "recorded as reprint_determined with enough_time: false",
            ),
        },
    ),
    RunoffStatus: (
        "Runoff",
        "Whether a runoff or second primary is in play.",
        {
            RunoffStatus.NONE: ("none", "no runoff can follow"),
            RunoffStatus.AVAILABLE: ("may be requested", "the runner-up may ask for one"),
            RunoffStatus.CALLED: ("called", "a runoff will be held"),
            RunoffStatus.HELD: ("held", "the runoff was voted on"),
        },
    ),
    RulingKind: (
        "Rulings",
        "What the law says at a moment of the replay; every ruling cites its provision.",
        {
            RulingKind.FILING_REJECTED: ("filing rejected", "a notice of candidacy not accepted"),
            RulingKind.FILING_REOPENED: ("filing reopened", "filing opens again after a departure"),
            RulingKind.FILING_EXTENDED: ("filing extended", "filing extended by five days"),
            RulingKind.NAME_REMOVED: ("name removed", "a name comes off the ballot"),
            RulingKind.NAME_REMAINS: ("name remains", "a name stays on the printed ballot"),
            RulingKind.VOTES_DISREGARDED: ("votes set aside", "votes that do not count"),
            RulingKind.PRIMARY_CANCELLED: ("primary cancelled", "no primary is held"),
            RulingKind.NOMINEE_CERTIFIED: ("nominee certified", "a nominee without a primary"),
            RulingKind.PARTY_TO_NOMINATE: (
                "party to name a nominee",
                "a party executive committee fills the place",
            ),
            RulingKind.MAJORITY_THRESHOLD: (
                "votes needed",
                "the total and the votes a candidate needs to win outright",
            ),
            RulingKind.ELECTED: ("elected", "who takes office"),
            RulingKind.NOMINATED: ("nominated", "who goes on to the election"),
            RulingKind.RUNOFF_AVAILABLE: (
                "runoff may be requested",
                "nobody won outright; the runner-up may ask for a runoff",
            ),
            RulingKind.RUNOFF_CALLED: ("runoff called", "a runoff or second primary will be held"),
            RulingKind.RUNOFF_UNLESS_WITHDRAWN: (
                "runoff unless one withdraws",
                "the recount confirms a tie for first: the runoff follows unless one withdraws",
            ),
            RulingKind.REQUEST_REJECTED: (
                "request rejected",
                "a runoff request or a second primary demand that has no effect, and why",
            ),
            RulingKind.NO_EFFECT: (
                "no effect",
                "an act or notice the law gives no effect here (a second oath, a lot or recount "
                "nothing called for, a canvass with nothing to declare, a late or repeated "
                "notice): said, and nothing changes",
            ),
            RulingKind.RESULT_STANDS: (
                "result stands",
                "a defeated candidate leaves after the result: nothing changes",
            ),
            RulingKind.CANVASS_REPEATED: (
                "canvass repeated",
                "a second canvass of a result already declared declares nothing new",
            ),
            RulingKind.VOTES_AFTER_DECISION: (
                "votes after the decision",
                "returns for a contest already decided are set aside",
            ),
            RulingKind.OATH_NOT_ELECTED: (
                "oath of someone not elected",
                "an oath by someone not declared elected changes nothing",
            ),
            RulingKind.RECOUNT_REQUIRED: ("recount required", "a tie for first is recounted"),
            RulingKind.LOT_REQUIRED: ("drawing of lots required", "a tie the board breaks by lot"),
            RulingKind.DECIDED_BY_LOT: ("decided by lot", "the drawing's result"),
            RulingKind.NO_RUNOFF: ("no runoff", "no runoff follows, and why"),
            RulingKind.OFFICE_VACANT: ("office vacant", "a seat nobody is elected to"),
            RulingKind.NO_PROVISION: (
                "no provision",
                "no statute covers the facts, or two collide: the fallback used is named",
            ),
            RulingKind.NEW_ELECTION_ORDERED: ("new election ordered", "the State Board orders one"),
        },
    ),
    RemarkKind: (
        "Remarks",
        "Facts of the log that do not fit the contest's statutory calendar: said at the event, "
        "with the provision; the replay goes on as the log says, and no ruling changes.",
        {
            RemarkKind.RETURNS_OFF_DAY: (
                "returns on another day",
                "returns or votes outside the day of the election the contest is in",
            ),
            RemarkKind.CANVASS_OFF_DAY: (
                "canvass on another day",
                "a canvass held earlier or later than the day the law fixes",
            ),
            RemarkKind.REQUEST_EARLY: (
                "request too early",
                "a request or demand before the election, or before the requester filed",
            ),
            RemarkKind.REQUEST_NOT_ON_BALLOT: (
                "request by someone not on the ballot",
                "a request or demand by a person who was not a candidate of that ballot",
            ),
            RemarkKind.BALLOTS_AFTER_ELECTION: (
                "ballots printed after the election",
                "ballots printed after the election day",
            ),
            RemarkKind.DEPARTURE_NOT_FILED: (
                "departure of someone who never filed",
                "a death, withdrawal or disqualification of a person with no notice of "
                "candidacy in the contest",
            ),
            RemarkKind.DETERMINATION_MOOT: (
                "determination with nothing to determine",
                "a reprint determination with no departure after the ballots were printed",
            ),
        },
    ),
    Method: (
        "Methods of election",
        "The four methods of G.S. 163-291 and 163-294 to 163-294.4 a town may use.",
        {
            Method.PARTISAN: ("partisan", "party primaries, then a general election"),
            Method.PLURALITY: ("nonpartisan plurality", "the most votes win, no runoff"),
            Method.PRIMARY: ("nonpartisan primary", "a primary narrows the field to two a seat"),
            Method.RUNOFF: ("nonpartisan runoff", "a majority wins, else a runoff if requested"),
        },
    ),
    Stage: (
        "Stages",
        "Which round of a municipal election a contest is.",
        {
            Stage.PRIMARY: ("primary", "the primary"),
            Stage.ELECTION: ("election", "the election"),
        },
    ),
    CandStatus: (
        "A candidate's standing",
        "Whether a candidate is still running, and if not, why.",
        {
            CandStatus.ACTIVE: ("running", "still a candidate"),
            CandStatus.DIED: ("died", "died"),
            CandStatus.WITHDREW: ("withdrew", "withdrew in writing"),
            CandStatus.DISQUALIFIED: ("disqualified", "was disqualified"),
        },
    ),
    TimerTrigger: (
        "Moments no event records",
        "What moves a contest on when time passes rather than when something is filed or done: "
        "a transition of the state machine is triggered by one of these or by an event.",
        {
            TimerTrigger.FILING_CLOSES: ("filing closes", "the filing period ends"),
            TimerTrigger.REOPENED_FILING_CLOSES: (
                "reopened filing closes",
                "filing reopened after a candidate left ends",
            ),
            TimerTrigger.EXTENDED_FILING_CLOSES: (
                "extended filing closes",
                "filing extended by the board ends",
            ),
            TimerTrigger.RUNOFF_REQUEST_PASSES: (
                "runoff request time passes",
                "the time to request a runoff (a second primary) ends unused",
            ),
            TimerTrigger.TIE_WITHDRAWAL_PASSES: (
                "tie withdrawal time passes",
                "the three days for a candidate tied for first to withdraw end",
            ),
        },
    ),
}


def trigger_words(trigger: str) -> str:
    """What moved a contest on, in words: a moment no event records (:class:`TimerTrigger`) or
    an event's type ("canvass_held": "canvass held").

    >>> trigger_words("runoff_request_passes"), trigger_words("canvass_held")
    ('runoff request time passes', 'canvass held')
    """
    try:
        return label(TimerTrigger(trigger))
    except ValueError:
        return trigger.replace("_", " ")


def fact_words(name: str, values: Sequence[object]) -> str:
    """A fact a rule table reads and the values it takes, in words: ``within_30_by_notice``
    with (False,) is "within 30 by notice: no"; ``filed_at_close`` with (3, 4) is "filed at
    close: 3 or 4".

    >>> fact_words("within_30_by_notice", [False]), fact_words("when", ["before_election"])
    ('within 30 by notice: no', 'when: before election')
    """
    return f"{name.replace('_', ' ')}: {' or '.join(value_words(v) for v in values)}"


def value_words(value: object) -> str:
    """A fact's value in words (yes and no, an identifier's label, underscores as spaces)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, Enum):
        if type(value) in WORDS:
            return label(value)
        return str(value.value).replace("_", " ")
    return str(value).replace("_", " ")


def label(value: Enum) -> str:
    """The words people read for ``value`` ("runoff request deadline" for
    ``DeadlineKind.RUNOFF_REQUEST``).

    >>> label(DeadlineKind.RUNOFF_REQUEST), label(Phase.BALLOT)
    ('runoff request deadline', 'awaiting the vote')
    """
    return WORDS[type(value)][2][value][0]


def meaning(value: Enum) -> str:
    """What ``value`` means, in one line."""
    return WORDS[type(value)][2][value][1]


def glossary_markdown() -> str:
    """docs/glossary.md's list: each vocabulary, each member's words, identifier and meaning."""
    out = []
    for title, about, words in WORDS.values():
        out += [f"## {title}", "", about, "", "| words | identifier (JSON) | meaning |"]
        out.append("| --- | --- | --- |")
        out += [f"| {w} | `{member.value}` | {m} |" for member, (w, m) in words.items()]
        out.append("")
    return "\n".join(out).strip()

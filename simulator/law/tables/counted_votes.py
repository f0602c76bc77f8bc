"""The votes a round counts, and the total a threshold divides: rule tables (see
:mod:`simulator.law.rules`).

- ``votes``: whether votes reported for a name are counted (a candidate or a write-in in the
  first round, 163-291(2) and 163-294.2(c); only the runoff's candidates in a runoff,
  163-293(b)(1) and (b)(2), 163-111(b)).
- ``threshold-total``: whether they count in the total a majority (163-293(a)) or a substantial
  plurality (163-111(a)) divides (the write_ins_in_total and dead_votes_in_total readings).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from enum import StrEnum
from typing import Any

import attrs

from simulator.law.rules import Rule, Table


class Vote(StrEnum):
    """What becomes of votes reported for a name (a refusal's value says why)."""

    COUNTED = "counted"
    NO_ELECTION = "no_election"  # the contest is not at a vote
    OFF_RUNOFF_BALLOT = "off_runoff_ballot"  # not a runoff candidate, or a write-in
    NOT_A_CANDIDATE = "not_a_candidate"  # no accepted notice of candidacy, not a write-in


@attrs.frozen
class VoteFacts:
    voting: bool  # the contest is at a vote (the first round's ballot or a called runoff)
    runoff: bool  # the votes are for the runoff or second primary
    on_runoff_ballot: bool  # RUNOFF: the name is on its ballot
    write_in: bool  # a write-in (named or not)
    filed: bool  # the name has a notice of candidacy in this contest
    primary: bool = False  # a party primary (its next round is a second primary)
    group: bool = False
    partisan: bool = False  # a party contest (its filing is 163-291(2)'s)


def _vote_facts() -> Iterator[VoteFacts]:
    flags = (False, True)
    for partisan in flags:
        yield VoteFacts(False, False, False, False, False, partisan=partisan)
        for write_in, filed in itertools.product(flags, flags):
            if not (write_in and filed):
                yield VoteFacts(True, False, False, write_in, filed, partisan=partisan)
    for primary, group, on, write_in, filed in itertools.product(*([flags] * 5)):
        if (on and (write_in or not filed)) or (write_in and filed):
            continue
        yield VoteFacts(True, True, on, write_in, filed, primary, group, primary)


def _first_round(partisan: bool, test: Any) -> Any:
    return lambda f: f.voting and not f.runoff and f.partisan is partisan and test(f)


def _next_round(primary: bool, group: bool) -> Any:
    return lambda f: (
        f.voting
        and f.runoff
        and not f.on_runoff_ballot
        and f.primary is primary
        and f.group is group
    )


VOTES: Table[VoteFacts, Vote] = Table(
    "votes",
    "votes are reported for a name: are they counted?",
    (
        Rule(
            id="no-election-held",
            cite="163-279(a)",
            summary="votes reported while the contest is not at a vote have no election to count "
            "in",
            applies=lambda f: not f.voting,
            effect=Vote.NO_ELECTION,
        ),
        Rule(
            id="party-name-not-filed",
            cite="163-291(2)",
            summary="votes for a person whose notice of candidacy was not accepted (and not a "
            "write-in)",
            applies=_first_round(True, lambda f: not f.filed and not f.write_in),
            effect=Vote.NOT_A_CANDIDATE,
        ),
        Rule(
            id="nonpartisan-name-not-filed",
            cite="163-294.2(c)",
            summary="votes for a person whose notice of candidacy was not accepted (and not a "
            "write-in)",
            applies=_first_round(False, lambda f: not f.filed and not f.write_in),
            effect=Vote.NOT_A_CANDIDATE,
        ),
        Rule(
            id="party-candidate-counted",
            cite="163-291(2)",
            summary="votes for a candidate or a write-in are counted",
            applies=_first_round(True, lambda f: f.filed or f.write_in),
            effect=Vote.COUNTED,
        ),
        Rule(
            id="nonpartisan-candidate-counted",
            cite="163-294.2(c)",
            summary="votes for a candidate or a write-in are counted",
            applies=_first_round(False, lambda f: f.filed or f.write_in),
            effect=Vote.COUNTED,
        ),
        Rule(
            id="single-runoff-ballot",
            cite="163-293(b)(1)",
            summary="only the two runoff candidates are on the runoff ballot, with no space for "
            "write-ins",
            applies=_next_round(False, False),
            effect=Vote.OFF_RUNOFF_BALLOT,
        ),
        Rule(
            id="group-runoff-ballot",
            cite="163-293(b)(2)",
            summary="only the group's runoff candidates are on its ballot, with no space for "
            "write-ins",
            applies=_next_round(False, True),
            effect=Vote.OFF_RUNOFF_BALLOT,
        ),
        Rule(
            id="second-primary-ballot",
            cite="163-111(b)",
            summary="only the candidates of the second primary are on its ballot (two for one "
            "place; for a group, the best remaining and those who demanded: interpretation "
            "group_runoff_ballot: remaining_and_requesters)",
            applies=lambda f: f.voting and f.runoff and not f.on_runoff_ballot and f.primary,
            effect=Vote.OFF_RUNOFF_BALLOT,
        ),
        Rule(
            id="runoff-candidate-counted",
            cite="163-293(f)",
            summary="votes for a candidate on the runoff ballot are counted",
            applies=lambda f: f.voting and f.runoff and f.on_runoff_ballot and not f.primary,
            effect=Vote.COUNTED,
        ),
        Rule(
            id="second-primary-candidate-counted",
            cite="163-111(b)",
            summary="votes for a candidate on the second primary's ballot are counted",
            applies=lambda f: f.voting and f.runoff and f.on_runoff_ballot and f.primary,
            effect=Vote.COUNTED,
        ),
    ),
    facts=_vote_facts,
)


class Total(StrEnum):
    IN = "in"  # the votes count in the total the threshold divides
    OUT = "out"


@attrs.frozen
class TotalFacts:
    primary: bool  # a party primary (163-111(a)); otherwise 163-293(a)
    write_in: bool
    filed: bool  # a candidate of the contest (with votes counted for any purpose)
    died: bool  # a candidate who died, the name left on the ballot
    write_ins_in_total: bool = True  # (the switch of that name)
    dead_votes_in_total: bool = True  # (the switch of that name)


def _total_facts() -> Iterator[TotalFacts]:
    flags = (False, True)
    for primary, write_in, filed, died, r1, r2 in itertools.product(*([flags] * 6)):
        if (write_in and (filed or died)) or (died and not filed):
            continue
        yield TotalFacts(primary, write_in, filed, died, r1, r2)


def _total_rules() -> tuple[Rule[TotalFacts, Total], ...]:
    out: list[Rule[TotalFacts, Total]] = []
    for primary, cite, tag in (
        (False, "163-293(a)", "majority"),
        (True, "163-111(a)", "substantial-plurality"),
    ):

        def of(test: Any, p: bool = primary) -> Any:
            return lambda f: f.primary is p and test(f)

        out += [
            Rule(
                id=f"{tag}-candidate",
                cite=cite,
                summary="the total vote cast for all candidates includes each candidate's votes, a "
                "dead candidate's whose name stayed on the ballot too (interpretation "
                "dead_votes_in_total: true)",
                applies=of(lambda f: f.filed and (not f.died or f.dead_votes_in_total)),
                effect=Total.IN,
            ),
            Rule(
                id=f"{tag}-dead-left-out",
                cite=cite,
                summary="a dead candidate's votes are left out of the total (interpretation "
                "dead_votes_in_total: false)",
                applies=of(lambda f: f.filed and f.died and not f.dead_votes_in_total),
                effect=Total.OUT,
            ),
            Rule(
                id=f"{tag}-write-ins",
                cite=cite,
                summary="write-in votes count in the total (interpretation write_ins_in_total: "
                "true)",
                applies=of(lambda f: f.write_in and f.write_ins_in_total),
                effect=Total.IN,
            ),
            Rule(
                id=f"{tag}-write-ins-left-out",
                cite=cite,
                summary="write-in votes are left out of the total (interpretation "
                "write_ins_in_total: false)",
                applies=of(lambda f: f.write_in and not f.write_ins_in_total),
                effect=Total.OUT,
            ),
            Rule(
                id=f"{tag}-not-a-candidate",
                cite=cite,
                summary="votes for a name that is neither a candidate nor a write-in are not cast "
                "for a candidate",
                applies=of(lambda f: not f.filed and not f.write_in),
                effect=Total.OUT,
            ),
        ]
    return tuple(out)


TOTAL: Table[TotalFacts, Total] = Table(
    "threshold-total",
    "a majority or a substantial plurality divides the total vote: do these votes count in it?",
    _total_rules(),
    facts=_total_facts,
)


# --- what a ruling on votes the ``votes`` table sets aside says --------------------------------

#: votes reported after the contest was decided
AFTER_THE_DECISION = (
    "votes reported after the contest was decided: they are set aside, and the result stands"
)
#: votes reported while the contest is at no vote ({phase}: where it is)
AT_NO_VOTE = "votes reported while the contest is {phase}: there is no election to count them in"
#: votes for names a round at a vote does not count, by the finding
REFUSED: dict[Vote, str] = {
    Vote.OFF_RUNOFF_BALLOT: (
        "the runoff ballot has only the runoff candidates and no space for write-ins"
    ),
    Vote.NOT_A_CANDIDATE: "votes for a person whose notice of candidacy was not accepted",
}
#: votes the returns give a name an earlier ruling left off the ballot ({votes}: how many; {day}:
#: the day the name came off)
LEFT_OFF_THE_BALLOT = (
    "{votes} votes are reported for {name}, whose name was left off the ballot on {day}: no "
    "ballot offered the name, so they are not counted"
)

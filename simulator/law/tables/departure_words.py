"""What is said of each effect of the ``departures`` table
(:mod:`~simulator.law.tables.departures`): one :class:`Words` per
:class:`~simulator.law.tables.departures.EffectKind`, each a template with named fields, and the
functions that choose from the departure's facts the words a field takes
(why a name comes off the ballot, why it remains).

The engine applies an effect (``engine/handlers/departure_effects.py``) and gives only what the
replay knows: who left (``{name}``) and how (``{verb}``: "died"), and the values it worked out
(the dates of a reopened period, the number of nominees a party names); the words of the law are
here. A template writes a moment as ``{opens:%Y-%m-%d %H:%M}``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date, datetime

import attrs

from simulator.law.tables.departure_facts import DURING_FILING, Facts
from simulator.law.tables.departures import Effect, EffectKind, reprint_words
from simulator.law.tables.vacancies import FILLED_BY_THE_BOARD, TO_BE_FILLED

#: what a ruling that a party executive committee names a nominee adds about its source
PARTY_NOMINATES_UNDER = "G.S. 163-114; the municipal row of its table is not in our sources"


@attrs.frozen
class Words:
    """What is said of one kind of effect: ``ruling``, the ruling made when it is applied;
    ``would``, what it leads to, said of an answer the board has not yet given (a pending
    decision: ``{name}``, the candidate who left; ``{days}``, the days of a reopened period)."""

    ruling: str = ""
    would: str = ""


#: a moment as the rulings write it
_MOMENT = "%Y-%m-%d %H:%M"

WORDS: dict[EffectKind, Words] = {
    EffectKind.NAME_REMOVED: Words(
        "{name} {verb}; {why}, so the name is not on the ballot",
        "{name}'s name comes off the reprinted ballots",
    ),
    EffectKind.NAME_REMAINS: Words(
        "{name} {verb}{when}: {why}, so the name remains on the ballot",
        "the ballots are not reprinted and {name}'s name stays on them",
    ),
    EffectKind.NOMINATION_ENDS: Words(
        "{name} {verb} after being declared nominated: no longer a nominee; {text}"
    ),
    EffectKind.INEFFECTIVE: Words(),
    EffectKind.NOT_COUNTED: Words(
        "votes cast for {name} are not counted or considered for any purpose",
        "votes for {name} are not counted",
    ),
    EffectKind.VACANT_IF_ELECTED: Words(
        "{name}, declared elected, {verb} before taking the oath of office: the office is "
        "vacant, " + TO_BE_FILLED,
        "if {name} polls enough to be elected, the office is declared vacant",
    ),
    EffectKind.RESULT_STANDS: Words(
        "{name} {verb} after the result was declared: {name} was {text}, so the result stands"
    ),
    EffectKind.VACANT_NOW: Words(
        "{name} {verb} after taking the oath: a vacancy in office, " + FILLED_BY_THE_BOARD
    ),
    EffectKind.REOPEN: Words(
        "{name} {verb}; the board reopens filing for {days} days, from "
        f"{{opens:{_MOMENT}}} to {{closes:{_MOMENT}}}{{moved}}{{later}}",
        "filing reopens for {days} days, counted from the determination",
    ),
    EffectKind.CERTIFY_IF_NONE: Words(
        would="the candidates who remain are certified if nobody else files"
    ),
    EffectKind.CERTIFY: Words(
        "after {name} {verb}, the remaining candidate(s) are certified as the party's nominee(s)",
        "the candidates who remain are certified without a primary",
    ),
    EffectKind.CANCEL_PRIMARY: Words(
        "after {name} {verb}, at most two candidates per seat remain: the primary is not held",
        "the primary is not held",
    ),
    EffectKind.PARTY_TO_NOMINATE: Words(
        "after {name} {verb}, the party executive committee names {need} nominee(s) "
        f"({PARTY_NOMINATES_UNDER})",
        "the party executive committee names a nominee",
    ),
    EffectKind.REPLACEMENT_VOTES: Words(
        "{name} {verb} after the ballots were printed ({why}): they are not reprinted, and votes "
        "for {name} will count for the replacement nominee",
        "votes for {name} count for the party's replacement nominee",
    ),
}

#: a certification while filing is reopened (others may still file): what its ruling says
CERTIFY_WHILE_REOPENED = (
    "{name} {verb} while filing is reopened: the name is not on the ballot, and who is "
    "nominated is settled when the reopened period closes"
)
#: the further ruling of a certification (163-112) or of a primary not held (163-294.1(b))
NO_PRIMARY = "no primary is held for this office"
#: the further ruling of a primary not held (163-294.1(b)): those left are nominated
NOMINATED_WITHOUT_PRIMARY = "declared nominees without a primary"

#: a name whose ruling waited for the board's determination whether there is time to reprint
#: (163-294.1(b), 163-294.4(b)-(c)), and which stays on the printed ballots ({why}: one of the
#: reasons below)
NOT_REPRINTED = (
    "{name} {verb} after the ballots were printed: {why}, so the ballots are not reprinted and "
    "the name remains"
)
#: the board determined there is not enough time
NO_TIME_TO_REPRINT = "the board finds there is not enough time to reprint"
#: the board found time only after votes were cast on the printed ballots
VOTES_CAST_FIRST = "votes were cast on the printed ballots before the board found time to reprint"
#: the board found time only after the contest had moved past its ballot ({phase})
CONTEST_MOVED_ON = "the contest was {phase} before the board found time to reprint"
#: the election was canvassed with no determination made
CANVASSED_FIRST = "no time to reprint was found before the election"
#: votes are being cast with no determination made
VOTING_FIRST = "votes are being cast and no time to reprint was found"


def _removed(eff: Effect, f: Facts, given: Mapping[str, object]) -> dict[str, object]:
    if f.when == DURING_FILING:
        why = "filing is still open"
    elif f.printed_at_notice:
        why = "the ballots will be reprinted"
    else:
        why = "the ballots are not yet printed"
    return {"why": why}


def _remains(eff: Effect, f: Facts, given: Mapping[str, object]) -> dict[str, object]:
    """``deadline`` (given): when a party primary candidate could last withdraw (163-106(e)),
    said where the withdrawal came after it."""
    deadline = given.get("deadline")
    due = (
        f", here {deadline:{_MOMENT}}"
        if f.past_party_withdrawal and isinstance(deadline, datetime)
        else ""
    )
    why = (eff.text or "the ballots are not reprinted").replace("{deadline}", due)
    return {"when": " after the ballots were printed" if f.printed_at_notice else "", "why": why}


def _text(eff: Effect, f: Facts, given: Mapping[str, object]) -> dict[str, object]:
    return {"text": eff.text}


def _reopened(eff: Effect, f: Facts, given: Mapping[str, object]) -> dict[str, object]:
    """``moved_from`` and ``why_moved`` (given): the day the close would have fallen on before
    103-5 moved it, and why; ``notice`` and ``noticed`` (given): where a board's determination
    reopens filing after it heard of the departure, the determination and the notice (``noticed``
    is None where counting from the notice would open the same period)."""
    moved_from, notice, noticed = given.get("moved_from"), given.get("notice"), given.get("noticed")
    moved = (
        f" (moved from {moved_from}: {given.get('why_moved')})"
        if isinstance(moved_from, date)
        else ""
    )
    later = (
        f"; counted from the board's determination at {notice:{_MOMENT}}, not from the notice at "
        f"{noticed:{_MOMENT}}: a decision opens no period before it was made"
        if isinstance(notice, datetime) and isinstance(noticed, datetime)
        else ""
    )
    return {"days": eff.days, "moved": moved, "later": later}


def _reprint(eff: Effect, f: Facts, given: Mapping[str, object]) -> dict[str, object]:
    return {"why": reprint_words(f)}


#: the fields of a kind's ruling that the facts choose (beside those the engine gives)
Chooser = Callable[[Effect, Facts, Mapping[str, object]], dict[str, object]]
CHOSEN: dict[EffectKind, Chooser] = {
    EffectKind.NAME_REMOVED: _removed,
    EffectKind.NAME_REMAINS: _remains,
    EffectKind.NOMINATION_ENDS: _text,
    EffectKind.RESULT_STANDS: _text,
    EffectKind.REOPEN: _reopened,
    EffectKind.REPLACEMENT_VOTES: _reprint,
}


def ruling(eff: Effect, f: Facts, name: str, verb: str, **given: object) -> str:
    """What the ruling on ``eff`` says, for ``name``'s departure (``verb``: "died") on the facts
    ``f``: its kind's template, filled with what the engine gives and the words the facts
    choose."""
    chosen = CHOSEN.get(eff.kind)
    fields = {"name": name, "verb": verb, **given}
    if chosen is not None:
        fields |= chosen(eff, f, given)
    return WORDS[eff.kind].ruling.format_map(fields)


#: what a pending answer whose effects say nothing leads to
NOTHING_CHANGES = "nothing changes"


def would(eff: Effect, name: str) -> str:
    """What ``eff`` leads to, said of an answer not yet given (for ``name``, who left); a kind
    with no such words is said by its name."""
    words = WORDS[eff.kind].would or eff.kind.value.replace("_", " ")
    return words.format(name=name, days=eff.days)

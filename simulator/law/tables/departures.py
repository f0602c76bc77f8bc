"""What follows when a candidate dies, withdraws or is disqualified: a rule table.

The table (:data:`TABLE`) is a :class:`simulator.law.rules.Table` like every other: each rule
names its citation, the facts it reads (a :class:`Facts` value), its condition and its effects (a
function of the facts, :data:`Consequence`). Several rules that apply are settled where the text
makes one the more specific (it names the others in ``exception_to``), and the engine shows the
others in its ruling; several without that are a conflict; none is a gap of the statutes. Gaps
are data too: each names the facts it covers, the nearest sections, why they do not reach the
facts and the fallback the engine uses (said in a ``no_provision`` ruling). The rules do no I/O
and read no clock, so :func:`gaps` can explore every combination of facts (:func:`all_facts`, in
:mod:`~simulator.law.tables.departure_facts` with :class:`Facts`) and list every gap the rules
can hit.

Statutes: G.S. 163-112 (partisan primaries, applied by 163-294.1(b)), 163-294.1 (nonpartisan
primaries and elections, elected persons), 163-294.4 (nonpartisan elections), 163-114 (party
nominees; only partly available: the row for municipal offices was not seen, so "the party
executive committee" is modeled without naming which one), 08 NCAC 06B .0104 (reprinting for
party nominees), 163-106(e) and 163-294.2(d) (withdrawals, known only as quoted: a party primary
candidate may withdraw until the close of business on the third business day before filing
closes, a nonpartisan candidate until filing closes).

Choices where the text is silent (each shows in the ruling it produces):

- A disqualification is treated like a death wherever 163-112 speaks of deaths: after printing
  163-294.1(b) says so; before printing it is a gap (``disqualified-before-printing``) with that
  fallback. A party candidate's withdrawal after 163-106(e)'s deadline (close of business,
  5:00 pm, on the third business day before filing closes) and before printing is too late:
  the name is printed, the votes count and the candidacy stands.
- ``withdrawal_as_death`` (withdrawal counts as "death or disqualification" in 163-294.1(b)) is
  applied to both sentences that name only death or disqualification: the primary not held when
  two per seat remain, and the office declared vacant when such a candidate polls enough votes
  to be elected.
- ``late_notice`` is the ``late-notice`` gap: its fallback is the switchable interpretation.
- A nominee of a nonpartisan primary who leaves is no longer counted as nominated; what happens
  on the election's ballot is for 163-294.4 and 163-294.1(b) in the election's own contest.
- While filing is reopened, a further death that would certify the survivors waits for the
  period to close (others may still file); 163-110 then certifies as many as the places or fewer.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

import attrs

from simulator.law import rules
from simulator.law.cite import NCAC_LATE_CHANGES, Cite, statute
from simulator.law.tables import filing
from simulator.law.tables.departure_facts import (
    BEFORE_ELECTION,
    DURING_FILING,
    ELECTION_OR_AFTER,
    Facts,
    all_facts,
)
from simulator.law.vocab import (
    CandStatus,
    Method,
    Stage,
)


class EffectKind(StrEnum):
    """What a rule of the departures table makes happen; the engine applies each kind."""

    REOPEN = "reopen"
    NAME_REMOVED = "name_removed"
    NAME_REMAINS = "name_remains"
    NOT_COUNTED = "not_counted"
    CERTIFY = "certify"
    CERTIFY_IF_NONE = "certify_if_none"
    CANCEL_PRIMARY = "cancel_primary"
    PARTY_TO_NOMINATE = "party_to_nominate"
    VACANT_IF_ELECTED = "vacant_if_elected"
    VACANT_NOW = "vacant_now"
    REPLACEMENT_VOTES = "replacement_votes"
    INEFFECTIVE = "ineffective"
    NOMINATION_ENDS = "nomination_ends"
    RESULT_STANDS = "result_stands"  # a defeated candidate leaves: nothing changes


# Effects are plain data the engine applies.
@attrs.frozen
class Effect:
    """One consequence, with the citation its ruling gives (``also``: further sections).

    ``kind`` is an :class:`EffectKind`; a rule may write its plain name, and a name that is
    not one of them fails when the table is built."""

    kind: EffectKind = attrs.field(converter=EffectKind)
    cite: Cite
    days: int = 0
    text: str = ""  # why, in words, where the engine's default wording would not fit
    also: tuple[Cite, ...] = ()

    @property
    def cites(self) -> tuple[Cite, ...]:
        return (self.cite, *self.also)


#: what a rule of the table makes happen: its effects, read from the facts
Consequence = Callable[[Facts], tuple[Effect, ...]]
Rule = rules.Rule[Facts, Consequence]
Gap = rules.Gap[Facts, Consequence]
Finding = rules.Finding[Facts, Consequence]


def _effect(
    kind: EffectKind | str, cite: Cite, days: int = 0, text: str = "", also: tuple[Cite, ...] = ()
) -> Effect:
    return Effect(kind, cite, days, text, also)


def reprint_words(f: Facts) -> str:
    if f.reprint is False:
        return "the board determined there is not enough time to reprint"
    return "no determination that there is time to reprint has been made"


def _printing(f: Facts, cite: Cite) -> tuple[Effect, ...]:
    """The name comes off unless it is on printed ballots that are not reprinted."""
    if f.no_time_to_reprint:
        return (_effect("name_remains", cite, text=reprint_words(f)),)
    return (_effect("name_removed", cite),)


def _with(effects: tuple[Effect, ...], *also: Cite) -> tuple[Effect, ...]:
    return tuple(attrs.evolve(e, also=(*e.also, *also)) for e in effects)


# --- partisan primaries: G.S. 163-112 -----------------------------------------------------------


def _party_candidate(f: Facts) -> bool:
    return f.partisan_primary and f.when == BEFORE_ELECTION and not f.nominee


def late_party_withdrawal(past_deadline: bool, printed: bool) -> bool:
    """163-106(e): a party primary candidate's withdrawal the board learns of after its
    deadline (close of business on the third business day before filing closes) and before the
    ballots are printed (after printing 163-294.1(b) sends it to 163-112) leaves the candidacy
    standing. The one-office rule reads it too: such a withdrawal frees nobody to file for
    another office."""
    return past_deadline and not printed


def _late_party_withdrawal(f: Facts) -> bool:
    """:func:`late_party_withdrawal` on the table's facts (after filing closes, a withdrawal is
    always past the deadline)."""
    if not (f.partisan_primary and not f.nominee and f.what == CandStatus.WITHDREW):
        return False
    if f.when == DURING_FILING:
        return late_party_withdrawal(f.past_party_withdrawal, printed=False)
    return f.when == BEFORE_ELECTION and late_party_withdrawal(True, f.printed_at_notice)


def _dead(f: Facts) -> bool:
    """A death in a party primary (other departures reach 163-112 through a delegating rule)."""
    return _party_candidate(f) and f.what == CandStatus.DIED


def _reopen_then_certify(sub: str) -> Callable[[Facts], tuple[Effect, ...]]:
    """163-112(a), (c): the name is not printed, filing reopens for three days, and if nobody
    files those left are certified."""
    c = statute(sub)
    return lambda f: (
        _effect("name_removed", c),
        _effect("reopen", c, 3),
        _effect("certify_if_none", c),
    )


def _112b_within(f: Facts) -> tuple[Effect, ...]:
    # unlike (a) and (c), (b) certifies no one when the period closes; 163-110 may (replay)
    c = statute("163-112(b)")
    return (_effect("name_removed", c), _effect("reopen", c, 3))


def _112b_after(f: Facts) -> tuple[Effect, ...]:
    c = statute("163-112(b)")
    if f.remaining == 1:
        return (_effect("certify", c),)
    if f.printed_at_death:
        why = "163-112(b): ballots printed before the death are not reprinted"
        return (_effect("name_remains", c, text=why), _effect("not_counted", c))
    return (_effect("name_removed", c),)


RULES_112: tuple[Rule, ...] = (
    Rule(
        id="one-of-two-dies-early",
        cite="163-112(a)",
        summary="one of two candidates for a single office dies within 30 days after the close: "
        "the name is not printed and filing reopens for three days; if nobody files, the other is "
        "certified",
        applies=lambda f: (
            _dead(f) and not f.group and f.filed_at_close == 2 and f.within_30_by_death
        ),
        effect=_reopen_then_certify("163-112(a)"),
    ),
    Rule(
        id="death-noticed-within-30-days",
        cite="163-112(b)",
        summary="one of more than two candidates dies and the board receives notice within 30 "
        "days after the close: the name is not printed and filing reopens for three days",
        applies=lambda f: (
            _dead(f) and not f.group and f.filed_at_close > 2 and f.within_30_by_notice
        ),
        effect=_112b_within,
    ),
    Rule(
        id="death-after-30-days",
        cite="163-112(b)",
        summary="a death more than 30 days after the close: the remaining names are printed; on "
        "ballots already printed at the death the name stays and its votes are not counted for "
        "any purpose",
        applies=lambda f: (
            _dead(f)
            and not f.group
            and f.filed_at_close >= 2
            and not f.within_30_by_death
            and f.remaining >= 1
        ),
        effect=_112b_after,
    ),
    Rule(
        id="death-after-30-days-leaves-one",
        cite="163-112(b)",
        summary="a death more than 30 days after the close leaves one candidate: certified as "
        "nominee",
        applies=lambda f: (
            _dead(f)
            and not f.group
            and f.filed_at_close >= 2
            and not f.within_30_by_death
            and f.remaining == 1
        ),
        effect=lambda f: (_effect("certify", statute("163-112(b)")),),
        exception_to=("death-after-30-days",),
    ),
    Rule(
        id="group-death-within-30-days",
        cite="163-112(c)",
        summary="group: a death within 30 days after the close leaves as many candidates as seats "
        "or fewer: filing reopens for three days; if nobody files, those filed are certified",
        applies=lambda f: (
            _dead(f)
            and f.group
            and f.filed_at_close > f.seats
            and f.within_30_by_death
            and f.remaining <= f.seats
        ),
        effect=_reopen_then_certify("163-112(c)"),
    ),
    Rule(
        id="group-death-after-30-days",
        cite="163-112(d)(1)",
        summary="group: a death more than 30 days after the close: the name is not printed, or if "
        "the ballots were printed at the notice, they are not reprinted and its votes are not "
        "counted",
        applies=lambda f: (
            _dead(f) and f.group and f.filed_at_close > f.seats and not f.within_30_by_death
        ),
        effect=lambda f: (
            (
                _effect(
                    "name_remains",
                    statute("163-112(d)(2)"),
                    text="163-112(d)(2): ballots printed before the notice are not reprinted",
                ),
                _effect("not_counted", statute("163-112(d)(2)")),
            )
            if f.printed_at_notice
            else (_effect("name_removed", statute("163-112(d)(1)")),)
        ),
    ),
    Rule(
        id="group-deaths-leave-seats-or-fewer",
        cite="163-112(d)(3)",
        summary="group: deaths more than 30 days after the close leave as many candidates as "
        "seats or fewer: they are certified and no primary is held",
        applies=lambda f: (
            _dead(f)
            and f.group
            and f.filed_at_close > f.seats
            and not f.within_30_by_death
            and f.remaining <= f.seats
        ),
        effect=lambda f: (_effect("certify", statute("163-112(d)(3)")),),
        exception_to=("group-death-after-30-days",),
    ),
    Rule(
        id="group-deaths-leave-fewer-than-seats",
        cite="163-112(d)(4)",
        summary="group: deaths leave fewer candidates than seats: those left are certified and "
        "the party executive committee nominates for the rest (163-114); no primary",
        applies=lambda f: (
            _dead(f)
            and f.group
            and f.filed_at_close > f.seats
            and not f.within_30_by_death
            and f.remaining < f.seats
        ),
        effect=lambda f: (
            _effect("certify", statute("163-112(d)(3)")),
            _effect("party_to_nominate", statute("163-112(d)(4)"), also=(statute("163-114"),)),
        ),
        exception_to=("group-deaths-leave-seats-or-fewer", "group-death-after-30-days"),
    ),
)


def as_death(f: Facts) -> tuple[Effect, ...]:
    """The effects 163-112 gives a death on the same facts (a withdrawal or disqualification
    after printing, 163-294.1(b); a disqualification before printing, by fallback)."""
    dead = attrs.evolve(
        f,
        what=CandStatus.DIED,
        within_30_by_notice=f.within_30_by_death,
        printed_at_death=f.printed_at_notice,
    )
    return TABLE.evaluate(dead).effect(dead)


RULES_PARTY: tuple[Rule, ...] = (
    Rule(
        id="party-candidate-left-after-printing",
        cite="163-294.1(b)",
        summary="a party primary candidate withdraws or is disqualified after the ballots are "
        "printed: 163-112 governs, as for a death",
        applies=lambda f: _party_candidate(f) and f.what != CandStatus.DIED and f.printed_at_notice,
        effect=lambda f: _with(as_death(f), statute("163-294.1(b)")),
    ),
    Rule(
        id="party-withdrawal-too-late",
        cite="163-106(e)",
        summary="a party primary candidate withdraws after the close of business on the third "
        "business day before filing closes, before the ballots are printed: too late; the name is "
        "printed, the votes count and the candidacy stands",
        applies=_late_party_withdrawal,
        effect=lambda f: (
            _effect(
                "name_remains",
                statute("163-106(e)"),
                # ({deadline}: the handler writes that day's date and hour, or nothing)
                text="a party primary candidate may withdraw only until the close of business "
                "(5:00 pm) on the third business day before filing closes{deadline}; the "
                "candidacy stands and votes for it count",
            ),
            _effect("ineffective", statute("163-106(e)")),
        ),
    ),
    Rule(
        id="party-nominee-left",
        cite="163-294.1(b)",
        summary="a party nominee dies, withdraws or is disqualified before election day: the party "
        "executive committee fills the vacancy (163-114); on printed ballots not reprinted, votes "
        "for the printed name count for the replacement (08 NCAC 06B .0104)",
        applies=lambda f: (
            f.method is Method.PARTISAN
            and f.when != DURING_FILING
            and (f.nominee or (f.stage is Stage.ELECTION and f.when == BEFORE_ELECTION))
        ),
        effect=lambda f: (
            (_effect("party_to_nominate", statute("163-114"), also=(statute("163-294.1(b)"),)),)
            + (
                ()
                if f.stage is Stage.PRIMARY
                else (_effect("replacement_votes", NCAC_LATE_CHANGES),)
                if f.no_time_to_reprint
                else (
                    _effect(
                        "name_removed",
                        NCAC_LATE_CHANGES if f.printed_at_notice else statute("163-114"),
                    ),
                )
            )
        ),
    ),
    Rule(
        id="group-nominee-dies-before-primary",
        cite="163-112(d)(4)",
        summary="group: a candidate certified under (d)(3) dies before the primary day, leaving "
        "fewer nominees than seats: the party executive committee nominates (163-114)",
        applies=lambda f: (
            f.partisan_primary
            and f.when == BEFORE_ELECTION
            and f.nominee
            and f.group
            and f.filed_at_close > f.seats
            and not f.within_30_by_death
            and f.remaining < f.seats
            and f.what != CandStatus.WITHDREW
        ),
        effect=lambda f: (
            _effect("party_to_nominate", statute("163-112(d)(4)"), also=(statute("163-114"),)),
        ),
        exception_to=("party-nominee-left",),
    ),
)

# --- nonpartisan primaries: G.S. 163-294.1(b), second paragraph --------------------------------

RULES_NP_PRIMARY: tuple[Rule, ...] = (
    Rule(
        id="nonpartisan-nominee-left",
        cite="163-294.1(b)",
        summary="a nonpartisan nominee (nominated in the primary or without one) leaves: the "
        "nomination ends; the election's ballot is governed by 163-294.4 and 163-294.1(b), fourth "
        "paragraph",
        applies=lambda f: f.nonpartisan_primary and f.nominee and f.when != DURING_FILING,
        effect=lambda f: (
            _effect(
                "nomination_ends",
                statute("163-294.1(b)"),
                text="the election's ballot is governed by G.S. 163-294.4 and 163-294.1(b)",
                also=(statute("163-294.4(b)"), statute("163-294.4(c)")),
            ),
        ),
    ),
    Rule(
        id="nonpartisan-primary-left-after-printing",
        cite="163-294.1(b)",
        summary="a nonpartisan primary candidate leaves before the primary, after the ballots are "
        "printed: with no time to reprint the name remains and votes that would nominate are "
        "disregarded",
        applies=lambda f: (
            f.nonpartisan_primary
            and f.when == BEFORE_ELECTION
            and not f.nominee
            and f.printed_at_notice
        ),
        effect=lambda f: _printing(f, statute("163-294.1(b)")),
    ),
    Rule(
        id="two-per-seat-left",
        cite="163-294.1(b)",
        summary="only two candidates per seat remain: the primary is not held and all are "
        "nominated",
        applies=lambda f: (
            f.nonpartisan_primary
            and f.when == BEFORE_ELECTION
            and f.offish
            and f.remaining <= 2 * f.seats
            and not f.nominee
        ),
        effect=lambda f: (_effect("cancel_primary", statute("163-294.1(b)")),),
        exception_to=("nonpartisan-primary-left-after-printing",),
    ),
)

# --- nonpartisan elections: G.S. 163-294.4 and 163-294.1(b), fourth paragraph -----------------


def _np_death(f: Facts) -> bool:
    return f.nonpartisan_election and f.when == BEFORE_ELECTION and f.what == CandStatus.DIED


RULES_NP_ELECTION: tuple[Rule, ...] = (
    Rule(
        id="one-of-two-dies-reopen",
        cite="163-294.4(b)",
        summary="only two filed (or as many as seats) and one dies: before printing, filing "
        "reopens for five days; after printing, with time to reprint, for three",
        applies=lambda f: (
            _np_death(f) and f.filed_at_close == f.only_two and not f.no_time_to_reprint
        ),
        effect=lambda f: (
            _effect("name_removed", statute("163-294.4(b)")),
            _effect("reopen", statute("163-294.4(b)"), 3 if f.printed_at_notice else 5),
        ),
    ),
    Rule(
        id="dead-name-on-printed-ballots",
        cite="163-294.4(c)",
        summary="printed at the notice, no time to reprint: the dead candidate's name remains; if "
        "the dead candidate polls highest the office is vacant",
        applies=lambda f: _np_death(f) and f.no_time_to_reprint,
        effect=lambda f: (
            _effect("name_remains", statute("163-294.4(c)"), text=reprint_words(f)),
            _effect("vacant_if_elected", statute("163-294.4(c)")),
        ),
    ),
    Rule(
        id="dead-name-left-off",
        cite="163-294.4(c)",
        summary="more candidates than 163-294.4(b) names, and the ballots are not printed (or "
        "will be reprinted): the name is left off; only 163-294.4(c) keeps a dead candidate's name",
        applies=lambda f: (
            _np_death(f) and f.filed_at_close > f.only_two and not f.printed_at_notice
        ),
        effect=lambda f: (_effect("name_removed", statute("163-294.4(c)")),),
    ),
    Rule(
        id="reprinted-without-name",
        cite="163-294.1(b)",
        summary="printed at the notice, and the board determined there is time to reprint: the "
        "ballots are reprinted without the name (the determination is 163-294.1(b)'s; "
        "163-294.4(c) speaks only of no time to reprint)",
        applies=lambda f: (
            _np_death(f)
            and f.filed_at_close > f.only_two
            and f.printed_at_notice
            and f.reprint is True
        ),
        effect=lambda f: (_effect("name_removed", statute("163-294.1(b)")),),
    ),
    Rule(
        id="left-before-nonpartisan-election",
        cite="163-294.1(b)",
        summary="a withdrawal or disqualification before a nonpartisan election, after the "
        "ballots are printed: with no time to reprint the name remains and winning makes the "
        "office vacant",
        applies=lambda f: (
            f.nonpartisan_election
            and f.when == BEFORE_ELECTION
            and f.what != CandStatus.DIED
            and f.printed_at_notice
        ),
        effect=lambda f: (
            _printing(f, statute("163-294.1(b)"))
            + (
                (_effect("vacant_if_elected", statute("163-294.1(b)")),)
                if f.no_time_to_reprint
                else ()
            )
        ),
    ),
)

# --- the filing period, and on or after election day: G.S. 163-294.1(c), (d) -----------------


def _filing_cite(f: Facts) -> Cite:
    """The ``filing-law`` table's provision for the filing period this candidacy ends in."""
    return filing.filing_cite(
        partisan=f.method is Method.PARTISAN, withdrawal=f.what == CandStatus.WITHDREW
    )


RULES_OTHER: tuple[Rule, ...] = (
    Rule(
        id="filing-open",
        cite="163-294.2(d)",
        summary="the candidacy ends while filing is open: the name is not on the ballot and "
        "others may still file (163-106(e), 163-294.2(d) for withdrawals in time; the filing "
        "period itself otherwise)",
        applies=lambda f: f.when == DURING_FILING and not _late_party_withdrawal(f),
        effect=lambda f: (_effect("name_removed", _filing_cite(f)),),
    ),
    Rule(
        id="elected-left-before-oath",
        cite="163-294.1(c)",
        summary="a person elected dies, is disqualified or resigns on or after election day, "
        "before taking the oath: the office is vacant",
        applies=lambda f: (
            f.when == ELECTION_OR_AFTER
            and f.stage is Stage.ELECTION
            and not f.sworn
            and not f.defeated
        ),
        effect=lambda f: (_effect("vacant_if_elected", statute("163-294.1(c)")),),
    ),
    Rule(
        id="defeated-candidate-left",
        cite="163-294.1(c)",
        summary="a candidate who was not elected dies, withdraws or is disqualified after the "
        "contest is decided: 163-294.1(c) speaks only of a person elected, so the result stands",
        applies=lambda f: f.when == ELECTION_OR_AFTER and f.stage is Stage.ELECTION and f.defeated,
        effect=lambda f: (_effect("result_stands", statute("163-294.1(c)"), text="not elected"),),
    ),
    Rule(
        id="defeated-primary-candidate-left",
        cite="163-294.1(b)",
        summary="a primary candidate who was not nominated dies, withdraws or is disqualified "
        "after the primary is decided: 163-294.1(b) speaks after the primary only of nominees, so "
        "the result stands",
        applies=lambda f: f.when == ELECTION_OR_AFTER and f.stage is Stage.PRIMARY and f.defeated,
        effect=lambda f: (_effect("result_stands", statute("163-294.1(b)"), text="not nominated"),),
    ),
    Rule(
        id="officer-left-after-oath",
        cite="163-294.1(d)",
        summary="an officer who has taken the oath leaves: a vacancy in office, filled under "
        "160A-63",
        applies=lambda f: f.when == ELECTION_OR_AFTER and f.sworn,
        effect=lambda f: (
            _effect("vacant_now", statute("163-294.1(d)"), also=(statute("160A-63"),)),
        ),
    ),
)

RULES: tuple[Rule, ...] = (
    RULES_OTHER[:1]
    + RULES_112
    + RULES_PARTY
    + RULES_NP_PRIMARY
    + RULES_NP_ELECTION
    + RULES_OTHER[1:]
)


# --- the gaps ---------------------------------------------------------------------------------


def _np_withdrawal_void(f: Facts) -> bool:
    """`late_nonpartisan_withdrawal`: a withdrawal (not a death or disqualification) the switch
    leaves without effect."""
    return f.late_np_withdrawal_void and f.what == CandStatus.WITHDREW


def _dq_name_off(f: Facts) -> bool:
    """`disqualified_before_printing`, where more candidates are left than places: with as many or
    fewer, a primary would be held with nobody to choose between, and 163-112's certification is
    read under either setting."""
    return f.disqualified_name_off and f.remaining > f.seats


def _committee_fills(f: Facts) -> bool:
    """`left_after_primary_day`, in a party primary (a nonpartisan primary has no party
    committee)."""
    return f.committee_fills_left_place and f.method is Method.PARTISAN


def _late_notice_effects(f: Facts) -> tuple[Effect, ...]:
    if f.late_notice_by_death:
        return _112b_within(f)
    return _112b_after(attrs.evolve(f, printed_at_death=f.printed_at_notice))


GAPS: tuple[Gap, ...] = (
    Gap(
        "late-notice",
        near=("163-112(b)",),
        open=(
            "the death came within 30 days after the close but the board received notice after "
            "day 30: the first paragraph of 163-112(b) counts from the notice, the second from "
            "the death, and neither reaches these facts"
        ),
        fallback=lambda f: (
            "under late_notice: death_date, the death date decides: the name is not printed and "
            "filing reopens for three days from the notice"
            if f.late_notice_by_death
            else "the notice date decides (late_notice: notice_date): the death is "
            "treated as one more than 30 days after the close"
        ),
        applies=lambda f: _dead(f) and not f.group and f.filed_at_close > 2 and f.late_notice_gap,
        effect=_late_notice_effects,
    ),
    Gap(
        "112c-more-than-seats",
        near=("163-112(c)", "163-112(d)"),
        open=(
            "a death within 30 days after the close leaves more candidates than seats: 163-112(c)"
            " covers only deaths that leave as many as the seats or fewer, and (d) only deaths "
            "more than 30 days after the close"
        ),
        fallback=lambda f: (
            "under group_death_within_30: reopen, filing reopens for three days, as "
            "163-112(b) reopens it for a single office after any death within the 30 days, "
            "whatever the number of candidates left; the name is not printed and the primary is "
            "held"
            if f.reopen_group_death
            else "as 163-112(d)(1) and (2) provide: filing is not reopened, the name is not "
            "printed (or, on printed ballots, stays and its votes are not counted) and the "
            "primary is held"
        ),
        applies=lambda f: (
            _dead(f)
            and f.group
            and f.filed_at_close > f.seats
            and f.within_30_by_death
            and f.remaining > f.seats
        ),
        effect=lambda f: (
            _112b_within(f)
            if f.reopen_group_death
            else _printing(f, statute("163-112(d)"))
            + ((_effect("not_counted", statute("163-112(d)")),) if f.no_time_to_reprint else ())
        ),
        reading_for=lambda f: "reopen" if f.reopen_group_death else "",
    ),
    Gap(
        "no-candidate-left",
        near=("163-112(b)", "163-114"),
        open=(
            "a death leaves no candidate for a single office: 163-112(b) certifies a sole "
            "remaining candidate, and 163-114 fills only a nominee's vacancy"
        ),
        fallback=lambda f: (
            "under no_candidate_left: committee_names, no primary is held and the "
            "party's executive committee names the nominee under 163-114, as 163-112(d)(4) "
            "provides for a group left with fewer candidates than places"
            if f.committee_when_none_left
            else "no primary is held and the party has no nominee for the office"
        ),
        applies=lambda f: (
            _dead(f)
            and not f.group
            and f.filed_at_close >= 2
            and not f.within_30_by_death
            and f.remaining == 0
        ),
        effect=lambda f: (
            (_effect("certify", statute("163-112(b)")),)
            + (
                (
                    _effect(
                        "party_to_nominate", statute("163-112(d)(4)"), also=(statute("163-114"),)
                    ),
                )
                if f.committee_when_none_left
                else ()
            )
        ),
        reading_for=lambda f: "committee_names" if f.committee_when_none_left else "",
    ),
    Gap(
        "nonpartisan-left-before-printing",
        near=("163-294.1(b)", "163-294.2(d)"),
        open=(
            "a candidate in a nonpartisan primary, or one in a nonpartisan election who withdraws "
            "or is disqualified, leaves after filing closes and before the ballots are printed: "
            "163-294.1(b) speaks only of candidates who leave after the ballots are printed, and "
            "163-294.2(d) only of withdrawals before the filing deadline"
        ),
        fallback=lambda f: (
            "under late_nonpartisan_withdrawal: no_effect, 163-294.2(d) allows a "
            "withdrawal only until the filing deadline, so one after it has no effect: the name "
            "is printed, its votes count and the candidacy stands, as 163-106(e) has it for a "
            "party primary candidate who withdraws too late"
            if _np_withdrawal_void(f)
            else "the name is not printed, as 163-294.1(b) has it for printed ballots the board "
            "finds time to reprint: nothing keeps on a ballot not yet printed the name of one "
            "who is no longer a candidate"
        ),
        applies=lambda f: (
            f.when == BEFORE_ELECTION
            and not f.printed_at_notice
            and not f.nominee
            and (f.nonpartisan_primary or (f.nonpartisan_election and f.what != CandStatus.DIED))
        ),
        effect=lambda f: (
            (
                _effect(
                    "name_remains",
                    statute("163-294.2(d)"),
                    text="a nonpartisan candidate may withdraw only until the filing deadline "
                    "(late_nonpartisan_withdrawal: no_effect); the candidacy stands "
                    "and votes for it count",
                ),
                _effect("ineffective", statute("163-294.2(d)")),
            )
            if _np_withdrawal_void(f)
            else (_effect("name_removed", statute("163-294.1(b)")),)
        ),
        reading_for=lambda f: "no_effect" if _np_withdrawal_void(f) else "",
    ),
    Gap(
        "disqualified-before-printing",
        near=("163-294.1(b)", "163-112"),
        open=(
            "a party primary candidate is disqualified before the ballots are printed: "
            "163-294.1(b) applies 163-112 only after printing, and 163-112 speaks of deaths (only"
            " (d)(4) names disqualification)"
        ),
        fallback=lambda f: (
            "under disqualified_before_printing: name_off, 163-112 speaks of deaths only, "
            "so the disqualified candidate's name is simply left off the ballot, without the "
            "reopening or the certification it attaches to a death"
            if _dq_name_off(f)
            else "the disqualification is treated as a death under 163-112"
        ),
        applies=lambda f: (
            _party_candidate(f) and f.what == CandStatus.DISQUALIFIED and not f.printed_at_notice
        ),
        effect=lambda f: (
            (_effect("name_removed", statute("163-294.1(b)")),) if _dq_name_off(f) else as_death(f)
        ),
        reading_for=lambda f: "name_off" if _dq_name_off(f) else "",
    ),
    Gap(
        "left-after-primary-day",
        near=("163-294.1(b)", "163-114"),
        open=(
            "a primary candidate dies, withdraws or is disqualified on or after the primary day, "
            "before being declared nominated: 163-294.1(b) speaks of candidates who leave 'before"
            " the primary' and of nominees who leave 'after the primary'"
        ),
        fallback=lambda f: (
            "under left_after_primary_day: committee_fills, the votes stand; if they "
            "put the candidate over the substantial plurality for a place, that place is a "
            "vacancy in the nomination, filled by the party's executive committee under 163-114 "
            "as for a nominee who leaves after the primary"
            if _committee_fills(f)
            else "the votes stand, but a candidate who has left cannot be nominated: the "
            "nomination passes to the next candidate, as 163-294.1(b) provides for a nonpartisan "
            "primary"
        ),
        applies=lambda f: (
            f.stage is Stage.PRIMARY and f.when == ELECTION_OR_AFTER and not f.nominee
        ),
        effect=lambda f: (
            _effect("name_remains", statute("163-294.1(b)"), text="the primary has been held"),
        ),
        reading_for=lambda f: "committee_fills" if _committee_fills(f) else "",
    ),
    Gap(
        "only-candidate-dies",
        near=("163-294.4(b)", "163-294.4(a)"),
        open=(
            "a candidate dies where fewer filed than 163-294.4(b) names (one for a single office,"
            " fewer than the seats for a group): (b) reopens filing only where two filed (or as "
            "many as the seats), and (a) extends filing only when the period expires"
        ),
        fallback=lambda f: (
            "under only_candidate_dies: reopen, filing reopens as 163-294.4(b) reopens it "
            "when one of two dies (five days before printing, three after), read a fortiori: if "
            "the death of one of two reopens filing, so does the death of a candidate with fewer "
            "rivals; the name is not printed"
            if f.reopen_after_only_death
            else "the name is not printed and filing is not reopened; a seat left without a "
            "candidate is declared vacant after the election"
        ),
        applies=lambda f: (
            _np_death(f) and f.filed_at_close < f.only_two and not f.no_time_to_reprint
        ),
        effect=lambda f: (
            (
                _effect("name_removed", statute("163-294.4(b)")),
                _effect("reopen", statute("163-294.4(b)"), 3 if f.printed_at_notice else 5),
            )
            if f.reopen_after_only_death
            else (_effect("name_removed", statute("163-294.4(b)")),)
        ),
        reading_for=lambda f: "reopen" if f.reopen_after_only_death else "",
    ),
)

UNCLASSIFIED = Gap(
    "unclassified",
    near=("163-294.1",),
    open="no rule of the table covers these facts",
    fallback="the name comes off unprinted ballots and stays on printed ones",
    applies=lambda f: True,
    effect=lambda f: _printing(f, statute("163-294.1(b)")),
)


# --- exploring the table ----------------------------------------------------------------------

TABLE: rules.Table[Facts, Consequence] = rules.Table(
    "departures",
    "what follows when a candidate dies, withdraws or is disqualified",
    RULES,
    (*GAPS, UNCLASSIFIED),
    facts=all_facts,
    asked="{name} {verb}",
)

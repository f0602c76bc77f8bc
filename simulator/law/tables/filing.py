"""The law of filing as rule tables (see :mod:`simulator.law.rules`).

Four questions, each a table the loader or the replay engine consults; the callers gather the
facts and apply the typed effect, and the rulings they write cite the rule:

- ``fee-bounds`` (the loader): is the filing fee a governing board fixed within G.S. 163-291(3)'s
  bounds (five dollars to one percent of the office's annual salary, or exactly five dollars when
  one percent is less)?
- ``filing-fee``: is the amount a candidate paid with a notice of candidacy the fee?
- ``notice``: is a notice of candidacy accepted? (a second notice for the same office, a candidate
  who died or was disqualified, another municipal office at the same election under
  163-291(2), the wrong party's primary, the fee, the filing period of 163-291(2) or 163-294.2(c))
- ``filing-close``: when filing closes, is a primary held? (163-110 for a party primary with no
  more candidates than places; 163-294(a) for a nonpartisan primary with at most two per seat)
- ``filing-extension``: may the board extend filing under 163-294.4(a)?
- ``filing-law``: which provision governs a contest's filing period (its notices, and a
  withdrawal while filing is open)?
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from decimal import Decimal, localcontext
from enum import StrEnum
from typing import Any

import attrs

from simulator.law.cite import Cite, statute
from simulator.law.readings import NonpartisanFee
from simulator.law.rules import Gap, Reading, Rule, Table

MINIMUM_FEE = Decimal(5)  # G.S. 163-291(3)


def dollars(amount: Decimal) -> str:
    """An amount as users read it: ``$5.00``, ``$1,234.50`` (more places only when given)."""
    if amount == amount.quantize(Decimal("0.01")):
        return f"${amount:,.2f}"
    return f"${amount:,}"


# --- the fee a governing board fixes: G.S. 163-291(3) ------------------------------------------


class Bound(StrEnum):
    WITHIN = "within"  # the fee is within the bounds
    EXACTLY_MINIMUM = "exactly_minimum"  # one percent is less than five dollars: five is charged
    OUT_OF_RANGE = "out_of_range"  # less than five dollars, or more than one percent


@attrs.frozen
class BoundFacts:
    salary_given: bool  # the scenario gives the office's annual salary
    one_percent_below_minimum: bool  # one percent of that salary is less than five dollars
    at_minimum: bool  # the fee is exactly five dollars
    below_minimum: bool  # the fee is less than five dollars
    above_one_percent: bool  # the fee is more than one percent of the salary

    @property
    def floor_only(self) -> bool:
        return self.salary_given and self.one_percent_below_minimum


def _bound_facts() -> Iterator[BoundFacts]:
    for sal, low, at, below, above in itertools.product(*([(False, True)] * 5)):
        if (low or above) and not sal:
            continue  # no salary, no one percent
        if at and below:
            continue
        if low and not below and not above:
            continue  # five dollars or more is above a one percent under five
        if above and not low and (below or at):
            continue  # above a one percent of five or more is above five
        yield BoundFacts(sal, low, at, below, above)


FEE_BOUNDS: Table[BoundFacts, Bound] = Table(
    "fee-bounds",
    "the filing fee a governing board fixed for a primary: is it within the bounds?",
    (
        Rule(
            id="five-dollars-only",
            cite="163-291(3)",
            summary="one percent of the annual salary is less than five dollars: the minimum fee "
            "of five dollars is charged, and five dollars is that fee",
            applies=lambda f: f.floor_only and f.at_minimum,
            effect=Bound.WITHIN,
        ),
        Rule(
            id="five-dollars-charged",
            cite="163-291(3)",
            summary="one percent of the annual salary is less than five dollars: the fee is five "
            "dollars, no other amount",
            applies=lambda f: f.floor_only and not f.at_minimum,
            effect=Bound.EXACTLY_MINIMUM,
        ),
        Rule(
            id="fee-within-bounds",
            cite="163-291(3)",
            summary="a fee not less than five dollars and not more than one percent of the annual "
            "salary (with no salary given, only the minimum can be checked)",
            applies=lambda f: not f.floor_only and not (f.below_minimum or f.above_one_percent),
            effect=Bound.WITHIN,
        ),
        Rule(
            id="fee-out-of-bounds",
            cite="163-291(3)",
            summary="a fee less than five dollars or more than one percent of the annual salary",
            applies=lambda f: not f.floor_only and (f.below_minimum or f.above_one_percent),
            effect=Bound.OUT_OF_RANGE,
        ),
    ),
    facts=_bound_facts,
)


def fee_bounds(fee: Decimal, salary: Decimal | None) -> tuple[str, str] | None:
    """The ``fee-bounds`` table for a scenario's ``filing_fee``: ``None`` if it is within the
    bounds, else what the loader reports (expected, found)."""
    with localcontext() as ctx:
        ctx.prec = 200
        one_percent = salary / 100 if salary is not None else None
    facts = BoundFacts(
        salary_given=one_percent is not None,
        one_percent_below_minimum=one_percent is not None and one_percent < MINIMUM_FEE,
        at_minimum=fee == MINIMUM_FEE,
        below_minimum=fee < MINIMUM_FEE,
        above_one_percent=one_percent is not None and fee > one_percent,
    )
    bound = FEE_BOUNDS.evaluate(facts).effect
    if bound is Bound.WITHIN:
        return None
    if bound is Bound.EXACTLY_MINIMUM:
        assert one_percent is not None
        return (
            f"a filing fee of exactly $5.00, since 1% of the salary "
            f"({dollars(one_percent)}) is less than $5.00 (G.S. 163-291(3))",
            dollars(fee),
        )
    upper = f"1% of the salary ({dollars(one_percent)})" if one_percent else "1% of the salary"
    return f"a filing fee between $5.00 and {upper} (G.S. 163-291(3))", dollars(fee)


# --- the fee paid with a notice of candidacy: G.S. 163-291(3) ----------------------------------


class FeeEffect(StrEnum):
    ACCEPTED = "accepted"
    REJECTED = "rejected"


@attrs.frozen
class FeeFacts:
    partisan_primary: bool  # a party contest (its candidates file for the party primary)
    fixed: bool  # the governing board fixed a fee (the scenario's filing_fee)
    below_fixed: bool  # the amount paid is less than the fixed fee
    below_minimum: bool  # the amount paid is less than five dollars


def _fee_facts() -> Iterator[FeeFacts]:
    """A nonpartisan contest is asked only when a fixed fee was given and not paid in full."""
    for pp, fixed, bf, bm in itertools.product(*([(False, True)] * 4)):
        if not fixed and bf:
            continue
        if fixed and bm and not bf:
            continue  # a fixed fee is never below the minimum (the fee-bounds table checks it)
        if not pp and not (fixed and bf):
            continue
        yield FeeFacts(pp, fixed, bf, bm)


def fee_asked(facts: FeeFacts) -> bool:
    """Whether the ``filing-fee`` table has anything to decide (a nonpartisan contest paying the
    fee it fixed, or with none fixed, has not)."""
    return facts.partisan_primary or facts.below_fixed


FEE: Table[FeeFacts, FeeEffect] = Table(
    "filing-fee",
    "a notice of candidacy with the fee paid: is the fee enough?",
    (
        Rule(
            id="fixed-fee",
            cite="163-291(3)",
            summary="the fee the governing board fixed (between five dollars and one percent of "
            "the salary) is paid when the notice is filed; less is not the fee",
            applies=lambda f: f.partisan_primary and f.fixed and f.below_fixed,
            effect=FeeEffect.REJECTED,
        ),
        Rule(
            id="minimum-fee",
            cite="163-291(3)",
            summary="there is a minimum fee of five dollars: with no fixed fee given, less than "
            "five dollars is not the fee",
            applies=lambda f: f.partisan_primary and not f.fixed and f.below_minimum,
            effect=FeeEffect.REJECTED,
        ),
        Rule(
            id="fee-paid",
            cite="163-291(3)",
            summary="the fee is paid",
            applies=lambda f: (
                f.partisan_primary and not (f.below_fixed or (not f.fixed and f.below_minimum))
            ),
            effect=FeeEffect.ACCEPTED,
        ),
    ),
    gaps=(
        Gap(
            "nonpartisan-filing-fee",
            ("163-291(3)", "163-294.2"),
            "a nonpartisan contest: 163-291(3) fixes the fees of party primaries, and the "
            "section on nonpartisan filing fees is not in the sources",
            "the fee the governing board fixed is required, as 163-291(3) requires for party "
            "primaries",
            lambda f: not f.partisan_primary and f.fixed and f.below_fixed,
            FeeEffect.REJECTED,
            readings=(
                Reading(
                    "nonpartisan_fee",
                    NonpartisanFee.NOT_ENFORCED,
                    "the notice is accepted: no provision in force here makes the fee the "
                    "governing board fixed a condition of a nonpartisan candidacy",
                    FeeEffect.ACCEPTED,
                ),
            ),
        ),
    ),
    facts=_fee_facts,
    asked="{name} paid ${fee}",
)


# --- a notice of candidacy: accepted? ------------------------------------------------------------


class Notice(StrEnum):
    """What becomes of a notice of candidacy (a rejection's value is the reason users see)."""

    ACCEPTED = "accepted"
    DUPLICATE = "duplicate notice of candidacy"
    DEPARTED = "departed"  # the reason names how: "candidate died", "candidate disqualified"
    OTHER_OFFICE = "one municipal office per election"
    WRONG_PARTY = "party does not match the primary"
    FEE_SHORT = "filing fee not paid"
    ELECTION_DAY = "after election day"
    OUTSIDE_PERIOD = "outside the filing period"

    @property
    def reaches_fee(self) -> bool:
        """The board has come to the fee when it meets this answer (the grounds before it
        rejected the notice without looking at the fee)."""
        return self not in (
            Notice.DUPLICATE,
            Notice.DEPARTED,
            Notice.OTHER_OFFICE,
            Notice.WRONG_PARTY,
        )


@attrs.frozen
class NoticeFacts:
    partisan: bool  # a party contest: 163-291(2) governs its filing; otherwise 163-294.2(c)
    already_filed: bool  # the candidate has a standing notice for this office
    departed: bool  # the candidate died or was disqualified earlier in this contest
    other_office: bool  # a notice for another municipal office at this election stands
    wrong_party: bool  # a party primary, and the notice names another party
    fee_short: bool  # the filing-fee table rejected the amount paid
    lists_nominees: bool  # an election after a primary: the notices list the nominees
    election_day: bool  # the notice came on or after election day
    in_period: bool  # a filing period open at the notice's time covers it


def _notice_facts() -> Iterator[NoticeFacts]:
    flags = (False, True)
    for combo in itertools.product(*([flags] * 9)):
        f = NoticeFacts(*combo)
        if f.already_filed and f.departed:
            continue  # a standing notice is an active candidate's
        if f.wrong_party and not f.partisan:
            continue
        if f.election_day and not f.lists_nominees:
            continue  # asked only of an election after a primary
        yield f


_GROUNDS: tuple[tuple[Notice, str, str], ...] = (
    # (effect, citation or "" for the period's own subsection, summary), in the board's order
    (Notice.DUPLICATE, "", "a candidate with a standing notice for this office may not file again"),
    (
        Notice.DEPARTED,
        "",
        "a candidate who died or was disqualified in this contest cannot file again",
    ),
    (
        Notice.OTHER_OFFICE,
        "163-291(2)",
        "no notice for a second municipal office at the same election unless the first "
        "notice was withdrawn first",
    ),
    (Notice.WRONG_PARTY, "163-291", "a party's primary nominates that party's candidates"),
    (Notice.FEE_SHORT, "163-291(3)", "the filing fee is paid when the notice is filed"),
    (
        Notice.ELECTION_DAY,
        "",
        "the nominees of an election after a primary are listed before election day",
    ),
    (Notice.OUTSIDE_PERIOD, "", "a notice is filed within a filing period"),
)


def _ground(effect: Notice) -> Any:
    return {
        Notice.DUPLICATE: lambda f: f.already_filed,
        Notice.DEPARTED: lambda f: f.departed,
        Notice.OTHER_OFFICE: lambda f: f.other_office,
        Notice.WRONG_PARTY: lambda f: f.wrong_party,
        Notice.FEE_SHORT: lambda f: f.fee_short,
        Notice.ELECTION_DAY: lambda f: f.lists_nominees and f.election_day,
        Notice.OUTSIDE_PERIOD: lambda f: not f.in_period,
    }[effect]


def _first(effect: Notice, partisan: bool | None) -> Any:
    """The ground holds, no earlier ground does, and (where given) the contest's kind."""
    earlier = [_ground(e) for e, _, _ in _GROUNDS[: [g[0] for g in _GROUNDS].index(effect)]]
    here = _ground(effect)
    return lambda f: (
        (partisan is None or f.partisan is partisan) and here(f) and not any(g(f) for g in earlier)
    )


def _accepted(partisan: bool, grounds: list[Any]) -> Any:
    return lambda f: f.partisan is partisan and not any(g(f) for g in grounds)


def _notice_rules() -> tuple[Rule[NoticeFacts, Notice], ...]:
    out: list[Rule[NoticeFacts, Notice]] = []
    for effect, cite, summary in _GROUNDS:
        tag = effect.name.lower().replace("_", "-")
        if cite:
            out.append(
                Rule(
                    id=f"notice-{tag}",
                    cite=cite,
                    summary=summary,
                    applies=_first(effect, None),
                    effect=effect,
                )
            )
            continue
        for partisan, period in ((True, "163-291(2)"), (False, "163-294.2(c)")):
            kind = "party" if partisan else "nonpartisan"
            out.append(
                Rule(
                    id=f"notice-{tag}-{kind}",
                    cite=period,
                    summary=summary,
                    applies=_first(effect, partisan),
                    effect=effect,
                )
            )
    accepted = [_ground(e) for e, _, _ in _GROUNDS]
    for partisan, period in ((True, "163-291(2)"), (False, "163-294.2(c)")):
        out.append(
            Rule(
                id=f"notice-accepted-{'party' if partisan else 'nonpartisan'}",
                cite=period,
                summary="a notice filed within a filing period, with nothing against it, is "
                "accepted",
                applies=_accepted(partisan, accepted),
                effect=Notice.ACCEPTED,
            )
        )
    return tuple(out)


NOTICE: Table[NoticeFacts, Notice] = Table(
    "notice",
    "a notice of candidacy: is it accepted, and if not, on what ground?",
    _notice_rules(),
    facts=_notice_facts,
)

#: what the ruling on a notice the ``notice`` table refuses says, by its finding ({name}: who
#: filed; {verb}: how a departed candidate left; {party}, {primary}: the party named and the
#: primary's; {fee}, {owed}: the amounts, {what}: the fee owed, in :data:`FEE_OWED`'s words;
#: {windows}: the filing periods, each with its kind and times)
NOTICE_WORDS: dict[Notice, str] = {
    Notice.DUPLICATE: "{name} has already filed for this office",
    Notice.DEPARTED: "{name} {verb} and cannot file again",
    Notice.OTHER_OFFICE: (
        "{name} has a notice of candidacy for another office at this election that was not "
        "withdrawn first"
    ),
    Notice.WRONG_PARTY: "{name} filed as {party} in the {primary} primary",
    Notice.FEE_SHORT: "{name} paid ${fee}, less than {what} of ${owed}",
    Notice.ELECTION_DAY: "{name} was listed on or after election day",
    Notice.OUTSIDE_PERIOD: "{name}'s notice came outside every filing period ({windows})",
}
#: a notice for one office refused because one for another came at the same moment
AT_THE_SAME_MOMENT = (
    "{name} filed notices of candidacy for two offices at this election at the same moment: "
    "neither came first, and a person may file for only one"
)
#: the fee a short payment is measured against: the fee the governing board fixed, or, where it
#: fixed none, the minimum
FEE_OWED = {True: "the filing fee", False: "the minimum filing fee"}

#: an opening or close of the filing period that would end it before it begins ({why}: one of
#: the two below; {opens}, {closes}: the period as it stays)
OUT_OF_ORDER = (
    "{why}: a period cannot end before it begins, so this has no effect and the period stays "
    "from {opens:%Y-%m-%d %H:%M} to {closes:%Y-%m-%d %H:%M}"
)
#: the reason that ruling gives
OUT_OF_ORDER_REASON = "filing period out of order"
OPENS_AFTER_IT_CLOSED = (
    "the filing period was said to open after it closed ({closes:%Y-%m-%d %H:%M})"
)
CLOSES_BEFORE_IT_OPENED = (
    "the filing period was said to close before it opened ({opens:%Y-%m-%d %H:%M})"
)


# --- the close of filing: is a primary held? G.S. 163-110, 163-294(a) --------------------------


class Primary(StrEnum):
    """What the close of filing does to a primary."""

    HELD = "held"  # the contest goes on to the ballot
    PARTY_NOMINEES = "party_nominees"  # 163-110: no primary, the candidates are the nominees
    NOMINATED = "nominated"  # 163-294(a): no primary, the candidates are nominated


@attrs.frozen
class CloseFacts:
    party: bool  # a party primary (otherwise a nonpartisan primary)
    few: bool  # no more candidates than places (party) or than two per seat (nonpartisan)


def _close_facts() -> Iterator[CloseFacts]:
    for party, few in itertools.product((False, True), (False, True)):
        yield CloseFacts(party, few)


CLOSE: Table[CloseFacts, Primary] = Table(
    "filing-close",
    "filing has closed for a primary: is the primary held, or are the candidates nominated?",
    (
        Rule(
            id="party-no-primary",
            cite="163-110",
            summary="no more candidates than places in a party primary: no primary is held and "
            "they are the party's nominees",
            applies=lambda f: f.party and f.few,
            effect=Primary.PARTY_NOMINEES,
        ),
        Rule(
            id="party-primary-held",
            cite="163-110",
            summary="more candidates than places in a party primary: the primary is held",
            applies=lambda f: f.party and not f.few,
            effect=Primary.HELD,
        ),
        Rule(
            id="nonpartisan-no-primary",
            cite="163-294(a)",
            summary="at most two candidates per seat in a nonpartisan primary: no primary is held "
            "and they are nominated",
            applies=lambda f: not f.party and f.few,
            effect=Primary.NOMINATED,
        ),
        Rule(
            id="nonpartisan-primary-held",
            cite="163-294(a)",
            summary="more than two candidates per seat in a nonpartisan primary: the primary is "
            "held",
            applies=lambda f: not f.party and not f.few,
            effect=Primary.HELD,
        ),
    ),
    facts=_close_facts,
)

#: what the rulings at the close of filing say where no primary is held, by the
#: ``filing-close`` table's finding: the primary not held ({count} candidates for {places}
#: places), then who is nominated
NO_PRIMARY_WORDS: dict[Primary, tuple[str, str]] = {
    Primary.PARTY_NOMINEES: (
        "{count} candidate(s) for {places} place(s): no primary is held",
        "declared the party's nominee(s) when filing closed",
    ),
    Primary.NOMINATED: (
        "{count} candidate(s) for {places} seat(s): at most two per seat, so no primary is held",
        "declared nominated without a primary",
    ),
}
#: who is certified when a reopened period closes: where nobody filed (163-112(a), (c)), and
#: otherwise as at any close (163-110; {count} candidates for {places} places)
NOBODY_FILED_WHILE_REOPENED = (
    "nobody filed while filing was reopened: the remaining candidate(s) are certified as the "
    "party's nominee(s)"
)
AT_THE_REOPENED_CLOSE = (
    "{count} candidate(s) for {places} place(s) when the reopened period closed: declared the "
    "party's nominee(s)"
)


# --- extending filing: G.S. 163-294.4(a) ---------------------------------------------------------


class Extension(StrEnum):
    """Whether the board may extend filing (a refusal's value is the reason users see)."""

    EXTENDED = "extended"
    PARTISAN = "partisan election"
    NOT_EXPIRED = "filing period not expired"
    ALL_FILLED = "every office has candidates"
    MOVED_ON = "filing no longer extendable"
    FIVE_DAYS_PASSED = "five days passed"


#: why the board cannot extend filing, in words, for each refusal ({phase}: where the contest
#: stands; {ends}: when the five days after the close ended)
EXTENSION_REFUSED: dict[Extension, str] = {
    Extension.PARTISAN: "163-294.4(a) applies only to nonpartisan elections",
    Extension.NOT_EXPIRED: "the filing period has not yet expired",
    Extension.ALL_FILLED: "candidates filed for all offices to be filled",
    Extension.MOVED_ON: "the contest has moved on ({phase})",
    Extension.FIVE_DAYS_PASSED: "the five days after the close ended {ends}",
}
#: what the ruling that refuses an extension says ({why}: its refusal's words, above)
CANNOT_EXTEND = "the board cannot extend filing: {why}"


@attrs.frozen
class ExtensionFacts:
    partisan: bool  # a party contest
    expired: bool  # the filing period had closed when the board acted
    all_filled: bool  # at the close, as many candidates filed as there are offices
    moved_on: bool  # the contest is past the ballot (and is not a primary the close cancelled)
    late: bool  # the five days after the close had ended


def _extension_facts() -> Iterator[ExtensionFacts]:
    for combo in itertools.product(*([(False, True)] * 5)):
        yield ExtensionFacts(*combo)


_EXT_ORDER: tuple[tuple[Extension, str, Any], ...] = (
    (Extension.PARTISAN, "163-294.4(a) speaks of nonpartisan elections", lambda f: f.partisan),
    (Extension.NOT_EXPIRED, "only an expired filing period is extended", lambda f: not f.expired),
    (
        Extension.ALL_FILLED,
        "filing is extended only when candidates have not filed for every office",
        lambda f: f.all_filled,
    ),
    (
        Extension.MOVED_ON,
        "the contest has moved past the ballot: nothing is left to extend",
        lambda f: f.moved_on,
    ),
    (
        Extension.FIVE_DAYS_PASSED,
        "the extension runs five days from the close (the day-counting reading): the board acts "
        "within them",
        lambda f: f.late,
    ),
)


def _only(ground: Any, earlier: list[Any]) -> Any:
    return lambda f: ground(f) and not any(x(f) for x in earlier)


def _extension_rules() -> tuple[Rule[ExtensionFacts, Extension], ...]:
    out: list[Rule[ExtensionFacts, Extension]] = []
    for i, (effect, summary, ground) in enumerate(_EXT_ORDER):
        earlier = [g for _, _, g in _EXT_ORDER[:i]]
        out.append(
            Rule(
                id=f"extension-{effect.name.lower().replace('_', '-')}",
                cite="163-294.4(a)",
                summary=summary,
                applies=_only(ground, earlier),
                effect=effect,
            )
        )
    grounds = tuple(g for _, _, g in _EXT_ORDER)
    out.append(
        Rule(
            id="filing-extended",
            cite="163-294.4(a)",
            summary="candidates have not filed for every office of a nonpartisan election whose "
            "filing period expired: filing is extended for five days",
            applies=lambda f: not any(g(f) for g in grounds),
            effect=Extension.EXTENDED,
        )
    )
    return tuple(out)


EXTENSION: Table[ExtensionFacts, Extension] = Table(
    "filing-extension",
    "the board extends filing: may it, under 163-294.4(a)?",
    _extension_rules(),
    facts=_extension_facts,
)

#: what the ruling that extends filing says ({ends}: when the extension ends)
EXTENDED = "candidates have not filed for every office: filing is extended to {ends:%Y-%m-%d %H:%M}"


# --- the provision of a filing period: G.S. 163-291(2), 163-294.2(c), 163-106(e), 163-294.2(d) ---


class FilingAct(StrEnum):
    """What the provision governs."""

    NOTICE = "notice"  # the filing period and its notices of candidacy
    WITHDRAWAL = "withdrawal"  # a candidate withdrawing while filing is open


@attrs.frozen
class FilingLawFacts:
    partisan: bool  # a party contest (its candidates file for the party primary)
    withdrawal: bool  # the question is a withdrawal while filing is open


def _filing_law_facts() -> Iterator[FilingLawFacts]:
    for partisan, withdrawal in itertools.product((False, True), (False, True)):
        yield FilingLawFacts(partisan, withdrawal)


FILING_LAW: Table[FilingLawFacts, FilingAct] = Table(
    "filing-law",
    "a contest's filing period: which provision governs its notices, or a withdrawal while it "
    "is open?",
    (
        Rule(
            id="party-filing",
            cite="163-291(2)",
            summary="the candidates of a party's municipal primary file their notices within the "
            "period 163-291(2) sets",
            applies=lambda f: f.partisan and not f.withdrawal,
            effect=FilingAct.NOTICE,
        ),
        Rule(
            id="nonpartisan-filing",
            cite="163-294.2(c)",
            summary="the candidates of a nonpartisan municipal election file their notices within "
            "the period 163-294.2(c) sets",
            applies=lambda f: not f.partisan and not f.withdrawal,
            effect=FilingAct.NOTICE,
        ),
        Rule(
            id="party-withdrawal",
            cite="163-106(e)",
            summary="a candidate in a party primary may withdraw the notice until the third "
            "business day before filing closes; a name withdrawn in time is not printed",
            applies=lambda f: f.partisan and f.withdrawal,
            effect=FilingAct.WITHDRAWAL,
        ),
        Rule(
            id="nonpartisan-withdrawal",
            cite="163-294.2(d)",
            summary="a candidate in a nonpartisan election may withdraw the notice at any time "
            "before the filing deadline",
            applies=lambda f: not f.partisan and f.withdrawal,
            effect=FilingAct.WITHDRAWAL,
        ),
    ),
    facts=_filing_law_facts,
)


def filing_cite(*, partisan: bool, withdrawal: bool = False) -> Cite:
    """The citation of the ``filing-law`` table's rule for a contest (``partisan``: a party
    contest) and a notice or, with ``withdrawal``, a withdrawal while filing is open."""
    rule = FILING_LAW.evaluate(FilingLawFacts(partisan, withdrawal)).rule
    assert rule is not None  # every combination has its rule (tests/law/test_filing_rules.py)
    return statute(rule.cite)


#: Every filing table, for ``electsim gaps`` and ``electsim cite``.
TABLES: tuple[Table[Any, Any], ...] = (FEE_BOUNDS, FEE, NOTICE, CLOSE, EXTENSION, FILING_LAW)

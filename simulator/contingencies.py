"""What follows when a candidate dies, withdraws or is disqualified: a table of rules.

Each :class:`Rule` names its citation, the facts it reads (a :class:`Facts` value), its
condition and its effects. :func:`evaluate` finds the rules that apply: exactly one is the ruling;
none is a gap (``no_provision``, with the fallback the engine uses); several are settled by the
declared priority (the more specific subsection first) and shown. The rules do no I/O and read no
clock, so :func:`gaps` can explore every combination of facts and list the gaps the law leaves.

Statutes: G.S. 163-112 (partisan primaries, applied by 163-294.1(b)), 163-294.1 (nonpartisan
primaries and elections, elected persons), 163-294.4 (nonpartisan elections), 163-114 (party
nominees; only partly available: the row for municipal offices was not seen, so "the party
executive committee" is modeled without naming which one), 08 NCAC 06B .0104 (reprinting for
party nominees), 163-106(e) (withdrawal deadline for party candidates, known only as quoted).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

import attrs

from simulator.law import NCAC_LATE_CHANGES, Cite, gs
from simulator.vocab import Method, Stage

DIED, WITHDREW, DISQUALIFIED = "died", "withdrew", "disqualified"
DURING_FILING, BEFORE_ELECTION, ELECTION_OR_AFTER = "filing", "before_election", "election_or_after"


@attrs.frozen
class Facts:
    """The facts the contingency rules read. All plain values, no clock."""

    method: Method
    stage: Stage
    what: str  # died | withdrew | disqualified
    when: str  # filing | before_election | election_or_after
    seats: int = 1
    filed_at_close: int = 2  # candidates standing when the original filing period closed
    remaining: int = 1  # candidates still standing after this one leaves
    within_30_by_death: bool = False  # 163-112: death no later than day 30 after the close
    within_30_by_notice: bool = False  # 163-112(b): notice no later than day 30
    printed_at_death: bool = False
    printed_at_notice: bool = False
    reprint: bool | None = None  # the board's determination, None when none was made
    nominee: bool = False  # a party nominee (primary decided)
    elected: bool = False  # declared elected (or would be at the canvass)
    sworn: bool = False
    withdrawal_as_death: bool = True  # SPEC reading 7
    late_notice_by_death: bool = True  # SPEC reading 8

    @property
    def group(self) -> bool:
        return self.seats > 1

    @property
    def partisan_primary(self) -> bool:
        return self.method is Method.PARTISAN and self.stage is Stage.PRIMARY

    @property
    def nonpartisan_primary(self) -> bool:
        return self.method is Method.PRIMARY and self.stage is Stage.PRIMARY

    @property
    def nonpartisan_election(self) -> bool:
        return self.method is not Method.PARTISAN and not self.nonpartisan_primary

    @property
    def within_30(self) -> bool:
        """163-112(b) first paragraph counts from the notice; reading 8 fills the gap."""
        if self.within_30_by_notice:
            return True
        return self.within_30_by_death and self.late_notice_by_death

    @property
    def after_30(self) -> bool:
        """Past the 30 days of 163-112(b): for more than two candidates the first paragraph's
        notice test decides (with reading 8); otherwise the death date does."""
        if not self.group and self.filed_at_close > 2:
            return not self.within_30
        return not self.within_30_by_death

    @property
    def reading_8_gap(self) -> bool:
        return self.within_30_by_death and not self.within_30_by_notice


# Effects are plain data the engine applies.
@attrs.frozen
class Effect:
    kind: str  # reopen | name_removed | name_remains | not_counted | certify | cancel_primary
    #            | party_to_nominate | vacant_if_elected | vacant_now | replacement_votes
    cite: Cite
    days: int = 0
    text: str = ""


@attrs.frozen
class Rule:
    id: str
    cite: Cite
    summary: str
    applies: Callable[[Facts], bool]
    effects: Callable[[Facts], tuple[Effect, ...]]
    priority: int = 50  # lower wins when several apply


def _e(kind: str, cite: Cite, days: int = 0, text: str = "") -> Effect:
    return Effect(kind, cite, days, text)


def _offish(f: Facts) -> bool:
    """163-294.1(b): a withdrawal counts with death and disqualification (reading 7)."""
    return f.what != WITHDREW or f.withdrawal_as_death


def _printing(f: Facts, cite: Cite, at_notice: bool = True) -> tuple[Effect, ...]:
    printed = f.printed_at_notice if at_notice else f.printed_at_death
    if printed and f.reprint is not True:
        return (_e("name_remains", cite),)
    return (_e("name_removed", cite),)


G112 = "163-112"
RULES: tuple[Rule, ...] = (
    # --- during the filing period: the candidacy simply ends ---
    Rule("filing-withdrawal", gs("163-294.2", "(d)"),
         "withdrawal while filing is open: the notice of candidacy is withdrawn",
         lambda f: f.when == DURING_FILING,
         lambda f: (_e("name_removed", gs("163-106", "(e)") if f.method is Method.PARTISAN
                       else gs("163-294.2", "(d)")),),
         priority=1),
    # --- partisan primaries: G.S. 163-112 (via 163-294.1(b)) ---
    Rule("112a", gs(G112, "(a)"),
         "one of two candidates dies within 30 days after filing closes: reopen 3 days",
         lambda f: f.partisan_primary and f.when == BEFORE_ELECTION and not f.nominee
         and not f.group and f.filed_at_close == 2 and f.within_30_by_death
         and f.what != WITHDREW,
         lambda f: (_e("name_removed", gs(G112, "(a)")), _e("reopen", gs(G112, "(a)"), 3),
                    _e("certify_if_none", gs(G112, "(a)"))),
         priority=10),
    Rule("112b-within", gs(G112, "(b)"),
         "more than two candidates, notice within 30 days: reopen 3 days, name not printed",
         lambda f: f.partisan_primary and f.when == BEFORE_ELECTION and not f.nominee
         and not f.group and f.filed_at_close > 2 and f.within_30 and f.what != WITHDREW,
         lambda f: ((_e("no_provision", gs(G112, "(b)"), text="reading8"),) if f.reading_8_gap
                    else ()) + (_e("name_removed", gs(G112, "(b)")),
                                _e("reopen", gs(G112, "(b)"), 3)),
         priority=10),
    Rule("112b-after-one-left", gs(G112, "(b)"),
         "a death after day 30 leaves one candidate: certified as nominee",
         lambda f: f.partisan_primary and f.when == BEFORE_ELECTION and not f.nominee
         and not f.group and f.after_30 and f.remaining == 1
         and f.what != WITHDREW,
         lambda f: (_e("certify", gs(G112, "(b)")),),
         priority=5),
    Rule("112b-after", gs(G112, "(b)"),
         "a death after day 30: remaining names printed; if printed, no reprint, votes not counted",
         lambda f: f.partisan_primary and f.when == BEFORE_ELECTION and not f.nominee
         and not f.group and f.after_30 and f.remaining >= 2
         and f.what != WITHDREW,
         lambda f: ((_e("name_remains", gs(G112, "(b)")), _e("not_counted", gs(G112, "(b)")))
                    if f.printed_at_death else (_e("name_removed", gs(G112, "(b)")),)),
         priority=10),
    Rule("112c", gs(G112, "(c)"),
         "group: a death within 30 days leaves no more candidates than seats: reopen 3 days",
         lambda f: f.partisan_primary and f.when == BEFORE_ELECTION and not f.nominee
         and f.group and f.within_30_by_death and f.remaining <= f.seats
         and f.what != WITHDREW,
         lambda f: (_e("name_removed", gs(G112, "(c)")), _e("reopen", gs(G112, "(c)"), 3),
                    _e("certify_if_none", gs(G112, "(c)"))),
         priority=10),
    Rule("112d12", gs(G112, "(d)(1)"),
         "group: a death after day 30: name left off, or if printed, votes not counted",
         lambda f: f.partisan_primary and f.when == BEFORE_ELECTION and not f.nominee
         and f.group and not f.within_30_by_death and f.remaining > f.seats
         and f.what != WITHDREW,
         lambda f: ((_e("name_remains", gs(G112, "(d)(2)")),
                     _e("not_counted", gs(G112, "(d)(2)")))
                    if f.printed_at_notice else (_e("name_removed", gs(G112, "(d)(1)")),)),
         priority=10),
    Rule("112d34", gs(G112, "(d)(3)"),
         "group: deaths after day 30 leave no more candidates than seats: no primary",
         lambda f: f.partisan_primary and f.when == BEFORE_ELECTION and not f.nominee
         and f.group and not f.within_30_by_death and f.remaining <= f.seats
         and f.what != WITHDREW,
         lambda f: (_e("certify", gs(G112, "(d)(3)")),)
         + ((_e("party_to_nominate", gs(G112, "(d)(4)")),) if f.remaining < f.seats else ()),
         priority=5),
    Rule("106e", gs("163-106", "(e)"),
         "a party candidate who withdraws after the filing deadline stays on the ballot and "
         "votes for them count",
         lambda f: f.partisan_primary and f.when == BEFORE_ELECTION and not f.nominee
         and f.what == WITHDREW and not f.printed_at_notice,
         lambda f: (_e("name_remains", gs("163-106", "(e)")),),
         priority=10),
    Rule("2941b-partisan-printed", gs("163-294.1", "(b)"),
         "a party candidate who withdraws after the ballots are printed: 163-112 governs",
         lambda f: f.partisan_primary and f.when == BEFORE_ELECTION and not f.nominee
         and f.what == WITHDREW and f.printed_at_notice,
         lambda f: (_e("name_remains", gs("163-294.1", "(b)")),
                    _e("not_counted", gs(G112, "(b)"))),
         priority=10),
    Rule("2941b-nominee", gs("163-294.1", "(b)"),
         "a party nominee leaves before election day: the vacancy is filled under 163-114",
         lambda f: f.method is Method.PARTISAN and f.when != DURING_FILING
         and (f.nominee or (f.stage is Stage.ELECTION and f.when == BEFORE_ELECTION)),
         lambda f: (_e("party_to_nominate", gs("163-114")),)
         + (() if f.stage is Stage.PRIMARY
            else (_e("replacement_votes", NCAC_LATE_CHANGES),) if f.printed_at_notice
            and f.reprint is not True else (_e("name_removed", NCAC_LATE_CHANGES),)),
         priority=3),
    # --- nonpartisan primaries: G.S. 163-294.1(b), second paragraph ---
    Rule("2941b-two-left", gs("163-294.1", "(b)"),
         "only two candidates per seat remain: no primary, all nominated",
         lambda f: f.nonpartisan_primary and f.when == BEFORE_ELECTION and _offish(f)
         and f.remaining <= 2 * f.seats,
         lambda f: (_e("cancel_primary", gs("163-294.1", "(b)")),),
         priority=5),
    Rule("2941b-primary", gs("163-294.1", "(b)"),
         "nonpartisan primary: no time to reprint: name remains, its votes are disregarded",
         lambda f: f.nonpartisan_primary and f.when == BEFORE_ELECTION
         and (f.remaining > 2 * f.seats or not _offish(f)),
         lambda f: _printing(f, gs("163-294.1", "(b)")),
         priority=10),
    # --- nonpartisan elections: G.S. 163-294.4 and 163-294.1(b) ---
    Rule("2944b", gs("163-294.4", "(b)"),
         "only two filed (or as many as seats) and one dies before printing: reopen 5 days; "
         "after printing with time to reprint: reopen 3 days",
         lambda f: f.nonpartisan_election and f.when == BEFORE_ELECTION and f.what == DIED
         and f.filed_at_close == (f.seats if f.group else 2)
         and (not f.printed_at_notice or f.reprint is True),
         lambda f: (_e("name_removed", gs("163-294.4", "(b)")),
                    _e("reopen", gs("163-294.4", "(b)"), 3 if f.printed_at_notice else 5)),
         priority=10),
    Rule("2944c", gs("163-294.4", "(c)"),
         "printed, no time to reprint: the dead candidate's name remains",
         lambda f: f.nonpartisan_election and f.when == BEFORE_ELECTION and f.what == DIED
         and f.printed_at_notice and f.reprint is not True,
         lambda f: (_e("name_remains", gs("163-294.4", "(c)")),
                    _e("vacant_if_elected", gs("163-294.4", "(c)"))),
         priority=10),
    Rule("2944-unprinted", gs("163-294.4", "(b)"),
         "ballots not printed (or reprinted): the dead candidate's name is left off",
         lambda f: f.nonpartisan_election and f.when == BEFORE_ELECTION and f.what == DIED
         and f.filed_at_close != (f.seats if f.group else 2)
         and (not f.printed_at_notice or f.reprint is True),
         lambda f: (_e("name_removed", gs("163-294.4", "(b)")),),
         priority=10),
    Rule("2941b-election", gs("163-294.1", "(b)"),
         "withdrawal or disqualification before a nonpartisan election",
         lambda f: f.nonpartisan_election and f.when == BEFORE_ELECTION and f.what != DIED,
         lambda f: _printing(f, gs("163-294.1", "(b)"))
         + ((_e("vacant_if_elected", gs("163-294.1", "(b)")),)
            if f.printed_at_notice and f.reprint is not True else ()),
         priority=10),
    # --- on or after election day: G.S. 163-294.1(c), (d) ---
    Rule("2941c", gs("163-294.1", "(c)"),
         "an elected person leaves before taking the oath: the office is vacant",
         lambda f: f.when == ELECTION_OR_AFTER and not f.sworn
         and f.stage is Stage.ELECTION,
         lambda f: (_e("vacant_if_elected", gs("163-294.1", "(c)")),),
         priority=10),
    Rule("2941d", gs("163-294.1", "(d)"),
         "an officer who has taken the oath leaves: a vacancy filled under 160A-63",
         lambda f: f.when == ELECTION_OR_AFTER and f.sworn,
         lambda f: (_e("vacant_now", gs("163-294.1", "(d)")),),
         priority=5),
)


@attrs.frozen
class Finding:
    """The result of evaluating the table for one set of facts."""

    rules: tuple[Rule, ...]  # the rules that applied, the winning one first

    @property
    def rule(self) -> Rule | None:
        return self.rules[0] if self.rules else None

    @property
    def gap(self) -> bool:
        return not self.rules


def evaluate(facts: Facts) -> Finding:
    """Every rule that applies, the declared priority first (lower number wins)."""
    hits = sorted((r for r in RULES if r.applies(facts)), key=lambda r: r.priority)
    return Finding(tuple(hits))


def fallback(facts: Facts) -> tuple[Effect, ...]:
    """What the engine does where no rule applies (said in a ``no_provision`` ruling)."""
    if facts.when == ELECTION_OR_AFTER and facts.stage is Stage.PRIMARY:
        # after the primary day and before the result: the candidate cannot be nominated
        return (_e("name_remains", gs("163-294.1", "(b)")),)
    if facts.when == ELECTION_OR_AFTER:
        return (_e("vacant_if_elected", gs("163-294.1", "(c)")),)
    if facts.partisan_primary and facts.group:
        # 163-112(c) covers deaths within 30 days only when they leave seats or fewer;
        # treat the name as (d)(1)/(d)(2) do.
        return _printing(facts, gs(G112, "(d)"))
    return _printing(facts, gs("163-294.1", "(b)"))


GAP_NOTES = {
    "reading8": "A death within 30 days whose notice came after day 30: 163-112(b) counts "
    "its first paragraph from the notice and its second from the death; SPEC reading 8 lets the "
    "death date decide.",
}


def all_facts() -> Iterator[Facts]:
    """Every combination of the facts the rules read (a few thousand), for :func:`gaps`."""
    for method, stage in (
        (Method.PARTISAN, Stage.PRIMARY),
        (Method.PARTISAN, Stage.ELECTION),
        (Method.PRIMARY, Stage.PRIMARY),
        (Method.PRIMARY, Stage.ELECTION),
        (Method.PLURALITY, Stage.ELECTION),
        (Method.RUNOFF, Stage.ELECTION),
    ):
        for what, when, seats in itertools.product(
            (DIED, WITHDREW, DISQUALIFIED), (DURING_FILING, BEFORE_ELECTION, ELECTION_OR_AFTER),
            (1, 2),
        ):
            for filed in range(1, 2 * seats + 3):
                for w30d, w30n, pd, pn, rep, nominee, sworn in itertools.product(
                    (False, True), (False, True), (False, True), (False, True),
                    (None, False, True), (False, True), (False, True),
                ):
                    if w30n and not w30d:
                        continue  # the notice cannot come before the death
                    if pd and not pn:
                        continue  # printed at the death means printed at the notice
                    if sworn and when != ELECTION_OR_AFTER:
                        continue
                    partisan_primary = method is Method.PARTISAN and stage is Stage.PRIMARY
                    if nominee and not partisan_primary:
                        continue
                    if partisan_primary and when == BEFORE_ELECTION and (
                        nominee != (filed <= seats)
                    ):
                        continue  # at or below the seats, 163-110 certified them at the close
                    if method is Method.PRIMARY and stage is Stage.PRIMARY and (
                        filed <= 2 * seats and when != DURING_FILING
                    ):
                        continue  # no primary was held (163-294(a))
                    yield Facts(method, stage, what, when, seats, filed, max(filed - 1, 0),
                                w30d, w30n, pd, pn, rep, nominee, False, sworn)


@attrs.frozen
class Gap:
    facts: Facts
    note: str


def gaps() -> list[Gap]:
    """Every combination of facts where no rule applies, or a rule reports a gap itself."""
    out: list[Gap] = []
    for f in all_facts():
        finding = evaluate(f)
        if finding.gap:
            out.append(Gap(f, "no rule applies; fallback: "
                           + ", ".join(e.kind for e in fallback(f))))
            continue
        assert finding.rule is not None
        for e in finding.rule.effects(f):
            if e.kind == "no_provision":
                out.append(Gap(f, GAP_NOTES.get(e.text, e.text)))
    return out

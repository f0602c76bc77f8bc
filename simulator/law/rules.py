"""Rule tables with Catala's semantics, evaluated at run time.

A :class:`Table` answers one legal question. Each :class:`Rule` reads a frozen facts value,
carries one citation string (``"163-294.4(c)"``, so that ``grep`` finds it), a condition and a
typed effect. :meth:`Table.evaluate` finds every rule whose condition holds:

- exactly one: that rule is the ruling;
- several, and one is declared an exception to every other (``exception_to``: the text makes it
  the more specific provision): it wins, and the others are shown beside it, the nearer
  exceptions first;
- several without such a priority: a **conflict**. The table names it (:class:`Conflict`): the
  provisions involved, what the text leaves open and the fallback the simulator uses;
- none: a **gap** (:class:`Gap`), named the same way.

The facts a table reads take a small, finite set of values (:attr:`Table.facts` enumerates them),
so a table is also a lookup from facts to finding: each finding is worked out rule by rule once
(:meth:`Table.find`, the reference) and looked up after; :meth:`Table.compile` fills the lookup
for every combination at once, and a test checks it against the rules on every one.

A table reads as the law does: the general rule first, then its exceptions, each naming the rule
it departs from. An effect is any value: a table whose effect depends on the facts (the departures
table) gives a function of them, and a gap's fallback may be one too (:meth:`Gap.fallback_for`).

A conflict and a gap both produce a ``no_provision`` ruling (a conflict is marked so in its
``extra``). Where the fallback is one reading among others, the gap or conflict lists the others
(:class:`Reading`), each chosen by a setting of a scenario's ``interpretations:``; the default
fallback stays the one the gap or conflict names. A conflict or a gap the table does not name is
reported as such, with the table's default fallback; the tests explore every table's facts
(:meth:`Table.explore`) so that none is left unnamed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from enum import StrEnum
from typing import Any, Generic, TypeVar

import attrs

from simulator.law.cite import Cite, joined, statute
from simulator.law.readings import named

FactT = TypeVar("FactT")
EffectT = TypeVar("EffectT")


def _rule_ids(ids: str | Iterable[str]) -> tuple[str, ...]:
    """One rule id or several, as a tuple."""
    return (ids,) if isinstance(ids, str) else tuple(ids)


class Verdict(StrEnum):
    RULED = "ruled"  # one rule applies
    PRIORITY = "priority"  # several apply; the declared more specific one wins
    CONFLICT = "conflict"  # several apply and disagree, no priority settles them
    GAP = "gap"  # none applies


#: what a ``no_provision`` ruling says, the one wording of every gap and conflict a ruling names
#: ({asked}: what was asked, in the facts' words, the table's :attr:`Table.asked` filled;
#: {head}: :data:`NO_PROVISION_HEAD`'s, or what a gap's own ruling says of it; {fallback}: what
#: the simulator does; {choices}: the gap's or conflict's id and its other readings)
NO_PROVISION = "{asked}: {head}; the simulator falls back to this: {fallback}. {choices}"
#: what the text leaves ({open}), by the verdict
NO_PROVISION_HEAD: dict[Verdict, str] = {
    Verdict.CONFLICT: "the provisions that reach these facts collide ({open})",
    Verdict.GAP: "no provision covers these facts ({open})",
}


@attrs.frozen(kw_only=True)
class Rule(Generic[FactT, EffectT]):
    """One provision: its id (words), its citation (one string), a one-line summary in our own
    words, the facts it covers and its effect, each given by name."""

    id: str
    cite: str  # "163-293(b)(1)"
    summary: str
    applies: Callable[[FactT], bool]
    effect: EffectT
    #: the rules this one is an exception to, prevailing where both apply (only where the text
    #: makes it the more specific provision: say why in ``summary``); one id or several
    exception_to: tuple[str, ...] = attrs.field(default=(), converter=_rule_ids)

    @property
    def cites(self) -> tuple[Cite, ...]:
        return (statute(self.cite),)


@attrs.frozen
class Reading(Generic[EffectT]):
    """Another fallback for a gap or a conflict, chosen by an interpretation switch."""

    switch: str  # the interpretation's name (under ``interpretations:``)
    setting: StrEnum  # the setting that chooses this fallback (the reading's enum member)
    fallback: str
    effect: EffectT
    #: a provision the reading applies beyond those the gap or conflict names (one string)
    cite: str = ""

    @property
    def value(self) -> str:
        """The setting as a scenario writes it."""
        return self.setting.value


@attrs.frozen
class Gap(Generic[FactT, EffectT]):
    """Facts no rule of the table covers: the nearest provisions, what they leave open, and the
    fallback the simulator uses."""

    id: str
    near: tuple[str, ...]
    open: str
    #: what the simulator does instead, in words (a function of the facts where it varies)
    fallback: str | Callable[[FactT], str]
    applies: Callable[[FactT], bool]
    effect: EffectT
    readings: tuple[Reading[EffectT], ...] = ()
    #: where the facts themselves carry another reading than the default (a table that reads
    #: its switches as facts): that reading's setting on these facts, or "" for the default
    reading_for: Callable[[FactT], str] | None = None

    @property
    def cites(self) -> tuple[Cite, ...]:
        return tuple(statute(c) for c in self.near)

    @property
    def cite(self) -> str:
        """The nearest provisions as one string (``G.S. 163-112(b); G.S. 163-114``)."""
        return joined(self.cites)

    def fallback_for(self, facts: FactT) -> str:
        """The fallback on these facts, in words."""
        return self.fallback if isinstance(self.fallback, str) else self.fallback(facts)


@attrs.frozen
class Conflict(Generic[FactT, EffectT]):
    """Two or more rules that apply together and disagree, with no priority between them."""

    id: str
    rules: frozenset[str]  # the ids of the colliding rules
    open: str
    fallback: str
    effect: EffectT
    readings: tuple[Reading[EffectT], ...] = ()


@attrs.frozen
class Finding(Generic[FactT, EffectT]):
    """The result of evaluating a table on one set of facts."""

    verdict: Verdict
    effect: EffectT
    rules: tuple[Rule[FactT, EffectT], ...] = ()  # the rules that applied, the winner first
    gap: Gap[FactT, EffectT] | None = None
    conflict: Conflict[FactT, EffectT] | None = None
    reading: Reading[EffectT] | None = None  # a switch chose this fallback over the default
    facts: FactT | None = None  # the facts evaluated

    @property
    def rule(self) -> Rule[FactT, EffectT] | None:
        return self.rules[0] if self.verdict in (Verdict.RULED, Verdict.PRIORITY) else None

    @property
    def others(self) -> tuple[Rule[FactT, EffectT], ...]:
        """Rules that also applied (gave way to the winner, or collided)."""
        return self.rules[1:] if self.rule is not None else self.rules

    @property
    def no_provision(self) -> bool:
        return self.verdict in (Verdict.CONFLICT, Verdict.GAP)

    @property
    def id(self) -> str:
        if self.conflict is not None:
            return self.conflict.id
        if self.gap is not None:
            return self.gap.id
        return self.rules[0].id

    @property
    def near(self) -> tuple[str, ...]:
        """The provisions a no_provision ruling names (for a ruling: the winner's citation)."""
        extra = (self.reading.cite,) if self.reading is not None and self.reading.cite else ()
        if self.gap is not None:
            return (*self.gap.near, *extra)
        return tuple(dict.fromkeys((*(r.cite for r in self.rules), *extra)))

    @property
    def cites(self) -> tuple[Cite, ...]:
        return tuple(statute(c) for c in self.near)

    @property
    def open(self) -> str:
        if self.conflict is not None:
            return self.conflict.open
        return self.gap.open if self.gap is not None else ""

    @property
    def fallback(self) -> str:
        if self.reading is not None:
            return f"{self.reading.fallback} {named(self.reading.switch, self.reading.value)}"
        if self.conflict is not None:
            return self.conflict.fallback
        if self.gap is None:
            return ""
        if self.facts is None:
            return self.gap.fallback if isinstance(self.gap.fallback, str) else ""
        return self.gap.fallback_for(self.facts)

    def note(self) -> str:
        """For a ruling settled by priority: the provisions that gave way, in words (by their
        citations: a ruling never quotes a rule's id)."""
        if self.verdict is not Verdict.PRIORITY or self.rule is None:
            return ""
        cite = self.rule.cite
        # a rule is named by its provision (never by its id, which is the code's own name); a
        # more general rule of the same provision is called so
        others = ", ".join(
            f"a more general rule of {statute(r.cite)}" if r.cite == cite else str(statute(r.cite))
            for r in self.others
        )
        shared = any(r.cite == cite for r in self.others)
        return (
            f" [{others} also reach{'es' if len(self.others) == 1 else ''} these facts; the "
            f"more specific {'rule of ' if shared else ''}{statute(cite)} governs]"
        )

    def extra(self) -> dict[str, Any]:
        """What a no_provision ruling carries in ``extra``: the gap id, and for a conflict the
        colliding rules."""
        chosen = {} if self.reading is None else {"reading": self.reading.value}
        gap = self.gap
        if gap is not None and gap.reading_for is not None and self.facts is not None:
            carried = gap.reading_for(self.facts)
            chosen = {"reading": carried} if carried else chosen
        if self.verdict is Verdict.CONFLICT:
            return {
                "gap": self.id,
                "conflict": True,
                "provisions": tuple(r.cite for r in self.rules),
                **chosen,
            }
        return {"gap": self.id, **chosen} if self.gap is not None else {"rule": self.id}


@attrs.frozen
class Table(Generic[FactT, EffectT]):
    """One legal question: its rules, the conflicts and gaps it names, and the facts it reads."""

    name: str
    question: str
    rules: tuple[Rule[FactT, EffectT], ...]
    gaps: tuple[Gap[FactT, EffectT], ...] = ()
    conflicts: tuple[Conflict[FactT, EffectT], ...] = ()
    #: every combination of facts the engine can present (for exploring the table)
    facts: Callable[[], Iterable[FactT]] = tuple
    #: used for a conflict or gap the table does not name (tests keep this unused)
    default: EffectT | None = None
    #: what is asked of the table, in the facts' words: the template a ``no_provision`` ruling
    #: opens with (:data:`NO_PROVISION`'s ``{asked}``), its named fields filled by the engine
    #: with names, votes and moments ("the second highest vote went to {who}")
    asked: str = ""
    #: the table compiled to a lookup: facts -> finding. The rules are pure and the facts frozen
    #: and finite, so a finding is made once, by the rules (:meth:`find`), and looked up after:
    #: filled as facts come (a replay reads few), or for every combination at once by
    #: :meth:`compile` (an exploration reads many)
    _memo: dict[Any, Finding[FactT, EffectT]] = attrs.field(
        factory=dict, init=False, eq=False, repr=False
    )
    _compiled: bool = attrs.field(default=False, init=False, eq=False, repr=False)

    def evaluate(
        self, facts: FactT, *, chosen: Mapping[str, object] | None = None
    ) -> Finding[FactT, EffectT]:
        """The finding on ``facts`` (looked up; found by the rules the first time);
        ``chosen`` (interpretation switches and their settings) picks a gap's or conflict's
        other reading where it lists one."""
        found = self._memo.get(facts)
        if found is None:
            found = self._memo[facts] = self._find(facts)
        if chosen and found.no_provision:
            named = found.conflict if found.conflict is not None else found.gap
            for r in named.readings if named is not None else ():
                if chosen.get(r.switch) == r.setting:
                    return attrs.evolve(found, effect=r.effect, reading=r)
        return found

    def readings(self) -> Iterator[tuple[str, Reading[EffectT]]]:
        """(gap or conflict id, reading) for every other reading the table offers."""
        for gap in self.gaps:
            for r in gap.readings:
                yield gap.id, r
        for conflict in self.conflicts:
            for r in conflict.readings:
                yield conflict.id, r

    def compile(self) -> Mapping[Any, Finding[FactT, EffectT]]:
        """The lookup for every combination of the facts the table reads (:attr:`facts`), made
        once: the findings of the rules, which :meth:`evaluate` then only looks up."""
        if not self._compiled:
            memo = self._memo
            for f in self.facts():
                if f not in memo:
                    memo[f] = self._find(f)
            object.__setattr__(self, "_compiled", True)  # (a cache: the table is frozen)
        return self._memo

    def find(self, facts: FactT) -> Finding[FactT, EffectT]:
        """The finding on ``facts`` worked out rule by rule, never looked up: the reference the
        compiled lookup is checked against."""
        return self._find(facts)

    def _find(self, facts: FactT) -> Finding[FactT, EffectT]:
        hits = [r for r in self.rules if r.applies(facts)]
        if len(hits) == 1:
            return Finding(Verdict.RULED, hits[0].effect, (hits[0],), facts=facts)
        if hits:
            ids = {r.id for r in hits}
            winners = [r for r in hits if ids - {r.id} <= set(r.exception_to)]
            if len(winners) == 1:
                winner = winners[0]
                # the others, the nearer exceptions (those that are exceptions to more) first
                others = sorted(
                    (r for r in hits if r is not winner), key=lambda r: -len(r.exception_to)
                )
                return Finding(Verdict.PRIORITY, winner.effect, (winner, *others), facts=facts)
            for c in self.conflicts:
                if c.rules == ids:
                    return Finding(Verdict.CONFLICT, c.effect, tuple(hits), conflict=c, facts=facts)
            unnamed: Conflict[FactT, EffectT] = Conflict(
                f"{self.name}-unnamed-conflict",
                frozenset(ids),
                "the table names no settlement of these rules",
                f"the first of them, {hits[0].cite}",
                hits[0].effect,
            )
            return Finding(
                Verdict.CONFLICT, hits[0].effect, tuple(hits), conflict=unnamed, facts=facts
            )
        for g in self.gaps:
            if g.applies(facts):
                return Finding(Verdict.GAP, g.effect, gap=g, facts=facts)
        assert self.default is not None, f"table {self.name}: facts outside every rule and gap"
        unnamed_gap: Gap[FactT, EffectT] = Gap(
            f"{self.name}-unnamed-gap",
            tuple(dict.fromkeys(r.cite for r in self.rules)),
            "no rule of the table covers these facts",
            "the table's default",
            lambda f: True,
            self.default,
        )
        return Finding(Verdict.GAP, self.default, gap=unnamed_gap, facts=facts)

    def explore(self) -> Iterator[tuple[FactT, Finding[FactT, EffectT]]]:
        """Every combination of facts with its finding."""
        for f in self.facts():
            yield f, self.evaluate(f)

    def citations(self) -> Iterator[tuple[str, str, str]]:
        """(citation, kind, id) for every rule, gap and conflict of the table."""
        for r in self.rules:
            yield r.cite, "rule", r.id
        for g in self.gaps:
            for c in (*g.near, *(r.cite for r in g.readings if r.cite)):
                yield c, "gap", g.id
        by_id = {r.id: r for r in self.rules}
        for cf in self.conflicts:
            for rid in sorted(cf.rules):
                yield by_id[rid].cite, "conflict", cf.id
            for other in cf.readings:
                if other.cite:
                    yield other.cite, "conflict", cf.id

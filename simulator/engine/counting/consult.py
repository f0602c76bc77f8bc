"""Consulting a law table from the count: the finding, a ``no_provision`` ruling where the law
collides or is silent, and what a ruling on a finding cites."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from simulator.engine.state import Draft
from simulator.law.cite import Cite, statute
from simulator.law.readings import Interpretations
from simulator.law.rules import Finding, Gap, Table, Verdict
from simulator.law.tables import readings_of
from simulator.law.vocab import RulingKind

FactsT = TypeVar("FactsT")
EffectT = TypeVar("EffectT")


def consult(
    d: Draft | None,
    table: Table[FactsT, EffectT],
    facts: FactsT,
    who: Sequence[str] = (),
    context: str = "",
    *,
    readings: bool = True,
    once: bool = True,
) -> Finding[FactsT, EffectT]:
    """Evaluate a table: the one way the engine asks the law a question. Where ``context`` says
    what is asked (``who`` asks it), a conflict or a gap is said in a ``no_provision`` ruling
    naming the provisions, what the text leaves open and the fallback used (a conflict marked in
    extra); without it the answer is only looked up (a question whose gaps another ruling says,
    or a lot already drawn that completes a ruled tie). ``readings=False`` keeps the default
    fallbacks whatever the interpretation switches choose (where the facts leave nobody for
    another reading's ruling to name); ``once=False`` says it again even where this round has
    said it (a departure's ruling, one per departure). Without a draft (``d`` None: a pure
    question whose answer is kept for every count, asked outside one) the answer is only looked
    up, under the default readings."""
    if d is None:
        if context:
            raise ValueError(f"{table.name}: a question asked without a draft has no ruling to say")
        return table.evaluate(facts)
    finding = table.evaluate(facts, chosen=d.ctx.chosen if readings else None)
    if finding.no_provision and context:
        if finding.verdict is Verdict.CONFLICT:
            head = "the provisions that reach these facts collide"
        else:
            head = "no provision covers these facts"
        d.rule(
            RulingKind.NO_PROVISION,
            finding.cites,
            f"{context}: {head} ({finding.open}); the simulator falls back to this: "
            f"{finding.fallback}. {choices(finding)}",
            who,
            once=once,
            **finding.extra(),
        )
    return finding


def choices(finding: Finding[FactsT, EffectT]) -> str:
    """What a ``no_provision`` ruling adds after its fallback: the gap's or conflict's id, as
    ``electsim gaps`` lists it, and each other reading of it with the ``interpretations:`` key
    and value that selects it and what that reading rules (the default's fallback, where a
    switch chose another)."""
    named = finding.conflict or finding.gap
    prefix = "conflict" if finding.conflict is not None else "gap"
    said = f"This is {prefix}:{finding.id}"
    if named is None:
        return said + "."
    chosen = finding.extra().get("reading")
    readings = readings_of(named.id)
    others = [(r.switch, r.value, r.fallback) for r in readings if r.value != chosen]
    if chosen is not None and readings:
        switch = readings[0].switch
        default = Interpretations().setting(switch)
        default_words = named.fallback if isinstance(named.fallback, str) else ""
        if finding.facts is not None and isinstance(named, Gap):
            default_words = named.fallback_for(finding.facts)
        others.insert(0, (switch, str(default), default_words))
    if not others:
        return said + "."
    listed = "; ".join(
        f"`interpretations: {{{switch}: {value}}}`: {words}" for switch, value, words in others
    )
    return f"{said}. Other reading{'s' if len(others) > 1 else ''}: {listed} (docs/readings.md)."


def finding_cites(finding: Finding[FactsT, EffectT]) -> list[Cite]:
    """What a ruling made on a finding cites: the winning rule, or the provisions named."""
    rule = finding.rule
    return [statute(rule.cite)] if rule is not None else list(finding.cites)

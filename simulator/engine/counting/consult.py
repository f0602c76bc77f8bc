"""Consulting a law table from the count: the finding, a ``no_provision`` ruling where the law
collides or is silent (in the one wording of :data:`~simulator.law.rules.NO_PROVISION`, with the
gap's id and other readings from :func:`~simulator.law.tables.choices`), and what a ruling on a
finding cites."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

from simulator.engine.state import Draft
from simulator.law.cite import Cite, statute
from simulator.law.rules import NO_PROVISION, NO_PROVISION_HEAD, Finding, Table
from simulator.law.tables import choices
from simulator.law.vocab import RulingKind

FactsT = TypeVar("FactsT")
EffectT = TypeVar("EffectT")


def consult(
    d: Draft | None,
    table: Table[FactsT, EffectT],
    facts: FactsT,
    who: Sequence[str] = (),
    fields: Mapping[str, object] | None = None,
    *,
    asked: str = "",
    readings: bool = True,
    once: bool = True,
) -> Finding[FactsT, EffectT]:
    """Evaluate a table: the one way the engine asks the law a question. Where ``fields`` fill
    what is asked (the table's :attr:`~simulator.law.rules.Table.asked`, or ``asked``: another
    wording of its question, kept beside it in the law), a conflict or a gap is said in a
    ``no_provision`` ruling naming the provisions, what the text leaves open and the fallback
    used (a conflict marked in extra; ``who``: whom it names); without them the answer is only
    looked up (a question whose gaps another ruling says, or a lot already drawn that completes
    a ruled tie). ``readings=False`` keeps the default
    fallbacks whatever the interpretation switches choose (where the facts leave nobody for
    another reading's ruling to name); ``once=False`` says it again even where this round has
    said it (a departure's ruling, one per departure). Without a draft (``d`` None: a pure
    question whose answer is kept for every count, asked outside one) the answer is only looked
    up, under the default readings."""
    if d is None:
        if fields is not None:
            raise ValueError(f"{table.name}: a question asked without a draft has no ruling to say")
        return table.evaluate(facts)
    finding = table.evaluate(facts, chosen=d.ctx.chosen if readings else None)
    if finding.no_provision and fields is not None:
        question = asked or table.asked
        if not question:
            raise ValueError(f"{table.name}: the table says nothing of what is asked of it")
        d.rule(
            RulingKind.NO_PROVISION,
            finding.cites,
            NO_PROVISION.format(
                asked=question.format_map(fields),
                head=NO_PROVISION_HEAD[finding.verdict].format(open=finding.open),
                fallback=finding.fallback,
                choices=choices(finding),
            ),
            who,
            once=once,
            **finding.extra(),
        )
    return finding


def finding_cites(finding: Finding[FactsT, EffectT]) -> list[Cite]:
    """What a ruling made on a finding cites: the winning rule, or the provisions named."""
    rule = finding.rule
    return [statute(rule.cite)] if rule is not None else list(finding.cites)

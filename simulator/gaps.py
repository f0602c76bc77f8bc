"""Gaps of the statutes met while counting the vote (the contingency gaps are in
:mod:`simulator.contingencies`).

Each entry is what a ``no_provision`` ruling with that ``gap`` id says: the nearest sections,
the facts that reach it, why no provision covers them, and the fallback the engine uses.
``electsim gaps`` lists these after the contingency table's gaps.
"""

from __future__ import annotations

import attrs

from simulator.law import Cite, gs


@attrs.frozen
class CountingGap:
    id: str
    near: tuple[Cite, ...]
    facts: str
    why: str
    fallback: str

    @property
    def cite(self) -> str:
        return "; ".join(str(c) for c in self.near)

    def to_json(self) -> dict[str, str]:
        return {
            "id": self.id,
            "cite": self.cite,
            "facts": self.facts,
            "why": self.why,
            "fallback": self.fallback,
        }


COUNTING_GAPS: tuple[CountingGap, ...] = (
    CountingGap(
        "three-way-tie",
        (gs("163-293", "(d)(1)"),),
        "election-and-runoff method, single office: after the recount three or more candidates "
        "are still tied for the highest vote",
        "(d)(1) provides a runoff between 'the two' tied candidates",
        "SPEC reading 6: a runoff among all the tied unless all but one withdraw within three "
        "days (interpretation three_way_tie: lot draws lots instead)",
    ),
    CountingGap(
        "tie-over-threshold",
        (gs("163-293", "(a)(2)"), gs("163-292", "(3)")),
        "election-and-runoff method, group: more candidates over the majority threshold than "
        "seats, tied for the last seat",
        "(a)(2) seats the highest of them but says nothing of a tie among them",
        "a drawing of lots for the tied seat (as 163-292(3) does for plurality)",
    ),
    CountingGap(
        "tie-for-best-remaining",
        (gs("163-293", "(b)(2)"), gs("163-292", "(3)")),
        "election-and-runoff method, group without enough majorities: a tie decides which "
        "candidates are declared elected unless a runoff is requested",
        "(d) speaks of ties for first and second in a single-office race only",
        "a drawing of lots ranks the tied, then the request window opens",
    ),
    CountingGap(
        "runner-up-left",
        (gs("163-293", "(b)(1)"), gs("163-294.4", "(c)")),
        "election-and-runoff method: no majority, and the runner-up (name still on the ballot) "
        "has withdrawn or been disqualified",
        "163-294.4(c) cancels the runoff only when the runner-up is dead",
        "no runoff: the leader is elected, as for a dead runner-up",
    ),
    CountingGap(
        "left-runoff-ballot",
        (gs("163-293", "(e)"), gs("163-294.4", "(c)"), gs("163-294.1", "(b)")),
        "a candidate on a called runoff or second-primary ballot dies, withdraws or is "
        "disqualified before it is held",
        "the statutes speak of candidates who leave before the first election or primary",
        "the name stays on the runoff ballot; if that candidate polls highest the office is "
        "vacant (a second primary: the candidate cannot be nominated)",
    ),
    CountingGap(
        "primary-tie",
        (gs("163-111", "(b)"), gs("163-292", "(3)")),
        "partisan primary: a tie decides the nomination or the place of the runner-up who may "
        "demand a second primary",
        "the part of 163-111 on ties is not in the sources",
        "a drawing of lots",
    ),
    CountingGap(
        "second-primary-tie",
        (gs("163-111", "(b)"), gs("163-292", "(3)")),
        "partisan second primary ending in a tie",
        "the part of 163-111 on second primaries is not in the sources",
        "a drawing of lots",
    ),
    CountingGap(
        "tie-after-nonpartisan-primary",
        (gs("163-294", "(c)"), gs("163-182.8", "(2)")),
        "the election after a nonpartisan primary ends in a tie for a seat",
        "the text of 163-294(c) on that election is cut off in the sources",
        "a drawing of lots, as 163-182.8(2) provides for small electorates",
    ),
)

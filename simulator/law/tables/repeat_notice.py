"""A second notice for a candidate who has already left: a rule table (see
:mod:`simulator.law.rules`).

``repeat-notice``: a notice of death, withdrawal or disqualification for a candidate who has
already left (outside a tie's three days): a withdrawal is refused (163-106(e), 163-294.2(d)), a
repeated death or disqualification is refused (163-294.1), and a death or disqualification after
another departure is a gap (163-294.1(b) and (c), 163-112).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from enum import StrEnum

import attrs

from simulator.law.rules import Gap, Rule, Table
from simulator.law.tables.count import LEFT
from simulator.law.vocab import CandStatus


class RepeatNotice(StrEnum):
    """What a notice of death, withdrawal or disqualification does for one already gone."""

    REJECTED = "no longer a candidate"  # the notice is refused (the reason users see)
    EARLIER_STANDS = "earlier_stands"  # a gap: the earlier departure's effects stand


@attrs.frozen
class RepeatNoticeFacts:
    notice: CandStatus  # what the new notice says (died, withdrew or disqualified)
    before: CandStatus  # how the candidate had already left
    partisan: bool  # a party contest (163-106(e)), not a nonpartisan one (163-294.2(d))


def _repeat_notice_facts() -> Iterator[RepeatNoticeFacts]:
    for notice, before, partisan in itertools.product(LEFT, LEFT, (False, True)):
        yield RepeatNoticeFacts(notice, before, partisan)


REPEAT_NOTICE: Table[RepeatNoticeFacts, RepeatNotice] = Table(
    "repeat-notice",
    "a candidate who has already died, withdrawn or been disqualified is the subject of a new "
    "notice (outside a tie's three days): what does it do?",
    (
        Rule(
            id="party-withdrawal-after-leaving",
            cite="163-106(e)",
            summary="a party candidate's withdrawal is the candidate's own written act: one who "
            "has already died, withdrawn or been disqualified is no longer a candidate and files "
            "none",
            applies=lambda f: f.notice is CandStatus.WITHDREW and f.partisan,
            effect=RepeatNotice.REJECTED,
        ),
        Rule(
            id="nonpartisan-withdrawal-after-leaving",
            cite="163-294.2(d)",
            summary="a nonpartisan candidate's withdrawal is the candidate's own written act: one "
            "who has already died, withdrawn or been disqualified is no longer a candidate and "
            "files none",
            applies=lambda f: f.notice is CandStatus.WITHDREW and not f.partisan,
            effect=RepeatNotice.REJECTED,
        ),
        Rule(
            id="same-departure-again",
            cite="163-294.1",
            summary="a death or disqualification is ruled on once, when it is first noticed: a "
            "second notice of the same departure changes nothing",
            applies=lambda f: f.notice is not CandStatus.WITHDREW and f.notice is f.before,
            effect=RepeatNotice.REJECTED,
        ),
    ),
    gaps=(
        Gap(
            "second-departure",
            ("163-294.1(b)", "163-294.1(c)", "163-112"),
            "they speak of a candidate who dies or becomes disqualified, not of one who had "
            "already withdrawn, died or been disqualified: whether the later departure changes "
            "what the earlier one did to the name, the votes or the office is not said",
            "the earlier departure's effects stand (the name, the votes and any vacancy as "
            "ruled then); the later one changes nothing of them, but a person who has died or "
            "been disqualified cannot file again",
            lambda f: f.notice is not CandStatus.WITHDREW and f.notice is not f.before,
            RepeatNotice.EARLIER_STANDS,
        ),
    ),
    facts=_repeat_notice_facts,
    asked="{notice}, after {name} {how}",
)


#: how a ruling names a notice of a departure, by what it reports ({name}: whom it concerns)
NOTICE_OF: dict[CandStatus, str] = {
    CandStatus.DIED: "the notice of {name}'s death",
    CandStatus.WITHDREW: "{name}'s notice of withdrawal",
    CandStatus.DISQUALIFIED: "the disqualification of {name}",
}
#: what the ruling on a notice the ``repeat-notice`` table rejects says ({notice}: the notice,
#: in the words above; {how}: how and when the candidate left)
REJECTED_WORDS = "{notice} is rejected: {name} {how} and is no longer a candidate"
#: the reason it gives ({effect}: the finding)
REJECTED_REASON = "{name} {how}; {effect}"
#: how and when the candidate left, where the day is known ({verb}: how)
LEFT_ON = "{verb} on {day}"

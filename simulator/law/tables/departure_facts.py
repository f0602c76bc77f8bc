"""The facts a departure presents to the departures table (:class:`Facts`), and every
combination of them the engine can present (:func:`all_facts`), which ``electsim gaps`` and the
tests explore. The table itself is :mod:`simulator.law.tables.departures`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import TypedDict

import attrs

from simulator.law.readings import (
    DisqualifiedBeforePrinting,
    GroupDeathWithin30,
    Interpretations,
    LateNonpartisanWithdrawal,
    LateNotice,
    LeftAfterPrimaryDay,
    NoCandidateLeft,
    OnlyCandidateDies,
)
from simulator.law.vocab import (
    CandStatus,
    Method,
    Stage,
    Staged,
    is_nonpartisan_primary,
    is_partisan_primary,
)

DURING_FILING, BEFORE_ELECTION, ELECTION_OR_AFTER = "filing", "before_election", "election_or_after"
WHATS = (CandStatus.DIED, CandStatus.WITHDREW, CandStatus.DISQUALIFIED)
WHENS = (DURING_FILING, BEFORE_ELECTION, ELECTION_OR_AFTER)


class SwitchFacts(TypedDict):
    """The facts of :class:`Facts` that a scenario's interpretation switches set."""

    withdrawal_as_death: bool
    late_notice_by_death: bool
    late_np_withdrawal_void: bool
    reopen_after_only_death: bool
    committee_when_none_left: bool
    reopen_group_death: bool
    disqualified_name_off: bool
    committee_fills_left_place: bool


def switch_facts(interp: Interpretations, *, first_count: bool) -> SwitchFacts:
    """The interpretation switches as the departures table reads them: the one place a reading
    becomes a fact of that table. ``first_count``: the departure is read against the first primary's
    count, not the second primary's (`left_after_primary_day` reads only the first)."""
    return SwitchFacts(
        withdrawal_as_death=interp.withdrawal_as_death,
        late_notice_by_death=interp.late_notice is LateNotice.DEATH_DATE,
        late_np_withdrawal_void=(
            interp.late_nonpartisan_withdrawal is LateNonpartisanWithdrawal.NO_EFFECT
        ),
        reopen_after_only_death=interp.only_candidate_dies is OnlyCandidateDies.REOPEN,
        committee_when_none_left=interp.no_candidate_left is NoCandidateLeft.COMMITTEE_NAMES,
        reopen_group_death=interp.group_death_within_30 is GroupDeathWithin30.REOPEN,
        disqualified_name_off=(
            interp.disqualified_before_printing is DisqualifiedBeforePrinting.NAME_OFF
        ),
        committee_fills_left_place=(
            interp.left_after_primary_day is LeftAfterPrimaryDay.COMMITTEE_FILLS and first_count
        ),
    )


@attrs.frozen
class Facts(Staged):
    """The facts the departures table reads. All plain values, no clock.

    ``when`` places the event against the contest's own filing close and its own election (or
    primary) day. The 30-day flags count calendar days from the original close (163-112, never
    moved); ``printed_at_*`` say whether official ballots existed at the death and at the notice.
    """

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
    nominee: bool = False  # declared nominated in this primary (or certified without one)
    elected: bool = False  # declared elected (informative; the effects handle both cases)
    sworn: bool = False
    withdrawal_as_death: bool = True  # (the switch of that name)
    late_notice_by_death: bool = True  # ``late_notice: death_date``
    #: while filing is open: the notice came after the close of business on the third business
    #: day before filing closes (the deadline 163-106(e) sets for a party primary's withdrawals)
    past_party_withdrawal: bool = False
    #: on or after election day: the result has been declared and the contest decided without
    #: this candidate among those elected or nominated
    defeated: bool = False
    #: ``late_nonpartisan_withdrawal: no_effect``: a nonpartisan withdrawal after
    #: the filing deadline, before printing, has no effect
    late_np_withdrawal_void: bool = False
    #: ``only_candidate_dies: reopen``
    reopen_after_only_death: bool = False
    #: ``no_candidate_left: committee_names``
    committee_when_none_left: bool = False
    #: ``group_death_within_30: reopen``
    reopen_group_death: bool = False
    #: ``disqualified_before_printing: name_off``
    disqualified_name_off: bool = False
    #: ``left_after_primary_day: committee_fills``
    committee_fills_left_place: bool = False

    @property
    def group(self) -> bool:
        return self.seats > 1

    @property
    def nonpartisan_election(self) -> bool:
        return self.method is not Method.PARTISAN and not self.nonpartisan_primary

    @property
    def within_30(self) -> bool:
        """163-112(b)'s first paragraph counts from the notice; `late_notice` fills the gap."""
        if self.within_30_by_notice:
            return True
        return self.within_30_by_death and self.late_notice_by_death

    @property
    def late_notice_gap(self) -> bool:
        return self.within_30_by_death and not self.within_30_by_notice

    @property
    def no_time_to_reprint(self) -> bool:
        """Printed ballots at the notice and no determination that there is time to reprint."""
        return self.printed_at_notice and self.reprint is not True

    @property
    def offish(self) -> bool:
        """163-294.1(b)'s "death or disqualification", with a withdrawal under
        `withdrawal_as_death`."""
        return self.what != CandStatus.WITHDREW or self.withdrawal_as_death

    @property
    def only_two(self) -> int:
        """163-294.4(b): "only two" filed for a single office, "as many as" seats for a group."""
        return self.seats if self.group else 2


METHOD_STAGES = (
    (Method.PARTISAN, Stage.PRIMARY),
    (Method.PARTISAN, Stage.ELECTION),
    (Method.PRIMARY, Stage.PRIMARY),
    (Method.PRIMARY, Stage.ELECTION),
    (Method.PLURALITY, Stage.ELECTION),
    (Method.RUNOFF, Stage.ELECTION),
)


def all_facts() -> Iterator[Facts]:
    """Every combination of facts the engine can present to the table (tens of thousands).

    Facts that cannot occur together are left out: a withdrawal or disqualification is known when
    it happens (its notice is its date); ballots printed at the death were printed at the notice;
    only an elected person takes the oath; at or below the seats, a party primary's candidates
    were certified at the close (163-110); a nonpartisan primary is held only with more than two
    candidates per seat (163-294(a)). While filing is open and on or after election day the rules
    read neither the 30-day flags nor printing, which are then fixed.
    """
    for (method, stage), seats, what, when in itertools.product(
        METHOD_STAGES, (1, 2), WHATS, WHENS
    ):
        partisan_primary = is_partisan_primary(method, stage)
        np_primary = is_nonpartisan_primary(method, stage)
        # (163-106(e)'s deadline for withdrawals falls while filing is open)
        pasts = (False, True) if when == DURING_FILING and what == CandStatus.WITHDREW else (False,)
        defeats = (False, True) if when == ELECTION_OR_AFTER else (False,)
        for filed in range(1, 2 * seats + 3):
            if when == DURING_FILING:
                days: tuple[tuple[bool, bool], ...] = ((True, True),)
                prints: tuple[tuple[bool, bool], ...] = ((False, False),)
                lefts: range | tuple[int, ...] = (filed - 1,)
            elif when == ELECTION_OR_AFTER:
                days, prints, lefts = ((False, False),), ((False, False),), (filed - 1,)
            else:
                days = ((False, False), (True, False), (True, True))
                prints = ((False, False), (False, True), (True, True))
                if what != CandStatus.DIED:
                    days = tuple(d for d in days if d[0] == d[1])
                    prints = tuple(p for p in prints if p[0] == p[1])
                lefts = range(filed)
            for (w30d, w30n), (pd, pn), remaining in itertools.product(days, prints, lefts):
                for reprint in (None, False, True) if pn else (None,):
                    for nominee, sworn in itertools.product((False, True), (False, True)):
                        if sworn and (when != ELECTION_OR_AFTER or stage is Stage.PRIMARY):
                            continue
                        if nominee and (stage is not Stage.PRIMARY or when == DURING_FILING):
                            continue
                        if (
                            partisan_primary
                            and when != DURING_FILING
                            and filed <= seats
                            and (not nominee)
                        ):
                            continue  # at or below the seats, certified at the close (163-110)
                        if (
                            np_primary
                            and when != DURING_FILING
                            and filed <= 2 * seats
                            and (not nominee)
                        ):
                            continue  # declared nominated without a primary (163-294(a))
                        for past, defeated in itertools.product(pasts, defeats):
                            if defeated and (nominee or sworn):
                                continue  # one elected or nominated was not defeated
                            yield Facts(
                                method,
                                stage,
                                what,
                                when,
                                seats,
                                filed,
                                remaining,
                                w30d,
                                w30n,
                                pd,
                                pn,
                                reprint,
                                nominee,
                                sworn,
                                sworn,
                                past_party_withdrawal=past,
                                defeated=defeated,
                            )

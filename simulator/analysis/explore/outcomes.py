"""What an exploration finds: the courses of events, their abstract outcomes, the shortest
witness of each outcome, the gaps and conflicts their rulings name, and the exploration itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from simulator.analysis.explore.config import Config
from simulator.engine.result import ContestResult, Ruling
from simulator.law.calendar import Deadline
from simulator.law.cite import Cite
from simulator.law.labels import label
from simulator.law.machine import Phase
from simulator.law.vocab import Pending, RulingKind, RunoffStatus


@attrs.frozen
class Course:
    """An abstract course of events and the concrete log that realizes it."""

    steps: tuple[str, ...]  # the course in words, one line per abstract step
    events: tuple[dict[str, Any], ...]
    # the replay of ``events`` when the enumeration already made it (to choose what follows)
    result: ContestResult | None = attrs.field(default=None, eq=False, repr=False)
    # the course ends in a state reached before: it has no outcome of its own
    merged: bool = False
    # the course calls a runoff in a state reached before
    # (:func:`~simulator.analysis.explore.states.call_state`): it has its outcome, but the
    # runoff's courses after it are those enumerated after the first
    joined: bool = False


@attrs.frozen(cache_hash=True)
class Outcome:
    """The abstract outcome: what a board or a lawyer would call a different result."""

    state: str
    pending: str | None
    runoff: str
    elected: int
    nominated: int
    vacant: int
    departed: str  # what became of the departed: elected / nominated / in the runoff / out / -
    by: str  # the subsections of the deciding rulings (elected, nominated, vacant, no runoff)
    findings: tuple[str, ...]  # gap and conflict ids of no_provision rulings

    def describe(self) -> str:
        """The outcome with its identifiers, as the JSON and the grid's record keep it (a key
        that stays the same whatever the words)."""
        return "; ".join(self._parts(in_words=False))

    def words(self) -> str:
        """The outcome as people read it (the explorer's text, a witness's title): as
        :meth:`describe`, with the state, what is awaited and the runoff in words, and what
        is awaited left out where the state says it.

        >>> Outcome("runoff_called", "votes", "called", 0, 0, 0, "-", "", ()).words()
        'runoff called'
        >>> Outcome("counting", "canvass", "none", 0, 0, 0, "out", "", ()).words()
        'counting; waiting for the canvass; departed candidate out'
        """
        return "; ".join(self._parts(in_words=True))

    def _parts(self, *, in_words: bool) -> list[str]:
        state, runoff, pending = self.state, self.runoff, self.pending
        if in_words:
            if runoff == "called" and state == Phase.RUNOFF_CALLED.value:
                runoff = "none"  # the state says it
            if (state, pending) in _SAID_BY_STATE:
                pending = None
        bits = [_word(Phase, state) if in_words else state]
        if self.elected:
            bits.append(f"{self.elected} elected")
        if self.nominated:
            bits.append(f"{self.nominated} nominated")
        if self.vacant:
            bits.append(f"{self.vacant} vacant seat{'s' if self.vacant != 1 else ''}")
        if runoff != "none":
            bits.append(f"runoff {_word(RunoffStatus, runoff) if in_words else runoff}")
        if pending:
            bits.append(
                f"waiting for {_word(Pending, pending)}" if in_words else f"pending {pending}"
            )
        if self.by:
            bits.append(f"by {self.by}")
        if self.departed != "-":
            bits.append(
                _departed_words(self.departed)
                if in_words
                else f"departed candidate {self.departed}"
            )
        if self.findings:
            bits.append("no provision: " + ", ".join(self.findings))
        return bits

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self) | {"findings": list(self.findings)}


#: (state, what is awaited) where the state already says what is awaited (a runoff called awaits
#: its votes, a contest awaiting a drawing of lots awaits the drawing)
_SAID_BY_STATE = frozenset(
    {
        (Phase.BALLOT.value, Pending.VOTES.value),
        (Phase.RUNOFF_CALLED.value, Pending.VOTES.value),
        (Phase.AWAITING_LOT.value, Pending.LOT.value),
        (Phase.AWAITING_RECOUNT.value, Pending.RECOUNT.value),
        (Phase.AWAITING_NOMINATION.value, Pending.NOMINATION.value),
        (Phase.TIE_WITHDRAWAL.value, Pending.WITHDRAWAL.value),
        (Phase.RUNOFF_REQUEST.value, Pending.RUNOFF_REQUEST.value),
        (Phase.AWAITING_NEW_ELECTION.value, Pending.NEW_ELECTION.value),
    }
)


def _departed_words(departed: str) -> str:
    """What became of the departed candidates, in words: ``out`` -> "departed candidate out",
    ``out, out`` -> "both departed candidates out", ``elected, out`` -> "departed candidates:
    elected, out".

    >>> _departed_words("out, out"), _departed_words("elected, out")
    ('both departed candidates out', 'departed candidates: elected, out')
    """
    fates = departed.split(", ")
    if len(fates) == 1:
        return f"departed candidate {departed}"
    if len(set(fates)) == 1:
        every = "both" if len(fates) == 2 else f"all {len(fates)}"
        return f"{every} departed candidates {fates[0]}"
    return f"departed candidates: {departed}"


def _word(vocabulary: Any, value: str) -> str:
    """An identifier of ``vocabulary`` in words; an unknown one as it is."""
    try:
        return label(vocabulary(value))
    except ValueError:
        return value


def finding_id(r: Ruling) -> str:
    gap = r.get("gap")
    kind = "conflict" if r.get("conflict") else "gap"
    return f"{kind}:{gap}" if gap else f"{kind}:{r.cite}"


#: The rulings whose subsections decide an outcome (its ``by``)
_DECIDING = (RulingKind.ELECTED, RulingKind.NOMINATED, RulingKind.OFFICE_VACANT)


def outcome_of(
    result: ContestResult,
    departed: Sequence[str],
    *,
    read: tuple[set[str], set[str], set[str]] | None = None,
) -> Outcome:
    """The abstract outcome of a course's result (``read``: what :meth:`RulingReader.rulings` read
    of its rulings, when the exploration has read them already)."""
    o = result.outcome
    fate = "-"
    if departed:
        fates = []
        for name in departed:
            if name in o.elected:
                fates.append("elected")
            elif name in o.nominated:
                fates.append("nominated")
            elif name in o.runoff_candidates:
                fates.append("in the runoff")
            else:
                fates.append("out")
        fate = ", ".join(sorted(fates))
    _, found, deciding = read if read is not None else RulingReader().rulings(result.rulings)
    findings = tuple(sorted(found))
    by = "; ".join(sorted(deciding))
    return Outcome(
        state=result.state,
        by=by,
        pending=o.pending.value if o.pending else None,
        runoff=o.runoff_status.value,
        elected=len(o.elected),
        nominated=len(o.nominated),
        vacant=o.vacant_seats,
        departed=fate,
        findings=findings,
    )


@attrs.frozen
class Witness:
    course: Course
    result: ContestResult
    departed: tuple[str, ...]


@attrs.frozen
class Exploration:
    config: Config
    courses: int  # concrete courses replayed
    states: int  # abstract states visited: distinct beginnings of the courses, step by step
    outcomes: tuple[tuple[Outcome, Witness, int], ...]  # outcome, shortest witness, how many
    cites: tuple[tuple[str, int], ...]  # subsection cited by a ruling, how many courses
    landmarks: tuple[tuple[str, int], ...]  # subsection a deadline of the course cites
    infeasible: int  # vote classes no votes can realize (e.g. two candidates above a majority)
    errors: tuple[tuple[str, str], ...]  # the engine raised: course, error
    # beginnings that reached a state at the vote, or a runoff's call, reached before (what
    # follows is not repeated)
    merged: int = 0
    # processor seconds the exploration took (a measure, not a result: never compared)
    cpu: float = attrs.field(default=0.0, eq=False)

    @property
    def findings(self) -> tuple[tuple[str, Outcome, Witness], ...]:
        seen: dict[str, tuple[str, Outcome, Witness]] = {}
        for outcome, witness, _ in self.outcomes:
            for f in outcome.findings:
                old = seen.get(f)
                if old is None or len(witness.course.events) < len(old[2].course.events):
                    seen[f] = (f, outcome, witness)
        return tuple(seen[k] for k in sorted(seen))


def impossible(result: ContestResult, seats: int) -> str:
    """What is impossible in a result whatever the law says (empty when nothing is): more
    seats filled or vacant than the contest has, a name elected or nominated twice."""
    o = result.outcome
    if len(o.elected) + o.vacant_seats > seats:
        return (
            f"ImpossibleResult: {len(o.elected)} elected ({', '.join(o.elected)}) and "
            f"{o.vacant_seats} seat(s) vacant for {seats} seat(s)"
        )
    for names, what in ((o.elected, "elected"), (o.nominated, "nominated")):
        if len(set(names)) != len(names):
            return f"ImpossibleResult: a name {what} twice ({', '.join(names)})"
    return ""


class RulingReader:
    """What an exploration reads of the rulings and deadlines of its courses: the subsections
    each cites (as strings), the gap or conflict it names, the subsections that decide an
    outcome. Courses share their rulings and deadlines (the states they come from are shared),
    so each one is read once: it is kept with what was read, so that its identity stays its
    own; past ``limit`` those kept are let go (and read again when met)."""

    def __init__(self, *, limit: int = 50_000) -> None:
        self.memo: dict[int, tuple[Ruling | Deadline, frozenset[str], str, frozenset[str]]] = {}
        self.cited: dict[tuple[Cite, ...], frozenset[str]] = {}
        self.limit = limit

    def _read(
        self, r: Ruling | Deadline
    ) -> tuple[Ruling | Deadline, frozenset[str], str, frozenset[str]]:
        memo = self.memo
        if len(memo) > self.limit:
            memo.clear()
        cites = self.cited.get(r.cites)
        if cites is None:  # many rulings cite the same subsections: each set is made once
            cites = self.cited[r.cites] = frozenset(str(c) for c in r.cites)
        finding = ""
        deciding: frozenset[str] = frozenset()
        if isinstance(r, Ruling):
            if r.kind is RulingKind.NO_PROVISION:
                finding = finding_id(r)
            if r.kind in _DECIDING:
                deciding = frozenset(c.section + c.sub for c in r.cites)
        read = memo[id(r)] = (r, cites, finding, deciding)
        return read

    def rulings(self, rulings: Sequence[Ruling]) -> tuple[set[str], set[str], set[str]]:
        """The subsections the rulings cite, the gaps and conflicts they name, and the
        subsections of those that decide."""
        memo = self.memo
        cites: set[str] = set()
        found: set[str] = set()
        deciding: set[str] = set()
        for r in rulings:
            hit = memo.get(id(r)) or self._read(r)
            cites |= hit[1]
            if hit[2]:
                found.add(hit[2])
            if hit[3]:
                deciding |= hit[3]
        return cites, found, deciding

    def deadlines(self, deadlines: Sequence[Deadline]) -> set[str]:
        """The subsections the deadlines cite."""
        memo = self.memo
        cites: set[str] = set()
        for dl in deadlines:
            hit = memo.get(id(dl)) or self._read(dl)
            cites |= hit[1]
        return cites

"""Validation of the departures: a candidate who withdraws, is disqualified or dies, each of
whom must have filed. The board learns of a death by its notice (``notice_at``), which cannot
come before the death itself."""

from __future__ import annotations

from typing import Any

from simulator.input.loader.event_checks import EventValidator, NamedEvents, names_one
from simulator.model.events import CandidateDied, CandidateDisqualified, CandidateWithdrew

_names_candidate = names_one("candidate")


def check_death(
    log: NamedEvents,
    i: int,
    contest: str,
    fields: dict[str, Any],
    at: Any,
    line: int | None,
    before: int,
) -> None:
    """A death: its candidate filed, and its notice, if given, came no earlier than the death
    (checked only where the event is otherwise sound)."""
    _names_candidate(log, i, contest, fields, at, line, before)
    if len(log.problems) == before and fields.get("notice_at", at) < at:
        log.problems.add(
            ("events", i, "notice_at"),
            f"a time on or after the death itself (`at` is {at.isoformat()})",
            fields["notice_at"].isoformat(),
        )


VALIDATORS: dict[str, EventValidator] = {
    CandidateWithdrew.type: _names_candidate,
    CandidateDisqualified.type: _names_candidate,
    CandidateDied.type: check_death,
}

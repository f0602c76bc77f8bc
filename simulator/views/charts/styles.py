"""How a timeline colours and marks things: the bands of the periods, the strip of printed
ballots, the red of a G.S. 103-5 move, and the marker of each kind of event."""

from __future__ import annotations

from typing import Any

from simulator.law.labels import label
from simulator.law.vocab import PeriodKind
from simulator.model.events import DEFINITIONS

# Periods: key -> (legend label, in the words of simulator.law.labels, face colour, edge colour)
BANDS: dict[str, tuple[str, str, str]] = {
    "filing": (label(PeriodKind.FILING), "#a6cee3", "#1f78b4"),
    # an election's filing period when its candidates are the nominees of its primary: the
    # primary's filing period, in which nobody files for the election
    "filing_primary": (
        "filing period of the primary (the election's candidates are its nominees)",
        "#e8f1f7",
        "#7fa7c4",
    ),
    "filing_reopened": (label(PeriodKind.FILING_REOPENED), "#fdbf6f", "#e08214"),
    "filing_extended": (label(PeriodKind.FILING_EXTENDED), "#ffe48a", "#b8860b"),
    "runoff_request": (label(PeriodKind.RUNOFF_REQUEST), "#cab2d6", "#6a3d9a"),
    "tie_withdrawal": (label(PeriodKind.TIE_WITHDRAWAL), "#f4cae4", "#ae017e"),
}
PRINTED = ("ballots printed (onward)", "#d9d9d9", "#737373")
MOVE_COLOUR = "#c0392b"  # a G.S. 103-5 move, and nothing else, is red
VOID_COLOUR = "#9a9a9a"  # a deadline that no longer applies: grey, dashed

# Events: kind -> (marker, colour, size, caption for one, caption for several). "{name}" is the
# candidate or the winner, "{n}" the number of events of the kind that day. Each event type's mark
# is part of its definition (simulator/model/events.py); no two kinds share a marker, so a mark
# reads without its colour.
#: a notice of candidacy the board could not accept (a ruling, not an event type): the filing's
#: circle, hollow
REJECTED_FILING_MARK = ("o", "#2166ac", 5.0, "{name} filed late (rejected)", "{n} rejected")
#: a nominee of a primary carried onto the election's ballot (logged as a filing in the
#: election, though nobody files for it): a three-pointed mark in the filing's blue
CARRIED_MARK = (
    "2",
    "#2166ac",
    8.0,
    "{name} carried from the primary",
    "{n} nominees carried from the primary",
)


def marks() -> dict[str, tuple[str, str, float, str, str]]:
    """Every kind's mark, in the order of the event types' definitions (a rejected filing's
    after the filing's)."""
    out: dict[str, tuple[str, str, float, str, str]] = {}
    for name, d in DEFINITIONS.items():
        out[name] = (d.mark.marker, d.mark.colour, d.mark.size, d.mark.one, d.mark.several)
        if name == "candidate_filed":
            out["filing_rejected"] = REJECTED_FILING_MARK
            out["nominee_carried"] = CARRIED_MARK
    return out


def mark_of(kind: str) -> tuple[str, str, float, str, str]:
    """The mark of one kind of event (a kind nothing defines gets the default mark)."""
    definition = DEFINITIONS.get(kind)
    if definition is not None:
        m = definition.mark
        return (m.marker, m.colour, m.size, m.one, m.several)
    if kind == "nominee_carried":
        return CARRIED_MARK
    return REJECTED_FILING_MARK if kind == "filing_rejected" else DEFAULT_MARK


DEFAULT_MARK = ("1", "#7f7f7f", 6.0, "{kind}", "{n} x {kind}")


def mark_style(kind: str) -> dict[str, Any]:
    """How a kind of event is marked: its marker, colour and size; a rejected filing hollow."""
    marker, colour, size, _, _ = mark_of(kind)
    line_marker = marker in "x+1234|"
    return {
        "marker": marker,
        "color": colour,
        "markersize": size,
        "markerfacecolor": "white" if kind == "filing_rejected" else colour,
        "markeredgecolor": colour if line_marker or kind == "filing_rejected" else "white",
        "markeredgewidth": 1.4 if line_marker or kind == "filing_rejected" else 0.5,
    }

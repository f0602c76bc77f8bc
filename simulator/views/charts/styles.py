"""How a timeline colours and marks things: the bands of the periods, the strip of printed
ballots, the red of a G.S. 103-5 move, and the marker of each kind of event."""

from __future__ import annotations

from typing import Any

# Periods: key -> (legend label, face colour, edge colour)
BANDS: dict[str, tuple[str, str, str]] = {
    "filing": ("filing period", "#a6cee3", "#1f78b4"),
    "filing_reopened": ("filing reopened", "#fdbf6f", "#e08214"),
    "filing_extended": ("filing extended", "#ffe48a", "#b8860b"),
    "runoff_request": ("runoff / second primary may be requested", "#cab2d6", "#6a3d9a"),
    "tie_withdrawal": ("tied candidate may withdraw", "#f4cae4", "#ae017e"),
}
PRINTED = ("ballots printed (onward)", "#d9d9d9", "#737373")
MOVE_COLOUR = "#c0392b"  # a G.S. 103-5 move, and nothing else, is red

# Events: kind -> (marker, colour, size, caption for one, caption for several). "{name}" is the
# candidate or the winner, "{n}" the number of events of the kind that day. No two kinds share a
# marker, so a mark reads without its colour.
MARKS: dict[str, tuple[str, str, float, str, str]] = {
    "candidate_filed": ("o", "#2166ac", 5.0, "{name} filed", "{n} filed"),
    # a notice of candidacy the board could not accept: the same circle, hollow
    "filing_rejected": ("o", "#2166ac", 5.0, "{name} filed late (rejected)", "{n} rejected"),
    "candidate_withdrew": ("v", "#8c510a", 6.5, "{name} withdrew", "{n} withdrew"),
    "candidate_died": ("X", "#111111", 7.0, "{name} died", "{n} died"),
    "candidate_disqualified": ("x", "#7f2704", 6.5, "{name} disqualified", "{n} disqualified"),
    "filing_opened": (">", "#01665e", 5.5, "filing opened", "filing opened"),
    "filing_closed": ("<", "#01665e", 5.5, "filing closed", "filing closed"),
    "filing_extended": ("P", "#b8860b", 6.0, "filing extended", "filing extended"),
    "ballots_printed": ("s", "#525252", 5.5, "ballots printed", "ballots printed"),
    "reprint_determined": ("p", "#6a51a3", 6.0, "reprint determined", "reprint determined"),
    "returns_reported": ("h", "#1b9e77", 6.0, "returns", "returns ({n} reports)"),
    "votes_cast": ("8", "#66a61e", 5.0, "votes", "votes ({n} ballots)"),
    "canvass_held": ("D", "#1b7837", 5.5, "canvass", "canvass"),
    "recount_held": ("d", "#d95f02", 7.0, "recount", "recount"),
    "runoff_requested": ("^", "#6a3d9a", 6.5, "{name} requests runoff", "{n} requests"),
    "lot_drawn": ("*", "#c51b7d", 9.0, "lot: {name}", "{n} lots drawn"),
    "oath_taken": ("H", "#00441b", 6.0, "{name} takes oath", "{n} take oath"),
    "nominee_named": ("+", "#08519c", 7.5, "{name} named", "{n} named"),
}
DEFAULT_MARK = ("1", "#7f7f7f", 6.0, "{kind}", "{n} x {kind}")


def _mark_style(kind: str) -> dict[str, Any]:
    """How a kind of event is marked: its marker, colour and size; a rejected filing hollow."""
    marker, colour, size, _, _ = MARKS.get(kind, DEFAULT_MARK)
    line_marker = marker in "x+1|"
    return {
        "marker": marker,
        "color": colour,
        "markersize": size,
        "markerfacecolor": "white" if kind == "filing_rejected" else colour,
        "markeredgecolor": colour if line_marker or kind == "filing_rejected" else "white",
        "markeredgewidth": 1.4 if line_marker or kind == "filing_rejected" else 0.5,
    }

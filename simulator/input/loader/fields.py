"""The fields a scenario file may hold (docs/scenarios.md): the top-level keys, a contest's
keys, a filing period's, and a short description of each event field for the message of a
missing one. docs/scenario.schema.json lists the same (tests/test_docs.py)."""

from __future__ import annotations

# Short descriptions of event fields, for "missing field" messages.
FIELD_HELP = {
    "candidate": "the candidate's name, as on the notice of candidacy",
    "winner": "the name of the candidate the lot fell to",
    "party": "the party's abbreviation, like DEM",
    "fee": "the filing fee paid, in dollars",
    "notice_at": "when the board received notice of the death",
    "enough_time": "true or false: whether the board found time to reprint the ballots",
    "count": "how many ballots, a whole number (default 1)",
    "precinct": "the precinct's name",
    "counts": "a mapping of candidate name to votes, like {Ann: 350, Bob: 180}",
}

TOP_KEYS = (
    "format",
    "title",
    "description",
    "timezone",
    "office_closed",
    "interpretations",
    "parameters",
    "contests",
    "events",
    "expect",
)
CONTEST_KEYS = (
    "id",
    "municipality",
    "office",
    "seats",
    "method",
    "stage",
    "party",
    "year",
    "date",
    "district_based",
    "filing",
    "filing_fee",
    "salary",
)
FILING_KEYS = ("opens", "closes")

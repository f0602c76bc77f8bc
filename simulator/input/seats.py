"""How many seats a municipal contest fills, where the results data does not say.

The openelections conversions of the State Board's results have no "vote for N" column, and the
majority of G.S. 163-293(a)(2) depends on it (the total is divided by the number of seats). This
table gives the seat count of every office of the election-and-runoff towns that
:mod:`simulator.analysis.conformance` checks, each with the source it rests on. An office the table
does
not know has no seat count (``None``): the conformance check marks it "seat count unknown" rather
than guess.

>>> seats_for("Cary", "TOWN OF CARY TOWN COUNCIL AT-LARGE", 2023).seats
1
>>> seats_for("Elizabeth City", "CITY OF ELIZABETH CITY COUNCILMAN 4TH WARD", 2025).seats
2
>>> seats_for("Nowhere", "TOWN OF NOWHERE COUNCIL", 2025) is None
True
"""

from __future__ import annotations

import re

import attrs

__all__ = ["PRIMARY_SEAT_RULES", "SEAT_RULES", "SeatRule", "seats_for", "single_office"]


@attrs.frozen
class SeatRule:
    """Offices of one town whose contest names match ``pattern`` (a regular expression, case
    ignored, searched in the contest name) fill ``seats`` seats, in ``years`` (all if empty)."""

    town: str
    pattern: str
    seats: int
    source: str
    years: tuple[int, ...] = ()

    def matches(self, town: str, contest: str, year: int) -> bool:
        if town.casefold() != self.town.casefold():
            return False
        if self.years and year not in self.years:
            return False
        return re.search(self.pattern, contest, re.IGNORECASE) is not None


_MAYOR = "one mayor, elected at large (a single office)"

#: First matching rule wins; more specific patterns come first.
SEAT_RULES: tuple[SeatRule, ...] = (
    # --- Atlantic Beach -----------------------------------------------------------------------
    SeatRule("Atlantic Beach", r"\bMAYOR\b", 1, _MAYOR),
    SeatRule(
        "Atlantic Beach",
        r"COMMISSIONER|COUNCIL",
        5,
        "Atlantic Beach Town Council: 5 seats, all elected at large every two years (Town of "
        "Atlantic Beach, 'Governing Body': five council members and the mayor, two-year terms, "
        "elected at large; UNC School of Government, Forms of Government database: 5 members, "
        "AL, 2-year terms). The charter styles them commissioners.",
    ),
    # --- Cary ---------------------------------------------------------------------------------
    SeatRule("Cary", r"\bMAYOR\b", 1, _MAYOR),
    SeatRule(
        "Cary",
        r"AT-?\s*LARGE",
        1,
        "Cary Town Council At-Large: 1 seat (Town of Cary, 'Council Districts': two at-large "
        "members on staggered four-year terms, one elected in each odd-year cycle)",
    ),
    SeatRule(
        "Cary",
        r"DISTRICT [A-D]\b",
        1,
        "Cary Town Council District A-D: 1 seat each (Town of Cary, 'Council Districts': one "
        "representative per district)",
    ),
    # --- Dobbins Heights ----------------------------------------------------------------------
    SeatRule("Dobbins Heights", r"\bMAYOR\b", 1, _MAYOR),
    SeatRule(
        "Dobbins Heights",
        r"UNEXPIRED",
        1,
        "Dobbins Heights Town Council, unexpired term ending 2013: 1 seat (the contest fills "
        "one vacancy; Thomas White held it until 2013: Richmond County Daily Journal, "
        "2013-10-15, 'Holloway earns Dobbins Heights Town Council seat')",
    ),
    SeatRule(
        "Dobbins Heights",
        r"COUNCIL",
        2,
        "Dobbins Heights Town Council: 2 seats a cycle, four-member council on staggered "
        "four-year terms (Richmond County Daily Journal, 2013-10-15: Holloway won 'the second "
        "and final seat'; 2015 and 2019 reports name two winners each)",
    ),
    # --- Dunn ---------------------------------------------------------------------------------
    SeatRule("Dunn", r"\bMAYOR\b", 1, _MAYOR),
    SeatRule(
        "Dunn",
        r"WARD\s*\d+",
        1,
        "Dunn City Council: one commissioner per ward (the contest names one ward)",
    ),
    # --- Elizabeth City -----------------------------------------------------------------------
    SeatRule("Elizabeth City", r"\bMAYOR\b", 1, _MAYOR),
    SeatRule(
        "Elizabeth City",
        r"WARD",
        2,
        "Elizabeth City City Council: 2 seats per ward, both elected every two years (City of "
        "Elizabeth City, 'Form of Government': four wards, two seats apportioned to each; "
        "Daily Advance, 2019-07-18: 'one of the ward's two open seats')",
    ),
    # --- Erwin --------------------------------------------------------------------------------
    SeatRule("Erwin", r"\bMAYOR\b", 1, _MAYOR),
    SeatRule(
        "Erwin",
        r"WARD\s*\d+",
        1,
        "Erwin Board of Commissioners: one commissioner per ward (the contest names one ward)",
    ),
    # --- Henderson ----------------------------------------------------------------------------
    SeatRule("Henderson", r"\bMAYOR\b", 1, _MAYOR),
    SeatRule(
        "Henderson",
        r"WARD",
        1,
        "Henderson City Council: each ward has one ward seat and one at-large seat, each a "
        "single office elected separately (Henderson charter amendment of 2010 staggering the "
        "'at-large seats for Wards 1 and 2 and the ward seats for Wards 3 and 4': "
        "homeinhenderson.com, 2010-05-11)",
    ),
    # --- Monroe -------------------------------------------------------------------------------
    SeatRule("Monroe", r"\bMAYOR\b", 1, _MAYOR),
    SeatRule(
        "Monroe",
        r"COUNCIL",
        3,
        "Monroe City Council: 3 seats a cycle, six members on staggered four-year terms "
        "(Enquirer-Journal, 2013-10-10: 'Kilgore, Duncan win seats, run-off possible for last "
        "two council seats'; the 2011 November runoff for the third seat agrees)",
    ),
    # --- Raleigh ------------------------------------------------------------------------------
    SeatRule("Raleigh", r"\bMAYOR\b", 1, _MAYOR),
    SeatRule(
        "Raleigh",
        r"AT-?\s*LARGE",
        2,
        "Raleigh City Council At-Large: 2 seats (City of Raleigh, 'City Council': eight "
        "members, three including the mayor elected at large, the rest from districts A-E; "
        "all on two-year terms until 2024)",
    ),
    SeatRule(
        "Raleigh",
        r"DISTRICT [A-E]\b",
        1,
        "Raleigh City Council District A-E: 1 seat each (City of Raleigh, 'City Council')",
    ),
    # --- Rocky Mount --------------------------------------------------------------------------
    SeatRule("Rocky Mount", r"\bMAYOR\b", 1, _MAYOR),
    SeatRule(
        "Rocky Mount",
        r"WARD\s*\d+",
        1,
        "Rocky Mount City Council: one member per ward (the contest names one ward; the 2017 "
        "Ward 7 runoff was for one seat)",
    ),
    # --- Statesville --------------------------------------------------------------------------
    SeatRule("Statesville", r"\bMAYOR\b", 1, _MAYOR),
    SeatRule(
        "Statesville",
        r"AT[- ]?\s*LARGE",
        2,
        "Statesville City Council At-Large: 2 seats (Charlotte Observer, 2011: 'Two other "
        "council members and the mayor are elected at large'; Statesville Record & Landmark, "
        "2022-06-01: 'the race for two at-large seats')",
    ),
    SeatRule(
        "Statesville",
        r"WARD\s*\d+",
        1,
        "Statesville City Council: one member per ward, six wards (Charlotte Observer, 2011: "
        "'Citizens from each ward elect a City Council member every four years')",
    ),
)


#: Groups of the towns whose primaries :mod:`simulator.analysis.conformance.primaries` checks. Their
#: single offices (a mayor, one ward, one district) need no rule; groups the table does not know
#: take their seat count from the November ballot, and the report says so.
PRIMARY_SEAT_RULES: tuple[SeatRule, ...] = (
    SeatRule(
        "Charlotte",
        r"AT-?\s*LARGE",
        4,
        "Charlotte City Council At-Large: 4 seats (City of Charlotte, 'City Council': eleven "
        "members, four elected at large and seven from districts, every two years; each "
        "party's November slate 2011-2025 has at most four at-large nominees)",
    ),
    SeatRule(
        "Greensboro",
        r"AT-?\s*LARGE",
        3,
        "Greensboro City Council At-Large: 3 seats (City of Greensboro, 'City Council': the "
        "mayor, three members at large and five from districts)",
    ),
    SeatRule(
        "Durham",
        r"AT-?\s*LARGE",
        3,
        "Durham City Council At-Large: 3 seats, elected together every four years, the three "
        "ward seats in the other cycle (City of Durham, 'City Council')",
    ),
    SeatRule(
        "High Point",
        r"AT-?\s*LARGE",
        2,
        "High Point City Council At-Large: 2 seats (City of High Point, 'City Council': the "
        "mayor, two members at large and six from wards)",
    ),
    SeatRule(
        "Asheville",
        r"COUNCIL",
        3,
        "Asheville City Council: 3 seats a cycle, six members on staggered four-year terms "
        "elected at large (City of Asheville, 'City Council'), before the districts of 2022",
        (2011, 2013, 2015, 2017, 2019),
    ),
    SeatRule(
        "Albemarle",
        r"AT-?\s*LARGE",
        2,
        "Albemarle City Council At-Large: 2 seats a cycle (the November ballots of 2011 and "
        "2015 carry two nominees of each party that nominated, and the engine's replay of both "
        "primaries agrees; the 2013 November ballot is missing from the data)",
    ),
    SeatRule(
        "Sanford",
        r"AT-?\s*LARGE",
        1,
        "Sanford City Council At-Large: 1 seat a cycle, two at-large members on staggered "
        "four-year terms (City of Sanford, 'City Council'; every November ballot 2011-2025 "
        "has one nominee per party for it)",
    ),
)


_SINGLE = re.compile(r"\bMAYOR\b|\bWARD\b|\bDISTRICT\b", re.IGNORECASE)
_AT_LARGE = re.compile(r"AT[- ]?\s*LARGE", re.IGNORECASE)


def single_office(town: str, office: str) -> SeatRule | None:
    """A rule of one seat for an office that names a mayor, one ward or one district (and is not
    at large), for the towns the table does not know; None otherwise.

    >>> single_office("Shelby", "City Council Ward 3").seats
    1
    >>> single_office("Shelby", "City Council At-Large Ward 3") is None
    True
    """
    if _SINGLE.search(office) and not _AT_LARGE.search(office):
        return SeatRule(
            town,
            re.escape(office),
            1,
            "a single office: the contest names a mayor, one ward or one district",
        )
    return None


def seats_for(town: str, contest: str, year: int) -> SeatRule | None:
    """The rule giving the seat count of ``contest`` (a contest name as in the results) of
    ``town`` in ``year``, or None when the table does not know it."""
    for rule in (*SEAT_RULES, *PRIMARY_SEAT_RULES):
        if rule.matches(town, contest, year):
            return rule
    return None

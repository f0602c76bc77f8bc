"""Matching what the results files name: an office across two files (an October contest and its
November runoff or general election), a candidate across spellings, the town a contest belongs
to, and what kind of contest an October one is.

October and November contests are paired by office name, normalised (:func:`office_key`: case,
punctuation, ``(RUNOFF)``, zero-padded ward numbers; :func:`loose_key` also forgives filler
words); candidates by name (:func:`same_person`: spelling of initials, middle names, suffixes
and nicknames).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from enum import StrEnum

from simulator.input.importer import ContestReturns, ResultsFile, contest_key, split_contest_name
from simulator.model.events import is_write_in

# ---------------------------------------------------------------------------------------------
# Offices


@functools.lru_cache(maxsize=1 << 16)  # one key per contest name, not one per pairing tried
def office_key(name: str) -> str:
    """A contest name for pairing an October contest with its November runoff.

    >>> office_key("CITY OF ROCKY MOUNT CITY COUNCIL WARD 07 (RUNOFF)")
    'CITY OF ROCKY MOUNT CITY COUNCIL WARD 7'
    >>> office_key("City of Henderson Alderman - Ward 3")
    'CITY OF HENDERSON ALDERMAN WARD 3'
    """
    text = name.upper()
    text = re.sub(r"\(\s*(?:RUNOFF|RUN-OFF|SECOND ELECTION)\s*\)", " ", text)
    text = re.sub(r"\b(?:RUNOFF|RUN-OFF)(?: ELECTION)?\b", " ", text)
    text = re.sub(r"[^A-Z0-9()]+", " ", text)
    text = re.sub(r"\b0+(\d)", r"\1", text)
    return " ".join(text.split())


_PARTY_NAME = re.compile(r"\s*(?:-\s*|\(\s*)(DEM|REP|LIB|UNA|GRE|CST)\s*\)?\s*$", re.IGNORECASE)
_FILLER = frozenset({"CITY", "TOWN", "VILLAGE", "OF", "MEMBER", "MEMBERS"})
_ROMAN = {"I": "1", "II": "2", "III": "3", "IV": "4", "V": "5", "VI": "6", "VII": "7"}


def party_of(name: str) -> str | None:
    """The party a contest's name gives (``... (DEM)``, ``... - DEM``), if any.

    >>> party_of("CITY OF CHARLOTTE MAYOR - DEM"), party_of("CITY OF CHARLOTTE MAYOR (REP)")
    ('DEM', 'REP')
    >>> party_of("CITY OF DURHAM MAYOR") is None
    True
    """
    m = _PARTY_NAME.search(name)
    return m.group(1).upper() if m else None


def without_party(name: str) -> str:
    """A contest's name without the party :func:`party_of` reads in it."""
    return _PARTY_NAME.sub("", name)


@functools.lru_cache(maxsize=1 << 14)  # each contest name is keyed for several look-ups
def loose_key(name: str) -> str:
    """An office key that also forgives filler words (``COUNCIL DISTRICT 3`` = ``CITY COUNCIL
    DISTRICT 3``) and the councilman / council spelling.

    >>> loose_key("CITY OF GREENSBORO COUNCIL DISTRICT 3")
    'GREENSBORO COUNCIL DISTRICT 3'
    >>> loose_key("City of Greensboro City Council District 03")
    'GREENSBORO COUNCIL DISTRICT 3'
    >>> loose_key("CITY OF LINCOLNTON COUNCIL MEMBER WARD II (DEM)")
    'LINCOLNTON COUNCIL WARD 2'
    """
    words = office_key(without_party(name)).split()
    words = [re.sub(r"^(COUNCIL|ALDER|COMMISSION)(?:MAN|MEN|ER|ERS)$", r"\1", w) for w in words]
    words = [
        _ROMAN.get(w, w) if i and words[i - 1] in ("WARD", "DISTRICT") else w
        for i, w in enumerate(words)
    ]
    return " ".join(w for w in words if w not in _FILLER)


def match_contest(october: str, november: Iterable[ContestReturns]) -> list[ContestReturns]:
    """The November contests with the same office as the October contest ``october``."""
    key = office_key(october)
    if isinstance(november, tuple):  # a file's contests: indexed by office once
        held = _BY_OFFICE.get(id(november))
        if held is None or held[0] is not november:
            index: dict[str, list[ContestReturns]] = {}
            for c in november:
                index.setdefault(office_key(c.name), []).append(c)
            held = _BY_OFFICE[id(november)] = (november, index)
        return list(held[1].get(key, ()))
    return [c for c in november if office_key(c.name) == key]


#: id of a file's tuple of contests -> (that tuple, its contests by office key)
_BY_OFFICE: dict[int, tuple[tuple[ContestReturns, ...], dict[str, list[ContestReturns]]]] = {}


class OfficeIndex:
    """A results file's contests by office key, computed once per file."""

    def __init__(self, results: ResultsFile | None) -> None:
        self.exact: dict[str, list[ContestReturns]] = {}
        self.loose: dict[str, list[ContestReturns]] = {}
        for c in results.contests if results is not None else ():
            self.exact.setdefault(office_key(without_party(c.name)), []).append(c)
            self.loose.setdefault(loose_key(c.name), []).append(c)

    def find(self, name: str, *, party: str | None = None) -> list[ContestReturns]:
        """The contests for the same office (and, when given, named with the same party)."""
        for table, key in (
            (self.exact, office_key(without_party(name))),
            (self.loose, loose_key(name)),
        ):
            hits = [c for c in table.get(key, []) if party_of(c.name) == party]
            if hits:
                return hits
        return []


_NOT_OFFICES = re.compile(
    r"\b(BONDS?|REFERENDUM|REFERENDA|QUESTION|SALES|TAX|BEVERAGE)\b", re.IGNORECASE
)


def is_office(returns: ContestReturns) -> bool:
    """Whether a contest fills an office: not a bond, a referendum or another question."""
    if _NOT_OFFICES.search(returns.name):
        return False
    names = {c.casefold() for c in returns.candidates}
    return not names or not names <= {"yes", "no", "for", "against"}


# ---------------------------------------------------------------------------------------------
# Candidates


_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv", "v"})


@functools.lru_cache(maxsize=1 << 14)  # each name is compared with several others
def _person(name: str) -> tuple[str, ...]:
    name = re.sub(r"\([^)]*\)", " ", name)  # nicknames, and the (Write-In) mark
    return tuple(t for t in re.findall(r"[a-z]+", name.casefold()) if t not in _SUFFIXES)


def _given(x: str, y: str) -> bool:
    """Two given names agree: equal, an initial of the other, or one a short form (Rob,
    Robert)."""
    return x.startswith(y) or y.startswith(x)


def same_person(a: str, b: str) -> bool:
    """Whether two spellings in results files name the same candidate: the same surname and a
    given name in common (an initial matches its name), ignoring punctuation, suffixes and
    nicknames in parentheses.

    >>> same_person("J. D. Williams", "J.D. Williams")
    True
    >>> same_person("Harry Archer III", "Harry Archer")
    True
    >>> same_person("Michael E. Brooks", "Michael Brooks"), same_person("Billy Tart", "Bob Tart")
    (True, False)
    """
    if contest_key(a) == contest_key(b):
        return True
    ta, tb = _person(a), _person(b)
    if len(ta) < 2 or len(tb) < 2 or ta[-1] != tb[-1]:
        return False
    return any(_given(x, y) for x in ta[:-1] for y in tb[:-1])


# ---------------------------------------------------------------------------------------------
# Towns


def town_of(contest_name: str, towns: Sequence[str]) -> str | None:
    """Which of ``towns`` a contest belongs to (CITY/TOWN/VILLAGE OF that town), if any."""
    return _town_of(contest_name, tuple(towns))


@functools.lru_cache(maxsize=1 << 14)  # each contest name is looked at by several checks
def _town_of(contest_name: str, towns: tuple[str, ...]) -> str | None:
    place = town_name(contest_name)
    if place is None:
        return None
    for town in towns:
        if place.casefold() == town.casefold():
            return town
    return None


def town_name(name: str) -> str | None:
    """The town a municipal contest names (without CITY/TOWN/VILLAGE OF), as written; None for
    a contest that is not a municipality's."""
    municipality, _ = split_contest_name(name)
    if not municipality:
        return None
    place = re.sub(r"^(?:city|town|village) of ", "", municipality, flags=re.IGNORECASE)
    return place


# ---------------------------------------------------------------------------------------------
# October contests


class OctoberKind(StrEnum):
    """What an October contest is, told from the data (how: the docstring of
    :mod:`simulator.analysis.conformance.primaries`)."""

    NONPARTISAN_PRIMARY = "nonpartisan primary"
    SECOND_PRIMARY = "second primary"
    ELECTION = "election"


def october_kind(returns: ContestReturns) -> tuple[OctoberKind, str]:
    """What an October contest is, and the evidence: a party in its name makes it a second
    primary, a write-in line an election, anything else a nonpartisan primary."""
    if party_of(returns.name):
        return OctoberKind.SECOND_PRIMARY, "the contest is named with a party"
    write_ins = [n for n in returns.candidates if is_write_in(n)]
    if write_ins:
        return OctoberKind.ELECTION, "the ballot has a write-in line, which a primary has not"
    return OctoberKind.NONPARTISAN_PRIMARY, "no write-in line: a primary ballot"

"""A nominee named by a party executive committee (163-114, 08 NCAC 06B .0104): rule tables
(see :mod:`simulator.law.rules`).

- ``nominee``: is there a nomination to make, and can the person named serve (163-114)?
- ``nominee-place``: does the nominee take the place of a name left on general election ballots
  not reprinted (08 NCAC 06B .0104)?
- ``nominated-twice``: the count nominates a person the party's executive committee already
  named for another place: who takes the count's place?
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from enum import StrEnum

import attrs

from simulator.law.rules import Gap, Rule, Table


class Nomination(StrEnum):
    """What becomes of a nominee a party names (a refusal's value is the reason users see)."""

    NOMINATED = "nominated"
    NO_VACANCY = "no vacancy to fill"
    CANNOT_SERVE = "cannot serve"  # the reason names how: "candidate died", "... disqualified"
    ALREADY_NOMINEE = "already a nominee"  # the person holds a nomination for the office already


@attrs.frozen
class NomineeFacts:
    to_fill: bool  # a nomination is left for the party to make
    departed: bool  # the person named died or was disqualified earlier in this contest
    #: the person named is already nominated for this office, or stands on the election's
    #: ballot already
    holds: bool = False


def _nominee_facts() -> Iterator[NomineeFacts]:
    for to_fill, departed, holds in itertools.product((False, True), repeat=3):
        if not (departed and holds):
            yield NomineeFacts(to_fill, departed, holds)


NOMINEE: Table[NomineeFacts, Nomination] = Table(
    "nominee",
    "a party executive committee names a nominee: is the person nominated?",
    (
        Rule(
            id="no-vacancy-to-fill",
            cite="163-114",
            summary="the committee fills a vacancy in a nomination: with none left, naming "
            "changes nothing",
            applies=lambda f: not f.to_fill,
            effect=Nomination.NO_VACANCY,
        ),
        Rule(
            id="nominee-cannot-serve",
            cite="163-114",
            summary="the vacancy is filled with a person who can serve: one who died or was "
            "disqualified cannot be the nominee, and the vacancy stays open",
            applies=lambda f: f.to_fill and f.departed,
            effect=Nomination.CANNOT_SERVE,
        ),
        Rule(
            id="already-a-nominee",
            cite="163-114",
            summary="the vacancy is filled with another person: one who already holds a "
            "nomination for the office (or stands on its ballot) cannot fill a second place, and "
            "the vacancy stays open",
            applies=lambda f: f.to_fill and not f.departed and f.holds,
            effect=Nomination.ALREADY_NOMINEE,
        ),
        Rule(
            id="nominee-named",
            cite="163-114",
            summary="the committee names a nominee for the vacancy in the nomination",
            applies=lambda f: f.to_fill and not f.departed and not f.holds,
            effect=Nomination.NOMINATED,
        ),
    ),
    facts=_nominee_facts,
)


class Twice(StrEnum):
    """A place the count gives to a person the party's executive committee already named."""

    COMMITTEE_FILLS = "committee_fills"  # the count's place goes to the committee to fill


@attrs.frozen
class TwiceFacts:
    #: the person the count nominates was named by the committee for another place first
    by_committee: bool = True


TWICE: Table[TwiceFacts, Twice] = Table(
    "nominated-twice",
    "the count nominates a person the party's executive committee already named for another "
    "place: who takes the count's place?",
    (),
    gaps=(
        Gap(
            "nominated-twice",
            ("163-114", "163-111(b)"),
            "the executive committee filled a vacancy in the nomination with a candidate whose "
            "own place in the primary was still undecided, and the count then gives them that "
            "place too: one person cannot hold two of the party's nominations for the office, "
            "and neither section says which place they keep",
            "they keep the committee's nomination, and the place the count gives them is a "
            "vacancy in the nomination for the committee to fill",
            lambda f: f.by_committee,
            Twice.COMMITTEE_FILLS,
        ),
    ),
    facts=lambda: (TwiceFacts(True),),
    asked=(
        "{name}, named nominee by the party's executive committee, also takes a place in the count"
    ),
)


class Place(StrEnum):
    IN_PLACE = "in_place"  # votes for the name left on the ballots are the nominee's
    OWN_NAME = "own_name"  # the nominee stands under their own name


@attrs.frozen
class PlaceFacts:
    general_election: bool  # the contest's stage is the general election
    name_left: bool  # a departed candidate's name waits on ballots not reprinted, not yet replaced


def _place_facts() -> Iterator[PlaceFacts]:
    for general, left in itertools.product((False, True), (False, True)):
        yield PlaceFacts(general, left)


#: what the ruling on a nominee a party names says, by the ``nominee`` table's finding ({name}:
#: who was named; {verb}: how a departed candidate left; {holds}: what the person holds already)
NOMINEE_WORDS: dict[Nomination, str] = {
    Nomination.NO_VACANCY: "{name} was named, but no nomination is for the party to make",
    Nomination.CANNOT_SERVE: "{name} was named nominee but {verb} before being named",
    Nomination.ALREADY_NOMINEE: (
        "{name} was named nominee but already {holds} for this office: the vacancy stays open"
    ),
}
#: the reason the ruling on a nominee who cannot serve gives ({status}: how the nominee left)
CANNOT_SERVE_REASON = "candidate {status}"
#: what one named nominee already holds (``{holds}``), by whether the person is a nominee
#: already (or stands on the ballot)
HOLDS: dict[bool, str] = {True: "holds a nomination", False: "stands on the ballot"}


NOMINEE_PLACE: Table[PlaceFacts, Place] = Table(
    "nominee-place",
    "a nominee is named: does the nominee take the place of a name left on the ballots?",
    (
        Rule(
            id="nominee-in-place",
            cite="08 NCAC 06B .0104",
            summary="general election ballots not reprinted keep a departed candidate's name: the "
            "votes cast for it count for the nominee named in that candidate's place",
            applies=lambda f: f.general_election and f.name_left,
            effect=Place.IN_PLACE,
        ),
        Rule(
            id="nominee-own-name",
            cite="163-114",
            summary="no ballot left unreprinted carries a departed candidate's name in this "
            "stage: the nominee stands under their own name",
            applies=lambda f: not (f.general_election and f.name_left),
            effect=Place.OWN_NAME,
        ),
    ),
    facts=_place_facts,
)

#: what the ruling that names a nominee says, by the ``nominee-place`` table's finding ({name}:
#: the nominee; {replaces}: the departed candidate whose name is left on the ballots)
NAMED_WORDS: dict[Place, str] = {
    Place.IN_PLACE: "the party executive committee names {name} as nominee in place of {replaces}",
    Place.OWN_NAME: "the party executive committee names {name} as nominee",
}


#: a place the count gives a candidate who left on or after the primary day, a vacancy in the
#: nomination (`left_after_primary_day`: committee_fills) ({name}, {status}: who, and how they
#: stand; {threshold}; {votes}: theirs)
LEFT_AFTER_PRIMARY_DAY = (
    "{name} ({status}) polled over the threshold of {threshold} ({votes}) but left the race on or "
    "after the primary day: the place is a vacancy in the nomination, and the party executive "
    "committee names 1 nominee (left_after_primary_day: committee_fills)"
)

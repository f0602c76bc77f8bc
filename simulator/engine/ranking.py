"""Ranking candidates by votes, and places decided by ties and lots (pure functions)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import attrs


def ranked(tally: Mapping[str, int], names: Iterable[str]) -> list[tuple[str, int]]:
    """Candidates best first; equal votes keep a stable, name-ordered position.

    >>> ranked({"A": 3, "B": 5}, ["A", "B", "C"])
    [('B', 5), ('A', 3), ('C', 0)]
    """
    return sorted(((n, tally.get(n, 0)) for n in set(names)), key=lambda nv: (-nv[1], nv[0]))


@attrs.frozen
class Selection:
    """The ``places`` best of a ranking, or the tie a lot must settle first."""

    chosen: tuple[str, ...]  # decided places, best first
    tie_pool: tuple[str, ...] = ()  # candidates tied across the boundary
    tie_places: int = 0  # places a lot must still give among the pool
    lot_winners: tuple[str, ...] = ()  # places already given by lot

    @property
    def tied(self) -> bool:
        return self.tie_places > 0

    @property
    def decided_by_lot(self) -> bool:
        return bool(self.lot_winners)


def select(
    people: Sequence[tuple[str, int]],
    places: int,
    lots: Sequence[str] = (),
    *,
    harmless_ties: bool = True,
) -> Selection:
    """Choose the best ``places``; a tie across the boundary needs a lot (`harmless_ties`: a tie
    inside the chosen group or below the boundary does not matter).

    ``lots`` are winners the board drew, in order; each fills one tied place, so a place already
    drawn is chosen even while other tied places still wait for a drawing.

    >>> select([("A", 300), ("B", 250), ("C", 250), ("D", 100)], 2)
    Selection(chosen=('A',), tie_pool=('B', 'C'), tie_places=1, lot_winners=())
    >>> select([("A", 300), ("B", 250), ("C", 250), ("D", 100)], 2, ["C"]).chosen
    ('A', 'C')
    >>> select([("A", 3), ("B", 2), ("C", 2), ("D", 2)], 3, ["D"])
    Selection(chosen=('A', 'D'), tie_pool=('B', 'C', 'D'), tie_places=1, lot_winners=('D',))

    With ``harmless_ties=False`` (``harmless_ties: false``) a tie between candidates who
    would all take places must also be settled by lot, which ranks them:

    >>> select([("A", 5), ("B", 5), ("C", 1)], 2, harmless_ties=False)
    Selection(chosen=(), tie_pool=('A', 'B'), tie_places=1, lot_winners=())
    >>> select([("A", 5), ("B", 5), ("C", 1)], 2, ["B"], harmless_ties=False).chosen
    ('B', 'A')
    """
    if places <= 0:
        return Selection(())
    if not harmless_ties:
        inside = _tie_inside(people, places, lots)
        if inside is not None:
            return inside
    if len(people) <= places:
        return Selection(tuple(n for n, _ in people))
    boundary = people[places - 1][1]
    if people[places][1] != boundary:
        return Selection(tuple(n for n, _ in people[:places]))
    sure = tuple(n for n, v in people if v > boundary)
    pool = tuple(n for n, v in people if v == boundary)
    k = places - len(sure)
    drawn = tuple(n for n in dict.fromkeys(lots) if n in pool)
    if len(drawn) >= k:
        return Selection(sure + drawn[:k], lot_winners=drawn[:k])
    return Selection(sure + drawn, tie_pool=pool, tie_places=k - len(drawn), lot_winners=drawn)


def _tie_inside(
    people: Sequence[tuple[str, int]], places: int, lots: Sequence[str]
) -> Selection | None:
    """The first tie among candidates who all take places, while lots have not ranked it."""
    top = people[:places]
    for i, (_, votes) in enumerate(top):
        group = tuple(n for n, v in people if v == votes)
        if (
            len(group) < 2
            or len(top) - i < len(group)
            or any(v == votes for _, v in people[places:])
        ):
            continue  # no tie here, or it straddles the boundary (the general rule handles it)
        sure = tuple(n for n, _ in top[:i])
        drawn = tuple(n for n in dict.fromkeys(lots) if n in group)
        if len(drawn) >= len(group) - 1:
            ranked_group = drawn + tuple(n for n in group if n not in drawn)
            rest = tuple(n for n, _ in top[i + len(group) :])
            return Selection(sure + ranked_group + rest, lot_winners=drawn)
        return Selection(
            sure + drawn, tie_pool=group, tie_places=len(group) - 1 - len(drawn), lot_winners=drawn
        )
    return None

"""Ranking classes of the returns and the integer votes realizing each exactly.

A class is a weak order of the ballot's candidates (groups of tied candidates, best first) and,
for the methods that read a threshold (majority of G.S. 163-293(a), substantial plurality of
163-111(a)), how many leading groups are above it and whether the next is exactly at it. The
methods read a ranking only so deep (:func:`depth`, :func:`read_depth`, :func:`leading`): one
canonical class stands for those that agree on the places read.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from fractions import Fraction
from functools import cache

import attrs

from simulator.analysis.explore.config import YEAR
from simulator.law.calendar import statutory_calendar
from simulator.law.parameters import in_force
from simulator.law.vocab import DeadlineKind, Method


@attrs.frozen
class VoteClass:
    """A weak order of the ballot's candidates: group sizes best first, plus the threshold.

    ``above`` counts the leading groups strictly above the threshold and ``at`` says whether the
    next group is exactly at it (``None``: the method reads no threshold).
    """

    groups: tuple[int, ...]
    above: int | None = None
    at: bool = False

    def describe(self) -> str:
        ranks = "|".join(str(g) for g in self.groups)
        if self.above is None:
            return f"ranking {ranks}"
        edge = ", the next exactly at it" if self.at else ""
        return f"ranking {ranks}, {self.above} group(s) above the threshold{edge}"


def compositions(n: int) -> Iterator[tuple[int, ...]]:
    """Every ordered split of ``n`` tied candidates into groups (``2 ** (n - 1)`` of them)."""
    if n == 0:
        yield ()
        return
    for first in range(n, 0, -1):
        for rest in compositions(n - first):
            yield (first, *rest)


def threshold_share(method: Method, seats: int) -> Fraction | None:
    """The share of the total a candidate must pass, as the engine reads it (None: no threshold).

    G.S. 163-293(a): more than half the total per seat; 163-111(a): more than the substantial
    plurality in force, per seat. Plurality and the nonpartisan primary read only the ranking.
    """
    if method is Method.RUNOFF:
        return Fraction(1, 2 * seats)
    if method is Method.PARTISAN:
        day = next(
            d.due.date()
            for d in statutory_calendar(YEAR, method)
            if d.kind is DeadlineKind.PRIMARY_DAY
        )
        return in_force("substantial_plurality", day).value / seats
    return None


def depth(method: Method, seats: int, departures: int = 0) -> int:
    """How many places of the ranking the method reads, best first, with ``departures`` places
    more (a departed candidate in a leading place moves the live ones down).

    Plurality reads the boundary after the last seat (G.S. 163-292); the nonpartisan primary the
    boundary after twice the seats (163-294). The majority method and the partisan primary read
    who is above the threshold among the places that can take a seat, and the runner-up
    boundaries after twice the seats (163-293(b), 163-111(b)-(c)): where more candidates pass the
    threshold than there are seats, those with the highest votes take them (163-293(a),
    163-111(a)(2)), so whether a candidate below place ``2 x seats + 1`` is above it is read by
    no rule. (A test compares the outcomes with those of the whole rankings.)
    """
    places = seats + 1 if method is Method.PLURALITY else 2 * seats + 1
    return places + departures


def truncated(vc: VoteClass, places: int) -> bool:
    """Whether ``vc`` is the canonical one of the classes that agree on the first ``places``
    places: below the group holding place ``places``, every candidate is alone and under the
    threshold (those places are read by no rule, so one representative stands for them all)."""
    seen = 0
    for i, g in enumerate(vc.groups):
        seen += g
        if seen >= places:
            tail = vc.groups[i + 1 :]
            reach = (vc.above or 0) + (1 if vc.at else 0)
            return all(t == 1 for t in tail) and reach <= i + 1
    return True


def vote_classes(
    method: Method, seats: int, n: int, *, places: int | None = None, lead: int | None = None
) -> Iterator[VoteClass]:
    """The ranking classes of ``n`` candidates on the ballot; with ``places``, only the canonical
    class of each set of classes that agree on the first ``places`` places; with ``lead``, only
    the canonical class of each set that agree on which of the first ``lead`` places are above
    the threshold (see :func:`leading`)."""
    share = threshold_share(method, seats)
    for groups in compositions(n):
        if share is None:
            found = [VoteClass(groups)]
        else:
            found = []
            top = len(groups) if lead is None else _groups_over(groups, lead)
            for above in range(top + 1):
                found.append(VoteClass(groups, above, False))
                if above < top:
                    found.append(VoteClass(groups, above, True))
        for vc in found:
            if places is None or truncated(vc, read_depth(vc, places, seats)):
                yield vc


def read_depth(vc: VoteClass, places: int, seats: int) -> int:
    """How deep ``vc``'s ranking is read, of the ``places`` (:func:`depth`) its method reads.

    Each candidate over the threshold takes a seat (up to the seats), and only the seats left
    open carry runners-up: the best placed for those seats and as many below them who may ask
    for the next round (G.S. 163-293(b), 163-111(b)-(c)), and the boundary after them. So a
    class with ``f`` candidates over the threshold is read ``f`` places less deep."""
    if vc.above is None:
        return places
    over = sum(vc.groups[: vc.above])
    return places - min(over, seats)


def leading(seats: int, departures: int = 0) -> int:
    """How many places, best first, the threshold is read for: the seats, with ``departures``
    places more (a departed candidate above moves the live ones down).

    Where more candidates pass the threshold than there are seats, those with the highest votes
    take them (G.S. 163-293(a), 163-111(a)(2)) and the others are runners-up like any below it,
    so whether a candidate further down passes it, or stands exactly at it, is read by no rule:
    one class (those places under it) stands for all that agree above. (A test compares the
    outcomes with those of every class.)
    """
    return seats + departures


def _groups_over(groups: Sequence[int], places: int) -> int:
    """How many of the leading groups it takes to hold the first ``places`` places."""
    seen = 0
    for i, g in enumerate(groups):
        seen += g
        if seen >= places:
            return i + 1
    return len(groups)


def classify(counts: Sequence[int], share: Fraction | None) -> VoteClass:
    """The class of a vector of counts (best first), exactly."""
    groups: list[int] = []
    values: list[int] = []
    for v in counts:
        if values and values[-1] == v:
            groups[-1] += 1
        else:
            groups.append(1)
            values.append(v)
    if share is None:
        return VoteClass(tuple(groups))
    t = share * sum(counts)
    above = sum(1 for v in values if v > t)
    at = above < len(values) and values[above] == t
    return VoteClass(tuple(groups), above, at)


def feasible(vc: VoteClass, share: Fraction | None) -> bool:
    """Whether some positive votes realize ``vc`` (exactly, from the bounds of the total).

    In units of the threshold the total is ``1 / share``. Groups above the threshold are
    unbounded above and strictly above 1, a group at it is exactly 1, the rest lie strictly
    between 0 and the group before; the sum of a convex region is an interval, so the class is
    realizable exactly when ``1 / share`` lies inside it.
    """
    if share is None or vc.above is None:
        return True
    total = 1 / share
    p, g, m = vc.above, vc.groups, len(vc.groups)
    if p > 0:
        return total > sum(g[:p]) + (g[p] if vc.at else 0)
    if vc.at:
        return total == g[0] if m == 1 else g[0] < total < sum(g)
    return 0 < total < sum(g)


def _point(vc: VoteClass, eps: Fraction, high: Fraction | None) -> list[Fraction]:
    """A point of the class's region, one value per group, in units of the threshold: near the
    least total (``high`` None) or with the leading groups at ``high`` and more."""
    p, m = vc.above or 0, len(vc.groups)
    xs: list[Fraction] = []
    for i in range(m):
        if i < p:
            xs.append((high if high is not None else Fraction(1)) + eps * (p - i))
        elif i == p and vc.at:
            xs.append(Fraction(1))
        elif p == 0 and high is not None:  # nothing above: the most the rest can have
            xs.append(1 - eps * (i + 1))
        else:
            xs.append(eps * (m - i))
    return xs


@cache
def realize(vc: VoteClass, share: Fraction | None) -> tuple[int, ...] | None:
    """Positive integer votes (best first) whose class is exactly ``vc``; None if infeasible.

    Two points of the class's (convex) region whose totals bracket the required total are
    interpolated, scaled to integers near 1,000 and checked exactly with Fraction. A class that
    :func:`feasible` admits but that no votes are found for is a defect: it raises.
    """
    m = len(vc.groups)
    if m == 0:
        return ()

    def expand(values: Sequence[int]) -> tuple[int, ...]:
        return tuple(v for v, g in zip(values, vc.groups, strict=True) for _ in range(g))

    if share is None or vc.above is None:
        return expand([100 * (m - i) for i in range(m)])
    if not feasible(vc, share):
        return None
    total = 1 / share

    def weight(xs: Sequence[Fraction]) -> Fraction:
        return sum((x * g for x, g in zip(xs, vc.groups, strict=True)), Fraction(0))

    eps = Fraction(1, 4 * (m + 1))
    for _ in range(60):
        lo = _point(vc, eps, None)
        hi = _point(vc, eps, Fraction(1) + total if (vc.above or 0) > 0 else Fraction(1))
        wl, wh = weight(lo), weight(hi)
        if wl == wh == total:
            xs = lo
        elif wl < total < wh or (wl == total and wl == wh):
            theta = (total - wl) / (wh - wl)
            xs = [a + theta * (b - a) for a, b in zip(lo, hi, strict=True)]
        else:
            eps /= 2
            continue
        scale = 1
        for x in xs:
            scale = scale * x.denominator // math.gcd(scale, x.denominator)
        ints = [int(x * scale) for x in xs]
        size = sum(v * g for v, g in zip(ints, vc.groups, strict=True))
        ints = [v * max(1, 1000 // size) for v in ints]
        counts = expand(ints)
        if classify(counts, share) != vc:
            break
        return counts
    raise AssertionError(f"no votes found for a feasible class: {vc.describe()}")


def distinct_places(vc: VoteClass, places: int | None, seats: int) -> list[int]:
    """The groups a candidate can be told apart in: every group, or with ``places`` (those the
    method reads: :func:`depth`) only those up to the first group wholly below the places read
    of this class (:func:`read_depth`; it stands for the rest)."""
    if places is None:
        return list(range(len(vc.groups)))
    places = read_depth(vc, places, seats)
    seen = 0
    for i, g in enumerate(vc.groups):
        seen += g
        if seen >= places:
            return list(range(min(i + 2, len(vc.groups))))
    return list(range(len(vc.groups)))

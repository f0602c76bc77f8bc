"""Candidates' names as a scenario writes them: each name spelt once per scenario (a later
spelling that differs only by Unicode form, invisible characters or spacing becomes the first),
and two spellings that differ by letter case in one contest reported (nothing is merged
silently)."""

from __future__ import annotations

from itertools import islice
from typing import Any

from simulator.input.loader.values import normal_name, without_invisible
from simulator.input.parse.messages import RawProblem, show


def folded_id(cid: str) -> str:
    """A contest id, letter case, spacing and invisible characters aside."""
    return normal_name(cid).casefold()


class Spellings:
    """Every candidate's name, spelt once: each later spelling that differs only by Unicode form,
    invisible characters or spacing becomes the first (without its surrounding whitespace); two
    spellings that differ by letter case in one contest are a problem (nothing is merged
    silently)."""

    def __init__(self, problems: list[RawProblem]) -> None:
        self.problems = problems
        self.known: dict[tuple[str, str], str] = {}  # (contest, as written) -> first spelling
        self.first: dict[str, str] = {}  # normal form -> first spelling, in the whole scenario
        #: (contest, case-folded normal form) -> (normal form, event index, path, line)
        self.folded: dict[tuple[str, str], tuple[str, int, tuple[Any, ...], int | None]] = {}
        self.clashed: set[tuple[str, str]] = set()  # (contest, spelling) reported already
        #: ``known`` by contest (see by_contest), up to its first ``by_size`` entries
        self.written: dict[str, dict[str, str]] = {}
        self.spelt: dict[str, set[str]] = {}
        self.by_size = 0
        #: each first spelling -> its one contest, made for ``known``'s first ``owned`` entries
        #: (None: a name in two contests)
        self.owned = -1
        self.owner: dict[str, str] | None = None
        self.verbatim = False  # every name of ``known`` written as first spelt (see owners)

    def by_contest(self) -> tuple[dict[str, dict[str, str]], dict[str, set[str]]]:
        """``known`` by contest: each contest's names as written -> first spelling, and each
        contest's first spellings; brought up to date with ``known`` (which only grows, in
        order) as they are asked for."""
        known = self.known
        if self.by_size != len(known):
            for (contest, written), first in islice(known.items(), self.by_size, None):
                self.written.setdefault(contest, {})[written] = first
                self.spelt.setdefault(contest, set()).add(first)
            self.by_size = len(known)
        return self.written, self.spelt

    def owners(self) -> dict[str, str] | None:
        """Each name (as first spelt) -> the one contest it is spelt in, or None where a name
        is spelt in two contests. A new mapping whenever ``known`` grew: one given out is
        never changed."""
        _, spelt = self.by_contest()
        if self.owned != self.by_size:
            owner: dict[str, str] | None = {}
            for contest, names in spelt.items():
                for name in names:
                    if owner.setdefault(name, contest) != contest:  # type: ignore[union-attr]
                        owner = None
                        break
                if owner is None:
                    break
            self.owner, self.owned = owner, self.by_size
            self.verbatim = all(w == first for (_, w), first in self.known.items())
        return self.owner

    def verbatim_owners(self) -> dict[str, str] | None:
        """:meth:`owners`, where every name known was written as first spelt (so a name as
        written is spelt in the contest it maps to, and needs no look-up by contest); else
        None."""
        owner = self.owners()
        return owner if self.verbatim else None

    def spell(self, contest: str, name: str, i: int, sub: tuple[Any, ...], line: int | None) -> str:
        known = self.known.get((contest, name))
        if known is not None:
            return known
        normal = normal_name(name)
        first = self.first.setdefault(normal, without_invisible(name).strip())
        folded = (contest, normal.casefold())
        seen = self.folded.setdefault(folded, (normal, i, sub, line))
        if seen[0] != normal:
            self.clashed.add((contest, first))
            there = f"events[{seen[1]}]" + (f" (line {seen[3]})" if seen[3] is not None else "")
            self.problems.append(
                (
                    ("events", i, *sub),
                    f"one spelling of each candidate's name in contest {contest!r}: "
                    f"{show(self.first[seen[0]])} at {there} differs from this one only in "
                    "letter case (write the name the same way in every event)",
                    show(name),
                    None,
                )
            )
        else:
            self.known[contest, name] = first
        return first

    def counts(
        self, contest: str, counts: dict[str, int], i: int, line: int | None
    ) -> dict[str, int]:
        out: dict[str, int] = {}
        written: dict[str, str] = {}
        for name, votes in counts.items():
            first = self.spell(contest, name, i, ("counts", name), line)
            if first in out:
                other, found = show(written[first]), show(name)
                if normal_name(found) == normal_name(other):  # (they would look the same)
                    other, found = ascii(written[first]), ascii(name)
                self.problems.append(
                    (
                        ("events", i, "counts", name),
                        f"each candidate once in `counts`: this name is the same as {other} but "
                        "for spacing, invisible characters or how its accents are encoded",
                        found,
                        None,
                    )
                )
                continue
            out[first] = votes
            written[first] = name
        return dict(sorted(out.items())) if len(out) > 1 else out

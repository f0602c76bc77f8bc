"""Citations: every ruling and deadline names the section and subsection it comes from.

A :class:`Cite` renders as ``G.S. 163-293(b)(1)`` and links to the section on ncleg.gov.
"""

from __future__ import annotations

import functools

import attrs

NCLEG = (
    "https://www.ncleg.gov/EnactedLegislation/Statutes/HTML/BySection/Chapter_{ch}/GS_{sec}.html"
)
NCAC = "http://reports.oah.state.nc.us/ncac/title%2008%20-%20elections/chapter%2006%20-%20partisan%20elections/subchapter%20b/08%20ncac%2006b%20.0104.html"


@attrs.frozen
class Cite:
    """One citation: a General Statutes section and an optional subsection path."""

    section: str  # "163-293"
    sub: str = ""  # "(b)(1)"

    def __str__(self) -> str:
        if self.section.startswith("08 NCAC"):
            return self.section
        return f"G.S. {self.section}{self.sub}"

    @property
    def url(self) -> str:
        if self.section.startswith("08 NCAC"):
            return NCAC
        chapter = self.section.split("-")[0]
        return NCLEG.format(ch=chapter, sec=self.section)


def gs(section: str, sub: str = "") -> Cite:
    """A General Statutes citation: ``gs("163-293", "(c)")``."""
    return Cite(section, sub)


def join(*cites: Cite) -> str:
    """Several citations as one string, for rulings that rest on more than one section."""
    return joined(cites)


@functools.lru_cache(maxsize=1024)
def joined(cites: tuple[Cite, ...]) -> str:
    """Citations as one line: ``G.S. 163-293(a); G.S. 163-293(c)`` (a replay's rulings and
    deadlines cite a few provisions many times over: each line is written once)."""
    return "; ".join(str(c) for c in cites)


NCAC_LATE_CHANGES = Cite("08 NCAC 06B .0104")


@functools.lru_cache(maxsize=1024)
def statute(text: str) -> Cite:
    """A citation written as one string, the way a lawyer greps for it: ``statute("163-294.4(c)")``
    (a bare section, ``"163-114"``, has no subsection; ``"08 NCAC 06B .0104"`` is the rule).
    A citation is a value: the same text gives the same one, made once."""
    text = text.removeprefix("G.S. ").strip()
    if text.startswith("08 NCAC"):
        return Cite(text)
    section, paren, rest = text.partition("(")
    return Cite(section, paren + rest)


def key(c: Cite | str) -> str:
    """The one-string form of a citation (``163-294.4(c)``), as :func:`cite` reads it."""
    c = statute(c) if isinstance(c, str) else c
    return c.section if c.section.startswith("08 NCAC") else f"{c.section}{c.sub}"

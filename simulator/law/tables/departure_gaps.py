"""The gaps of the departures table, listed by the facts that reach them: ``electsim gaps``
explores every combination of facts (:func:`simulator.law.tables.departure_facts.all_facts`), groups
those that fall in a gap by the gap (:func:`summarize`) and shows the values each fact takes there.
"""

from __future__ import annotations

import attrs

from simulator.law.labels import fact_words
from simulator.law.tables.departure_facts import BEFORE_ELECTION, ELECTION_OR_AFTER, Facts
from simulator.law.tables.departures import GAPS, TABLE, UNCLASSIFIED, Gap
from simulator.law.vocab import Method, Stage


@attrs.frozen
class GapHit:
    """One combination of facts that falls in a gap."""

    facts: Facts
    gap: Gap


def gaps() -> list[GapHit]:
    """Every combination of facts (:func:`all_facts`) where no rule applies, with its gap."""
    out: list[GapHit] = []
    for f, finding in TABLE.explore():
        if finding.gap is not None:
            out.append(GapHit(f, finding.gap))
    return out


#: The fields of :class:`Facts` that :func:`summarize` describes, in order.
FACT_FIELDS = (
    "method",
    "stage",
    "what",
    "when",
    "seats",
    "filed_at_close",
    "remaining",
    "within_30_by_death",
    "within_30_by_notice",
    "printed_at_death",
    "printed_at_notice",
    "reprint",
    "nominee",
    "sworn",
)


#: Facts the rules do not read while filing is open or on and after election day.
UNREAD = frozenset(
    {
        "within_30_by_death",
        "within_30_by_notice",
        "printed_at_death",
        "printed_at_notice",
        "reprint",
    }
)


def _unread(name: str, facts: list[Facts]) -> bool:
    """Whether no rule reads the field for any of these facts (so a summary leaves it out):
    dates and printing while filing is open and from election day on (all_facts fixes them),
    the 30-day counts outside 163-112, the oath before election day, nominees outside primaries.
    """
    if name in UNREAD and all(f.when != BEFORE_ELECTION for f in facts):
        return True
    if name.startswith("within_30") and not any(f.partisan_primary for f in facts):
        return True
    if name == "sworn" and all(
        f.when != ELECTION_OR_AFTER or f.stage is Stage.PRIMARY for f in facts
    ):
        return True
    return name == "nominee" and all(f.stage is not Stage.PRIMARY for f in facts)


@attrs.frozen
class GapSummary:
    """One gap and the facts that reach it: each field's values over those combinations."""

    gap: Gap
    combinations: int
    values: tuple[tuple[str, tuple[object, ...]], ...]  # field -> the values seen, in order
    fallbacks: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.gap.id,
            "cite": self.gap.cite,
            "note": self.gap.open,
            "fallback": list(self.fallbacks),
            "combinations": self.combinations,
            "facts": {
                k: [x.value if isinstance(x, Method | Stage) else x for x in v]
                for k, v in self.values
            },
        }

    def describe(self) -> str:
        """The facts as ``field a|b; ...`` (the values each field takes in this gap)."""
        return "; ".join(f"{k} {'|'.join(show_value(x) for x in v)}" for k, v in self.values)

    def words(self) -> str:
        """The facts in words, as ``electsim gaps`` prints them ("filed at close: 3 or 4")."""
        return "; ".join(fact_words(k, v) for k, v in self.values)


def show_value(value: object) -> str:
    """A fact's value as the gaps listing writes it (``partisan``, ``true``, ``none``, ``3``)."""
    if isinstance(value, Method | Stage):
        return value.value
    if value is None:
        return "none"
    return str(value).lower() if isinstance(value, bool) else str(value)


def summarize(found: list[GapHit] | None = None) -> list[GapSummary]:
    """The gaps grouped by :class:`Gap`, in the order of :data:`GAPS`."""
    found = gaps() if found is None else found
    order = {g.id: i for i, g in enumerate((*GAPS, UNCLASSIFIED))}
    groups: dict[str, list[GapHit]] = {}
    for hit in found:
        groups.setdefault(hit.gap.id, []).append(hit)
    out = []
    for gid in sorted(groups, key=lambda k: order.get(k, len(order))):
        members = groups[gid]
        gap = members[0].gap
        values = []
        for name in FACT_FIELDS:
            if _unread(name, [m.facts for m in members]):
                continue
            seen = sorted({getattr(m.facts, name) for m in members}, key=_sort_key)
            values.append((name, tuple(seen)))
        fallbacks = tuple(dict.fromkeys(gap.fallback_for(m.facts) for m in members))
        out.append(GapSummary(gap, len(members), tuple(values), fallbacks))
    return out


def _sort_key(v: object) -> tuple[int, str]:
    if v is None:
        return (0, "")
    if isinstance(v, bool):
        return (1, str(int(v)))
    if isinstance(v, int):
        return (2, f"{v:04d}")
    if isinstance(v, Method | Stage):
        return (3, str(list(type(v)).index(v)))
    return (4, str(v))

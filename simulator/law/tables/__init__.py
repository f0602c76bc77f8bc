"""Every rule table of the law, in one place: ``electsim gaps`` explores them, ``electsim cite``
lists their rules, and the tests keep each one free of unnamed gaps and conflicts.

The tables live beside the questions they answer: :mod:`simulator.law.tables.filing` (filing),
:mod:`simulator.law.tables.declaration` (who is elected or nominated),
:mod:`simulator.law.tables.count` (where
the count's provisions meet); the contingency rules of a candidate who leaves are in
:mod:`simulator.law.tables.departures`.
"""

from __future__ import annotations

from typing import Any

from simulator.law.rules import Table
from simulator.law.tables import count as count_rules
from simulator.law.tables import declaration as result_rules
from simulator.law.tables import filing as filing_rules

#: (table, the module that holds it)
HOMES: tuple[tuple[Table[Any, Any], str], ...] = (
    *((t, "simulator/law/tables/filing.py") for t in filing_rules.TABLES),
    *((t, "simulator/law/tables/declaration.py") for t in result_rules.TABLES),
    *((t, "simulator/law/tables/count.py") for t in count_rules.TABLES),
)

TABLES: tuple[Table[Any, Any], ...] = tuple(t for t, _ in HOMES)

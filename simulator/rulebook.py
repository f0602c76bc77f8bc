"""Every rule table of the law, in one place: ``electsim gaps`` explores them, ``electsim cite``
lists their rules, and the tests keep each one free of unnamed gaps and conflicts.

The tables live beside the questions they answer: :mod:`simulator.filing_rules` (filing),
:mod:`simulator.result_rules` (who is elected or nominated), :mod:`simulator.count_rules` (where
the count's provisions meet); the contingency rules of a candidate who leaves are in
:mod:`simulator.contingencies`.
"""

from __future__ import annotations

from typing import Any

from simulator import count_rules, filing_rules, result_rules
from simulator.rules import Table

#: (table, the module that holds it)
HOMES: tuple[tuple[Table[Any, Any], str], ...] = (
    *((t, "simulator/filing_rules.py") for t in filing_rules.TABLES),
    *((t, "simulator/result_rules.py") for t in result_rules.TABLES),
    *((t, "simulator/count_rules.py") for t in count_rules.TABLES),
)

TABLES: tuple[Table[Any, Any], ...] = tuple(t for t, _ in HOMES)

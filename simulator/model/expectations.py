"""An expectation a scenario carries under ``expect:``: the data the loader reads and
``electsim test`` checks (the reading and the checking are in :mod:`simulator.input.expect`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import attrs

from simulator.law.instants import maybe_instant


@attrs.frozen
class Expectation:
    """One validated entry of a scenario's ``expect:`` list."""

    index: int
    as_of: datetime | None = attrs.field(default=None, converter=maybe_instant)
    contest: str | None = None
    #: the entry's other keys and their values, in file order, as plain data
    checks: tuple[tuple[str, Any], ...] = ()
    line: int | None = attrs.field(default=None, eq=False)

    def get(self, key: str, default: Any = None) -> Any:
        for k, v in self.checks:
            if k == key:
                return v
        return default

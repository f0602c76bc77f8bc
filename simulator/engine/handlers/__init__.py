"""The event handlers, one module per family of events, each registered beside its definition in
:data:`simulator.engine.handlers.registry.HANDLERS` (importing this package registers them all)."""

from simulator.engine.handlers import (  # noqa: F401 (imported to register their handlers)
    ballots,
    canvass,
    departures,
    filing,
    office,
    requests,
    votes,
)
from simulator.engine.handlers.registry import HANDLERS

__all__ = ["HANDLERS"]

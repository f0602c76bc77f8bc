"""A scenario document checked as a whole: its top-level fields (format, title, description,
timezone, the office's closed days), then its interpretations and parameters, its contests,
its event log and its expectations, each by its own reader, every problem collected in one
pass (:class:`ScenarioReader`)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from simulator.input.expect import Expectation, read_expectations
from simulator.input.loader.clock import Clock, explain_time, is_zone_name
from simulator.input.loader.contests import ContestReader
from simulator.input.loader.event_log import EventLogReader
from simulator.input.loader.fields import TOP_KEYS
from simulator.input.loader.interpretations import read_interpretations, read_parameters
from simulator.input.loader.names import Spellings
from simulator.input.loader.problems import Problems
from simulator.input.loader.values import PRINTABLE, BadValue, as_text, has_controls, read_date
from simulator.input.parse.messages import show
from simulator.input.parse.trees import MISSING
from simulator.model.scenario import DEFAULT_TZ, FORMAT, Scenario


class ScenarioReader:
    """One pass over the raw document; collects the problems and builds the Scenario."""

    def __init__(self, source: str | None) -> None:
        self.source = source
        self.problems = Problems()
        self.clock = Clock()
        self.names = Spellings(self.problems.raws)
        self.log = EventLogReader(self.problems, self.clock, self.names)

    def scenario(self, doc: Any) -> Scenario | None:
        if not isinstance(doc, dict):
            self.problems.add(
                (),
                "a mapping with at least format, title, contests and events (docs/scenarios.md)",
                show(doc),
            )
            return None
        self.problems.unknown_keys((), doc, TOP_KEYS, "the top-level fields")

        fmt = doc.get("format", MISSING)
        if fmt is MISSING:
            self.problems.missing(("format",), f"`format: {FORMAT}` at the top of the file")
        elif fmt != FORMAT:
            self.problems.add(("format",), f"exactly {FORMAT!r}", show(fmt))

        title = doc.get("title", MISSING)
        if title is MISSING:
            self.problems.missing(("title",), "a `title` naming the scenario")
        elif not isinstance(title, str) or not title.strip():
            self.problems.add(("title",), as_text("a non-empty title", title), show(title))
        elif has_controls(title):
            self.problems.add(("title",), f"a title of {PRINTABLE}", show(title))

        description = doc.get("description", "")
        if not isinstance(description, str):
            self.problems.add(("description",), as_text("text", description), show(description))
            description = ""
        elif has_controls(description, text=True):
            self.problems.add(
                ("description",),
                f"text of {PRINTABLE.replace('a newline or ', '')}; newlines and tabs are fine",
                show(description),
            )

        tz_name = doc.get("timezone", DEFAULT_TZ)
        try:
            if not isinstance(tz_name, str) or not is_zone_name(tz_name):
                raise ValueError(tz_name)
            self.clock.set_zone(tz_name)
        except (KeyError, ValueError, OSError):
            self.problems.add(
                ("timezone",),
                f"an IANA timezone name such as {DEFAULT_TZ!r} (the default)",
                show(tz_name),
            )

        closed = self.office_closed(doc.get("office_closed", []))
        interpretations = read_interpretations(self.problems, doc.get("interpretations", MISSING))
        parameters = read_parameters(self.problems, doc.get("parameters", MISSING))
        contests, contest_ids, default = ContestReader(self.problems, self.clock, closed).contests(
            doc.get("contests", MISSING)
        )
        events = self.log.events(doc.get("events", MISSING), contest_ids, default)
        expectations = self.expectations(doc.get("expect"), contest_ids)

        if self.problems or self.log.misordered or not isinstance(title, str):
            return None
        return Scenario(
            title=title,
            contests=contests,
            events=events,
            description=description,
            timezone=self.clock.tz_name,
            office_closed=closed,
            interpretations=interpretations,
            source=self.source,
            expectations=expectations,
            parameters=parameters,
        )

    def expectations(self, raw: Any, contest_ids: frozenset[str]) -> tuple[Expectation, ...]:
        """The ``expect:`` list, validated like the rest of the file
        (:mod:`simulator.input.expect`)."""
        if raw is None:
            return ()

        def when(value: Any) -> datetime | None:
            try:
                return self.clock.time(value)
            except BadValue:
                return None

        return read_expectations(
            raw,
            contest_ids=contest_ids,
            add=self.problems.add,
            time=when,
            time_help=explain_time(self.clock.tz_name),
        )

    def office_closed(self, raw: Any) -> tuple[date, ...]:
        # G.S. 103-5: extra days the board office is closed.
        if not isinstance(raw, list):
            self.problems.add(("office_closed",), "a list of dates, like [2025-07-03]", show(raw))
            return ()
        days = []
        for i, value in enumerate(raw):
            try:
                days.append(read_date(value))
            except BadValue as error:
                self.problems.bad(("office_closed", i), error)
        return tuple(days)

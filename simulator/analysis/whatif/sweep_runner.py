"""Running a sweep: one variant per value, replayed serially or on an engine of workers in
chunks, each chunk folding the events its variants share with the base scenario once;
the row of each variant keeps its outcome and the ruling that decided it."""

from __future__ import annotations

import importlib.util
import pickle
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

import attrs

from simulator.analysis.whatif.edits import EditError
from simulator.analysis.whatif.sweep_results import Sweep, SweepRow
from simulator.analysis.whatif.variables import Variable, describe, variable_label
from simulator.analysis.workers import Engine, Processes, Serial, engine_named
from simulator.engine.build import ContestSummary
from simulator.engine.replay import PrefixReplay, replay
from simulator.engine.result import ContestResult, Ruling
from simulator.law.vocab import RulingKind
from simulator.model.scenario import Scenario

#: The ruling kinds that decide a contest's outcome: a declaration (elected, nominated, a
#: nominee certified), a vacancy, a runoff made available or called, a decision by lot, a new
#: election, a recount or a drawing required, filing reopened or extended, a party to name the
#: nominee, the fallback where no statute provides. The *deciding* ruling of a replay is the last
#: ruling of one of these kinds. The others explain an outcome or record an act that changed
#: nothing: votes set aside (``votes_disregarded``; ``votes_after_decision``: the November
#: returns of a contest decided in October), the threshold (``majority_threshold``), a
#: rejected request or filing, a name that remains on the ballot or comes off, a cancelled
#: primary, and ``no_runoff`` (why no runoff follows a declaration).
OUTCOME_KINDS: frozenset[RulingKind] = frozenset(
    {
        RulingKind.ELECTED,
        RulingKind.NOMINATED,
        RulingKind.NOMINEE_CERTIFIED,
        RulingKind.OFFICE_VACANT,
        RulingKind.RUNOFF_AVAILABLE,
        RulingKind.RUNOFF_CALLED,
        RulingKind.RUNOFF_UNLESS_WITHDRAWN,
        RulingKind.DECIDED_BY_LOT,
        RulingKind.NEW_ELECTION_ORDERED,
        RulingKind.FILING_REOPENED,
        RulingKind.FILING_EXTENDED,
        RulingKind.PARTY_TO_NOMINATE,
        RulingKind.RECOUNT_REQUIRED,
        RulingKind.LOT_REQUIRED,
        RulingKind.NO_PROVISION,
    }
)


@attrs.frozen
class SweepJob:
    """What each worker needs: picklable, and the same function for serial and parallel runs."""

    base: Scenario
    vary: Any
    contest: str
    as_of: datetime | None
    decider: frozenset[RulingKind] | None

    def replayer(self) -> PrefixReplay:
        """Folds the base scenario's events once; each variant replays only from where its
        events part from the base's."""
        return PrefixReplay(self.base, self.contest, as_of=self.as_of)

    def row(self, value: Any, replayer: PrefixReplay | None = None) -> SweepRow:
        variant = self.vary(self.base, value)
        if not isinstance(variant, Scenario):
            raise EditError(
                f"{variable_label(self.vary)}: expected the variable to return a Scenario; found "
                f"{type(variant).__name__}"
            )
        c: ContestResult | ContestSummary
        if replayer is None:
            c = replay(variant, as_of=self.as_of).contest(self.contest)
        else:
            c = replayer.summary(variant)
        return _row(value, c, self.decider)

    def rows(self, values: Sequence[Any]) -> list[SweepRow]:
        replayer = self.replayer()
        return [self.row(v, replayer) for v in values]


def _deciding(
    c: ContestResult | ContestSummary, decider: frozenset[RulingKind] | None
) -> Ruling | None:
    if decider is None:
        for r in reversed(c.rulings):
            if r.kind in OUTCOME_KINDS:
                return r
        return None
    return next((r for r in c.rulings if r.kind in decider), None)


def _row(
    value: Any, c: ContestResult | ContestSummary, decider: frozenset[RulingKind] | None
) -> SweepRow:
    o = c.outcome
    r = _deciding(c, decider)
    return SweepRow(
        value=value,
        elected=o.elected,
        nominated=o.nominated,
        vacant_seats=o.vacant_seats,
        runoff=o.runoff_status.value,
        runoff_candidates=o.runoff_candidates,
        pending=o.pending.value if o.pending else None,
        ruling=r.kind.value if r else None,
        cite=r.cite if r else "",
        ruling_at=r.at if r else None,
        candidates=r.candidates if r else (),
        text=r.text if r else "",
    )


def _kinds(
    decider: str | RulingKind | Iterable[str | RulingKind] | None,
) -> frozenset[RulingKind] | None:
    if decider is None:
        return None
    items = [decider] if isinstance(decider, str) else list(decider)
    out = set()
    for k in items:
        try:
            out.add(RulingKind(k))
        except ValueError:
            raise EditError(
                f"decider: expected ruling kinds, from {', '.join(k.value for k in RulingKind)}; "
                f"found {k!r}"
            ) from None
    return frozenset(out)


def sweep(
    scenario: Scenario,
    vary: Variable | Callable[[Scenario, Any], Scenario],
    over: Iterable[Any],
    *,
    contest: str | None = None,
    as_of: datetime | None = None,
    decider: str | RulingKind | Iterable[str | RulingKind] | None = None,
    workers: int = 1,
    chunksize: int | None = None,
    progress: bool = True,
    label: str | None = None,
    engine: str | Engine | None = None,
    client: Any = None,
) -> Sweep:
    """Replay one variant of ``scenario`` per value in ``over``: ``vary(scenario, value)``.

    Each row keeps the value, the ``contest``'s outcome (the only contest when left out) and
    the deciding ruling: the last ruling of a kind in :data:`OUTCOME_KINDS`, or with
    ``decider`` the first ruling of the kind(s) named. ``as_of`` replays each variant as the
    board knew it then. ``workers > 1`` spreads the variants over that many processes in
    chunks (``vary`` and the values must pickle); the rows are the same as a serial run's, in
    the same order. ``progress`` (on by default) shows a tqdm bar once a sweep has run for
    :data:`PROGRESS_AFTER` seconds, so quick sweeps stay quiet; ``progress=False`` never shows
    one. ``label`` names the variable in tables
    and charts (the default says in words what it varies: "votes for Ann", "date of Bob's
    death").

    ``engine`` chooses where the variants run: ``"serial"``, ``"processes"`` (the default when
    ``workers > 1``), ``"dask"`` (a Dask cluster: ``client=`` a ``distributed.Client``, or the
    current one; each task carries thousands of variants), or any object with the ``run``
    method of :class:`simulator.analysis.workers.Engine`. Each chunk of variants folds the events
    they
    share with ``scenario`` once, so a sweep of a late event costs little per variant.
    """
    if not isinstance(scenario, Scenario):
        raise EditError(f"sweep(): expected a Scenario; found {type(scenario).__name__}")
    if not callable(vary):
        raise EditError(
            f"sweep(): expected vary to be a variable (EventTime, Votes, Margin, NewEvent, ...) "
            f"or a function (scenario, value) -> Scenario; found {vary!r}"
        )
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise EditError(
            f"sweep(): expected workers to be a whole number, 1 or more; found {workers!r}"
        )
    ids = [c.id for c in scenario.contests]
    if contest is None:
        if len(ids) != 1:
            raise EditError(f"sweep(): expected contest= one of {', '.join(ids)}; found none")
        contest = ids[0]
    elif contest not in ids:
        raise EditError(f"sweep(): expected contest= one of {', '.join(ids)}; found {contest!r}")
    if as_of is not None and as_of.tzinfo is None:
        as_of = as_of.replace(tzinfo=scenario.tz)
    kinds = _kinds(decider)
    prepare = getattr(vary, "prepare", None)
    label = label or describe(vary, scenario)
    if callable(prepare):
        vary = prepare(scenario)
    values = list(over)
    job = SweepJob(scenario, vary, contest, as_of, kinds)
    runner = _engine(engine, workers=workers, chunksize=chunksize, client=client, n=len(values))
    if isinstance(runner, Processes):
        _check_sendable(job, values, "workers>1" if engine is None else f"engine={engine!r}")
    bar = _progress(len(values)) if progress else None
    try:
        rows = runner.run(job.rows, values, progress=bar.update if bar is not None else None)
    finally:
        if bar is not None:
            bar.close()
    chosen = tuple(sorted(k.value for k in kinds)) if kinds else ()
    title = next(c.label for c in scenario.contests if c.id == contest)
    return Sweep(label, contest, tuple(rows), chosen, title=title)


#: Seconds a sweep runs before its progress bar appears (a quicker sweep shows none).
PROGRESS_AFTER = 2.0


def _progress(total: int) -> Any:
    """A tqdm bar, shown after :data:`PROGRESS_AFTER` seconds: a widget in Jupyter when
    ipywidgets is there, else text (tqdm.auto would warn about the missing widgets instead)."""
    if importlib.util.find_spec("ipywidgets") is not None:
        from tqdm.auto import tqdm
    else:
        from tqdm.std import tqdm
    return tqdm(total=total, desc="sweep", unit="variant", delay=PROGRESS_AFTER)


def _engine(
    engine: str | Engine | None, *, workers: int, chunksize: int | None, client: Any, n: int
) -> Engine:
    if engine is None:
        if workers == 1 or n <= 1:
            return Serial()
        return Processes(workers=workers, chunksize=chunksize)
    if isinstance(engine, str):
        options: dict[str, Any] = {"chunksize": chunksize} if chunksize else {}
        if engine == "processes":
            options["workers"] = max(workers, 2) if workers == 1 else workers
        elif engine == "dask":
            options["client"] = client
        return engine_named(engine, **options)
    if not isinstance(engine, Engine):
        raise EditError(
            "sweep(): expected engine= a name (serial, processes, dask) or an object with a "
            f"run(rows, values) method; found {engine!r}"
        )
    return engine


def _check_sendable(job: SweepJob, values: list[Any], how: str) -> None:
    try:
        pickle.dumps((job, values))
    except (pickle.PicklingError, TypeError, AttributeError) as error:
        raise EditError(
            f"sweep({how}): expected a variable and values that can be sent to other "
            "processes (a module-level function or one of EventTime, Votes, Margin, EventField, "
            f"ContestFact, NewEvent; not a lambda or a local function); found: {error}"
        ) from None

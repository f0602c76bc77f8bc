"""Where a sweep's variants run: in this process, in a pool of worker processes, or on a Dask
cluster for sweeps that outgrow one machine.

An engine takes a function that turns a list of values into a list of rows (the sweep's own job,
which folds the scenario's shared prefix once per call) and the values, splits the values into
chunks, runs the chunks and returns the rows in the order of the values, whatever order the chunks
finish in. Engines are named in :data:`ENGINES` (``sweep(..., engine="dask", client=...)``);
anything with the same ``run`` method can be passed instead.

>>> Serial().run(lambda vs: [v * 2 for v in vs], [1, 2, 3])
[2, 4, 6]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

import attrs

from simulator.model.errors import SimulatorError

RowT = TypeVar("RowT")
Rows = Callable[[Sequence[Any]], list[RowT]]
Progress = Callable[[int], None]


class EngineError(SimulatorError, ValueError):
    """An engine that cannot be used: an unknown name, a missing optional package, no cluster."""


@runtime_checkable
class Engine(Protocol):
    """Runs ``rows`` over ``values`` in chunks; returns the rows in the order of the values and
    calls ``progress(n)`` as each chunk of ``n`` values is done."""

    def run(
        self, rows: Rows[RowT], values: Sequence[Any], *, progress: Progress | None = None
    ) -> list[RowT]: ...


def _chunks(values: Sequence[Any], size: int) -> list[Sequence[Any]]:
    return [values[i : i + size] for i in range(0, len(values), max(1, size))]


@attrs.frozen(kw_only=True)
class Serial:
    """In this process, one chunk after another."""

    chunksize: int = 256  # how often the progress bar moves

    def run(
        self, rows: Rows[RowT], values: Sequence[Any], *, progress: Progress | None = None
    ) -> list[RowT]:
        out: list[RowT] = []
        for chunk in _chunks(values, self.chunksize):
            out.extend(rows(chunk))
            if progress is not None:
                progress(len(chunk))
        return out


@attrs.frozen(kw_only=True)
class Processes:
    """A pool of ``workers`` processes on this machine (``rows`` and the values must pickle)."""

    workers: int = 2
    chunksize: int | None = None  # default: eight chunks per worker

    def run(
        self, rows: Rows[RowT], values: Sequence[Any], *, progress: Progress | None = None
    ) -> list[RowT]:
        # (the process pool's modules are imported by the engine that uses them: a replay and
        # a serial sweep do without multiprocessing)
        from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

        size = self.chunksize or max(1, math.ceil(len(values) / (self.workers * 8)))
        chunks = _chunks(values, size)
        if not chunks:
            return []
        results: list[list[RowT] | None] = [None] * len(chunks)
        with ProcessPoolExecutor(max_workers=min(self.workers, len(chunks))) as pool:
            futures = {pool.submit(rows, chunk): k for k, chunk in enumerate(chunks)}
            pending = set(futures)
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in done:
                    k = futures[f]
                    results[k] = f.result()
                    if progress is not None:
                        progress(len(chunks[k]))
        return [row for part in results if part is not None for row in part]


def _call(rows: Rows[RowT], chunk: Sequence[Any]) -> list[RowT]:
    return rows(chunk)


@attrs.frozen(kw_only=True)
class Dask:
    """A Dask cluster (``pip install electsim[dask]``): ``client`` is a ``distributed.Client``
    (the current one when left out). The job is sent to every worker once; each task carries
    ``chunksize`` variants (thousands, so that scheduling costs little beside the replays)."""

    client: Any = None
    chunksize: int | None = None  # default: four chunks per worker thread, 1,000 at least

    def _client(self) -> Any:
        try:
            import distributed
        except ImportError:
            raise EngineError(
                "sweep(engine='dask'): expected the dask extra (pip install 'electsim[dask]'); "
                "found no distributed package"
            ) from None
        if self.client is not None:
            return self.client
        try:
            return distributed.get_client()
        except ValueError:
            raise EngineError(
                "sweep(engine='dask'): expected client=distributed.Client(...) or a running "
                "client; found none"
            ) from None

    def run(
        self, rows: Rows[RowT], values: Sequence[Any], *, progress: Progress | None = None
    ) -> list[RowT]:
        import distributed

        as_completed: Any = distributed.as_completed  # not annotated by the package
        client = self._client()
        threads = max(1, sum(client.nthreads().values()))
        size = self.chunksize or max(1000, math.ceil(len(values) / (threads * 4)))
        chunks = _chunks(values, size)
        if not chunks:
            return []
        shared = client.scatter(rows, broadcast=True, hash=False)
        futures = [client.submit(_call, shared, chunk, pure=False) for chunk in chunks]
        where = {f.key: k for k, f in enumerate(futures)}
        results: list[list[RowT] | None] = [None] * len(chunks)
        for f in as_completed(futures):
            k = where[f.key]
            results[k] = f.result()
            if progress is not None:
                progress(len(chunks[k]))
        return [row for part in results if part is not None for row in part]


#: The engines ``sweep(engine=NAME)`` knows, by name.
ENGINES: dict[str, Callable[..., Engine]] = {
    "serial": Serial,
    "processes": Processes,
    "dask": Dask,
}


def engine_named(name: str, **options: Any) -> Engine:
    """The engine called ``name`` in :data:`ENGINES`, made with ``options``."""
    make = ENGINES.get(name)
    if make is None:
        raise EngineError(
            f"sweep(): expected engine= one of {', '.join(sorted(ENGINES))} or an object with "
            f"a run(rows, values) method; found {name!r}"
        )
    return make(**options)

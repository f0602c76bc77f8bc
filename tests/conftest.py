"""Shared test settings: the fast and long test profiles.

Two profiles, chosen by the ``ELECTSIM_TEST_PROFILE`` environment variable:

- ``fast`` (the default; ``make test``): property tests draw :data:`FAST_EXAMPLES` examples each,
  and of a large sweep only a representative part runs: the parameters marked ``long`` are
  deselected, of a test marked ``sample(n)`` one parameter in n runs, and a sweep inside one
  test takes one case in n through :func:`one_in`;
- ``fuzz`` (``make fuzz``): property tests draw :data:`LONG_EXAMPLES` examples each, and every
  parameter of every sweep runs.

A property test that names its own ``max_examples`` keeps it in both profiles (those are the
cheap ones); the slow ones leave it to the profile, and the costliest take fewer examples under
the fast profile only (:func:`examples`). Neither profile has per-example deadlines:
machines are shared and their timing varies; speed is measured in benchmarks/, never asserted
in tests. docs/development.md says which tests each profile runs.
"""

from __future__ import annotations

import copy
import functools
import gc
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

import pytest
import yaml
from hypothesis import HealthCheck, settings

from simulator.analysis import catalogue
from tests.views.browser import Browser, chromium

T = TypeVar("T")

PROFILE_VARIABLE = "ELECTSIM_TEST_PROFILE"
FAST_EXAMPLES = 30
LONG_EXAMPLES = 1000

settings.register_profile(
    "fast",
    max_examples=FAST_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
    # the same examples on every run, so that `make test` passes or fails on the code alone;
    # the random search for new ones is `make fuzz`'s (each example it ever failed on is
    # pinned with @example beside its test)
    derandomize=True,
    database=None,
)
settings.register_profile(
    "fuzz",
    settings.get_profile("fast"),
    max_examples=LONG_EXAMPLES,
    derandomize=False,
    database=settings.get_profile("default").database,
)
PROFILE = os.environ.get(PROFILE_VARIABLE, "fast")
if PROFILE not in ("fast", "fuzz"):
    raise pytest.UsageError(f"{PROFILE_VARIABLE}: expected fast or fuzz; found {PROFILE!r}")
settings.load_profile(PROFILE)


def read_yaml(text: str) -> Any:
    """A YAML text read as ``yaml.safe_load`` reads it, by libyaml where PyYAML has it (ten
    times faster: the suite reads every bundled scenario several times)."""
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def examples(fast: int) -> int:
    """``max_examples`` for a property test whose every example is costly (a long log replayed
    several ways): ``fast`` under the fast profile, :data:`LONG_EXAMPLES` under the long one."""
    return LONG_EXAMPLES if PROFILE == "fuzz" else fast


def one_in(n: int, cases: Sequence[T]) -> list[T]:
    """A sweep inside one test (one browser measuring many pages, say): under the fast profile,
    one case of every ``n`` (the first, the n+1-th...); under the long profile, every case."""
    return list(cases) if PROFILE == "fuzz" else list(cases[::n])


def _in_fast_profile(item: pytest.Item, seen: dict[tuple[str, str], int]) -> bool:
    """Whether the fast profile runs this test: not a parameter marked ``long``, and for a test
    marked ``sample(n)``, one of every n of its parameters (the first, the n+1-th...)."""
    if item.get_closest_marker("long") is not None:
        return False
    sample = item.get_closest_marker("sample")
    if sample is None:
        return True
    function = (item.nodeid.split("::")[0], getattr(item, "originalname", item.name))
    index = seen.get(function, 0)
    seen[function] = index + 1
    return index % int(sample.args[0]) == 0


#: Fixtures that take seconds to make and are made once per test process: the explored grid
#: whose witnesses are replayed, and the conformance of every real primary
SHARED_FIXTURES = frozenset({"grid", "real"})


def _early(item: pytest.Item) -> bool:
    return item.get_closest_marker("early") is not None or not SHARED_FIXTURES.isdisjoint(
        getattr(item, "fixturenames", ())
    )


def once_per_process(function: Callable[..., T]) -> Callable[..., T]:
    """``function`` made once per test process for each set of arguments; each call gets its
    own deep copy of the value, so that a test that changes what it got changes nobody else's.
    Only for a function of its arguments and of the files of the repository, which no test
    changes."""
    made: dict[tuple[Any, ...], T] = {}

    @functools.wraps(function)
    def once(*args: Any, **kwargs: Any) -> T:
        key = (args, tuple(sorted(kwargs.items())))
        if key not in made:
            made[key] = function(*args, **kwargs)
        return copy.deepcopy(made[key])

    return once


# The catalogue of gaps (electsim gaps, docs/gaps.md) reads every rule table's every combination
# of facts and replays every bundled scenario each time it is made; a test process makes it some
# fifteen times (the gaps command in its forms, the catalogue's own tests), from the same tables
# and files. Each is still made, and checked, once in each process.
catalogue.table_variants = once_per_process(catalogue.table_variants)
catalogue.scenario_findings = once_per_process(catalogue.scenario_findings)


@pytest.fixture(scope="session")
def chromium_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """The headless Chromium of this test process, started when a test first asks for it."""
    executable = chromium()
    if executable is None:
        pytest.skip("no chromium or chromium-browser on PATH (apt-get install chromium)")
    with Browser(executable, tmp_path_factory.mktemp("chromium")) as b:
        yield b


@pytest.fixture
def browser(chromium_process: Browser) -> Browser:
    """A new tab of the process's headless Chromium (skips, saying why, where there is none):
    each test its own page, window size and scripts, without starting a browser each."""
    chromium_process.new_page()
    return chromium_process


def pytest_collection_finish(session: pytest.Session) -> None:
    """What the process holds once the tests are collected (the modules, the tests and their
    parameters, the scenario library read for them) is kept for the whole run: the cyclic
    collector stops walking it at each of its full collections (a few hundred milliseconds
    each, dozens of them in a run). And the youngest generation is collected after 50,000
    allocations instead of 700: the tests make many short-lived values that hold no cycles
    (states, events, results), and the default threshold walked them hundreds of times a
    second; cycles are still collected, later (5-12% less processor time on the explorer,
    chart and futures tests, in four runs alternated with the default)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``early`` (single tests of two seconds or more) go first, so that the
    workers end together: a long test left at the end keeps one busy while the other has
    nothing to take. So do the tests that read a costly fixture made once per process
    (:data:`SHARED_FIXTURES`): together at the front, one process makes it, not both. Under the
    fast profile, deselect the parameters of large sweeps it leaves to the long one (marked
    ``long``, or left out of a ``sample``)."""
    items.sort(key=lambda item: not _early(item))  # (a stable sort)
    if PROFILE == "fuzz":
        return
    seen: dict[tuple[str, str], int] = {}
    kept = [item for item in items if _in_fast_profile(item, seen)]
    if len(kept) < len(items):
        left = {id(item) for item in kept}
        config.hook.pytest_deselected(items=[item for item in items if id(item) not in left])
        items[:] = kept

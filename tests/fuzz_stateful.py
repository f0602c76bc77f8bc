"""The long run of the stateful engine test: ``python -m tests.fuzz_stateful SECONDS``.

Runs the :class:`tests.stateful.ElectionLog` machine in rounds of fresh random examples until the
time is up, then prints how many logs were checked. Stops at the first failure, printing the
shrunk log Hypothesis found (exit 1)."""

from __future__ import annotations

import sys
import time

from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test

from tests.stateful import ElectionLog, examples


def main(argv: list[str]) -> int:
    seconds = float(argv[0]) if argv else 600.0
    start = time.monotonic()
    rounds = 0
    while time.monotonic() - start < seconds:
        run_state_machine_as_test(
            ElectionLog,
            settings=settings(
                max_examples=200,
                stateful_step_count=40,
                deadline=None,
                database=None,
                suppress_health_check=list(HealthCheck),
            ),
        )
        rounds += 1
        print(
            f"stateful: {examples[0]} logs checked ({time.monotonic() - start:.0f} s)", flush=True
        )
    print(f"stateful: {examples[0]} logs checked in {rounds} rounds, no failure")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The shared contract check (``../shared/contract/check.py``), run as ``make test`` runs it.

The contract replays worked examples through the command line. An example written before a
later reading of the law was settled can expect what that reading no longer gives: such a case
is listed in :data:`SUPERSEDED` with the words its failure must hold and the reason, and is
reported, not hidden. Any other failure fails the run, and so does a listed case that passes
again (the list must not outlive its reason). Without the shared folder there is nothing to
check (exit 0, said).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECK = ROOT.parent / "shared" / "contract" / "check.py"

#: case name -> (what its failure line must hold, why the project answers otherwise)
SUPERSEDED: dict[str, tuple[str, str]] = {
    "plurality-single-office": (
        "no deadline like {'kind': 'canvass', 'due': '2027-11-09'}",
        "the example's November canvass is on the seventh day after the election, the text of "
        "G.S. 163-182.5(b) before S.L. 2016-109; the reading of canvass days (the tenth day "
        "for the November election from 2017) puts it on Fri 2027-11-12, as the issue on the "
        "law's own calendar requires",
    ),
}


def main() -> int:
    if not CHECK.exists():
        print(f"contract: {CHECK} is not here; nothing to check")
        return 0
    done = subprocess.run(
        [sys.executable, str(CHECK)], cwd=ROOT, capture_output=True, text=True, check=False
    )
    sys.stdout.write(done.stdout)
    sys.stderr.write(done.stderr)
    failed: dict[str, str] = {}
    for line in done.stdout.splitlines():
        if line.startswith("FAIL "):
            name, _, why = line[len("FAIL ") :].partition(": ")
            failed[name.rsplit("/", 1)[-1]] = why
    problems = []
    for name, why in failed.items():
        expected = SUPERSEDED.get(name)
        if expected is None or expected[0] not in why:
            problems.append(f"contract: {name} fails and is not a superseded case: {why}")
        else:
            print(f"contract: {name} expects what a later reading changed: {expected[1]}")
    for name in SUPERSEDED.keys() - failed.keys():
        problems.append(f"contract: {name} passes again: take it off tests/contract.py's list")
    if done.returncode not in (0, 1) or "contract:" not in done.stdout:
        problems.append(
            f"contract: the check itself did not run to its end (exit {done.returncode})"
        )
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

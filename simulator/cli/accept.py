"""``--accept FILE`` of ``electsim gaps`` and ``electsim explore``: the gaps and conflicts a user
already knows of, so that a run in CI fails only on a new one (docs/cli.md).

The file holds one id a line, as ``electsim gaps --ids`` prints them (``gap:runner-up-left``,
``conflict:dead-tied-for-first``); a bare id (``runner-up-left``) accepts the gap and the
conflict of that name. ``#`` starts a comment; blank lines are skipped.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from pathlib import Path

#: the exit code when a finding is not in the accepted file
EXIT_NEW = 4

_ID = re.compile(r"(?:(gap|conflict):)?([a-z0-9][a-z0-9-]*)")


class AcceptError(ValueError):
    """The ``--accept`` file cannot be read, or a line of it is not an id (one line of text)."""


def read_accepted(path: str) -> frozenset[str]:
    """The ids ``path`` accepts, each as ``gap:ID``, ``conflict:ID`` or a bare ``ID``.

    Raises AcceptError naming the file (and the line) and what is wrong."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except IsADirectoryError:
        raise AcceptError(f"{path}: expected a file of ids, one a line; found a folder") from None
    except FileNotFoundError:
        raise AcceptError(
            f"{path}: expected a file of ids, one a line; found no such file"
        ) from None
    except UnicodeDecodeError:
        raise AcceptError(f"{path}: expected a text file (UTF-8); found other bytes") from None
    except OSError as error:
        raise AcceptError(f"{path}: cannot read it: {error.strerror or error}") from None
    out: set[str] = set()
    for number, line in enumerate(text.splitlines(), 1):
        written = line.split("#", 1)[0].strip()
        if not written:
            continue
        if _ID.fullmatch(written) is None:
            raise AcceptError(
                f"{path}:{number}: expected a gap or conflict id like gap:runner-up-left "
                f"(or a comment after #); found {written!r}"
            )
        out.add(written)
    return frozenset(out)


def is_accepted(finding: str, accepted: frozenset[str]) -> bool:
    """Whether ``finding`` (``gap:ID`` or ``conflict:ID``) is in ``accepted``, by its full id or
    by its bare one."""
    return finding in accepted or finding.split(":", 1)[-1] in accepted


def report_new(command: str, found: Iterable[str], path: str, accepted: frozenset[str]) -> int:
    """Say on stderr which findings ``path`` does not accept: :data:`EXIT_NEW` if any, else 0."""
    new = new_findings(found, accepted)
    if new:
        print(
            f"electsim {command}: {len(new)} finding(s) not in {path}: {', '.join(new)}",
            file=sys.stderr,
        )
        return EXIT_NEW
    print(f"electsim {command}: every finding is in {path}", file=sys.stderr)
    return 0


def new_findings(found: Iterable[str], accepted: frozenset[str]) -> list[str]:
    """The findings ``accepted`` does not accept, sorted."""
    return sorted({f for f in found if not is_accepted(f, accepted)})

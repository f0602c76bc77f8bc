"""``python -m simulator.law.tables [FILE]``: write the catalogue of the rule tables into
docs/statutes.md (or FILE), between its marker comments."""

from __future__ import annotations

import sys
from pathlib import Path

from simulator.law.tables.catalogue import write


def main(argv: list[str]) -> int:
    path = Path(argv[0]) if argv else Path("docs/statutes.md")
    print(f"{path}: {'updated' if write(path) else 'already up to date'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""The sections of docs/ that are made from the code, and a command that writes them afresh.

``python -m tests.docs_sections`` rewrites each section between its markers; the tests check
that every section in docs/ is what the code makes now, so the docs cannot drift from it.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path

from simulator.law.labels import glossary_markdown
from simulator.model.events import event_types_markdown

DOCS = Path(__file__).resolve().parent.parent / "docs"

#: (page, the marker's name, what makes the section's text)
SECTIONS: list[tuple[str, str, Callable[[], str]]] = [
    ("scenarios.md", "event types", event_types_markdown),
    ("glossary.md", "glossary", glossary_markdown),
]


def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(
        rf"(<!-- {re.escape(name)}: [^\n]*-->\n\n)(.*?)(\n\n<!-- end of {re.escape(name)} -->)",
        flags=re.S,
    )


def written(page: str, name: str) -> str:
    """The section as docs/``page`` holds it now."""
    found = _pattern(name).search((DOCS / page).read_text(encoding="utf-8"))
    if found is None:
        raise LookupError(f"docs/{page}: no section marked {name!r}")
    return found.group(2)


def refresh() -> list[str]:
    """Write every section afresh; the pages changed."""
    changed = []
    for page, name, make in SECTIONS:
        path = DOCS / page
        text = path.read_text(encoding="utf-8")
        section = make().strip()
        new = _pattern(name).sub(lambda m, s=section: m.group(1) + s + m.group(3), text)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(page)
    return changed


if __name__ == "__main__":
    print("\n".join(f"wrote docs/{page}" for page in refresh()) or "docs/ is up to date")
    sys.exit(0)

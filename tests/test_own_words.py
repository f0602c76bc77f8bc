"""The project explains the law in its own words: no statute text is copied into it.

Reads the statutes in ../shared/law (skips where absent) and looks for any run of ten words
from them in the project's code, scenarios, notebooks and docs.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAW = ROOT.parent / "shared" / "law"
RUN = 10
WORD = re.compile(r"[a-z0-9]+")


def _words(text: str) -> list[str]:
    return WORD.findall(text.lower())


def _shingles(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + RUN]) for i in range(len(words) - RUN + 1)}


@pytest.mark.shared_data
def test_no_ten_word_run_of_statute_text_appears_in_the_project() -> None:
    if not LAW.is_dir():
        pytest.skip(f"the statutes are not at {LAW} (a user's clone without ../shared)")
    law: set[tuple[str, ...]] = set()
    for f in LAW.rglob("*.txt"):
        # the "Source:" and "Status:" lines are addresses and notes, not statute text
        text = "\n".join(
            ln
            for ln in f.read_text(errors="replace").splitlines()
            if not ln.startswith(("Source:", "Status:"))
        )
        law |= _shingles(_words(text))
    files = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
    for folder, pattern in (
        ("simulator", "*.py"),
        ("scenarios", "*.yaml"),
        ("notebooks", "*.ipynb"),
        ("tests", "*.py"),
    ):
        files += sorted((ROOT / folder).rglob(pattern))
    copied = []
    for f in files:
        text = f.read_text(errors="replace")
        if f.suffix == ".ipynb":  # the cells' text, not the JSON around it
            text = "\n".join("".join(c["source"]) for c in json.loads(text)["cells"])
        found = _shingles(_words(text)) & law
        if found:
            copied.append(f'{f.relative_to(ROOT)}: "{" ".join(sorted(found)[0])}..."')
    assert not copied, "statute text copied into the project:\n" + "\n".join(copied)

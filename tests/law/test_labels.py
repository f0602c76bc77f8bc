"""Every state, deadline, period, pending item, runoff status and ruling kind has words."""

from __future__ import annotations

import re

import pytest

from simulator.law.labels import WORDS, label, meaning


@pytest.mark.parametrize("vocabulary", list(WORDS), ids=lambda v: v.__name__)
def test_every_member_of_each_vocabulary_has_words_and_a_meaning(vocabulary: type) -> None:
    words = WORDS[vocabulary][2]
    assert list(words) == list(vocabulary)
    for member in vocabulary:
        assert label(member) and meaning(member)
        # words, not identifiers: no underscores, nothing in code form
        assert "_" not in label(member) and not re.search(r"[A-Z]{2}", label(member))


def test_the_words_of_one_vocabulary_are_distinct() -> None:
    for vocabulary, (_, _, words) in WORDS.items():
        labels = [w for w, _ in words.values()]
        assert len(labels) == len(set(labels)), vocabulary.__name__

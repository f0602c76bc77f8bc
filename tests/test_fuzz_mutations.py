"""A small fixed-seed run of the mutation fuzzer (``make fuzz`` runs a campaign): odd variants of
the scenario library give exit 0, or exit 2 with a message that says where; never exit 1, never a
hang."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mutations import LIBRARY, is_bad, run_variant, variant

SEEDS = range(1000, 1040)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_variant_of_the_library_is_run_or_refused_with_its_place(
    seed: int, tmp_path: Path
) -> None:
    results = run_variant(LIBRARY[seed % len(LIBRARY)], seed, tmp_path)
    bad = [(argv[0], code, err[-300:]) for argv, code, err in results if is_bad(argv, code, err)]
    assert not bad


def test_variants_are_reproducible_from_their_seed() -> None:
    assert variant(LIBRARY[0], 7) == variant(LIBRARY[0], 7)
    assert len({variant(LIBRARY[0], s) for s in range(20)}) > 10

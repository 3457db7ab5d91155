"""The case split's cases must hold every tower between them, or a proof made of "every case
impossible" could miss the tower the cards ask for: a split that could miss one is refused."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from brix_case_split import Split, _covering  # noqa: E402

from tower_print.brix.decks import shipped_deck  # noqa: E402
from tower_print.brix.language import parse  # noqa: E402


@pytest.mark.parametrize(("text", "covers"), [
    ("{} bricks touch the ground", True),
    ("the tower is {} flat bricks tall", True),
    ("there are {} vertical bricks", True),
    ("{} blue bricks rest on exactly 1 bricks", True),
    ("every gray brick rests on {} bricks", True),  # pink has one gray brick
    ("every blue brick rests on {} bricks", False),  # two blue bricks may differ
    ("some gray brick rests on {} bricks", False),  # no gray brick: no case holds
    ("there are exactly 2 blue bricks and {} bricks touch the ground", False),
])
def test_a_split_is_kept_only_when_its_cases_hold_every_tower(text: str, covers: bool) -> None:
    deck = shipped_deck("pink")
    cases = [parse(case, deck.bricks.color_names) for case in Split(text, 1, 2).cases()]
    assert _covering(deck, cases) is covers

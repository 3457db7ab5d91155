"""benchmarks/script_proofs.conclude with other sets of cards: the standing towers an
enumeration kept are tried on each set in every colouring, and a set none meets is proved only
when every such tower was kept."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from script_proofs import conclude  # noqa: E402

from tower_print.brix.conflicts import read_conflict_file  # noqa: E402
from tower_print.brix.decks import shipped_deck  # noqa: E402
from tower_print.brix.evaluate import Evaluator  # noqa: E402
from tower_print.brix.recolour import Colourings  # noqa: E402


def _cards() -> tuple[object, object, str, str]:
    """A standing tower of the green file; a card it meets only in another colouring than its
    own, and one it meets in none."""
    deck = shipped_deck("green")
    known = read_conflict_file(
        Path(__file__).resolve().parent.parent / "content/brix/conflicts/green.yaml", deck)
    assert known is not None
    tower = known.towers[0]
    recoloured = [card.id for card in deck.cards
                  if not Evaluator(tower, deck.bricks).condition(card.condition)
                  and Colourings(deck, tower).meeting([card.condition]) is not None]
    never = [card.id for card in deck.cards
             if Colourings(deck, tower).meeting([card.condition]) is None]
    assert recoloured and never
    return deck, tower, recoloured[0], never[0]


@pytest.mark.parametrize(("kept", "expected"), [
    (1, ["a standing tower meeting", "no tower meeting"]),
    (2, ["a standing tower meeting", "undecided"]),
])
def test_other_sets_are_met_in_any_colouring_and_proved_only_when_every_tower_was_kept(
        kept: int, expected: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    deck, tower, recoloured, never = _cards()
    counts = Counter({"stand and meet the cards": kept})
    conclude(deck, [], [tower], counts, 1.0, "cmd", "every tower", None,
             [[recoloured], [never]])
    out = capsys.readouterr().out.splitlines()
    lines = [line for line in out if recoloured in line or never in line]
    assert [next(e for e in expected if e in line) for line in lines] == expected

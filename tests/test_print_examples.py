"""The stored example towers on the card faces: valid now, and refused when stale or broken."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tower_print.brix.checker import problems
from tower_print.brix.decks import shipped_deck
from tower_print.brix.examples import (
    checked_examples,
    examples_path,
    find_examples,
    vacuous_clauses,
    write_examples,
)
from tower_print.content import UserError


@pytest.mark.parametrize("name", ["green", "pink"])
def test_every_shipped_card_has_a_valid_example(name: str) -> None:
    deck = shipped_deck(name)
    towers = checked_examples(deck)
    assert set(towers) == {c.id for c in deck.cards}
    for card in deck.cards:
        tower = towers[card.id]
        # the independent checker, once more and directly
        assert problems(tower, deck.bricks, deck.all_used, [(card.id, card.condition)]) == []
        # pictures, not loopholes: no clause is met only because its bricks are absent
        assert vacuous_clauses(card.condition, tower, deck.bricks) == 0, card.id


def copy_examples(tmp_path: Path, name: str) -> Path:
    target = tmp_path / f"{name}.yaml"
    target.write_text(examples_path(name).read_text())
    return target


def test_stale_condition_is_refused_with_the_command_to_fix_it(tmp_path: Path) -> None:
    deck = shipped_deck("green")
    path = copy_examples(tmp_path, "green")
    text = path.read_text()
    card = deck.cards[4]
    path.write_text(text.replace(f"condition: {card.source}\n",
                                 "condition: some red brick is vertical\n", 1))
    with pytest.raises(UserError) as error:
        checked_examples(deck, path)
    message = str(error.value)
    assert f"examples.{card.id}" in message and "stale" in message
    assert "tower-print brix examples --deck green" in message
    assert f"{path}:" in message


def test_tower_that_no_longer_stands_or_meets_the_card_is_refused(tmp_path: Path) -> None:
    deck = shipped_deck("green")
    path = copy_examples(tmp_path, "green")
    lines = path.read_text().splitlines()
    first = next(i for i, line in enumerate(lines) if line.strip().startswith("- ["))
    # lift the first brick into the air: it floats, so the tower is no longer valid
    parts = lines[first].split(",")
    parts[3] = " 40"
    lines[first] = ",".join(parts)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(UserError, match="no longer valid"):
        checked_examples(deck, path)


def test_missing_file_and_missing_card(tmp_path: Path) -> None:
    deck = shipped_deck("pink")
    with pytest.raises(UserError, match="tower-print brix examples --deck pink"):
        checked_examples(deck, tmp_path / "none.yaml")
    path = copy_examples(tmp_path, "pink")
    text = path.read_text()
    cut = text.index("  P02:")
    path.write_text(text[:text.index("  P01:")] + text[cut:])
    with pytest.raises(UserError, match="no example tower for card P01"):
        checked_examples(deck, path)


def test_bad_brick_entry_names_line_and_field(tmp_path: Path) -> None:
    deck = shipped_deck("green")
    path = copy_examples(tmp_path, "green")
    path.write_text(path.read_text().replace("- [red,", "- [orange,", 1))
    with pytest.raises(UserError) as error:
        checked_examples(deck, path)
    assert "'orange' is not one of" in str(error.value)
    assert f"{path}:" in str(error.value) and "bricks[" in str(error.value)


def test_found_examples_round_trip_through_the_file(tmp_path: Path) -> None:
    deck = shipped_deck("green")
    small = replace(deck, cards=deck.cards[:3])
    towers = find_examples(small, seed=1, samples=150)
    path = write_examples(small, towers, 1, 150, tmp_path / "green.yaml")
    assert checked_examples(small, path) == towers
    # same seed, same towers
    assert find_examples(small, seed=1, samples=150) == towers


def test_solver_steps_in_when_no_sample_meets_a_card(tmp_path: Path) -> None:
    deck = shipped_deck("green")
    hard = next(c for c in deck.cards if c.id == "G38")  # met by about 1 in 100 samples
    small = replace(deck, cards=(hard,))
    notes: list[str] = []
    towers = find_examples(small, seed=0, samples=1, timeout=60, progress=notes.append)
    assert any("asking the solver" in n for n in notes)
    assert problems(towers["G38"], deck.bricks, True, [("G38", hard.condition)]) == []

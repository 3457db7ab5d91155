"""The shipped condition decks: counts, canonical conditions, witnesses and difficulty.

Witnesses come from seeded random stable towers (tower_print.brix.sampling), sampled once per
deck; each card's witness is re-checked by the independent checker (rule, geometry, statics).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from tower_print.brix.checker import problems
from tower_print.brix.decks import Deck, load_deck, shipped_deck
from tower_print.brix.evaluate import holds
from tower_print.brix.language import describe, parse
from tower_print.brix.sampling import Tower, random_tower, sample_towers
from tower_print.content import ContentError

SEED = 2024
SAMPLES = 1000  # per deck; the rarest card is met by about 0.5% of random towers

EXPECTED = {
    # deck: (id prefix, colours, rule, 2-point cards, 3-point cards)
    "green": ("G", ("yellow", "purple", "red", "blue"), "all", 28, 22),
    "pink": ("P", ("yellow", "purple", "red", "blue", "gray"), "one of each colour", 32, 23),
}


@dataclass(frozen=True)
class Sampled:
    deck: Deck
    towers: list[Tower]
    truth: dict[str, tuple[bool, ...]]  # card id -> does each sampled tower meet it

    def share(self, card_id: str) -> float:
        return sum(self.truth[card_id]) / len(self.towers)


@pytest.fixture(scope="module", params=sorted(EXPECTED))
def sampled(request: pytest.FixtureRequest) -> Sampled:
    deck = shipped_deck(request.param)
    towers = sample_towers(deck.bricks, deck.all_used, SAMPLES, seed=SEED)
    truth = {
        card.id: tuple(holds(card.condition, tower, deck.bricks) for tower in towers)
        for card in deck.cards
    }
    return Sampled(deck, towers, truth)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_deck_counts_rule_and_points(name: str) -> None:
    prefix, colours, rule, two, three = EXPECTED[name]
    deck = shipped_deck(name)
    assert deck.name == name
    assert deck.rule == rule
    assert deck.bricks.color_names == colours
    assert [c.id for c in deck.cards] == [f"{prefix}{k:02d}" for k in range(1, two + three + 1)]
    assert [c.points for c in deck.cards].count(2) == two
    assert [c.points for c in deck.cards].count(3) == three
    assert len(deck.cards) == two + three


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_conditions_are_canonical_and_texts_fit(name: str) -> None:
    deck = shipped_deck(name)
    colours = deck.bricks.color_names
    for card in deck.cards:
        assert describe(parse(card.source, colours)) == card.source, card.id
        assert describe(card.condition) == card.source, card.id
        assert 0 < len(card.text) <= 90, card.id
    assert len({c.text for c in deck.cards}) == len(deck.cards), "two cards share a text"
    assert len({c.source for c in deck.cards}) == len(deck.cards), "two cards share a condition"


def test_sampled_towers_obey_the_deck_rule(sampled: Sampled) -> None:
    deck = sampled.deck
    for tower in sampled.towers[:100]:
        assert problems(tower, deck.bricks, deck.all_used, []) == []


def test_sampling_is_deterministic() -> None:
    deck = shipped_deck("pink")
    first = sample_towers(deck.bricks, deck.all_used, 20, seed=5)
    assert first == sample_towers(deck.bricks, deck.all_used, 20, seed=5)
    assert first != sample_towers(deck.bricks, deck.all_used, 20, seed=6)


def test_random_tower_reports_failure_instead_of_looping() -> None:
    deck = shipped_deck("green")
    assert random_tower(deck.bricks, random.Random(0), tries=0) is None


def test_every_card_is_met_by_some_stable_tower(sampled: Sampled) -> None:
    deck = sampled.deck
    unmet = []
    for card in deck.cards:
        hits = [t for t, ok in zip(sampled.towers, sampled.truth[card.id], strict=True) if ok]
        if not hits:
            unmet.append(card.id)
            continue
        witness = hits[0]
        assert problems(witness, deck.bricks, deck.all_used, [(card.id, card.condition)]) == []
    assert unmet == [], f"no sampled tower meets {unmet}"


def test_no_card_is_met_by_every_tower(sampled: Sampled) -> None:
    always = [cid for cid, row in sampled.truth.items() if all(row)]
    assert always == [], f"cards met by every sampled tower (trivial?): {always}"


def test_three_point_cards_are_harder(sampled: Sampled) -> None:
    by_points: dict[int, list[float]] = {2: [], 3: []}
    for card in sampled.deck.cards:
        by_points[card.points].append(sampled.share(card.id))
    two = sum(by_points[2]) / len(by_points[2])
    three = sum(by_points[3]) / len(by_points[3])
    assert three < 0.5 * two, (two, three)


def test_no_two_cards_are_equivalent_on_the_sample(sampled: Sampled) -> None:
    first: dict[tuple[bool, ...], str] = {}
    same = []
    for cid, row in sampled.truth.items():
        if row in first:
            same.append((first[row], cid))
        first.setdefault(row, cid)
    assert same == [], f"cards with identical truth on every sampled tower: {same}"


BROKEN = """\
deck: test
title: Broken deck
colors: [yellow, purple, red, blue]
rule: all
cards:
  - id: T01
    points: 2
    text: "Fine."
    condition: every blue brick touches some red brick
  - id: T02
    points: 3
    text: "Broken."
    condition: every green brick touches the ground
"""


def test_broken_deck_names_file_line_and_field(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(BROKEN, encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_deck(path)
    error = caught.value
    assert error.file == str(path)
    assert error.line == 13
    assert error.field == "cards[1].condition"
    assert str(error).startswith(f"{path}:13: cards[1].condition: ")
    assert "green" in str(error)


def test_bad_points_name_their_place(tmp_path: Path) -> None:
    path = tmp_path / "points.yaml"
    path.write_text(BROKEN.replace("points: 3", "points: three"), encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_deck(path)
    assert (caught.value.line, caught.value.field) == (11, "cards[1].points")

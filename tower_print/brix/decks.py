"""TowerBrix condition decks, read from content/brix/decks/*.yaml and validated on load."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tower_print.brix.bricks import BrickSet, default_bricks
from tower_print.brix.evaluate import Evaluator
from tower_print.brix.geometry import PlacedBrick
from tower_print.brix.language import Condition, parse
from tower_print.content import UserError, content_root, load_yaml

if TYPE_CHECKING:
    from tower_print.brix.solver import Labeled

RULES = ("all", "one of each colour")
CARDS_MET_KEPT = 100_000
"""Towers whose cards met a deck remembers (`Deck.cards_met`), then starts afresh: an audit
taking pink's file evaluated its 33,000 towers three times (checking the file, seeding the
map, writing the file back: 20-40 s each)."""


@dataclass(frozen=True)
class Card:
    id: str
    points: int
    text: str
    condition: Condition
    source: str  # the condition as written in the file

    def item(self) -> Labeled:
        """The card as a condition for the solver, labelled with its id."""
        from tower_print.brix.solver import Labeled  # Z3 loads only where a card is solved
        return Labeled(self.id, self.text, self.condition)


@dataclass(frozen=True)
class Deck:
    name: str
    title: str
    rule: str  # "all": every brick of `bricks` used; else any subset with each colour present
    bricks: BrickSet
    cards: tuple[Card, ...]
    _met: dict[tuple[PlacedBrick, ...], int] = field(
        default_factory=dict, init=False, repr=False, compare=False)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (to an audit's workers, with every task) without the towers remembered."""
        return {**self.__dict__, "_met": {}}

    @property
    def all_used(self) -> bool:
        return self.rule == "all"

    def what_decides(self) -> dict[str, Any]:
        """What decides which card sets some tower meets, as plain data for hashing: the
        conditions, the brick rule, the bricks and their stability margin."""
        bricks = self.bricks
        return {
            "rule": self.rule,
            "cards": [[c.id, c.source] for c in self.cards],
            "bricks": [bricks.length, bricks.width, bricks.thickness, bricks.stability_margin,
                       [[b.name, b.color] for b in bricks.bricks]],
        }

    def cards_met(self, tower: tuple[PlacedBrick, ...]) -> int:
        """The cards `tower` meets, bit k for `cards[k]`: the set of cards it proves solvable
        (remembered: `CARDS_MET_KEPT`)."""
        met = self._met.get(tower)
        if met is None:
            judge = Evaluator(tower, self.bricks)
            met = sum(1 << k for k, card in enumerate(self.cards)
                      if judge.condition(card.condition))
            self.remember_met(tower, met)
        return met

    def remember_met(self, tower: tuple[PlacedBrick, ...], met: int) -> None:
        """Remember that `tower` meets the cards `met` (`cards_met`; another process judged
        it)."""
        if len(self._met) >= CARDS_MET_KEPT:
            self._met.clear()
        self._met[tower] = met

    def card(self, card_id: str) -> Card:
        for card in self.cards:
            if card.id.lower() == card_id.lower():
                return card
        raise UserError(f"deck {self.name}: unknown card id '{card_id}'")


def load_deck(path: Path, brick_set: BrickSet | None = None) -> Deck:
    full = brick_set or default_bricks()
    root = load_yaml(path)
    root.only_keys("deck", "title", "colors", "rule", "cards")
    name = root["deck"].str()
    colors = tuple(node.choice(full.color_names) for node in root["colors"].items())
    bricks = full.subset(colors)
    rule = root["rule"].choice(RULES)
    cards: list[Card] = []
    seen: dict[str, int] = {}
    for node in root["cards"].items():
        node.only_keys("id", "points", "text", "condition")
        card_id = node["id"].str()
        if card_id in seen:
            raise node["id"].error(f"duplicate card id (first on line {seen[card_id]})")
        seen[card_id] = node["id"].line
        source = node["condition"].str()
        cards.append(Card(
            id=card_id, points=node["points"].int(1, 10), text=node["text"].str(),
            condition=node["condition"].parsed(lambda text: parse(text, colors)), source=source,
        ))
    if not cards:
        raise root["cards"].error("a deck needs at least one card")
    return Deck(name, root["title"].str(), rule, bricks, tuple(cards))


DECK_NAMES = ("green", "pink")


@cache
def shipped_deck(name: str) -> Deck:
    if name not in DECK_NAMES:
        raise UserError(f"unknown deck '{name}' (expected one of: {', '.join(DECK_NAMES)})")
    return load_deck(content_root() / "brix" / "decks" / f"{name}.yaml")

"""The Tower Up content as one bundle: board, rules and deck, objective cards."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tower_print.content import content_root
from tower_print.towerup.board import Board, load_board
from tower_print.towerup.components import Rules, load_rules
from tower_print.towerup.objectives import (
    ObjectiveCard,
    Vocabulary,
    load_objective_cards,
)


@dataclass(frozen=True)
class Content:
    board: Board
    rules: Rules
    cards: tuple[ObjectiveCard, ...]
    words: Vocabulary

    def card(self, card_id: str) -> ObjectiveCard:
        for card in self.cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)


def load_content(folder: Path) -> Content:
    board = load_board(folder / "board.yaml")
    rules = load_rules(folder / "rules.yaml", folder / "deck.yaml")
    words = Vocabulary(rules.colours, tuple(board.districts))
    return Content(board, rules, load_objective_cards(folder / "objectives.yaml", words), words)


@cache
def default_content() -> Content:
    return load_content(content_root() / "towerup")

"""Drawing condition cards the way the rulebook deals a round: by total points.

A round of a difficulty level has a point total in the level's band (Easy <= 12, Medium 13-19,
Hard >= 20); the table draws 2- and 3-point cards until the total is reached.
"""

from __future__ import annotations

import random

from tower_print.brix.decks import Card, Deck

LEVELS = {"easy": (8, 12), "medium": (13, 19), "hard": (20, 24)}
"""Point totals drawn for each level. The rulebook bounds Easy only from above and Hard only
from below; 8 (a four-card round) and 24 (the most a table of six usually takes) close them."""


def draw_cards(deck: Deck, total: int, rng: random.Random) -> tuple[Card, ...]:
    """Random cards of `deck` whose points add up to exactly `total`."""
    if total < 2:
        raise ValueError("a round needs at least 2 points")
    stacks = {
        points: rng.sample([c for c in deck.cards if c.points == points], k=sum(
            1 for c in deck.cards if c.points == points))
        for points in sorted({c.points for c in deck.cards})
    }
    drawn: list[Card] = []
    left = total
    while left > 0:
        fitting = [p for p, stack in stacks.items() if stack and p <= left and left - p != 1]
        if not fitting:
            raise ValueError(f"deck {deck.name} cannot make {total} points")
        points = rng.choice(fitting)
        drawn.append(stacks[points].pop())
        left -= points
    return tuple(drawn)


def draw_level(deck: Deck, level: str, rng: random.Random) -> tuple[Card, ...]:
    low, high = LEVELS[level]
    return draw_cards(deck, rng.randint(low, high), rng)

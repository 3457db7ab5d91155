"""Card points from measured difficulty: which cards are worth 3 points and which 2.

A deck has a fixed number of 3-point cards (green 22 of 50, pink 23 of 55). Measured difficulty
(`difficulty`: the share of random standing towers that meet a card) ranks the cards; the hardest
ones, the fewest towers meeting them, deserve the 3 points. The cut is the share halfway between
the last card that makes the 3-point group and the first that does not. Generating a deck prices
cards by this rank; auditing a deck flags a card only when its whole 95 % interval lies on the
wrong side of the cut, so sampling noise alone never flags a card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tower_print.brix.difficulty import Difficulty


def points_cut(shares: Sequence[float], three_point: int) -> float:
    """The share separating the `three_point` hardest cards from the rest."""
    ordered = sorted(shares)
    if not 0 < three_point < len(ordered):
        return 1.0 if three_point >= len(ordered) else 0.0
    return (ordered[three_point - 1] + ordered[three_point]) / 2


def points_by_rank(shares: Sequence[float], three_point: int) -> list[int]:
    """3 for the `three_point` cards with the smallest shares (ties: earlier card), else 2."""
    order = sorted(range(len(shares)), key=lambda k: (shares[k], k))
    hard = set(order[:three_point])
    return [3 if k in hard else 2 for k in range(len(shares))]


@dataclass(frozen=True)
class PriceCheck:
    points: int
    difficulty: Difficulty
    verdict: str  # "ok", "too high" (measured easier than its points), "too low"


def check_prices(points: Sequence[int], measured: Sequence[Difficulty]) -> list[PriceCheck]:
    """Each card's printed points against the rank cut of its own deck."""
    cut = points_cut([d.share for d in measured], sum(1 for p in points if p >= 3))
    out = []
    for printed, difficulty in zip(points, measured, strict=True):
        verdict = "ok"
        if printed >= 3 and difficulty.low > cut:
            verdict = "too high"
        elif printed < 3 and difficulty.high < cut:
            verdict = "too low"
        out.append(PriceCheck(printed, difficulty, verdict))
    return out

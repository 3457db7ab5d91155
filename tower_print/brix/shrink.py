"""Shrinking a conflict with few proofs, shared by the solver's core minimisation (`brix
verify`) and the audit's.

Why: dropping a card that a conflict does not need costs a proof that the rest still clash, the
dear answer; dropping one it needs costs a tower, mostly one already at hand. Dropped one by
one, every spare card costs a proof of its own; dropped together, they cost one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

Card = TypeVar("Card")


def dropped_together(
    core: Sequence[Card], needed: Sequence[Card], solvable_known: Callable[[list[Card]], bool],
    clash: Callable[[list[Card]], bool | None],
) -> list[Card] | None:
    """A minimal conflict inside `core` (a conflict), found by dropping the cards not known
    `needed` together: all of them, then all but one, each in turn (in `core`'s order, so the
    answer depends only on which sets are solvable); None when none of these clash, and the
    caller is left to drop the cards in doubt one by one.

    `needed`: cards that `core` without any one of them is known to meet with a tower, so each
    is in every conflict inside `core`; `needed` and one more card, when `needed` alone is
    solvable, is then a minimal conflict if it is one at all. `solvable_known(cards)`: a tower
    at hand meets them; `clash(cards)`: the solver's answer, True when they cannot be built,
    False when they can, None when it could not tell."""
    doubtful = [card for card in core if card not in needed]
    if len(doubtful) < 2:
        return None
    alone = [card for card in core if card in needed]
    if not solvable_known(alone):
        answer = clash(alone)
        if answer is not False:  # a conflict, or undecided: then the rest proves nothing
            return alone if answer else None
    for spare in doubtful:
        trial = [card for card in core if card in needed or card == spare]
        if not solvable_known(trial) and clash(trial):
            return trial
    return None

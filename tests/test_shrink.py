"""Dropping the cards in doubt together (`shrink.dropped_together`), against an oracle that
knows which sets clash: what it returns is a minimal conflict, the same whichever solvable
sets are known, and it asks at most once per card in doubt, plus once, and never about a set
known solvable."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from tower_print.brix.shrink import dropped_together

CARDS = range(8)


@st.composite
def conflicts_and_core(draw: st.DrawFn) -> tuple[list[frozenset[int]], list[int]]:
    conflicts = draw(st.lists(st.frozensets(st.sampled_from(CARDS), min_size=1, max_size=4),
                              min_size=1, max_size=4))
    core = sorted(draw(st.sampled_from(conflicts)) | draw(st.frozensets(st.sampled_from(CARDS))))
    return conflicts, core


@given(conflicts_and_core(), st.randoms(use_true_random=False), st.booleans())
def test_what_is_dropped_together_leaves_a_minimal_conflict(
    case: tuple[list[frozenset[int]], list[int]], rng: random.Random, tell_solvable: bool,
) -> None:
    conflicts, core = case

    def clashes(cards: list[int]) -> bool:
        return any(conflict <= set(cards) for conflict in conflicts)

    needed = [c for c in core if not clashes([k for k in core if k != c]) and rng.random() < 0.7]
    asked: list[list[int]] = []

    def clash(cards: list[int]) -> bool:
        asked.append(cards)
        return clashes(cards)

    at_hand = {frozenset(cards) for cards in _subsets(core)
               if not clashes(list(cards)) and rng.random() < 0.5} if tell_solvable else set()

    def solvable_known(cards: list[int]) -> bool:  # some towers at hand, or none
        return frozenset(cards) in at_hand

    found = dropped_together(core, needed, solvable_known, clash)
    assert len(asked) <= len(core) - len(needed) + 1
    assert not any(frozenset(cards) in at_hand for cards in asked)
    plain = dropped_together(core, needed, lambda cards: False, clashes)
    assert found == plain  # towers at hand only spare questions
    if found is not None:
        assert clashes(found) and set(needed) <= set(found) <= set(core)
        assert not any(clashes([k for k in found if k != c]) for c in found)
    elif len(core) - len(needed) >= 2:  # every set it could have returned was asked
        assert not clashes(needed)
        assert not any(clashes([*needed, c]) for c in core if c not in needed)


def _subsets(cards: list[int]) -> list[tuple[int, ...]]:
    return [tuple(c for k, c in enumerate(cards) if bits >> k & 1)
            for bits in range(1 << len(cards))]

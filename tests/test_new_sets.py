"""Which of an audit's towers a conflicts file keeps: those meeting the most new sets of the
next size (`new_sets`), checked against a count by itertools over small card sets."""

from __future__ import annotations

import itertools
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tower_print.brix import new_sets
from tower_print.brix.marco import mask_of, members
from tower_print.brix.new_sets import SetsOfSize, most_new_sets_first, open_sets_of_size


def _sets(mask: int, size: int) -> set[tuple[int, ...]]:
    return set(itertools.combinations(members(mask), size))


def test_each_set_of_the_size_has_its_own_rank() -> None:
    sets = SetsOfSize(cards=9, size=3)
    ranks = sets.ranks(2**9 - 1)
    assert sorted(ranks.tolist()) == list(range(math.comb(9, 3)))
    assert len(sets.ranks(mask_of([0, 4]))) == 0  # fewer cards than the size
    unranked = [sets.mask_of_rank(rank) for rank in range(len(ranks))]
    assert sorted(unranked) == sorted(mask_of(c) for c in itertools.combinations(range(9), 3))
    assert all(sets.ranks(mask).tolist() == [rank] for rank, mask in enumerate(unranked))


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 8), st.lists(st.integers(0, 2**8 - 1), max_size=5),
       st.lists(st.integers(1, 2**8 - 1), max_size=4))
def test_the_open_sets_of_a_size_against_a_count_by_hand(
    size: int, met: list[int], conflicts: list[int],
) -> None:
    """The sets of `size` of 8 cards inside no set met and holding no conflict, exactly."""
    by_hand = [mask_of(chosen) for chosen in itertools.combinations(range(8), size)
               if not any(mask_of(chosen) & ~m == 0 for m in met)
               and not any(c & ~mask_of(chosen) == 0 for c in conflicts)]
    assert sorted(open_sets_of_size(8, size, met, conflicts)) == sorted(by_hand)


def test_the_open_sets_are_the_same_marked_in_several_processes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(4)
    met = [rng.getrandbits(12) for _ in range(9)]
    conflicts = [mask_of(rng.sample(range(12), 3)) for _ in range(3)]
    alone = open_sets_of_size(12, 4, met, conflicts)
    monkeypatch.setattr(new_sets, "MASKS_A_TASK", 2)
    assert open_sets_of_size(12, 4, met, conflicts, jobs=2) == alone
    assert 0 < len(alone) < math.comb(12, 4)


def test_a_small_tower_meeting_new_sets_goes_before_a_large_one_meeting_few() -> None:
    """Cards 0-3 with 4 and with 5 are known met: the six-card tower adds one new pair (4 5),
    the three-card one three (5 6, 5 7, 6 7); kept one, it is the small one, as the most cards
    would not have it."""
    known = [mask_of([0, 1, 2, 3, 4]), mask_of([0, 1, 2, 3, 5])]
    large, small = mask_of(range(6)), mask_of([5, 6, 7])
    assert most_new_sets_first([large, small], known, 8, 2, limit=1) == [small]
    assert most_new_sets_first([large, small], known, 8, 2, limit=5) == [small, large]
    assert most_new_sets_first([large], [large], 8, 2, limit=5) == []  # nothing new


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 2**8 - 1), min_size=1, max_size=12, unique=True),
       st.lists(st.integers(1, 2**8 - 1), max_size=4), st.integers(1, 3), st.integers(1, 5))
def test_the_greedy_choice_against_a_count_by_hand(
    candidates: list[int], known: list[int], size: int, limit: int,
) -> None:
    """Each tower taken meets the most sets not met before it of those still offered, more
    than none, and taking stops only at the limit or when no tower meets a new set."""
    taken = most_new_sets_first(candidates, known, 8, size, limit)
    met = set().union(*(_sets(m, size) for m in known))
    for mask in taken:
        gains = {m: len(_sets(m, size) - met) for m in candidates if m not in taken
                 or taken.index(m) >= taken.index(mask)}
        assert gains[mask] == max(gains.values()) > 0
        met |= _sets(mask, size)
    left = [m for m in candidates if m not in taken]
    assert len(taken) == limit or all(not _sets(m, size) - met for m in left)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 2**8 - 1), min_size=1, max_size=12, unique=True),
       st.lists(st.integers(1, 2**8 - 1), max_size=4), st.integers(1, 3))
def test_the_greedy_never_takes_a_tower_inside_another_offered_before_it(
    candidates: list[int], known: list[int], size: int,
) -> None:
    """Offered most cards first (as `conflicts._towers_to_keep` does), a candidate inside
    another never meets more new sets and loses the tie, so `_towers_to_keep` may skip the
    count when it keeps every tower offered."""
    offered = sorted(candidates, key=int.bit_count, reverse=True)
    taken = most_new_sets_first(offered, known, 8, size, len(offered))
    assert not any(m != o and m & ~o == 0 for m in taken for o in offered)

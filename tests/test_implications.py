"""Which card implies which: the candidates the towers leave, the closure and core that settle
sets, and the solver's proof on real cards."""

from __future__ import annotations

import itertools
import random

from tower_print.brix.decks import shipped_deck
from tower_print.brix.implications import Implications, implication_candidates, meets_one_not_other
from tower_print.brix.marco import mask_of, members
from tower_print.brix.solver import SOLVABLE, UNSOLVABLE, TowerSolver


def test_candidates_are_the_pairs_no_set_met_holds_apart() -> None:
    met = [0b0111, 0b0011, 0b1100]  # 0 and 1 always together; 2 once without 3, once without 0
    assert implication_candidates(4, met) == [(0, 1), (1, 0), (3, 2)]
    assert implication_candidates(2, []) == [(0, 1), (1, 0)]  # no tower: every pair


def test_candidates_match_a_brute_force_over_random_sets() -> None:
    rng = random.Random(5)
    for _ in range(50):
        cards = rng.randint(2, 7)
        met = [rng.getrandbits(cards) for _ in range(rng.randint(0, 6))]
        expected = [(one, other) for one, other in itertools.permutations(range(cards), 2)
                    if not any(m >> one & 1 and not m >> other & 1 for m in met)]
        assert implication_candidates(cards, met) == sorted(expected)


def test_closure_follows_chains_and_the_core_names_the_cards_that_imply() -> None:
    implications = Implications(5, [(0, 1), (1, 2), (3, 4)])
    assert implications.closure(mask_of([0])) == mask_of([0, 1, 2])  # 0 -> 1 -> 2
    assert implications.closure(mask_of([2, 3])) == mask_of([2, 3, 4])
    conflict = mask_of([2, 4])
    assert implications.core(mask_of([0, 3]), conflict) == mask_of([0, 3])
    assert implications.core(mask_of([0, 2, 3]), conflict) == mask_of([2, 3])  # 2 stands for itself
    assert members(implications.core(mask_of([1, 3, 0]), mask_of([2]))) == [0]  # first card


def test_the_solver_proves_an_implication_and_refutes_a_pair_no_tower_had_told_apart() -> None:
    """Pink's P50 (at least 5 flat bricks tall and at most 6 bricks) implies P04 (at most 6
    bricks), not the other way; P33 (exactly 5 bricks) does not imply P17 (at most 4 bricks
    touch the ground), though no tower of the file once met P33 without P17."""
    deck = shipped_deck("pink")
    solver = TowerSolver(deck.bricks, deck.all_used)

    def answer(one: str, other: str) -> str:
        return meets_one_not_other(solver, deck.card(one).condition, deck.card(other).condition,
                                   60)[0]

    assert answer("P50", "P04") == UNSOLVABLE
    assert answer("P04", "P50") == SOLVABLE
    assert answer("P33", "P17") == SOLVABLE

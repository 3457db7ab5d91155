"""The deck audit: MARCO's map on its own, then the whole audit on a deck with planted conflicts,
checked against a brute force over every subset of its cards, and resumed after an interruption.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
import time
from collections.abc import Callable
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import Result

from tower_print.brix import audit, shapes
from tower_print.brix.audit import AuditSettings, Explorer
from tower_print.brix.audit_report import audit_json, audit_text, card_prices, deal_odds
from tower_print.brix.checker import problems
from tower_print.brix.conflicts import read_conflict_file
from tower_print.brix.decks import Deck, load_deck, shipped_deck
from tower_print.brix.difficulty import wilson
from tower_print.brix.implications import Implications
from tower_print.brix.marco import CardMap, MaskSet, mask_of, members
from tower_print.brix.new_sets import open_sets_of_size
from tower_print.brix.sampling import sample_towers
from tower_print.brix.shape_library import box_of
from tower_print.brix.solver import SOLVABLE, UNKNOWN, UNSOLVABLE, Labeled, TowerSolver
from tower_print.brix.stored_towers import Tower

PLANTED = Path(__file__).parent / "data" / "brix-planted.yaml"
PLANTED_CONFLICTS = {
    ("T1", "T2"), ("T3", "T4"), ("T5", "T6"), ("T1", "T7"), ("T2", "T7"), ("T3", "T7"),
    ("T7", "T8"), ("T1", "T3", "T8"),
}
SETTINGS = AuditSettings(seed=3, timeout=60, samples=300, deals=300, deal_seeds=20)


# ------------------------------------------------------------------ the map alone



def conflicts_in(path: Path) -> set[tuple[str, ...]]:
    """The conflicts a file written for the planted deck holds."""
    read = read_conflict_file(path, load_deck(PLANTED))
    assert read is not None
    return set(read.sets)

def _minimal(sets: list[int]) -> set[int]:
    return {s for s in sets if not any(t != s and t & ~s == 0 for t in sets)}


def _shrunk(seed: int, bad: Callable[[int], bool]) -> int:
    """Deletion: drop each card whose absence keeps the set bad."""
    core = seed
    for k in members(seed):
        if bad(core & ~(1 << k)):
            core &= ~(1 << k)
    return core


def _decide_all(cmap: CardMap, next_seed: Callable[[], int | None], bad: Callable[[int], bool],
                seen: Callable[[int], None] = lambda seed: None) -> None:
    """Ask `next_seed` until the map has none, answering each from the oracle `bad`."""
    while (seed := next_seed()) is not None:
        seen(seed)
        if bad(seed):
            cmap.add_mus(_shrunk(seed, bad))
        else:
            cmap.add_solvable(seed)
        cmap.settle(seed)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 2**70 - 1), max_size=8), st.integers(0, 2**70 - 1),
       st.sampled_from([10, 70]))
def test_mask_set_subset_tests_against_plain_integers(
    masks: list[int], probe: int, cards: int,
) -> None:
    """`MaskSet`'s tests, numpy words for up to 63 cards, plain integers beyond, as by hand."""
    full = (1 << cards) - 1
    masks, probe = [m & full for m in masks], probe & full
    held = MaskSet(cards, masks)
    assert held.has_superset_of(probe) == any(probe & ~m == 0 for m in masks)
    assert held.has_subset_of(probe) == any(m & ~probe == 0 for m in masks)
    assert held.subset_of(probe, proper=True) == next(
        (m for m in masks if m & ~probe == 0 and m != probe), None)
    assert held.has_larger_superset_of(probe) == any(
        probe & ~m == 0 and m.bit_count() > probe.bit_count() for m in masks)


@pytest.mark.parametrize("trial", range(6))
def test_map_finds_every_planted_conflict_of_a_random_oracle(trial: int) -> None:
    """MARCO over a made-up oracle (a set is 'unsolvable' when it holds a planted set) finds
    exactly the minimal planted sets, found by brute force over all subsets."""
    rng = random.Random(trial)
    n = 11
    planted = [mask_of(rng.sample(range(n), rng.randint(1, 4))) for _ in range(rng.randint(1, 7))]
    truth = _minimal(planted)
    bad = lambda mask: any(p & ~mask == 0 for p in planted)  # noqa: E731
    brute = {m for m in range(1 << n) if bad(m) and all(
        not bad(m & ~(1 << k)) for k in members(m))}
    assert brute == truth
    cmap = CardMap(n, max_cards=None, seed=trial)

    def maximal(seed: int) -> None:  # grown: any card more would hold a known conflict
        assert all(cmap.muses.has_subset_of(seed | 1 << k) for k in range(n) if not seed >> k & 1)

    _decide_all(cmap, cmap.seed, bad, maximal)
    assert cmap.closed
    assert set(cmap.muses) == truth


@pytest.mark.parametrize("trial", range(4))
def test_seeds_by_size_find_every_conflict_in_growing_sizes(trial: int) -> None:
    """Seeds asked for smallest sizes first find exactly the planted minimal conflicts, and
    every seed holds at most one card more than the size explored so far, which only grows."""
    rng = random.Random(200 + trial)
    n = 11
    planted = [mask_of(rng.sample(range(n), rng.randint(2, 6))) for _ in range(rng.randint(2, 7))]
    bad = lambda mask: any(p & ~mask == 0 for p in planted)  # noqa: E731
    cmap = CardMap(n, max_cards=None, seed=trial)
    explored = [cmap.explored_up_to]

    def seen(seed: int) -> None:
        assert seed.bit_count() <= cmap.explored_up_to + 1 or cmap.explored_up_to == n - 1
        explored.append(cmap.explored_up_to)

    _decide_all(cmap, cmap.seed_by_size, bad, seen)
    assert cmap.closed
    assert set(cmap.muses) == _minimal(planted)
    assert explored == sorted(explored)
    assert cmap.explored_up_to == n - 1  # and then every size was explored


@pytest.mark.parametrize(("trial", "max_cards"), [(0, None), (1, None), (2, 3), (3, 3)])
def test_a_swept_size_comes_from_its_list_and_finds_every_conflict(
    trial: int, max_cards: int | None,
) -> None:
    """Every set of up to 2 cards explained (no conflict is that small) and those of 3 swept:
    the seeds of 3 cards all come from the list, none from a search of the map, the subsets of
    a pending larger seed only once it settles, and the map still finds every conflict (of up
    to `max_cards`: at 3, the map closes when the list is done, unsearched)."""
    rng = random.Random(500 + trial)
    n = 10
    planted = [mask_of(rng.sample(range(n), rng.randint(3, 5))) for _ in range(rng.randint(2, 6))]
    bad = lambda mask: any(p & ~mask == 0 for p in planted)  # noqa: E731
    cmap = CardMap(n, max_cards=max_cards, seed=trial)
    cmap.explain_up_to(2)
    for _ in range(4):  # towers met before: each meets a set holding no conflict
        met = 0
        for k in rng.sample(range(n), n):
            if not bad(met | 1 << k) and rng.random() < 0.7:
                met |= 1 << k
        cmap.add_solvable(met)
    with pytest.raises(ValueError, match="needs every set of up to 3 cards explained"):
        cmap.sweep(4, [])
    listed = open_sets_of_size(n, 3, cmap.solvable, cmap.muses)
    pending = mask_of(rng.sample(range(n), 5))
    cmap.claim(pending)
    cmap.sweep(3, listed)
    searched: list[int | None] = []
    search = cmap.seed
    cmap.seed = lambda *args, **kwargs: searched.append(seed := search(*args, **kwargs)) or seed  # type: ignore[method-assign]
    asked: list[int] = []
    _decide_all(cmap, cmap.seed_by_size, bad, asked.append)
    assert all(seed & ~pending != 0 for seed in asked if seed.bit_count() == 3)
    cmap.add_mus(_shrunk(pending, bad)) if bad(pending) else cmap.add_solvable(pending)
    cmap.settle(pending)
    _decide_all(cmap, cmap.seed_by_size, bad, asked.append)
    assert cmap.closed
    largest = max_cards or n
    assert {m for m in _minimal(planted) if m.bit_count() <= largest} <= set(cmap.muses)
    assert set(cmap.muses) <= _minimal(planted)
    assert {seed for seed in asked if seed.bit_count() == 3} <= set(listed)
    assert not [seed for seed in searched if seed is not None and seed.bit_count() == 3]
    assert max_cards is None or searched == []  # every size explored: 1 and 2 by the file


@pytest.mark.parametrize("trial", range(4))
def test_seeds_by_size_leave_the_supersets_of_an_undecided_set_to_the_end(trial: int) -> None:
    """Green's G13 G24 G30, undecided, made eleven sets of 4 cards holding it undecided too:
    such sets are asked only once nothing else is left, and then every conflict outside the
    undecided set is still found."""
    rng = random.Random(300 + trial)
    n = 10
    undecided = mask_of(rng.sample(range(n), 2))
    planted = [mask_of(rng.sample(range(n), rng.randint(2, 5))) for _ in range(rng.randint(2, 6))]
    planted.append(undecided | mask_of(rng.sample(range(n), 1)))  # a conflict holding it
    bad = lambda mask: any(p & ~mask == 0 for p in planted)  # noqa: E731
    cmap = CardMap(n, max_cards=None, seed=trial)
    cmap.add_unknown(undecided)
    holds = []
    _decide_all(cmap, cmap.seed_by_size, bad,
                lambda seed: holds.append(undecided & ~seed == 0))
    assert cmap.closed
    assert True in holds and holds == sorted(holds)  # none without it once one with it came
    assert set(cmap.muses) == {m for m in _minimal(planted) if m & ~undecided != 0}


@pytest.mark.parametrize("trial", range(4))
def test_sets_set_aside_are_asked_again_once_nothing_else_is_left(trial: int) -> None:
    """Some sets are 'hard' (their first try runs out): set aside, they come back once no other
    seed is left (small ones once no other small one is), and the map still finds every
    planted conflict, small ones first, and closes only once none is aside."""
    rng = random.Random(400 + trial)
    n, small = 9, 2
    planted = [mask_of(rng.sample(range(n), rng.randint(2, 5))) for _ in range(rng.randint(2, 6))]
    bad = lambda mask: any(p & ~mask == 0 for p in planted)  # noqa: E731
    hard = lambda mask: hash((trial, mask)) % 3 == 0  # noqa: E731
    cmap = CardMap(n, max_cards=None, seed=trial)
    tried: set[int] = set()

    def answer(seed: int) -> None:
        if bad(seed):
            cmap.add_mus(_shrunk(seed, bad))
        else:
            cmap.add_solvable(seed)

    small_phase = True
    while True:
        seed = cmap.small_seed(small) if small_phase else None
        if seed is None and small_phase:
            again = [d for d in cmap.deferred() if d.bit_count() <= small]
            if again:
                seed = again[0]
                cmap.retry(seed)
                answer(seed)
                cmap.settle(seed)
                continue
            small_phase = False
            assert not cmap.open_up_to(small)  # every conflict this small is known now
            assert {m for m in cmap.muses if m.bit_count() <= small} == {
                m for m in _minimal(planted) if m.bit_count() <= small}
        if seed is None:
            seed = cmap.seed_by_size()
        if seed is None:
            if not cmap.deferred():
                break
            seed = cmap.deferred()[0]
            cmap.retry(seed)
            answer(seed)
        elif hard(seed) and seed not in tried:
            tried.add(seed)
            cmap.defer(seed)
            assert not cmap.closed
        else:
            answer(seed)
        cmap.settle(seed)
    assert tried and cmap.closed and not cmap.deferred()
    assert set(cmap.muses) == _minimal(planted)


def test_supersets_of_a_set_asked_again_wait_until_it_settles() -> None:
    """While a set set aside is asked again (`retry`), no seed, small or grown, holds it; once
    it settles solvable, the small sets holding it come (the walk over small sets restarts)."""
    n, small = 6, 3
    retried = mask_of([0, 1])
    cmap = CardMap(n, max_cards=None, seed=0)
    assert cmap.small_seed(small) == mask_of([0])
    cmap.add_solvable(mask_of([0]))
    cmap.settle(mask_of([0]))
    cmap.claim(retried)  # asked, as the walk would, and its first try runs out
    cmap.defer(retried)
    cmap.settle(retried)
    cmap.retry(retried)
    assert retried not in cmap.deferred()
    during = []
    while (seed := cmap.small_seed(small)) is not None:
        during.append(seed)
        cmap.add_solvable(seed)
        cmap.settle(seed)
    grown = cmap.seed(beside_undecided=True)
    assert grown is None or retried & ~grown != 0
    if grown is not None:
        cmap.settle(grown)
    assert during and all(retried & ~seed != 0 for seed in during)
    cmap.add_solvable(retried)
    cmap.settle(retried)
    after = []
    while (seed := cmap.small_seed(small)) is not None:
        after.append(seed)
        cmap.add_solvable(seed)
        cmap.settle(seed)
    assert sorted(after) == sorted(retried | 1 << k for k in range(2, n))


def test_map_with_a_size_limit_explains_every_small_set() -> None:
    n, limit = 9, 3
    planted = [mask_of([0, 1]), mask_of([2, 3, 4]), mask_of([5, 6, 7, 8])]
    bad = lambda mask: any(p & ~mask == 0 for p in planted)  # noqa: E731
    cmap = CardMap(n, max_cards=limit, seed=1)
    while (seed := cmap.seed()) is not None:
        assert seed.bit_count() <= limit
        if bad(seed):
            cmap.add_mus(next(p for p in planted if p & ~seed == 0))
        else:
            cmap.add_solvable(seed)
        cmap.settle(seed)
    assert set(cmap.muses) == {planted[0], planted[1]}  # the 4-card one is beyond the limit
    for size in range(limit + 1):
        for chosen in combinations(range(n), size):
            assert cmap.explained(mask_of(chosen))


@pytest.mark.parametrize("trial", range(4))
def test_small_seeds_find_every_small_conflict_and_nothing_larger(trial: int) -> None:
    """Asking only for sets of up to 3 cards finds exactly the planted conflicts of up to 3
    cards, even under a large set left undecided; larger ones stay unexplored."""
    rng = random.Random(100 + trial)
    n, limit = 12, 3
    planted = [mask_of(rng.sample(range(n), rng.randint(2, 5))) for _ in range(rng.randint(3, 8))]
    bad = lambda mask: any(p & ~mask == 0 for p in planted)  # noqa: E731
    truth = {m for m in _minimal(planted) if m.bit_count() <= limit}
    cmap = CardMap(n, max_cards=None, seed=trial)
    hidden = mask_of(range(n // 2 + 1))  # undecided before the small pass: hides nothing small
    cmap.add_unknown(hidden)
    assert cmap.open_up_to(1)
    asked = []
    while (seed := cmap.small_seed(limit)) is not None:
        asked.append(seed)
        assert seed.bit_count() <= limit
        if bad(seed):
            cmap.add_mus(_shrunk(seed, bad))
        else:  # as a witness tower would: grown to a maximal set holding no conflict
            grown = seed
            for k in rng.sample(range(n), n):
                if not bad(grown | 1 << k):
                    grown |= 1 << k
            cmap.add_solvable(grown)
        cmap.settle(seed)
    assert set(cmap.muses) == truth
    assert [s.bit_count() for s in asked] == sorted(s.bit_count() for s in asked)
    assert not cmap.open_up_to(limit)
    for size in range(1, limit + 1):  # each explained by a tower or a conflict, not set aside
        for chosen in combinations(range(n), size):
            mask = mask_of(chosen)
            assert cmap.known_solvable(mask) or cmap.known_unsolvable(mask)


def test_a_small_undecided_set_keeps_its_size_open() -> None:
    cmap = CardMap(6, max_cards=None, seed=0)
    assert cmap.small_seed(2) == mask_of([0])  # fewest cards first
    cmap.add_solvable(mask_of([0, 1, 2, 3, 4]))
    cmap.settle(mask_of([0]))
    seed = cmap.small_seed(2)
    assert seed == mask_of([5])
    cmap.add_unknown(seed)
    cmap.settle(seed)
    assert cmap.small_seed(2) is None  # pairs with card 5 would be undecided too: not asked
    assert cmap.open_up_to(1) and cmap.open_up_to(2)  # and the audit does not claim them


def test_a_small_set_held_back_by_a_pending_seed_is_asked_once_that_settles() -> None:
    cmap = CardMap(6, max_cards=None, seed=0)
    deal = mask_of([0, 1, 2, 3])
    cmap.claim(deal)  # a deal being decided holds back its subsets
    assert cmap.small_seed(2) == mask_of([4])
    cmap.settle(deal)  # ran out of time, say: nothing learnt
    assert cmap.small_seed(2) == mask_of([0])  # the held-back sets come first
    assert cmap.small_seed(2) == mask_of([1])
    assert cmap.small_seed(2) == mask_of([2])
    assert cmap.small_seed(2) == mask_of([3])
    assert cmap.small_seed(2) == mask_of([5])


def test_an_undecided_set_does_not_hide_its_small_subsets() -> None:
    """As when a large undecided set is read back from an earlier run's log: the pairs inside
    it are still asked, and the audit claims completeness only up to where it holds."""
    cmap = CardMap(4, max_cards=None, seed=0)
    cmap.add_unknown(mask_of([0, 1, 2]))
    asked = []
    while (seed := cmap.small_seed(3)) is not None:
        asked.append(seed)
        cmap.add_solvable(seed)
        cmap.settle(seed)
    assert mask_of([0, 1]) in asked and mask_of([1, 2]) in asked
    assert mask_of([0, 1, 2]) not in asked and mask_of([0, 1, 3]) in asked
    assert not cmap.open_up_to(2) and cmap.open_up_to(3)



@pytest.mark.parametrize("trial", range(6))
def test_open_up_to_matches_brute_force_with_sets_named_open(trial: int) -> None:
    """Whether the map answers from a set it holds by name (undecided, set aside, pending) or
    searches, a size is open exactly when some set that small is neither known solvable nor
    holds a known conflict."""
    rng = random.Random(300 + trial)
    n = 8
    cmap = CardMap(n, max_cards=6, seed=trial)
    cmap.explain_up_to(trial % 3)
    random_set = lambda: mask_of(rng.sample(range(n), rng.randint(1, 6)))  # noqa: E731
    for _ in range(rng.randint(1, 4)):
        cmap.add_solvable(random_set())
    for _ in range(rng.randint(0, 3)):
        cmap.add_mus(random_set())
    named = [random_set() for _ in range(3)]
    cmap.add_unknown(named[0])
    cmap.defer(named[1])
    cmap.claim(named[2])
    for limit in range(1, 7):
        truth = any(
            cmap.explained_up_to < size and not cmap.known_solvable(mask_of(chosen))
            and not cmap.known_unsolvable(mask_of(chosen))
            for size in range(1, limit + 1) for chosen in combinations(range(n), size))
        assert cmap.open_up_to(limit) == truth

# ------------------------------------------------------------------ one worker's solver


def _blank() -> audit.Outcome:
    """An outcome for a check to note its trace and towers in."""
    return audit.Outcome(0, UNKNOWN, 0)


class _TimesOutWhenAsked:
    """A stand-in solver: "unknown" from the first one made, "unsolvable" from later ones."""

    made: list[_TimesOutWhenAsked] = []

    def __init__(self, *_: object, **__: object) -> None:
        self.questions: list[tuple[str, ...]] = []
        _TimesOutWhenAsked.made.append(self)

    def check(self, items: list[Labeled], *_: object, **__: object):  # type: ignore[no-untyped-def]
        self.questions.append(tuple(it.label for it in items))
        if self is _TimesOutWhenAsked.made[0]:
            return "unknown", None, ()
        return UNSOLVABLE, None, tuple(items)

    def check_by_cases(self, items: list[Labeled], deadline: float,  # type: ignore[no-untyped-def]
                       hint: Labeled | None = None):
        self.questions.append(("by cases",))
        return self.check(items, deadline)


def test_an_undecided_check_is_asked_again_by_cases_on_a_fresh_solver_if_the_old_knows_others(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    """An undecided question is asked once more split into cases. A solver keeps every card it
    was asked about in its model, which slows Z3 down: that second try runs on a fresh solver,
    which takes over, unless the old one had only ever been asked about these very cards."""
    monkeypatch.setattr(audit, "TowerSolver", _TimesOutWhenAsked)
    monkeypatch.setattr(_TimesOutWhenAsked, "made", [])
    monkeypatch.setattr(audit, "SOLVER_SEARCH", math.inf)  # else its minute alone renews it
    deck = load_deck(PLANTED)
    decider = audit.SeedDecider(deck, AuditSettings(seed=0), audit.AuditLog(tmp_path, deck))
    first = decider.solver
    assert decider.check(mask_of([0, 1]), _blank())[0] == "unknown"
    assert decider.solver is first  # it knew no other cards: nothing to gain
    status, core, _ = decider.check(mask_of([2, 3]), _blank())
    assert (status, core) == (UNSOLVABLE, mask_of([2, 3]))
    assert decider.solver is not first and len(_TimesOutWhenAsked.made) == 2
    assert first.questions == [("T1", "T2"), ("by cases",), ("T1", "T2"), ("T3", "T4")]
    assert decider.solver.questions == [("by cases",), ("T3", "T4")]


def test_a_solver_is_renewed_after_its_life_of_checks(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    """`SOLVER_LIFE`: the checks one solver runs before a fresh one takes over."""
    monkeypatch.setattr(audit, "TowerSolver", _TimesOutWhenAsked)
    monkeypatch.setattr(_TimesOutWhenAsked, "made", [None])  # every solver answers "unsolvable"
    monkeypatch.setattr(audit, "SOLVER_LIFE", 3)
    deck = load_deck(PLANTED)
    decider = audit.SeedDecider(deck, AuditSettings(seed=0), audit.AuditLog(tmp_path, deck))
    for k in range(7):
        assert decider.check(mask_of([k]), _blank())[0] == UNSOLVABLE
    solvers = _TimesOutWhenAsked.made[1:]
    assert [len(solver.questions) for solver in solvers] == [3, 3, 1]
    assert decider.solver is solvers[-1]


def test_a_solver_is_renewed_after_its_seconds_of_search(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    """`SOLVER_SEARCH`: a solver that has searched that long in all gives way to a fresh one,
    a try that ran out counting its whole limit."""
    made: list[_NeverAnswers] = []
    monkeypatch.setattr(audit, "TowerSolver",
                        lambda *_, **__: made.append(_NeverAnswers()) or made[-1])
    monkeypatch.setattr(audit, "SOLVER_SEARCH", 15.0)
    deck = load_deck(PLANTED)
    decider = audit.SeedDecider(deck, AuditSettings(seed=0), audit.AuditLog(tmp_path, deck))
    for k in range(7):
        assert decider.check(mask_of([k]), _blank(), short=6.0)[2].startswith(audit.SET_ASIDE)
    assert [len(solver.deadlines) for solver in made] == [3, 3, 1]


def test_the_audit_sets_its_own_z3_parameters(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    """Every solver of the audit's, renewed too, runs with `Z3_PARAMS`; and since a check's
    running out depends on them, caches made with other parameters are not read."""
    monkeypatch.setattr(audit, "SOLVER_LIFE", 1)
    deck = load_deck(PLANTED)
    decider = audit.SeedDecider(deck, AuditSettings(seed=0), audit.AuditLog(tmp_path, deck))
    first = decider.solver
    decider.check(mask_of([0]), _blank())
    decider.check(mask_of([1]), _blank())
    assert decider.solver is not first
    assert first.z3_params == decider.solver.z3_params == audit.Z3_PARAMS
    key = audit.cache_key(deck)
    monkeypatch.setattr(audit, "Z3_PARAMS", {})
    assert audit.cache_key(deck) != key


def test_the_solver_knows_what_the_audit_knows_solvable(tmp_path: Path) -> None:
    """The audit's solver asks its facts whether a set of cards is solvable (so that it asks
    no side question about one, `TowerSolver._side_question`); a hint or a case, no card of
    the deck, is never known solvable."""
    deck = load_deck(PLANTED)
    decider = audit.SeedDecider(deck, AuditSettings(seed=0), audit.AuditLog(tmp_path, deck),
                                solvable=[mask_of([0, 1, 4])])
    known = decider.solver.solvable_known
    assert known is not None
    assert known([decider.items[0], decider.items[4]])
    assert not known([decider.items[0], decider.items[2]])
    assert not known([decider.items[0], decider.hint])


class _NeverAnswers:
    """A solver that runs until its deadline and says "unknown"; it notes each deadline."""

    def __init__(self, *_: object, **__: object) -> None:
        self.deadlines: list[float] = []

    def check(self, items: list[Labeled], deadline: float, *_: object, **__: object):  # type: ignore[no-untyped-def]
        self.deadlines.append(deadline)
        return "unknown", None, ()

    check_by_cases = check


def test_a_check_the_budget_cuts_short_is_not_asked_again_on_a_fresh_solver(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    """The budget's end is a deadline for every check (not only its own time limit), and a
    check it cut short says so: no second try on a fresh solver, and a note that makes the next
    run ask again."""
    monkeypatch.setattr(audit, "TowerSolver", _NeverAnswers)
    deck = load_deck(PLANTED)
    decider = audit.SeedDecider(deck, AuditSettings(seed=0), audit.AuditLog(tmp_path, deck))
    decider.asked = mask_of([5])  # it knows another card: a time-limit unknown would be retried
    decider.stop_at = time.monotonic() + 5
    first = decider.solver
    assert decider.check(mask_of([0, 1]), _blank()) == (
        "unknown", mask_of([0, 1]), audit.BUDGET_SPENT)
    assert decider.solver is first and first.deadlines == [decider.stop_at]
    decider.stop_at = None
    assert decider.check(mask_of([0, 1]), _blank())[2].startswith(audit.TIME_LIMIT)
    assert decider.solver is not first  # asked again on a fresh one, as before


def test_sets_of_up_to_three_cards_get_the_longer_time_limit_and_say_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    """Small sets are what the audit promises to settle, and few of them are hard: they get
    `small_timeout` (at least `timeout`), larger sets `timeout`; an unknown names the limit."""
    monkeypatch.setattr(audit, "TowerSolver", _NeverAnswers)
    deck = load_deck(PLANTED)
    settings = AuditSettings(seed=0, timeout=60, small_timeout=240)
    decider = audit.SeedDecider(deck, settings, audit.AuditLog(tmp_path, deck))
    for cards, limit in (([0, 1, 2], 240), ([0, 1, 2, 3], 60)):
        asked = time.monotonic()
        assert decider.check(mask_of(cards), _blank())[2] == f"{audit.TIME_LIMIT} {limit} s"
        assert 0 <= decider.solver.deadlines[-1] - asked - limit < 1
    assert AuditSettings(timeout=300, small_timeout=240).timeout_for(2) == 300


class _UndecidedWithoutT1:
    """A solver that proves every set holding T1 unsolvable (all its cards the core) and runs
    out of time on every other."""

    def __init__(self, *_: object, **__: object) -> None:
        pass

    def check(self, items: list[Labeled], *_: object, **__: object):  # type: ignore[no-untyped-def]
        if any(it.label == "T1" for it in items):
            return UNSOLVABLE, None, tuple(items)
        return "unknown", None, ()

    check_by_cases = check


def test_a_shrinking_that_checks_ran_out_on_notes_their_limit_but_not_one_the_budget_cut(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    """`Outcome.tried_at`: the limit of the checks that left a conflict not minimal, so that a
    later audit tries it again only with longer ones; none when the budget cut a check short
    (a later audit with the same limit may still finish it)."""
    deck = load_deck(PLANTED)
    settings = AuditSettings(seed=0, timeout=60, small_timeout=240)
    monkeypatch.setattr(audit, "TowerSolver", _UndecidedWithoutT1)
    decider = audit.SeedDecider(deck, settings, audit.AuditLog(tmp_path, deck))
    outcome = _blank()
    # T2 T3 T4 T5 undecided (at 60 s: four cards), then every other card dropped
    assert decider.shrink(mask_of([0, 1, 2, 3, 4]), outcome) == (mask_of([0]), False)
    assert outcome.tried_at == 60
    outcome.kind, outcome.mask, outcome.minimal = UNSOLVABLE, mask_of([0]), False
    explorer = Explorer(deck, settings, tmp_path)  # the log keeps it for a resumed run
    assert explorer._outcome(json.loads(json.dumps(explorer._record(outcome)))).tried_at == 60
    monkeypatch.setattr(audit, "TowerSolver", _NeverAnswers)
    decider = audit.SeedDecider(deck, settings, audit.AuditLog(tmp_path, deck))
    decider.stop_at = time.monotonic() + 5  # every check ends at the budget, before its limit
    outcome = _blank()
    assert decider.shrink(mask_of([0, 1, 2, 3]), outcome) == (mask_of([0, 1, 2, 3]), False)
    assert outcome.tried_at is None


class _EveryCardInTheCore:
    """A solver that proves every set unsolvable, all its cards the core, counting the checks."""

    asked: list[list[str]] = []

    def __init__(self, *_: object, **__: object) -> None:
        pass

    def check(self, items: list[Labeled], *_: object, **__: object):  # type: ignore[no-untyped-def]
        self.asked.append([it.label for it in items])
        return UNSOLVABLE, None, tuple(items)

    check_by_cases = check


def test_a_conflict_whose_every_smaller_part_is_known_solvable_is_minimal_unasked(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    """Shrinking a core each of whose parts of one card fewer a known tower meets asks the
    solver nothing; with one part not known solvable, it asks (and here shrinks it away)."""
    deck = load_deck(PLANTED)
    settings = AuditSettings(seed=0, timeout=60)
    monkeypatch.setattr(audit, "TowerSolver", _EveryCardInTheCore)
    core = mask_of([0, 1, 2, 3])
    parts = [core & ~(1 << k) for k in members(core)]
    decider = audit.SeedDecider(deck, settings, audit.AuditLog(tmp_path, deck), parts)
    _EveryCardInTheCore.asked = []
    assert decider.shrink(core, _blank()) == (core, True)
    assert _EveryCardInTheCore.asked == []
    decider = audit.SeedDecider(deck, settings, audit.AuditLog(tmp_path, deck), parts[1:])
    assert decider.shrink(core, _blank()) != (core, True)
    assert _EveryCardInTheCore.asked


def test_the_command_defaults_are_the_audit_defaults() -> None:
    """The command line names its defaults without importing the audit (it loads Z3)."""
    from tower_print.cli import (
        AUDIT_FIRST_DEALS,
        AUDIT_SAMPLES,
        AUDIT_SMALL_TIMEOUT,
        AUDIT_TRIES,
    )

    assert (AuditSettings.samples, audit.SMALL_TIMEOUT, AuditSettings.deal_seeds,
            AuditSettings.tries) == (
        AUDIT_SAMPLES, AUDIT_SMALL_TIMEOUT, AUDIT_FIRST_DEALS, AUDIT_TRIES)


def test_a_small_set_left_undecided_at_the_shorter_limit_is_asked_again(tmp_path: Path) -> None:
    """The log keeps the limit an unknown had; a run that gives the set more time asks again."""
    deck = load_deck(PLANTED)
    log = audit.AuditLog(tmp_path, deck)
    ids = [deck.cards[k].id for k in (0, 1, 2)]
    log.append({"kind": "unknown", "seed": ids, "cards": ids, "checks": 1, "seconds": 60.0,
                "trace": [], "timeout": 60.0, "note": f"{audit.TIME_LIMIT} 60 s"})
    for small_timeout, replayed in ((60.0, 1), (240.0, 0)):
        explorer = Explorer(deck, AuditSettings(timeout=60, small_timeout=small_timeout),
                            tmp_path)
        explorer.replay()
        assert explorer.resumed == replayed


def test_a_set_set_aside_after_its_first_try_stays_aside_when_the_log_is_read_back(
    tmp_path: Path,
) -> None:
    """A resumed run (or a log read back with `--budget 1`) sets such a set aside again, as
    the run that logged it had, and reports it undecided at the first try's length; a run
    with a longer first try asks it anew; once the log holds the set's answer at its full
    time, it is no longer set aside."""
    deck = load_deck(PLANTED)
    log = audit.AuditLog(tmp_path, deck)
    ids = [deck.cards[k].id for k in (1, 2, 5, 7)]
    log.append({"kind": "unknown", "seed": ids, "cards": ids, "checks": 1, "seconds": 10.0,
                "trace": [], "timeout": 10.0, "note": f"{audit.SET_ASIDE} 10 s"})
    for first_try, replayed in ((10.0, 1), (20.0, 0)):
        explorer = Explorer(deck, AuditSettings(timeout=60, tries=(first_try,)), tmp_path)
        explorer.replay()
        assert explorer.resumed == replayed
    explorer = Explorer(deck, AuditSettings(timeout=60, tries=(10.0,)), tmp_path)
    explorer.replay()
    assert explorer.map.deferred() == [log.mask(ids)]
    assert explorer.result(0.0).undecided_tried_at == {log.mask(ids): 10.0}
    log.append({"kind": "unknown", "seed": ids, "cards": ids, "checks": 1, "seconds": 60.0,
                "trace": [], "timeout": 60.0, "note": f"{audit.TIME_LIMIT} 60 s"})
    explorer = Explorer(deck, AuditSettings(timeout=60, tries=(10.0,)), tmp_path)
    explorer.replay()
    assert explorer.map.deferred() == [] and list(explorer.map.unknown) == [log.mask(ids)]
    assert explorer.result(0.0).undecided_tried_at == {log.mask(ids): 60.0}


def test_an_undecided_set_a_later_tower_meets_is_not_reported_undecided(tmp_path: Path) -> None:
    """A recoloured witness may meet a set that ran out of time before: it is decided."""
    deck = load_deck(PLANTED)
    log = audit.AuditLog(tmp_path, deck)
    hard, met = ["T2", "T4", "T6"], ["T2", "T4", "T6", "T8"]
    log.append({"kind": "unknown", "seed": hard, "cards": hard, "checks": 1, "seconds": 240.0,
                "trace": [], "timeout": 240.0, "note": f"{audit.TIME_LIMIT} 240 s"})
    explorer = Explorer(deck, AuditSettings(timeout=60), tmp_path)
    explorer.replay()
    assert explorer.result(0.0).unknown == [log.mask(hard)]
    log.append({"kind": "solvable", "seed": ["T8"], "cards": met, "checks": 1,
                "seconds": 1.0, "trace": []})
    explorer = Explorer(deck, AuditSettings(timeout=60), tmp_path)
    explorer.replay()
    assert explorer.result(0.0).unknown == []


# ------------------------------------------------------------------ the audit of a planted deck


@pytest.fixture(scope="module")
def planted_audit(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    deck = load_deck(PLANTED)
    found = Explorer(deck, SETTINGS, tmp_path_factory.mktemp("cache")).run(jobs=2)
    return deck, found


def _labels(deck, masks):  # type: ignore[no-untyped-def]
    return {tuple(deck.cards[k].id for k in members(m)) for m in masks}


def test_audit_reports_exactly_the_planted_conflicts(planted_audit) -> None:  # type: ignore[no-untyped-def]
    deck, found = planted_audit
    assert found.complete and not found.unknown and not found.conflicts_unminimised
    assert _labels(deck, found.muses) == PLANTED_CONFLICTS
    assert found.complete_up_to == len(deck.cards)


def _log_records(explorer: Explorer) -> list[dict]:  # type: ignore[type-arg]
    """The audit log's records after its header line, but the implications it asked."""
    records = [json.loads(line) for line in explorer.log.path.read_text().splitlines()][1:]
    return [record for record in records if record["kind"] != "implication"]


def test_sets_whose_first_try_ran_out_are_asked_again_and_the_audit_completes(
    tmp_path: Path,
) -> None:
    """First tries too short for the solver: the sets are set aside, asked again with their
    full time once nothing else is left (or explained meanwhile), and the audit still ends
    complete with exactly the planted conflicts."""
    deck = load_deck(PLANTED)
    explorer = Explorer(deck, dataclasses.replace(SETTINGS, tries=(1e-6,)), tmp_path)
    found = explorer.run(jobs=2)
    assert found.complete and not found.unknown and not found.undecided_tried_at
    assert _labels(deck, found.muses) == PLANTED_CONFLICTS
    records = _log_records(explorer)
    aside = [r for r in records if r["kind"] == UNKNOWN]
    assert aside and all(r["note"].startswith(audit.SET_ASIDE) for r in aside)
    assert all(r["timeout"] == 1e-6 for r in aside)
    again = [r for r in records if r["kind"] != UNKNOWN
             and any(r["seed"] == a["seed"] for a in aside)]
    assert again and all(records.index(r) > records.index(a) for r in again for a in aside
                         if a["seed"] == r["seed"])


def test_deals_are_decided_first_and_their_conflicts_shrunk_later(tmp_path: Path) -> None:
    """With no small sets asked first, the sampled deals come first, each one solver check and
    no shrinking; each conflict they met is shrunk later as a seed of its own, and the audit
    still ends with exactly the planted conflicts."""
    deck = load_deck(PLANTED)
    settings = dataclasses.replace(SETTINGS, small=0)
    explorer = Explorer(deck, settings, tmp_path)
    found = explorer.run(jobs=1)  # one process: the log's order is the order of the seeds
    assert found.complete and not found.conflicts_unminimised
    assert _labels(deck, found.muses) == PLANTED_CONFLICTS
    records = _log_records(explorer)
    deals = {tuple(explorer.log.ids_of(d)) for level in ("easy", "medium")
             for d in audit.level_deals(deck, level, settings.deal_seeds, settings.seed)}
    first = [r for r in records if tuple(r["seed"]) in deals]
    assert first and all(r["checks"] == 1 and "found" not in r for r in first)
    assert records[:len(first)] == first  # before any other seed
    found_only = [r["cards"] for r in first if r.get("shrunk") is False]
    assert found_only and all(r["kind"] == "unsolvable" and not r["minimal"] for r in first
                              if r.get("shrunk") is False)
    later = [r for r in records[len(first):] if r["kind"] == "unsolvable"]
    assert any(r["seed"] == core for r in later for core in found_only)
    # each core shrunk as a seed of its own, or a MUS found inside it first
    assert all(any(r["seed"] == core or set(r["cards"]) < set(core) for r in later)
               for core in found_only)


def test_a_known_set_still_to_shrink_is_unsolvable_from_the_start_and_shrunk(
    tmp_path: Path,
) -> None:
    """A set no tower meets, given as still to shrink (a file's `unminimised`): the audit
    counts it unsolvable without proving it, shrinks it as a seed of its own (or meets a
    conflict inside it first), and still ends with exactly the planted conflicts."""
    deck = load_deck(PLANTED)
    settings = dataclasses.replace(SETTINGS, small=0)
    given = mask_of([0, 2, 5, 7])  # T1 T3 T6 T8: holds the planted T1 T3 T8 only
    explorer = Explorer(deck, settings, tmp_path, known_unminimised={given: None})
    found = explorer.run(jobs=1)
    assert found.complete and not found.conflicts_unminimised and found.unminimised_taken == 1
    assert found.unminimised_left == 0
    assert _labels(deck, found.muses) == PLANTED_CONFLICTS
    records = _log_records(explorer)
    ids = explorer.log.ids_of(given)
    assert not any(set(ids) < set(r["seed"]) for r in records)  # explained from the start
    assert all(r["kind"] == UNSOLVABLE and r.get("shrunk", True)  # its shrinking, no decision
               for r in records if r["seed"] == ids)
    assert any(r["seed"] == ids or set(r["cards"]) < set(ids)
               for r in records if r["kind"] == UNSOLVABLE)
    assert "1 set no tower meets that were still to shrink (1 shrunk here" in audit_text(
        deck, found, settings, deal_odds(deck, found, settings), card_prices(deck))


@pytest.mark.parametrize(("tried_at", "shrunk"), [(60.0, False), (30.0, True)])
def test_a_set_still_to_shrink_is_shrunk_again_only_with_longer_checks(
    tmp_path: Path, tried_at: float, shrunk: bool,
) -> None:
    """A set whose shrinking ran out of time at a limit (`tried_at`) is shrunk again only by
    an audit whose checks get longer; left alone, it is still unsolvable from the start, and
    the audit still finds the planted conflict inside it on its own."""
    deck = load_deck(PLANTED)
    settings = dataclasses.replace(SETTINGS, small=0)  # checks of 60 s
    given = mask_of([0, 2, 5, 7])  # T1 T3 T6 T8: holds the planted T1 T3 T8 only
    explorer = Explorer(deck, settings, tmp_path, known_unminimised={given: tried_at})
    found = explorer.run(jobs=1)
    assert found.complete and _labels(deck, found.muses) == PLANTED_CONFLICTS
    assert found.unminimised_left == (0 if shrunk else 1)
    records = _log_records(explorer)
    ids = explorer.log.ids_of(given)
    assert not any(set(ids) < set(r["seed"]) for r in records)  # unsolvable from the start
    assert any(r["seed"] == ids for r in records) == shrunk
    text = audit_text(deck, found, settings, deal_odds(deck, found, settings), card_prices(deck))
    assert ("1 not, as their checks ran out of time before" in text) == (not shrunk)


def test_a_set_still_to_shrink_larger_than_max_cards_is_left_alone(tmp_path: Path) -> None:
    """An audit of sets of up to 3 cards leaves a 4-card set to shrink as it is, never tried
    (its tried_at None would have it shrunk otherwise), and still finds the planted 3-card
    conflict inside it on its own, complete up to 3 cards."""
    deck = load_deck(PLANTED)
    settings = dataclasses.replace(SETTINGS, small=0, max_cards=3)
    given = mask_of([0, 2, 5, 7])  # T1 T3 T6 T8: holds the planted T1 T3 T8 only
    explorer = Explorer(deck, settings, tmp_path, known_unminimised={given: None})
    found = explorer.run(jobs=1)
    assert (found.unminimised_too_large, found.unminimised_left) == (1, 0)
    assert found.complete_up_to == 3
    assert _labels(deck, found.muses) == PLANTED_CONFLICTS  # none has more than 3 cards
    ids = explorer.log.ids_of(given)
    assert not any(r["seed"] == ids for r in _log_records(explorer))
    text = audit_text(deck, found, settings, deal_odds(deck, found, settings), card_prices(deck))
    assert "(0 shrunk here in turn with the other work; 1 not, as they hold more cards" in text
    assert (f"every set of up to 3 cards (a deal holds up to {audit.largest_deal(deck)}: "
            "--max-cards)") in text


def test_a_known_set_still_to_shrink_that_a_tower_meets_is_disputed(tmp_path: Path) -> None:
    deck = load_deck(PLANTED)
    explorer = Explorer(deck, SETTINGS, tmp_path, known_unminimised={mask_of([0, 2, 4]): None})
    explorer.map.add_solvable(mask_of([0, 2, 4, 5]))  # a tower met T1 T3 T5 T6
    with pytest.raises(audit.KnownConflictDisputed, match="is no conflict"):
        explorer.result(0.0)


def test_a_known_set_still_to_shrink_that_a_tower_meets_names_its_line(tmp_path: Path) -> None:
    known = _known_file(tmp_path / "known.yaml", "T1 T2")
    known.write_text(known.read_text() + "unminimised:\n  - cards: T4 T5\n")  # both common
    result = _audit_known(tmp_path, known)
    assert result.exit_code == 2, result.output
    assert ("known.yaml:6: unminimised[0].cards: 'T4 T5' is no conflict: this audit met a tower "
            "meeting every card of it; one of the audits is wrong") in result.output


def test_a_set_the_known_file_tried_at_a_limit_waits_for_a_longer_one(tmp_path: Path) -> None:
    """Its parts (of 4 cards) get 60 s checks, as when it was tried: left as it is; 90 s: shrunk."""
    known = _known_file(tmp_path / "known.yaml", "T1 T2")
    known.write_text(known.read_text()
                     + "unminimised:\n  - cards: T1 T3 T6 T7 T8\n    tried_at: 60\n")
    for timeout, left in (("60", 1), ("90", 0)):
        result = _audit_known(tmp_path, known, "--json", "--timeout", timeout)
        assert result.exit_code == 0, result.output
        report = json.loads(result.output)
        assert (report["unminimised_taken"], report["unminimised_left"]) == (1, left)


def test_a_set_the_known_file_left_undecided_waits_for_a_longer_limit(tmp_path: Path) -> None:
    """T2 T3 T6 T8, a set this audit asks (a tower meets it), given as undecided at 60 s: with
    60 s checks it is set aside unasked and the audit stays incomplete, the set kept in the
    file written; with 90 s checks it is asked, and decided, and the file drops it."""
    known = _known_file(tmp_path / "known.yaml", "T1 T2")
    known.write_text(known.read_text()
                     + "undecided:\n  - cards: T2 T3 T6 T8\n    tried_at: 60\n")
    for timeout, taken in (("60", 1), ("90", 0)):
        out = tmp_path / f"out-{timeout}.yaml"
        result = _audit_known(tmp_path, known, "--json", "--timeout", timeout,
                              "--conflicts-out", str(out))
        assert result.exit_code == (3 if taken else 0), result.output
        report = json.loads(result.output)
        assert report["undecided_taken"] == taken
        assert (["T2", "T3", "T6", "T8"] in report["undecided"]) == bool(taken)
        written = read_conflict_file(out, load_deck(PLANTED))
        assert written is not None
        assert written.undecided == (((("T2", "T3", "T6", "T8"), 60.0),) if taken else ())
        cache_log = next((tmp_path / "cache").glob("*.jsonl")).read_text()
        assert ('"seed": ["T2", "T3", "T6", "T8"]' in cache_log) == (not taken)


def test_a_set_the_known_file_left_after_a_first_try_waits_for_the_end(tmp_path: Path) -> None:
    """Undecided at 10 s, the first try's length: set aside from the start as after this
    audit's own first try (asked with its full time once nothing else is left, or dropped if
    settled meanwhile); at 60 s, set aside as undecided; at 5 s, asked as any set."""
    deck = load_deck(PLANTED)
    given = {mask_of([1, 2, 5, 7]): 10.0, mask_of([1, 2, 5, 6]): 60.0, mask_of([0, 3, 5, 7]): 5.0}
    explorer = Explorer(deck, SETTINGS, tmp_path, known_undecided=given)
    explorer._set_aside_known_undecided()
    assert explorer.map.deferred() == [mask_of([1, 2, 5, 7])]
    assert list(explorer.map.unknown) == [mask_of([1, 2, 5, 6])]
    assert (explorer.first_tries_taken, explorer.undecided_taken) == (1, 1)
    known = _known_file(tmp_path / "known.yaml", "T1 T2")
    known.write_text(known.read_text()
                     + "undecided:\n  - cards: T2 T3 T6 T8\n    tried_at: 10\n")
    out = tmp_path / "out.yaml"
    result = _audit_known(tmp_path, known, "--json", "--conflicts-out", str(out))
    assert result.exit_code == 0, result.output  # decided in the end: complete
    report = json.loads(result.output)
    assert (report["first_tries_taken"], report["undecided_taken"]) == (1, 0)
    written = read_conflict_file(out, deck)
    assert written is not None and written.undecided == ()


def test_a_seed_beside_two_sets_a_check_ran_out_on_is_passed_over(tmp_path: Path) -> None:
    """`UNDECIDED_NEIGHBOURS`: a seed holding all but one card of two undecided sets of its size
    is passed over; beside one, or beside sets of another size, or with no first try, asked."""
    deck = load_deck(PLANTED)
    explorer = Explorer(deck, dataclasses.replace(SETTINGS, tries=(10,)), tmp_path)
    seed = mask_of([0, 1, 5])
    explorer.undecided = {mask_of([0, 1, 2]): 10.0, mask_of([0, 1, 2, 5]): 60.0}
    assert not explorer._beside_undecided(seed)
    explorer.undecided[mask_of([0, 3, 5])] = 10.0
    assert explorer._beside_undecided(seed)
    assert not explorer._beside_undecided(mask_of([0, 1, 4]))
    for mask in (seed, mask_of([0, 1, 4])):
        explorer.map.claim(mask)
    assert explorer._passed_over(seed) and explorer.passed == {seed}
    assert seed in list(explorer.map.deferred()) and not explorer.map.held_back(seed)
    assert not explorer._passed_over(mask_of([0, 1, 4])) and explorer.passed == {seed}
    explorer = Explorer(deck, dataclasses.replace(SETTINGS, tries=()), tmp_path)
    explorer.undecided = {mask_of([0, 1, 2]): 10.0, mask_of([0, 3, 5]): 10.0}
    assert not explorer._beside_undecided(seed)


def test_sets_passed_over_come_back_first_and_with_a_first_try(tmp_path: Path) -> None:
    """Of the sets set aside, one passed over unasked comes back before one a first try ran
    out on, though set aside after it, and with a first try (it had none); the other with
    its full time; one a tower has met since is dropped."""
    deck = load_deck(PLANTED)
    explorer = Explorer(deck, dataclasses.replace(SETTINGS, tries=(10,)), tmp_path)
    tried, passed, met = mask_of([0, 2, 4]), mask_of([1, 3, 5]), mask_of([2, 5, 6])
    explorer.map.defer(tried)
    explorer.map.defer(met)
    explorer.undecided = {mask_of([1, 3, 4]): 10.0, mask_of([1, 2, 5]): 10.0, tried: 10.0}
    explorer.map.claim(passed)
    assert explorer._passed_over(passed)
    explorer.map.add_solvable(met | mask_of([7]))
    assert explorer._next_set_aside(None) == (passed, 10)
    assert explorer._next_set_aside(None) == (tried, None)
    assert explorer._next_set_aside(None) is None and not explorer.map.deferred()


def test_with_two_tries_every_set_set_aside_gets_the_second_before_any_its_full_time(
    tmp_path: Path,
) -> None:
    """`--first-try 10 --first-try 30`: the sets set aside come back by their next try, the
    shortest first, whatever the order they were set aside in; a try as long as the full
    limit is no try."""
    deck = load_deck(PLANTED)
    settings = dataclasses.replace(SETTINGS, timeout=60, small_timeout=60, tries=(30, 10, 60))
    assert settings.tries_for(3) == (10, 30) and settings.next_try(3) == 10
    assert (settings.next_try(3, 10), settings.next_try(3, 20), settings.next_try(3, 30)) == (
        30, 30, None)
    explorer = Explorer(deck, settings, tmp_path)
    at_30, at_10, passed = mask_of([0, 2, 4]), mask_of([1, 2, 5]), mask_of([1, 3, 5])
    for mask in (at_30, at_10):
        explorer.map.defer(mask)
    explorer.undecided = {at_30: 30.0, at_10: 10.0, mask_of([1, 3, 4]): 10.0,
                          mask_of([1, 3, 6]): 10.0}
    explorer.map.claim(passed)
    assert explorer._passed_over(passed)
    assert [explorer._next_set_aside(None) for _ in range(4)] == [
        (passed, 10), (at_10, 30), (at_30, None), None]


def test_sets_whose_second_try_ran_out_are_asked_a_third_time_and_the_audit_completes(
    tmp_path: Path,
) -> None:
    """Two tries too short for the solver: each set set aside is asked at the first, then the
    second, then its full time (unless explained meanwhile), and the audit ends complete."""
    deck = load_deck(PLANTED)
    explorer = Explorer(deck, dataclasses.replace(SETTINGS, tries=(1e-6, 2e-6)), tmp_path)
    found = explorer.run(jobs=2)
    assert found.complete and not found.unknown and not found.undecided_tried_at
    assert _labels(deck, found.muses) == PLANTED_CONFLICTS
    records = _log_records(explorer)
    limits: dict[str, list[float | None]] = {}
    for record in records:
        if record["kind"] in (UNKNOWN, SOLVABLE, UNSOLVABLE):
            limits.setdefault(" ".join(record["seed"]), []).append(record.get("timeout"))
    ladders = [tried for tried in limits.values() if tried[0] == 1e-6]
    assert ladders and any(tried[:2] == [1e-6, 2e-6] for tried in ladders)
    # a set explained meanwhile is not asked again: its ladder stops short (None: decided)
    assert all(tried in ([1e-6], [1e-6, None], [1e-6, 2e-6], [1e-6, 2e-6, None])
               for tried in ladders), ladders


def test_a_report_counts_the_seeds_passed_over_or_met_by_colourings(planted_audit) -> None:  # type: ignore[no-untyped-def]
    deck, found = planted_audit
    passing = dataclasses.replace(found, complete=False, passed=3, met_by_colourings=5)
    odds, prices = deal_odds(deck, passing, SETTINGS), card_prices(deck)
    text = audit_text(deck, passing, SETTINGS, odds, prices)
    assert "3 sets the exploration met were passed over unasked" in text
    assert "5 sets the exploration met were settled unasked: a colouring" in text
    report = audit_json(deck, passing, SETTINGS, odds, prices)
    assert (report["passed_beside_undecided"], report["met_by_colourings"]) == (3, 5)


def _recolouring_case() -> tuple[Deck, Tower, int, int]:
    """Green's deck, a sampled tower, a set of cards another colouring of it meets and the tower
    as it is does not, and a set no tower meets."""
    deck = shipped_deck("green")
    tower = sample_towers(deck.bricks, True, 1, seed=5)[0]
    base = deck.cards_met(tower)
    other = shapes.coloured_tower([box_of(b) for b in tower], deck.bricks,
                                  shapes.colourings(deck.bricks, True, len(tower))[0][-1])
    wanted = mask_of(members(deck.cards_met(other) & ~base)[:4])
    impossible = mask_of([deck.cards.index(deck.card("G24")), deck.cards.index(deck.card("G32"))])
    assert wanted and wanted & ~base  # the tower as it is does not meet it
    return deck, tower, wanted, impossible


def test_the_known_towers_recoloured_settle_known_undecided_sets(tmp_path: Path) -> None:
    """A set the file lists as undecided that one of its towers meets in other colours is
    solvable from the start, by a checked tower; a set none meets stays open."""
    deck, tower, wanted, impossible = _recolouring_case()
    explorer = Explorer(deck, SETTINGS, tmp_path, known_towers=[tower],
                        known_undecided={wanted: 60.0, impossible: 60.0})
    explorer._recolour_known_towers()
    assert explorer.towers_recoloured == 1
    met = [m for m in explorer.witnesses if wanted & ~m == 0]
    assert met and not any(impossible & ~m == 0 for m in explorer.witnesses)
    assert problems(explorer.witnesses[met[0]], deck.bricks, True, []) == []


def test_a_seed_a_colouring_of_a_known_tower_meets_is_settled_unasked(tmp_path: Path) -> None:
    """The exploration asks no check of a seed some colouring of a tower met before meets: it
    takes that colouring, checked, as the witness, and logs it as an outcome of no check."""
    deck, tower, wanted, impossible = _recolouring_case()
    explorer = Explorer(deck, SETTINGS, tmp_path, known_towers=[tower])
    explorer._recolour_known_towers()
    for seed in (wanted, impossible):
        explorer.map.claim(seed)
    assert explorer._met_by_colouring(wanted) and explorer.met_by_colourings == 1
    assert explorer.map.known_solvable(wanted)
    met = next(m for m in explorer.witnesses if wanted & ~m == 0)
    assert problems(explorer.witnesses[met], deck.bricks, True, []) == []
    assert deck.cards_met(explorer.witnesses[met]) == met
    record = explorer.log.read_new()[-1]
    assert (record["kind"], record["checks"], len(record["towers"])) == ("solvable", 0, 1)
    assert not explorer._met_by_colouring(impossible)
    assert explorer.met_by_colourings == 1 and not explorer.map.known_solvable(impossible)


def test_a_seed_whose_cards_imply_a_known_conflicts_is_settled_unasked(tmp_path: Path) -> None:
    """T7 (no brick upright) implies T4 (no red brick upright), so T3 T7 is as unsolvable as the
    conflict T3 T4: settled with no check, minimal once T3 and T7 are each known solvable,
    else left to shrink; a seed implying no conflict is asked."""
    deck = load_deck(PLANTED)
    t1, t3, t4, t7 = (mask_of([k]) for k in (0, 2, 3, 6))
    explorer = Explorer(deck, SETTINGS, tmp_path)
    explorer.implications = Implications(len(deck.cards), [(6, 3)])
    explorer.map.add_mus(t3 | t4)
    for seed in (t1 | t3 | t7, t1 | t7):
        explorer.map.claim(seed)
    assert explorer._implied_conflict(t1 | t3 | t7) and explorer.conflicts_implied == 1
    assert explorer.map.known_unsolvable(t3 | t7) and t3 | t7 in explorer.to_shrink
    assert not explorer.map.pending(t1 | t3 | t7)
    record = explorer.log.read_new()[-1]
    assert (record["kind"], record["checks"], record["cards"], record["minimal"]) == (
        "unsolvable", 0, ["T3", "T7"], False)
    assert not explorer._implied_conflict(t1 | t7) and explorer.map.pending(t1 | t7)
    second = Explorer(deck, SETTINGS, tmp_path / "second")
    second.implications = explorer.implications
    second.map.add_mus(t3 | t4)
    second.map.add_solvable_many([t1 | t3, t7])
    assert second._implied_conflict(t3 | t7) and not second.to_shrink
    assert second.log.read_new()[-1]["minimal"] is True


def test_the_audit_proves_the_implications_it_uses_and_logs_them(planted_audit) -> None:  # type: ignore[no-untyped-def]
    """The planted audit finds T3 T7 through T7 implying T4, each implication it took proved
    by the solver (no tower meets the one card and not the other)."""
    deck, found = planted_audit
    assert found.implications >= 1 and found.conflicts_implied >= 1
    assert found.muses == sorted(found.muses, key=lambda m: (m.bit_count(), members(m)))
    assert "imply every card of a known conflict" in audit_text(
        deck, found, SETTINGS, deal_odds(deck, found, SETTINGS), card_prices(deck))


def test_the_files_undecided_sets_a_conflict_implies_are_settled_at_the_start(
    tmp_path: Path,
) -> None:
    """A set the file lists as undecided whose cards imply a listed conflict's is no longer
    set aside: the audit settles it unasked and it leaves the undecided list. The implications
    asked are logged, and a resumed audit reads them back instead of asking again."""
    deck = load_deck(PLANTED)
    t3, t4, t7 = (mask_of([k]) for k in (2, 3, 6))
    explorer = Explorer(deck, SETTINGS, tmp_path, known=[t3 | t4],
                        known_undecided={t3 | t7: 60.0})
    found = explorer.run(jobs=2)
    assert t3 | t7 in found.muses and t3 | t7 not in found.undecided_tried_at
    assert found.undecided_taken == 0 and found.conflicts_implied >= 1
    assert [r["checks"] for r in _log_records(explorer)
            if r.get("seed") == ["T3", "T7"]] == [0]

    def implications_logged() -> list[str]:
        return [line for line in explorer.log.path.read_text().splitlines()
                if '"kind": "implication"' in line]

    asked = implications_logged()
    assert asked
    resumed = Explorer(deck, SETTINGS, tmp_path, known=[t3 | t4],
                       known_undecided={t3 | t7: 60.0})
    again = resumed.run(jobs=2)  # answers read back: none asked again
    after = implications_logged()
    assert after[:len(asked)] == asked and not set(asked) & set(after[len(asked):])
    assert again.implications >= found.implications


def test_an_incomplete_report_counts_its_loose_ends_in_plain_english(planted_audit) -> None:  # type: ignore[no-untyped-def]
    deck, found = planted_audit
    loose = dataclasses.replace(found, complete=False, conflicts_unminimised=[found.muses[0]],
                                unknown=[found.solvable[0]],
                                unminimised_tried_at={found.muses[0]: 60.0},
                                undecided_tried_at={found.solvable[0]: 6.0})
    text = audit_text(deck, loose, SETTINGS, deal_odds(deck, loose, SETTINGS), card_prices(deck))
    assert "INCOMPLETE (1 set undecided within the time limit; 1 conflict not minimised in time)" \
        in text
    ids = " ".join(deck.cards[k].id for k in members(found.muses[0]))
    assert f"\n  {ids}  (its checks ran out of time at 60 s)\n" in text
    ids = " ".join(deck.cards[k].id for k in members(found.solvable[0]))
    assert f"\n  {ids}  (its checks ran out of time at 6 s)\n" in text


def test_brute_force_over_all_subsets_agrees(planted_audit) -> None:  # type: ignore[no-untyped-def]
    """A fresh solver, independent of the audit's: every reported set is unsolvable, every set
    one card short of it is solvable, and every set holding no reported set is solvable (its
    maximal ones suffice: a tower meeting a set meets each subset)."""
    deck, found = planted_audit
    solver = TowerSolver(deck.bricks, deck.all_used, seed=11)
    items = [c.item() for c in deck.cards]

    def status(mask: int) -> str:
        return solver.verify([items[k] for k in members(mask)], timeout=60).status

    n = len(deck.cards)
    for mus in found.muses:
        assert status(mus) == UNSOLVABLE
        for k in members(mus):
            assert status(mus & ~(1 << k)) == SOLVABLE
    clean = {m for m in range(1 << n) if not any(mus & ~m == 0 for mus in found.muses)}
    maximal = sorted(m for m in clean if all(m | (1 << k) not in clean for k in range(n)
                                             if not m >> k & 1))
    assert maximal
    for mask in maximal:
        assert status(mask) == SOLVABLE, [deck.cards[k].id for k in members(mask)]


def test_subset_test_decides_every_sampled_deal(planted_audit) -> None:  # type: ignore[no-untyped-def]
    deck, found = planted_audit
    odds = {o.level: o for o in deal_odds(deck, found, SETTINGS)}
    assert odds["easy"].deals == SETTINGS.deals and odds["easy"].unknown == 0
    assert odds["hard"].deals == 0  # 18 points in the whole deck: no hard round exists
    assert odds["easy"].low <= odds["easy"].share <= odds["easy"].high
    report = audit_json(deck, found, SETTINGS, list(odds.values()), card_prices(deck))
    assert report["complete"] is True
    assert json.loads(json.dumps(report)) == report


def test_the_deals_decided_first_bound_the_odds_of_an_incomplete_audit(planted_audit) -> None:  # type: ignore[no-untyped-def]
    """An audit that knows only its first deals, each as it is (unsolvable, not minimised, or
    solvable), so that many other deals are undecided. The odds then come from those first
    deals too: the interval holds the share the complete audit tells, and is narrower than
    the one that counts every undecided deal as possibly unsolvable."""
    deck, complete = planted_audit
    settings = dataclasses.replace(SETTINGS, deals=300, deal_seeds=60)
    level = "easy"
    truth = next(o for o in deal_odds(deck, complete, settings) if o.level == level)
    assert truth.unknown == 0 and 0 < truth.unsolvable < truth.deals
    first = audit.level_deals(deck, level, settings.deal_seeds, settings.seed)
    bad = lambda deal: any(m & ~deal == 0 for m in complete.muses)  # noqa: E731
    partial = dataclasses.replace(
        complete, complete=False, complete_up_to=0, muses=[],
        conflicts_unminimised=[deal for deal in first if bad(deal)],
        solvable=[deal for deal in first if not bad(deal)])
    odds = next(o for o in deal_odds(deck, partial, settings) if o.level == level)
    assert odds.first == settings.deal_seeds and odds.first_unknown == 0
    assert odds.first_unsolvable == sum(map(bad, first))
    assert odds.unknown > truth.deals // 5  # much of the map is open
    assert odds.low <= truth.share <= odds.high
    from_all_deals = wilson(odds.unsolvable + odds.unknown, odds.deals, 1.96)[1] - wilson(
        odds.unsolvable, odds.deals, 1.96)[0]
    assert odds.high - odds.low < from_all_deals * 0.7
    text = audit_text(deck, partial, settings, [odds], card_prices(deck))
    assert f"of the first {settings.deal_seeds}: {odds.first_unsolvable} unsolvable" in text


def test_interrupted_audit_resumes_to_the_same_result(planted_audit, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Ctrl-C after two answers (and a log line cut short, as a kill mid-write leaves it); the
    second run reads the facts back, goes on, and ends with the same conflicts."""
    deck, fresh = planted_audit
    answers = []

    def interrupt(state: dict) -> None:  # type: ignore[type-arg]
        if state["phase"] == "explore":
            answers.append(state)
            if len(answers) == 2:
                raise KeyboardInterrupt

    first = Explorer(deck, SETTINGS, tmp_path)
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        first.run(jobs=2, progress=interrupt)
    assert time.monotonic() - started < 60
    with first.log.path.open("a", encoding="utf-8") as log:
        log.write('{"kind": "unsolvable", "seed": ["T1"')
    kept = len(first.log.path.read_text().splitlines())
    assert kept >= 3  # the pool and two answers

    resumed = Explorer(deck, SETTINGS, tmp_path).run(jobs=2)
    assert resumed.resumed == kept - 1
    assert resumed.complete
    assert resumed.muses == fresh.muses


def test_the_budget_stops_the_checks_under_way_and_they_are_asked_again_on_resume(
    tmp_path: Path,
) -> None:
    """The budget ends the run, not only the handing out of sets: the check under way when it
    ends (S1 + S2 + S3 takes Z3 minutes) stops too, and its set, undecided, is not taken as a
    fact by the next run. Before, the audit waited for it: a minute here, 5 minutes past a
    30-minute budget on the green deck."""
    deck = load_deck(Path(__file__).parent / "data" / "brix-slow.yaml")
    settings = AuditSettings(seed=3, timeout=60, samples=100, deals=20, deal_seeds=5, budget=8)
    started = time.monotonic()
    found = Explorer(deck, settings, tmp_path).run(jobs=2)
    assert time.monotonic() - started < settings.budget + 20
    assert found.stopped and not found.complete and found.unknown
    assert found.budget_cut and set(found.budget_cut) <= set(found.unknown)
    records = [json.loads(line) for line in Explorer(deck, settings, tmp_path).log.path.open()]
    cut = [r for r in records if r.get("note") == audit.BUDGET_SPENT]
    assert cut and all(r["kind"] == "unknown" for r in cut)
    again = Explorer(deck, settings, tmp_path)
    again.replay()
    assert again.resumed == len(records) - len(cut)
    assert not again.map.unknown


def test_audit_command_reports_and_exits_by_completeness(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tower_print.cli import app

    runner = CliRunner()
    args = ["brix", "audit", "--deck", str(PLANTED), "--samples", "200", "--deals", "100",
            "--jobs", "1", "--cache", str(tmp_path)]
    written = tmp_path / "conflicts.yaml"
    result = runner.invoke(app, [*args, "--json", "--conflicts-out", str(written)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["complete"] and {tuple(c["cards"]) for c in report["conflicts"]} == (
        PLANTED_CONFLICTS)
    assert conflicts_in(written) == PLANTED_CONFLICTS
    again = runner.invoke(app, [*args, "--conflicts-out", str(written)])  # from the cache
    assert again.exit_code == 0 and "COMPLETE" in again.stdout and "0 solver checks" in again.stdout
    # the file keeps what it held (the same sets here) and says which audits made it
    assert conflicts_in(written) == PLANTED_CONFLICTS
    assert written.read_text().count("# Built by: tower-print brix audit") == 2
    fewer = runner.invoke(app, [*args, "--json", "--first-deals", "40", "--first-try", "0",
                                "--conflicts-out", str(written)])
    assert fewer.exit_code == 0, fewer.output
    built_by = [line for line in written.read_text().splitlines() if "Built by" in line]
    assert " --first-try 0 " in built_by[-1] and " --first-deals 40 " in built_by[-1]
    assert {o["first"]["deals"] for o in json.loads(fewer.stdout)["odds"].values() if o} == {40}
    assert "--first-deals 40 --conflicts-out" in written.read_text()


def test_audit_refuses_a_conflicts_file_of_another_deck_before_it_starts(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tower_print.cli import app

    written = tmp_path / "conflicts.yaml"
    written.write_text("deck: green\nfingerprint: x\nconflicts: []\n")
    result = CliRunner().invoke(app, [
        "brix", "audit", "--deck", str(PLANTED), "--jobs", "1", "--cache", str(tmp_path),
        "--conflicts-out", str(written)])
    assert result.exit_code == 2
    assert "conflicts.yaml:1: deck: conflicts of deck 'green'" in result.output
    assert not list(tmp_path.glob("*/*.jsonl")) and not list(tmp_path.glob("*.jsonl"))


@pytest.mark.parametrize("args", [
    ["--deck", "purple"],
    ["--deck", "missing.yaml"],
    ["--jobs", "0"],
    ["--cache", "/proc/no-such-place"],
    ["--conflicts-out", "/no-such-folder/conflicts.yaml"],
    ["--conflicts-out", "conflicts.txt"],
    ["--known", "/no-such-folder/known.yaml"],
])
def test_audit_bad_input_is_one_line_and_exit_2(args: list[str]) -> None:
    from typer.testing import CliRunner

    from tower_print.cli import app

    full = ["brix", "audit", "--deck", str(PLANTED), *args]
    result = CliRunner().invoke(app, full)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


def _audit_known(tmp_path: Path, known: Path, *extra: str) -> Result:
    """`brix audit` of the planted deck taking `known`: a small pool, one process."""
    from typer.testing import CliRunner

    from tower_print.cli import app

    return CliRunner().invoke(app, [
        "brix", "audit", "--deck", str(PLANTED), "--samples", "200", "--deals", "100",
        "--jobs", "1", "--cache", str(tmp_path / "cache"), "--known", str(known), *extra])


def _known_file(path: Path, *sets: str, complete_up_to: int = 0) -> Path:
    from tower_print.brix.conflicts import deck_fingerprint

    lines = ["deck: planted", f"fingerprint: {deck_fingerprint(load_deck(PLANTED))}",
             *([f"complete_up_to: {complete_up_to}"] if complete_up_to else []),
             "conflicts:", *(f"  - {s}" for s in sets)]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_audit_takes_known_conflicts_and_proves_only_the_others(tmp_path: Path) -> None:
    """Three planted conflicts given with --known: the audit still ends complete with all
    eight, proves only the five others (its log holds no proof of the three) and says so."""
    given = {("T1", "T2"), ("T5", "T6"), ("T1", "T3", "T8")}
    known = _known_file(tmp_path / "known.yaml", *(" ".join(s) for s in sorted(given)))
    written = tmp_path / "conflicts.yaml"
    result = _audit_known(tmp_path, known, "--json", "--conflicts-out", str(written))
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["complete"] and report["conflicts_taken"] == len(given)
    assert {tuple(c["cards"]) for c in report["conflicts"]} == PLANTED_CONFLICTS
    assert conflicts_in(written) == PLANTED_CONFLICTS
    assert "--known known.yaml" in written.read_text()
    records = [json.loads(line) for log in (tmp_path / "cache").rglob("*.jsonl")
               for line in log.read_text().splitlines()]
    proved = {tuple(r["cards"]) for r in records if r["kind"] == UNSOLVABLE}
    assert proved == PLANTED_CONFLICTS - given


def test_audit_takes_the_known_files_completeness_and_asks_no_small_set(tmp_path: Path) -> None:
    """A file complete up to 3 cards: every set that small holding none of its conflicts is
    solvable, so the audit asks no set of up to 3 cards and still ends complete with all."""
    given = sorted(" ".join(s) for s in PLANTED_CONFLICTS)  # all of them are of 2 or 3 cards
    known = _known_file(tmp_path / "known.yaml", *given, complete_up_to=3)
    result = _audit_known(tmp_path, known, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["complete"] and report["complete_up_to_taken"] == 3
    assert {tuple(c["cards"]) for c in report["conflicts"]} == PLANTED_CONFLICTS
    assert report["swept_open_sets"] > 0  # the sets of 4 cards, listed at the start
    assert all(odds["unknown"] == 0 for odds in report["odds"].values() if odds)
    records = [json.loads(line) for log in (tmp_path / "cache").rglob("*.jsonl")
               for line in log.read_text().splitlines()]
    asked = [r["seed"] for r in records if r["kind"] in (SOLVABLE, UNSOLVABLE, UNKNOWN)]
    assert asked and all(len(seed) > 3 for seed in asked)


def test_a_second_audit_starts_from_the_first_ones_towers_and_asks_nothing(
    planted_audit, tmp_path: Path,  # type: ignore[no-untyped-def]
) -> None:
    """The first audit's conflicts and the towers its solver met, written as --conflicts-out
    writes them but for the completeness: a second audit with the same pool, in a fresh
    cache, takes them; every set is then explained, so it asks the solver about no set (only
    which card implies which) and is complete, every sampled deal decided."""
    from typer.testing import CliRunner

    from tower_print.brix.conflicts import gather_conflicts, write_conflicts
    from tower_print.cli import app

    deck, found = planted_audit
    assert found.towers
    written = tmp_path / "conflicts.yaml"
    write_conflicts(written, deck, gather_conflicts(
        written, deck, sorted(_labels(deck, found.muses)),
        [set(ids) for ids in _labels(deck, found.solvable)], False, 0, "audit", found.towers),
        "the first audit's")
    result = CliRunner().invoke(app, [
        "brix", "audit", "--deck", str(PLANTED), "--seed", str(SETTINGS.seed), "--samples",
        str(SETTINGS.samples), "--deals", "100", "--jobs", "1", "--json",
        "--cache", str(tmp_path / "cache"), "--known", str(written)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["complete"] and report["complete_up_to_taken"] == 0
    assert report["towers_taken"] == len(found.towers)
    assert all(odds["unknown"] == 0 for odds in report["odds"].values() if odds)
    records = [json.loads(line) for log in (tmp_path / "cache").rglob("*.jsonl")
               for line in log.read_text().splitlines()]
    assert [r["kind"] for r in records if r["kind"] != "implication"] == ["pool"]


def test_a_small_conflict_the_known_file_lacks_belies_its_completeness(tmp_path: Path) -> None:
    given = sorted(" ".join(s) for s in PLANTED_CONFLICTS - {("T7", "T8")})
    known = _known_file(tmp_path / "known.yaml", *given, complete_up_to=2)
    result = _audit_known(tmp_path, known)
    assert result.exit_code == 2, result.output
    assert ("known.yaml:3: complete_up_to: the file says every conflict of up to 2 cards is "
            "known, but this audit proved 'T7 T8' unsolvable") in result.output


def test_audit_stops_on_a_known_conflict_it_proves_not_minimal(tmp_path: Path) -> None:
    known = _known_file(tmp_path / "known.yaml", "T3 T4", "T1 T2 T5")
    written = tmp_path / "conflicts.yaml"
    result = _audit_known(tmp_path, known, "--conflicts-out", str(written))
    assert result.exit_code == 2, result.output
    assert ("known.yaml:5: conflicts[1]: 'T1 T2 T5' is not minimal: this audit proved its part "
            "'T1 T2' unsolvable") in result.output
    assert not written.exists()


def test_a_known_conflict_that_a_tower_meets_is_disputed(tmp_path: Path) -> None:
    deck = load_deck(PLANTED)
    explorer = Explorer(deck, SETTINGS, tmp_path, known=[mask_of([0, 2])])  # T1 T3
    explorer.map.add_solvable(mask_of([0, 2, 4]))  # a tower met T1 T3 T5
    with pytest.raises(audit.KnownConflictDisputed, match="is no conflict"):
        explorer.result(0.0)


@pytest.mark.parametrize("content", [
    "deck: planted\nfingerprint: 0\nconflicts: []\n",
    "deck: green\nfingerprint: 0\nconflicts: []\n",
])
def test_audit_refuses_known_conflicts_of_another_deck_or_version(
    tmp_path: Path, content: str
) -> None:
    from typer.testing import CliRunner

    from tower_print.cli import app

    known = tmp_path / "known.yaml"
    known.write_text(content)
    result = CliRunner().invoke(app, [
        "brix", "audit", "--deck", str(PLANTED), "--jobs", "1", "--cache", str(tmp_path),
        "--known", str(known)])
    assert result.exit_code == 2, result.output
    assert "known.yaml:" in result.output and "Traceback" not in result.output

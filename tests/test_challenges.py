"""Challenges: mirror symmetry in the language, Z3 and the evaluator alike; each challenge's
witness checked independently; contradictions where expected; "one card may be set aside"."""

from __future__ import annotations

import random

import pytest
import z3
from towers import GREEN_TOWER, flat_x, flat_y, pin, upright

from tower_print.brix.bricks import default_bricks
from tower_print.brix.challenges import decide, default_challenges
from tower_print.brix.checker import problems
from tower_print.brix.decks import Deck, shipped_deck
from tower_print.brix.difficulty import TowerPool
from tower_print.brix.evaluate import Evaluator, holds
from tower_print.brix.geometry import mirror_misfits
from tower_print.brix.language import ConditionSyntaxError, Symmetric, describe, parse
from tower_print.brix.model import TowerModel
from tower_print.brix.sampling import bricks_for_rule, random_tower
from tower_print.brix.shape_library import shape_library
from tower_print.brix.solver import Labeled, TowerSolver
from tower_print.content import UserError

GREEN = shipped_deck("green")
PINK = shipped_deck("pink")
COLOURS = default_bricks().color_names
SYMMETRIC = parse("the tower is mirror symmetric", COLOURS)

# An arch: two uprights on the table with a flat brick across them, mirror symmetric across
# x = 3 (the uprights at x 0..2 and 4..6, the lintel at 1..5).
ARCH = (upright("red-1", 0, 0, 0), upright("blue-1", 4, 0, 0), flat_x("yellow-1", 1, 0, 4))
# The same with one upright a unit off along y: no mirror plane across x nor across y.
LEANING = (upright("red-1", 0, 0, 0), upright("blue-1", 4, 1, 0), flat_x("yellow-1", 1, 0, 4))


def labeled(deck: Deck, *texts: str) -> list[Labeled]:
    return [Labeled(f"C{k}", t, parse(t, deck.bricks.color_names))
            for k, t in enumerate(texts, start=1)]


# ------------------------------------------------------------ the language construct
@pytest.mark.parametrize("text", ["the tower is mirror symmetric", "The tower is symmetric",
                                  "the tower has mirror symmetry"])
def test_symmetry_parses_and_prints_back(text: str) -> None:
    condition = parse(text, COLOURS)
    assert condition.clauses == (Symmetric(),)
    assert describe(condition) == "the tower is mirror symmetric"
    assert parse(describe(condition), COLOURS) == condition
    both = parse("the tower is symmetric and at most 2 bricks touch the ground", COLOURS)
    assert parse(describe(both), COLOURS) == both


def test_a_misspelt_symmetry_says_what_was_expected() -> None:
    with pytest.raises(ConditionSyntaxError, match="'mirror symmetric'"):
        parse("the tower is symetric", COLOURS)


def test_evaluator_reads_symmetry_on_hand_built_towers() -> None:
    assert mirror_misfits(ARCH) == 0 and holds(SYMMETRIC, ARCH, default_bricks())
    assert mirror_misfits(LEANING) > 0 and not holds(SYMMETRIC, LEANING, default_bricks())
    # Colours do not matter; a plane across y counts as well as one across x.
    turned = tuple(flat_y(b.name, b.y, b.x, b.z) if b.dx == 4 else upright(b.name, b.y, b.x, b.z)
                   for b in ARCH)
    assert holds(SYMMETRIC, turned, default_bricks())
    assert not holds(SYMMETRIC, GREEN_TOWER, GREEN.bricks)
    # The search's gradient: how many bricks lack a mirror image.
    assert Evaluator(LEANING, default_bricks()).violation(SYMMETRIC) == mirror_misfits(LEANING)


def pinned_model(deck: Deck, tower: tuple) -> TowerModel:  # noqa: ANN001 - a tower
    model = TowerModel(deck.bricks, deck.all_used)
    pin(model, tower)
    return model


# Five flat bricks side by side, one of each pink colour: mirror symmetric both ways.
SLAB = tuple(flat_x(name, 0, 2 * k, 0)
             for k, name in enumerate(("yellow-1", "purple-1", "red-1", "blue-1", "gray-1")))


@pytest.mark.parametrize("seed", [*range(8), "slab"])
def test_z3_reads_symmetry_like_the_evaluator(seed: int | str) -> None:
    """Random standing towers (mostly without a mirror plane) and a symmetric slab, pinned in
    Z3: the symmetry formula must have the plain-Python truth value, and a pinned tower with
    no mirror plane plus the symmetry clause must be a contradiction."""
    if seed == "slab":
        deck, tower = PINK, SLAB
    else:
        deck = PINK if int(seed) % 2 else GREEN
        rng = random.Random(seed)
        tower = None
        while tower is None:
            tower = random_tower(deck.bricks, rng,
                                 bricks_for_rule(deck.bricks, deck.all_used, rng))
    truth = holds(SYMMETRIC, tower, deck.bricks)
    model = pinned_model(deck, tower)
    formula = model.condition(SYMMETRIC)
    assert model.solver.check() == z3.sat
    assert z3.is_true(model.solver.model().eval(formula, model_completion=True)) == truth
    model.solver.add(formula)
    assert model.solver.check() == (z3.sat if truth else z3.unsat)
    if seed == "slab":
        assert truth


def test_solver_builds_a_symmetric_tower_the_checker_accepts() -> None:
    items = labeled(PINK, "the tower is mirror symmetric", "some yellow brick is a bridge")
    verdict = TowerSolver(PINK.bricks, PINK.all_used).verify(items, timeout=60)
    assert verdict.status == "solvable" and verdict.tower is not None
    assert mirror_misfits(verdict.tower) == 0
    assert problems(verdict.tower, PINK.bricks, False,
                    [(it.label, it.condition) for it in items]) == []


# ------------------------------------------------------------ each challenge
CHALLENGES = default_challenges(GREEN.bricks.color_names)


@pytest.mark.parametrize("name", [c.name for c in CHALLENGES.modelled if c.condition])
def test_each_challenge_has_a_witness_that_obeys_it(name: str) -> None:
    challenge = CHALLENGES.get(name)
    cards = labeled(PINK, "some red brick touches some blue brick")
    pink_challenge = default_challenges(PINK.bricks.color_names).get(name)
    decided = decide(TowerSolver(PINK.bricks, PINK.all_used), cards, [pink_challenge], 60)
    assert decided.status == "solvable" and decided.dropped is None
    tower = decided.verdict.tower
    assert tower is not None and challenge.condition is not None
    # Independently: the plain-Python evaluator on the challenge's own text, and the checker.
    assert holds(parse(challenge.source or "", PINK.bricks.color_names), tower, PINK.bricks)
    assert problems(tower, PINK.bricks, False, [(c.label, c.condition) for c in cards]) == []


@pytest.mark.parametrize(("name", "clashing"), [
    ("small-footprint", ["at least 3 bricks touch the ground"]),
    ("custom-built", ["the tower is at least 5 upright bricks tall"]),
    # These two let the table set one card aside: each of two cards clashes on its own.
    ("one-brick-wonder", ["at least 2 bricks touch the ground",
                          "every red brick touches the ground"]),
    ("high-standards", ["the tower is at most 4 upright bricks tall",
                        "the tower is fewer than 3 upright bricks tall"]),
])
def test_each_challenge_meets_its_contradiction(name: str, clashing: list[str]) -> None:
    cards = labeled(GREEN, *clashing)
    # With the shape library, as `brix verify` has it: minimising the conflict asks whether a
    # challenge alone can be met, and Z3 alone needs over a minute to stand all nine bricks
    # on one (the library holds such a shape).
    solver = TowerSolver(GREEN.bricks, GREEN.all_used,
                         library=shape_library(GREEN.bricks, GREEN.all_used))
    decided = decide(solver, cards, [CHALLENGES.get(name)], 60)
    assert decided.status == "unsolvable"
    assert name in (decided.verdict.conflict or ())


def test_one_card_may_be_set_aside() -> None:
    """A pair that contradicts (two on the table vs. four of them) plus a third card: without
    the challenge unsolvable, with it the table sets one of the pair aside."""
    cards = labeled(GREEN, "at most 2 bricks touch the ground",
                    "some yellow brick touches some purple brick",
                    "every red brick touches the ground and every blue brick touches the ground")
    solver = TowerSolver(GREEN.bricks, GREEN.all_used)
    assert decide(solver, cards, [], 60).status == "unsolvable"
    decided = decide(solver, cards, [CHALLENGES.get("drop-one")], 60)
    assert decided.status == "solvable" and decided.dropped in ("C1", "C3")
    kept = [(c.label, c.condition) for c in cards if c.label != decided.dropped]
    assert decided.verdict.tower is not None
    assert problems(decided.verdict.tower, GREEN.bricks, True, kept) == []


def test_two_separate_contradictions_survive_setting_one_card_aside() -> None:
    cards = labeled(GREEN, "at most 2 bricks touch the ground",
                    "every red brick touches the ground and every blue brick touches the ground",
                    "there are exactly 3 vertical bricks", "there are exactly 5 vertical bricks")
    decided = decide(TowerSolver(GREEN.bricks, GREEN.all_used), cards,
                     [CHALLENGES.get("drop-one")], 60)
    assert decided.status == "unsolvable" and decided.dropped is None


def test_physical_challenges_are_refused_with_the_reason() -> None:
    with pytest.raises(UserError, match="time-pressure' is not modelled"):
        CHALLENGES.get("time-pressure")
    with pytest.raises(UserError, match="unknown challenge 'nope'"):
        CHALLENGES.get("nope")
    assert {"time-pressure", "trade-secret", "shoddy-construction", "settling-foundations"} <= {
        name for name, _ in CHALLENGES.not_modelled}


def test_pool_reads_all_but_one_card_like_the_evaluator() -> None:
    pool = TowerPool(GREEN.bricks, True, samples=80, seed=3)
    rng = random.Random(4)
    for _ in range(20):
        cards = [c.condition for c in rng.sample(GREEN.cards, 4)]
        required = [SYMMETRIC] if rng.random() < 0.3 else []
        bits = pool.meeting(cards, required, may_drop=1)
        for k, tower in enumerate(pool.towers):
            judge = Evaluator(tower, GREEN.bricks)
            missed = sum(not judge.condition(c) for c in cards)
            ok = missed <= 1 and all(judge.condition(c) for c in required)
            assert bool(bits >> k & 1) == ok

"""The quick tower search: checked towers, the same tower for the same seed, repairs from a
partial tower, and verdicts that do not depend on which of search and Z3 answers first."""

from __future__ import annotations

import z3

from tower_print.brix.checker import problems
from tower_print.brix.decks import shipped_deck
from tower_print.brix.evaluate import Evaluator
from tower_print.brix.geometry import PlacedBrick
from tower_print.brix.language import parse
from tower_print.brix.search import TowerSearch
from tower_print.brix.solver import Labeled, TowerSolver
from tower_print.brix.statics import stands

GREEN = shipped_deck("green")
PINK = shipped_deck("pink")


def cards(deck, *ids: str) -> list[Labeled]:  # noqa: ANN001 - Deck
    return [deck.card(i).item() for i in ids]


def test_found_towers_pass_the_checker_and_repeat_with_the_seed() -> None:
    items = cards(GREEN, "G01", "G02", "G14")
    conditions = [it.condition for it in items]
    first = TowerSearch(GREEN.bricks, True, seed=3).find(conditions)
    assert first is not None
    assert problems(first, GREEN.bricks, True, [(it.label, it.condition) for it in items]) == []
    assert TowerSearch(GREEN.bricks, True, seed=3).find(conditions) == first


def test_pink_towers_keep_every_colour() -> None:
    condition = parse("at most 5 bricks touch the ground", PINK.bricks.color_names)
    tower = TowerSearch(PINK.bricks, False, seed=1).find([condition])
    assert tower is not None
    assert problems(tower, PINK.bricks, False, [("C1", condition)]) == []


def test_the_search_begins_from_the_restart_towers_given() -> None:
    condition = parse("some blue brick rests on some red brick", GREEN.bricks.color_names)
    search = TowerSearch(GREEN.bricks, True, seed=0)
    found = search.find([condition])
    assert found is not None
    other = TowerSearch(GREEN.bricks, True, seed=5).find([condition])
    assert other is not None and other != found
    assert search.find([condition], restarts=[other], steps=1) == other


def test_repair_adds_the_missing_bricks_on_a_partial_start() -> None:
    start = (PlacedBrick("red-1", "red", 0, 0, 0, 4, 2, 2),
             PlacedBrick("blue-1", "blue", 0, 0, 2, 4, 2, 2))
    condition = parse("some blue brick rests on some red brick", GREEN.bricks.color_names)
    tower = TowerSearch(GREEN.bricks, True, seed=0).find([condition], start=start)
    assert tower is not None and len(tower) == len(GREEN.bricks.bricks)
    assert problems(tower, GREEN.bricks, True, [("C1", condition)]) == []


def test_shortfall_measures_the_distance_to_a_card() -> None:
    tower = (PlacedBrick("red-1", "red", 0, 0, 0, 4, 2, 2),
             PlacedBrick("red-2", "red", 4, 0, 0, 4, 2, 2),
             PlacedBrick("blue-1", "blue", 0, 0, 2, 4, 2, 2))
    evaluator = Evaluator(tower, GREEN.bricks)
    colours = GREEN.bricks.color_names
    assert evaluator.violation(parse("at most 1 brick touches the ground", colours)) == 1
    assert evaluator.violation(parse("no brick touches the ground", colours)) == 2
    assert evaluator.violation(parse("every brick touches the ground", colours)) == 1
    assert evaluator.violation(parse("the tower is at least 2 upright bricks tall",
                                     colours)) == 4



def test_shortfall_counts_the_missing_partners_of_the_closest_brick() -> None:
    """A brick lacking one of its partners is nearer than one lacking both: the search needs
    that slope. Zero still means exactly that the card holds."""
    colours = GREEN.bricks.color_names
    card = parse("some red brick rests on every purple brick", colours)
    purples = (PlacedBrick("purple-1", "purple", 0, 0, 0, 4, 2, 2),
               PlacedBrick("purple-2", "purple", 4, 0, 0, 4, 2, 2))
    beside = PlacedBrick("red-1", "red", 8, 0, 0, 4, 2, 2)
    on_one = PlacedBrick("red-1", "red", 0, 0, 2, 4, 2, 2)
    bridging = PlacedBrick("red-1", "red", 2, 0, 2, 4, 2, 2)
    shortfalls = [Evaluator((*purples, red), GREEN.bricks).violation(card)
                  for red in (beside, on_one, bridging)]
    assert shortfalls == [2, 1, 0]
    every = parse("every purple brick rests on some red brick", colours)
    assert Evaluator((*purples, beside), GREEN.bricks).violation(every) == 2

def test_verdicts_repeat_exactly_with_and_without_the_search() -> None:
    """The same question twice on fresh solvers: the same tower, the same conflict, whether
    the search or Z3 (with its own Z3 context, so nothing built earlier sways it) answers."""
    questions = ((PINK, cards(PINK, "P09", "P23"), "solvable"),
                 (GREEN, cards(GREEN, "G33", "G11", "G03"), "unsolvable"))
    for steps in ({}, {"search_steps": 0, "nudge": False}):
        for deck, items, status in questions:
            first, second = (TowerSolver(deck.bricks, deck.all_used, **steps).verify(items, 60)
                             for _ in range(2))
            assert first.status == second.status == status
            assert first.tower == second.tower and first.conflict == second.conflict


def test_no_garbage_collection_while_z3_runs_beside_the_search(monkeypatch) -> None:  # noqa: ANN001
    """The collector would free Z3 objects from the search's thread while Z3 works on the same
    (not thread-safe) context; it must be off during the race and back on afterwards."""
    import gc

    seen: list[bool] = []
    solver = TowerSolver(GREEN.bricks, True)
    find = solver.search.find

    def watched(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        seen.append(gc.isenabled())
        return find(*args, **kwargs)

    monkeypatch.setattr(solver.search, "find", watched)
    assert gc.isenabled()
    verdict = solver.verify(cards(GREEN, "G01", "G02"), 60)
    assert verdict.status == "solvable"
    assert seen == [False]
    assert gc.isenabled()


def test_a_stray_interrupt_is_cleared_before_z3_is_used_again() -> None:
    """What the race relies on: an interrupt that lands outside a check leaves Z3 cancelling
    every later simplification (and model read) until a check lowers the flag again, which
    `_clear_interrupt` does. If a Z3 release changes either, this fails and the race needs a
    new look."""
    solver = TowerSolver(GREEN.bricks, True)
    ctx = solver.model.ctx
    x = z3.Int("x", ctx)
    solver.model.solver.ctx.interrupt()
    assert not z3.simplify(x + 1 + 2 > 5).eq(z3.simplify(x > 2))  # cut short
    solver._clear_interrupt()
    assert z3.simplify(x + 1 + 2 > 5).eq(z3.simplify(x > 2))


def test_a_tower_the_search_finds_within_its_moves_is_the_answer_every_time() -> None:
    """Z3 may find another tower, and sooner on the day; the search's is the answer all the
    same, so the verdict does not depend on which worker is faster."""
    items = cards(GREEN, "G01", "G02", "G14")
    searched = TowerSearch(GREEN.bricks, True, seed=0).find([it.condition for it in items])
    assert searched is not None
    for _ in range(2):
        verdict = TowerSolver(GREEN.bricks, True).verify(items, 60)
        assert verdict.status == "solvable" and verdict.tower == searched


def test_a_nudge_makes_a_falling_tower_stand_and_keeps_its_cards() -> None:
    """Z3's candidates meet the cards and often fall by a unit or two: one brick shifted back
    over its support stands and still meets them."""
    row = [PlacedBrick(f"{colour}-1", colour, 0, 2 * k, 0, 4, 2, 2)
           for k, colour in enumerate(("red", "blue", "purple", "gray"))]
    overhang = PlacedBrick("yellow-1", "yellow", 3, 0, 2, 4, 2, 2)  # one unit on the red
    falling = (*row, overhang)
    condition = parse("some yellow brick rests on some red brick", PINK.bricks.color_names)
    assert not stands(falling, PINK.bricks.stability_margin)
    nudged = TowerSearch(PINK.bricks, False, seed=0).nudged(falling, [condition])
    assert nudged is not None
    assert problems(nudged, PINK.bricks, False, [("C1", condition)]) == []
    assert len(set(nudged) - set(falling)) == 1  # one brick moved, the rest where they were
    stopped = TowerSearch(PINK.bricks, False, seed=0).nudged(falling, [condition], lambda: True)
    assert stopped is None  # the race is over or time is up: no more nudges


def test_no_nudge_is_offered_when_none_stands_and_meets_the_cards() -> None:
    row = [PlacedBrick(f"{colour}-1", colour, 0, 2 * k, 0, 4, 2, 2)
           for k, colour in enumerate(("red", "blue", "purple", "gray"))]
    falling = (*row, PlacedBrick("yellow-1", "yellow", 3, 0, 2, 4, 2, 2))
    impossible = parse("at least 7 bricks touch the ground", PINK.bricks.color_names)
    assert TowerSearch(PINK.bricks, False, seed=0).nudged(falling, [impossible]) is None


def test_a_falling_candidates_nudge_runs_beside_z3_and_comes_before_later_candidates(
    monkeypatch,  # noqa: ANN001
) -> None:
    """Z3's first candidate for these cards falls and its second stands. The nudge of the
    first runs while Z3 looks for the second, and a nudge that stands is the answer even when
    Z3's next tower is there first: the verdict follows Z3's order, not the threads' speed."""
    import threading

    items = cards(GREEN, "G42", "G34", "G02")
    conditions = [it.condition for it in items]
    plain = TowerSolver(GREEN.bricks, True, search_steps=0, nudge=False).verify(items, 60)
    assert plain.status == "solvable" and plain.candidates == 2
    other = TowerSearch(GREEN.bricks, True, seed=3).find(conditions, steps=20_000)
    assert other is not None and other != plain.tower

    solver = TowerSolver(GREEN.bricks, True, search_steps=0)
    z3_answered = threading.Event()
    nudging = threading.Event()
    check = solver.model.solver.check

    def watched_check(*args):  # noqa: ANN002, ANN202
        answer = check(*args)
        if nudging.is_set():
            z3_answered.set()
        return answer

    overlapped: list[bool] = []

    def slow_nudge(tower, items, stop):  # noqa: ANN001, ANN202
        if overlapped:
            return None
        nudging.set()
        overlapped.append(z3_answered.wait(10))
        return other

    monkeypatch.setattr(solver.model.solver, "check", watched_check)
    monkeypatch.setattr(solver, "_nudged", slow_nudge)
    verdict = solver.verify(items, 60)
    assert overlapped == [True]  # Z3 answered again while the first candidate was nudged
    assert verdict.status == "solvable" and verdict.tower == other

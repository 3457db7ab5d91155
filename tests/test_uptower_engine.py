"""UpTower rules one at a time, the par search against exhaustive search on small games, and
the upper bound against every game the search and random players find."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

import pytest

from tower_print.uptower.bound import best_floor, upper_bound
from tower_print.uptower.engine import (
    IllegalMove,
    Move,
    State,
    _landings,
    drops,
    game_length,
    land,
    next_states,
    play,
    random_game,
    roll_sequence,
    score,
    start,
    turns,
)
from tower_print.uptower.pieces import Rules, default_rules, rules_with
from tower_print.uptower.puzzle import make_puzzle, placed_pieces
from tower_print.uptower.search import find_par, improve, replay

RULES = default_rules()
SQUARE, J, L, Z, BAR, S = 1, 2, 3, 4, 5, 6


def state(heights: tuple[int, ...], used: int = 0) -> State:
    return State(heights, used, (0,) * RULES.faces, 0)


def shape(piece: int, rotation: int = 0):  # noqa: ANN201 - Orientation
    return RULES.piece(piece).turned(rotation)


def test_pieces_rotate_but_never_flip() -> None:
    assert [len(p.orientations) for p in RULES.pieces] == [1, 4, 4, 2, 2, 2]
    as_cells = {n: {o.cells for o in RULES.piece(n).orientations} for n in (J, L, Z, S)}
    assert not as_cells[J] & as_cells[L]  # an L is a flipped reverse L
    assert not as_cells[Z] & as_cells[S]
    assert RULES.piece(BAR).turned(1).bottom == (0, 0, 0, 0)
    assert RULES.piece(L).turned(4) == RULES.piece(L).turned(0)


def test_a_piece_drops_until_it_rests_on_the_surface() -> None:
    assert land((0,) * 8, shape(BAR), 3, 15) == (0, 0, 0, 4, 0, 0, 0, 0)
    assert land((2, 2, 0, 0, 0, 0, 0, 0), shape(SQUARE), 0, 15) == (4, 4, 0, 0, 0, 0, 0, 0)
    # the S's underside steps up by one: it fits a surface that does the same
    assert land((0, 0, 1, 0, 0, 0, 0, 0), shape(S), 0, 15) == (1, 2, 2, 0, 0, 0, 0, 0)


def test_every_block_needs_support_all_the_way_down() -> None:
    # the square would rest on column B and hang over the empty cell of column A
    heights = (0, 1, 0, 0, 0, 0, 0, 0)
    assert land(heights, shape(SQUARE), 0, 15) is None
    assert land(heights, shape(S), 0, 15) is None  # S needs the right side one higher
    assert land(heights, shape(Z, 0), 0, 15) is None
    assert land((1, 0, 0, 0, 0, 0, 0, 0), shape(Z, 0), 0, 15) == (2, 2, 1, 0, 0, 0, 0, 0)


def test_pieces_stay_on_the_playfield() -> None:
    assert land((0,) * 8, shape(BAR, 1), 5, 15) is None  # a lying bar in columns F-BAR
    assert land((0,) * 8, shape(SQUARE), -1, 15) is None
    assert land((12,) * 8, shape(BAR), 0, 15) is None  # would reach floor 16
    assert land((14,) * 8, shape(BAR, 1), 0, 15) == (15, 15, 15, 15, 14, 14, 14, 14)


def test_rolled_piece_must_be_placed_with_one_optional_at_will_piece() -> None:
    s = state((0,) * 8)
    after = play(RULES, s, SQUARE, [Move(SQUARE, 0, 0)])
    assert after.heights[:2] == (2, 2) and after.used == 0
    both = play(RULES, s, SQUARE, [Move(BAR, 0, 7, at_will=True), Move(SQUARE, 0, 0)])
    assert both.heights == (2, 2, 0, 0, 0, 0, 0, 4) and both.used == 1 << (BAR - 1)
    after_it = play(RULES, s, SQUARE, [Move(SQUARE, 0, 0), Move(BAR, 0, 7, at_will=True)])
    assert after_it.heights == both.heights
    with pytest.raises(IllegalMove, match="can be placed"):
        play(RULES, s, SQUARE, [])
    with pytest.raises(IllegalMove, match="rolled piece is 1, not 5"):
        play(RULES, s, SQUARE, [Move(BAR, 0, 0)])
    with pytest.raises(IllegalMove, match="was not placed"):
        play(RULES, s, SQUARE, [Move(BAR, 0, 0, at_will=True)])
    with pytest.raises(IllegalMove, match="at most one at-will piece"):
        play(RULES, s, SQUARE, [Move(BAR, 0, 7, True), Move(L, 0, 4, True), Move(SQUARE, 0, 0)])
    with pytest.raises(IllegalMove, match="only one at-will piece per turn"):
        play(RULES, s, SQUARE, [Move(BAR, 0, 7, True), Move(L, 0, 4, True)])
    used = state((0,) * 8, used=1 << (BAR - 1))
    with pytest.raises(IllegalMove, match="used on an earlier turn") as error:
        play(RULES, used, SQUARE, [Move(SQUARE, 0, 0), Move(BAR, 0, 7, at_will=True)])
    assert error.value.index == 1


def test_an_unplaceable_rolled_piece_forces_an_at_will_piece() -> None:
    saw = (0, 2, 0, 2, 0, 2, 0, 2)  # no two neighbours level: the square fits nowhere
    assert not list(drops(RULES, saw, SQUARE))
    options = turns(RULES, state(saw), SQUARE)
    assert options
    assert all(moves[0].at_will and moves[1].piece == SQUARE for moves in options.values())
    with pytest.raises(IllegalMove, match="can be placed"):
        play(RULES, state(saw), SQUARE, [])
    with pytest.raises(IllegalMove, match="hang over an empty cell"):
        play(RULES, state(saw), SQUARE, [Move(SQUARE, 0, 0)])
    moves = next(iter(options.values()))
    assert play(RULES, state(saw), SQUARE, moves).used != 0


def test_a_lost_turn_when_not_even_an_at_will_piece_helps() -> None:
    saw = (0, 1, 0, 1, 0, 1, 0, 1)  # no at-will piece makes two neighbours level here
    assert not turns(RULES, state(saw), SQUARE)
    all_used = (1 << RULES.faces) - 1
    assert not turns(RULES, state((0, 2) * 4, all_used), SQUARE)  # no circles left
    s = State(saw, 0, (0,) * RULES.faces, 3)
    after = play(RULES, s, SQUARE, [])
    assert after.heights == saw and after.turn == 4 and after.rolled[SQUARE - 1] == 1
    assert next_states(RULES, s, SQUARE) == [((), after)]


def test_the_fifth_roll_of_a_piece_is_the_last_turn() -> None:
    s = start(RULES)
    for column in range(5):
        assert not s.over
        s = play(RULES, s, BAR, [Move(BAR, 0, column)])
    assert s.over and s.turn == 5
    with pytest.raises(IllegalMove, match="already over"):
        play(RULES, s, SQUARE, [Move(SQUARE, 0, 6)])
    assert game_length(RULES, [1, 2, 5, 5, 5, 5, 5, 3]) == 7
    rolls = roll_sequence(RULES, 11)
    assert rolls == roll_sequence(RULES, 11) and game_length(RULES, rolls) == len(rolls)
    assert max(rolls.count(p) for p in range(1, 7)) == 5


def test_reaching_the_top_floor_ends_the_game() -> None:
    s = State((11,) + (0,) * 7, 0, (0,) * 6, 0)
    assert play(RULES, s, BAR, [Move(BAR, 0, 0)]).over
    assert not play(RULES, s, BAR, [Move(BAR, 0, 1)]).over


def test_score_is_the_best_floor_plus_the_bonus() -> None:
    tower = State((3, 3, 3, 1, 0, 0, 0, 0), used=0b000111)  # three circles used
    # floor 1: 4 blocks (4), floor 2: 3 x 2 = 6, floor 3: 3 x 3 = 9; 3 unused: 5 (published)
    assert score(RULES, tower) == 9 + 5
    assert score(rules_with(RULES, bonus="triangular"), tower) == 9 + 6
    assert score(RULES, State((0,) * 8)) == 21


def test_all_placements_agree_with_dropping_one_piece() -> None:
    rng = random.Random(3)
    for _ in range(500):
        heights = tuple(rng.choice((0, 1, 2, 3, 13, 14, 15)) for _ in range(8))
        for piece in range(1, 7):
            one_by_one = sorted(
                (o.rotation, column, after)
                for o in RULES.piece(piece).orientations for column in range(-1, 9)
                if (after := land(heights, o, column, 15)) is not None)
            assert sorted(_landings(RULES, heights, piece, None)) == one_by_one
            assert sorted((m.rotation, m.column, h) for m, h in drops(RULES, heights, piece)) \
                == one_by_one


def test_random_games_replay_through_the_engine_and_stay_under_the_bound() -> None:
    rng = random.Random(5)
    for seed in range(30):
        rolls = roll_sequence(RULES, seed)
        end, played = random_game(RULES, rng, rolls)
        assert replay(RULES, rolls, played) == end
        assert score(RULES, end) <= upper_bound(RULES, rolls)


def small_rules() -> Rules:
    """A game small enough to search completely: 5 columns, 6 floors, a piece's second roll
    ends it."""
    return replace(rules_with(RULES, width=5), floors=6, turn_boxes=1)


@cache
def exact_best(rules: Rules, rolls: tuple[int, ...], s: State) -> int:
    if s.over:
        return score(rules, s)
    return max(exact_best(rules, rolls, after)
               for _, after in next_states(rules, s, rolls[s.turn]))


@pytest.mark.parametrize("rolls", [(1, 6, 3, 1), (5, 2, 4, 6, 2), (6, 4, 6), (3, 3)])
def test_par_matches_exhaustive_search_on_small_games(rolls: tuple[int, ...]) -> None:
    rules = small_rules()
    best = exact_best(rules, rolls, start(rules))
    par = find_par(rules, rolls, width=2000)
    assert par.score == best
    assert score(rules, replay(rules, rolls, par.turns)) == par.score
    assert best <= upper_bound(rules, rolls)
    # the branch and bound proves it from a poor start (a narrow beam) and finds the best
    proved = improve(rules, rolls, find_par(rules, rolls, width=1), budget=100_000)
    assert proved.proven and proved.score == best
    assert score(rules, replay(rules, rolls, proved.turns)) == best


def test_par_replays_legally_to_its_score_and_respects_the_bound() -> None:
    rolls = roll_sequence(RULES, 4)
    par = find_par(RULES, rolls, width=60)
    end = replay(RULES, rolls, par.turns)
    assert end.over and score(RULES, end) == par.score
    assert par.score <= upper_bound(RULES, rolls)
    assert par.score >= 60  # far above what random players reach (about 45 on average)


def test_branch_and_bound_beats_a_weak_par_and_proves_a_short_game() -> None:
    rolls = roll_sequence(RULES, 49)  # 10 rolls; the default beam alone reaches 57 of 64
    beam = find_par(RULES, rolls, width=20)
    better = improve(RULES, rolls, beam, budget=15_000)
    assert better.proven and better.score == upper_bound(RULES, rolls) == 64 > beam.score
    assert score(RULES, replay(RULES, rolls, better.turns)) == 64
    unfinished = improve(RULES, rolls, beam, budget=5)
    assert not unfinished.proven and unfinished.score >= beam.score


def test_the_bound_is_the_relaxed_optimum() -> None:
    assert best_floor(RULES, 64) == 64  # 8 x 8
    assert best_floor(RULES, 68) == 66  # 11 x 6: 68 blocks cannot be a rectangle here
    assert best_floor(RULES, 400) == 120  # the whole playfield
    # 17 turns: 5 at-will pieces -> 88 blocks, 8 x 11 + 1 = 89; all 6 -> 92 blocks, 13 x 7 = 91
    assert upper_bound(RULES, [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 1]) == 91


def test_the_answer_key_cells_fill_the_final_tower_exactly() -> None:
    puzzle = make_puzzle(RULES, 13, beam=40, budget=200)
    cells = [cell for placed in placed_pieces(RULES, puzzle) for cell in placed.cells]
    assert len(cells) == len(set(cells))
    heights = puzzle.par.state.heights
    assert set(cells) == {(x, y) for x in range(8) for y in range(heights[x])}

"""Tower Up rules, one at a time, on hand-set game states (rules engine: tower_print.towerup)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

import pytest

from tower_print.content import UserError
from tower_print.towerup.components import Card
from tower_print.towerup.engine import (
    CITY_FULL,
    EXHAUSTED,
    LAST_ROOF,
    Build,
    Building,
    GameState,
    IllegalMove,
    Take,
    check,
    new_game,
    play,
    score,
    winners,
)
from tower_print.towerup.game import default_content

C = default_content()
FRONT = C.board.side("front")


def game(players: int = 3, objectives: tuple[str, ...] = ("S1", "S2", "S3"),
         seed: int = 5) -> GameState:
    """A front-side game with the start buildings replaced by one black building on F22."""
    state = new_game(FRONT, C.rules, C.words, tuple(C.card(i) for i in objectives), players, seed)
    for site, building in list(state.buildings.items()):
        state.supply[building.colour] += 1
        del state.buildings[site]
    state.buildings["F22"] = Building("black")
    state.supply["black"] -= 1
    return state


def market(state: GameState, *cards: tuple[str, ...]) -> None:
    """Put these cards in the market (the deck cards they replace go back under the pile)."""
    state.draw[:0] = state.market
    state.market = [Card(100 + k, items) for k, items in enumerate(cards)]


def hand(state: GameState, player: int, **floors: int) -> None:
    p = state.players[player]
    state.supply.update(p.hand)
    p.hand = Counter({c: n for c, n in floors.items() if n})
    state.supply.subtract(p.hand)


def refused(state: GameState, action: Build | Take, reason: str) -> None:
    assert reason in (check(state, action) or "")
    with pytest.raises(IllegalMove, match=re.escape(reason)):
        play(state, action)


# --- setup -------------------------------------------------------------------------------------

def test_setup_colours_start_sites_from_market_cards_and_deals_one_floor_of_each_colour() -> None:
    state = new_game(FRONT, C.rules, C.words, (), 4, seed=11)
    assert [state.buildings[s].colour for s in FRONT.start_sites] == \
        [card.items[0] for card in state.market]
    assert all(p.hand == Counter({c: 1 for c in C.rules.colours}) for p in state.players)
    on_board = sum(b.height for b in state.buildings.values())
    assert sum(state.supply.values()) == 4 * C.rules.floors_per_colour - on_board - 4 * 4
    assert len(state.draw) == 44 - 3


def test_side_must_suit_the_player_count() -> None:
    with pytest.raises(UserError, match="back side is for 2 players"):
        new_game(C.board.side("back"), C.rules, C.words, (), 3, 0)


# --- taking a card -----------------------------------------------------------------------------

def test_take_gives_the_floors_moves_the_vehicle_and_refills_the_market() -> None:
    state = game()
    market(state, ("white", "white", "move brown"), ("gray", "gray"), ("black", "black"))
    refill = state.draw[-1]
    hand(state, 0)
    play(state, Take(0))
    assert state.players[0].hand == Counter(white=2)
    assert state.players[0].track["brown"] == 1
    assert state.market[0] == refill and state.discard[-1].items[0] == "white"
    assert state.current == 1


def test_wild_floors_need_a_colour_choice() -> None:
    state = game()
    market(state, ("gray", "wild"), ("gray", "gray"), ("black", "black"))
    refused(state, Take(0), "needs a colour choice for its wild floor")
    refused(state, Take(0, picks=("gray", "gray")), "too many")
    before = state.players[0].hand["brown"]
    play(state, Take(0, picks=("brown",)))
    assert state.players[0].hand["brown"] == before + 1


def test_hand_limit_ten_floors_the_player_returns_exactly_the_excess() -> None:
    state = game()
    market(state, ("gray", "gray", "gray", "gray"), ("gray", "gray"), ("black", "black"))
    hand(state, 0, black=4, white=4)
    refused(state, Take(0), "return exactly 2, not 0")
    refused(state, Take(0, discard=("brown", "brown")), "does not hold")
    supply_black = state.supply["black"]
    play(state, Take(0, discard=("black", "gray")))
    assert state.players[0].hand == Counter(black=3, white=4, gray=3)
    assert state.supply["black"] == supply_black + 1


def test_an_empty_colour_gives_another_colour_and_everyone_then_has_a_final_turn() -> None:
    state = game(players=3)
    market(state, ("brown", "gray"), ("gray", "gray"), ("white", "white"))
    state.supply["brown"] = 0
    refused(state, Take(0), "needs a colour choice for its brown floor")
    refused(state, Take(0, picks=("brown",)), "no brown floor left")
    play(state, Take(0, picks=("white",)))
    assert state.end_reason == EXHAUSTED and not state.over
    order = []
    while not state.over:
        order.append(state.current)
        market(state, ("white", "gray"))
        play(state, Take(0, discard=_excess(state)))
    assert order == [1, 2, 0]  # the trigger (player 0) takes a final turn too, last


def _excess(state: GameState) -> tuple[str, ...]:
    """Floors to return after taking market slot 0 (the first colours held, in order)."""
    p = state.players[state.current]
    extra = sum(p.hand.values()) + len(state.market[0].floors) - C.rules.hand_limit
    held = [c for c, n in sorted(p.hand.items()) for _ in range(n)]
    return tuple(held[:max(0, extra)])


# --- building ----------------------------------------------------------------------------------

def test_a_building_must_start_next_to_a_building() -> None:
    state = game()
    hand(state, 0, white=1, black=1)
    refused(state, Build("F00", "white", "F00"), "not next to a building")


def test_a_building_cannot_share_a_colour_with_a_neighbour() -> None:
    state = game()
    hand(state, 0, black=3)
    refused(state, Build("F23", "black", "F23"), "cannot stand next to the black one on F22")


def test_paying_impossible_refuses_the_build() -> None:
    state = game()
    state.buildings["F32"] = Building("gray")  # F33 touches only F32 of the buildings
    hand(state, 0, white=1, black=1)
    refused(state, Build("F33", "white", "F33"), "cannot pay: 1 gray floor(s) short")


def test_the_roof_goes_on_the_new_building_or_one_just_paid() -> None:
    state = game()
    state.buildings["F44"] = Building("gray")
    hand(state, 0, white=1, black=1)
    refused(state, Build("F23", "white", "F44"), "roof must go on F23 or a building just paid")


def test_build_pays_each_neighbour_one_floor_of_its_colour_and_moves_that_vehicle() -> None:
    state = game()
    state.buildings["F33"] = Building("gray", height=2)
    hand(state, 0, white=1, black=1, gray=1, brown=1)
    play(state, Build("F23", "white", "F33"))  # F23 touches F22 (black) and F33 (gray)
    assert state.players[0].hand == Counter(brown=1)
    assert state.buildings["F22"].height == 2 and state.buildings["F33"].height == 3
    assert state.buildings["F33"].roofs == [(3, 0)]
    assert state.players[0].track["gray"] == 3  # the roofed building's colour, by its height
    assert state.players[0].roofs_left == C.rules.roofs_per_player - 1


def test_a_roof_is_covered_by_a_later_payment_but_still_counts_as_the_players() -> None:
    state = game(players=3, objectives=())
    hand(state, 0, white=1, black=1)
    play(state, Build("F23", "white", "F22"))  # player 0's roof on top of F22 (2 floors)
    assert state.visible_roofs(0) == 1
    hand(state, 1, gray=1, black=1)
    play(state, Build("F21", "gray", "F21"))  # F21 touches F22: a black floor covers the roof
    assert state.buildings["F22"].height == 3 and state.buildings["F22"].roofs == [(2, 0)]
    assert state.visible_roofs(0) == 0 and state.visible_roofs(1) == 1
    assert [(f.site, f.height, f.visible) for f in state.roof_facts(0)] == [("F22", 3, False)]


def test_one_player_may_have_several_roofs_in_one_building_from_different_turns() -> None:
    state = game(players=3, objectives=())
    hand(state, 0, white=1, black=2, gray=1)
    play(state, Build("F23", "white", "F22"))
    state.current = 0
    play(state, Build("F32", "gray", "F22"))
    assert state.buildings["F22"].roofs == [(2, 0), (3, 0)]
    assert [(f.site, f.visible) for f in state.roof_facts(0)] == [("F22", False), ("F22", True)]
    assert state.visible_roofs(0) == 1


def test_a_player_without_roofs_cannot_build() -> None:
    state = game()
    state.players[0].roofs_left = 0
    hand(state, 0, white=1, black=1)
    refused(state, Build("F23", "white", "F23"), "no roofs left")


# --- vehicles and extra turns ------------------------------------------------------------------

def test_a_vehicle_at_the_end_of_its_track_does_not_move() -> None:
    state = game()
    last = len(C.rules.tracks["white"]) - 1
    state.players[0].track["white"] = last - 1
    hand(state, 0, white=1, black=1)
    state.buildings["F22"].height = 3  # roof on F23 (white, height 1): +1, then at the end
    play(state, Build("F23", "white", "F23"))
    assert state.players[0].track["white"] == last
    state.current = 0
    market(state, ("gray", "move white"), ("gray", "gray"), ("black", "black"))
    play(state, Take(0))
    assert state.players[0].track["white"] == last


def test_all_vehicles_reaching_a_star_column_give_one_extra_turn_and_extra_turns_chain() -> None:
    state = game()
    first, second = C.rules.star_columns[:2]
    me = state.players[0]
    me.track.update({c: second for c in C.rules.colours})
    me.track["brown"] = first - 1
    me.stars = 0
    market(state, ("gray", "move brown"), ("gray", "move brown"), ("black", "black"))
    play(state, Take(0))  # brown reaches the first column: all four are past it
    assert state.current == 0 and me.stars == 1
    market(state, ("gray", "move brown"), ("gray", "move brown"), ("black", "black"))
    me.track["brown"] = second - 1
    play(state, Take(0))  # chained: the extra turn reaches the second column
    assert state.current == 0 and me.stars == 2
    play(state, Take(1))  # nothing new reached: play moves on
    assert state.current == 1


def test_passing_several_star_columns_at_once_gives_a_single_extra_turn() -> None:
    state = game()
    me = state.players[0]
    me.track.update({c: 10 for c in C.rules.colours})
    me.track["black"] = 0
    state.buildings["F22"] = Building("black", height=8)
    hand(state, 0, white=1, black=1)
    play(state, Build("F23", "white", "F22"))  # black vehicle +9: past all four columns
    assert me.stars == len(C.rules.star_columns) and state.current == 0
    market(state, ("gray", "gray"), ("gray", "gray"), ("black", "black"))
    play(state, Take(0))
    assert state.current == 1


# --- objectives --------------------------------------------------------------------------------

def test_meeting_an_objective_takes_its_best_chip_once() -> None:
    state = game(players=3, objectives=("S3",))  # roofs on 2 adjacent buildings
    hand(state, 0, white=2, black=2)
    play(state, Build("F23", "white", "F23"))
    assert state.players[0].chips == [] and state.players[0].met == {}
    state.current = 0
    play(state, Build("F33", "black", "F33"))  # F33 touches F23: two adjacent roofs
    assert state.players[0].chips == [7] and state.players[0].met == {"S3": 2}
    assert state.chips_left["S3"] == [5, 3]
    state.current = 0
    hand(state, 0, white=1, black=2, gray=1)
    play(state, Build("F34", "gray", "F34"))
    assert state.players[0].chips == [7]


def test_chips_per_player_count() -> None:
    for players, chips in ((2, [7, 5]), (3, [7, 5, 3]), (4, [7, 5, 3, 3])):
        side = C.board.side("back" if players == 2 else "front")
        state = new_game(side, C.rules, C.words, (C.card("S1"),), players, 0)
        assert state.chips_left["S1"] == chips


# --- the end -----------------------------------------------------------------------------------

def test_last_roof_gives_every_other_player_one_final_turn() -> None:
    state = game(players=3)
    state.current = 1
    state.players[1].roofs_left = 1
    hand(state, 1, white=1, black=1)
    play(state, Build("F23", "white", "F23"))
    assert state.end_reason == LAST_ROOF
    order = []
    while not state.over:
        order.append(state.current)
        market(state, ("white", "gray"))
        play(state, Take(0, discard=_excess(state)))
    assert order == [2, 0]
    refused(state, Take(0), "the game is over")


def test_a_score_is_fixed_at_the_end_of_the_players_final_turn() -> None:
    state = game(players=3, objectives=())
    state.current = 1
    state.players[1].roofs_left = 1
    hand(state, 1, white=1, black=1)
    play(state, Build("F23", "white", "F23"))  # last roof, visible: player 1 has played out
    fixed = score(state, 1)
    assert state.final_scores == {1: fixed} and state.visible_roofs(1) == 1
    hand(state, 2, white=1, gray=1)
    play(state, Build("F33", "gray", "F33"))  # player 2's final turn covers that roof
    assert state.visible_roofs(1) == 0 and score(state, 1) == fixed
    me = state.players[1]
    tracks = sum(C.rules.tracks[c][pos] for c, pos in me.track.items())
    assert fixed == tracks + C.rules.cone[1] + sum(me.chips)  # the roof it saw still counts


def test_a_build_that_leaves_no_buildable_site_ends_the_game_like_a_last_roof() -> None:
    state = game(players=3)
    for site in FRONT.site_ids:
        if site not in ("F22", "F23"):
            state.buildings[site] = Building("gray" if site in FRONT.neighbours["F23"] else
                                             "brown")
    state.buildings["F22"] = Building("black")
    hand(state, 0, white=1, black=1, gray=5)
    play(state, Build("F23", "white", "F23"))
    assert state.end_reason == CITY_FULL and state.current == 1 and state.ending == [2]


def test_score_is_tracks_plus_cone_plus_chips() -> None:
    state = game(players=3, objectives=())
    me = state.players[0]
    me.track.update(black=3, white=0, brown=2, gray=1)
    me.chips = [7, 3]
    hand(state, 0, white=1, black=1)
    play(state, Build("F23", "white", "F23"))  # one visible roof; white vehicle +1
    tracks = C.rules.tracks
    expected = (tracks["black"][3] + tracks["white"][1] + tracks["brown"][2] + tracks["gray"][1]
                + C.rules.cone[1] + 10)
    assert score(state, 0) == expected


def test_ties_share_the_victory_or_go_to_most_floors_in_the_variant() -> None:
    state = game(players=3, objectives=())
    for p in state.players:
        p.chips = [5]
    state.players[2].chips = [3]
    hand(state, 0, black=1)
    hand(state, 1, black=2)
    assert winners(state) == [0, 1]
    state.rules = replace(C.rules, tie="floors")
    assert winners(state) == [1]

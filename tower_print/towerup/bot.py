"""A simple greedy player: builds when a build pays (track points, objective chips, an extra
turn), otherwise takes the market card that brings the most.

It plays through `engine.play` like anyone else, so every move it makes is checked by the rules;
it is deterministic (ties go to the first candidate), which keeps seeded simulations repeatable.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from tower_print.towerup.engine import Action, Build, GameState, Take, build_cost
from tower_print.towerup.objectives import RoofFact, holds

EXTRA_TURN = 3  # what an extra turn is worth to the bot, in points
BUILD_AT_LEAST = 2  # build when a build is worth this much (or the hand is nearly full)
FULL_HAND = 8


def choose(state: GameState) -> Action:
    player = state.players[state.current]
    if player.roofs_left:
        best = _best_build(state)
        if best is not None and (best[0] >= BUILD_AT_LEAST
                                 or sum(player.hand.values()) >= FULL_HAND):
            return best[1]
    return _best_take(state)


def _gain(state: GameState, colour: str, spaces: int) -> float:
    """Track points a move is worth, plus an extra turn when it completes a star column."""
    player = state.players[state.current]
    track = state.rules.tracks[colour]
    old = player.track[colour]
    new = min(len(track) - 1, old + spaces)
    slowest = min(new if c == colour else pos for c, pos in player.track.items())
    stars = sum(1 for c in state.rules.star_columns if slowest >= c)
    return track[new] - track[old] + (EXTRA_TURN if stars > player.stars else 0)


def _best_build(state: GameState) -> tuple[float, Build] | None:
    me = state.current
    hand = state.players[me].hand
    todo = [o for o in state.objectives
            if o.id not in state.players[me].met and state.chips_left[o.id]]
    base = state.roof_facts(me) if todo else []
    best: tuple[float, Build] | None = None
    for site in state.open_sites():
        paid = [n for n in state.side.neighbours[site] if n in state.buildings]
        taken = {state.buildings[n].colour for n in paid}
        for colour in state.rules.colours:
            if colour in taken:
                continue
            cost = build_cost(state, site, colour)
            if any(hand[c] < n for c, n in cost.items()):
                continue
            for roof in [site, *paid]:
                b = state.buildings.get(roof)
                height, roof_colour = (b.height + 1, b.colour) if b else (1, colour)
                value = _gain(state, roof_colour, height) - 0.1 * sum(cost.values())
                if todo:
                    facts = [replace(f, height=f.height + 1, visible=False) if f.site in paid
                             else f for f in base]
                    facts.append(RoofFact(roof, roof_colour, state.side.district_of[roof],
                                          height, True))
                    value += sum(state.chips_left[o.id][0] for o in todo if holds(
                        o.objective, facts, state.words, state.side.neighbours))
                if best is None or value > best[0]:
                    best = (value, Build(site, colour, roof))
    return best


def _best_take(state: GameState) -> Take:
    player = state.players[state.current]
    room = state.rules.hand_limit - sum(player.hand.values())
    best: tuple[float, int] | None = None
    for slot, card in enumerate(state.market):
        value = min(len(card.floors), max(room, 0)) + sum(_gain(state, c, 1) for c in card.moves)
        if best is None or value > best[0]:
            best = (value, slot)
    assert best is not None, "the market is never empty: discards are reshuffled"
    return _take_with_choices(state, best[1])


def _wanted(state: GameState) -> Counter[str]:
    """The cost of the open build the hand is closest to affording: what picks aim for."""
    hand = state.players[state.current].hand
    best: tuple[int, Counter[str]] = (10**6, Counter())
    for site in state.open_sites():
        taken = {state.buildings[n].colour for n in state.side.neighbours[site]
                 if n in state.buildings}
        for colour in state.rules.colours:
            if colour not in taken:
                cost = build_cost(state, site, colour)
                short = sum(max(0, n - hand[c]) for c, n in cost.items())
                if short < best[0]:
                    best = (short, cost)
    return best[1]


def _take_with_choices(state: GameState, slot: int) -> Take:
    """Pick colours the closest build still lacks, then the fewest held; return floors that
    build does not need, most held first."""
    hand = Counter(state.players[state.current].hand)
    supply = Counter(state.supply)
    want = _wanted(state)
    picks = []
    for item in state.market[slot].floors:
        if item in state.rules.colours and supply[item] > 0:
            chosen = item
        else:
            left = [c for c in state.rules.colours if supply[c] > 0]
            if not left:
                continue
            chosen = min(left, key=lambda c: (hand[c] >= want[c], hand[c]))
            picks.append(chosen)
        hand[chosen] += 1
        supply[chosen] -= 1
    discard = []
    while sum(hand.values()) > state.rules.hand_limit:
        most = max((c for c in state.rules.colours if hand[c]),
                   key=lambda c: (hand[c] > want[c], hand[c] - want[c]))
        hand[most] -= 1
        discard.append(most)
    return Take(slot, tuple(picks), tuple(discard))

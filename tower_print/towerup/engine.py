"""The Tower Up rules for 2-4 players: a seeded game state and the two actions.

Rule readings where the seeds disagree or are silent follow DESIGN.md and are listed in
content/towerup/rules.yaml: a turn is either take a card or build; running out of a colour ends
the game after a final turn for everyone, the trigger included; placing one's last roof ends it
after a final turn for every other player, and so does a build after which no empty site can be
built on any more (the project's addition: the seeds never say what happens when the city is
full or every empty site is next to all four colours). `check` says why an action is illegal,
`play` refuses it with that reason, so a bot or a test can never reach a state the rules forbid.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from tower_print.content import UserError
from tower_print.towerup.board import Side
from tower_print.towerup.components import WILD, Card, Rules
from tower_print.towerup.objectives import ObjectiveCard, RoofFact, Vocabulary, holds

LAST_ROOF = "last roof"
EXHAUSTED = "colour exhausted"
CITY_FULL = "city complete"


class IllegalMove(Exception):
    """An action the rules forbid; the message is the reason."""


@dataclass(frozen=True)
class Take:
    """Take the market card in `slot`. `picks` choose, in order, the colour of each wild floor and
    of each floor whose colour has run out; `discard` names the floors returned when the hand
    would exceed the limit (exactly as many as needed)."""

    slot: int
    picks: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()


@dataclass(frozen=True)
class Build:
    """Start a building of `colour` on `site` and put the roof on `roof` (the new building or a
    neighbour just paid)."""

    site: str
    colour: str
    roof: str


Action = Take | Build


@dataclass
class Building:
    colour: str
    height: int = 1
    roofs: list[tuple[int, int]] = field(default_factory=list)  # (floor number, player)


@dataclass
class Player:
    hand: Counter[str]
    roofs_left: int
    track: dict[str, int]
    stars: int = 0  # star columns already rewarded
    chips: list[int] = field(default_factory=list)
    turns: int = 0  # actions taken, extra turns included
    met: dict[str, int] = field(default_factory=dict)  # objective id -> turns when met
    roofs: list[str] = field(default_factory=list)  # sites of this player's roofs


@dataclass
class GameState:
    side: Side
    rules: Rules
    words: Vocabulary
    objectives: tuple[ObjectiveCard, ...]
    players: list[Player]
    buildings: dict[str, Building]
    supply: Counter[str]
    draw: list[Card]
    discard: list[Card]
    market: list[Card]
    chips_left: dict[str, list[int]]
    rng: random.Random
    current: int = 0
    ending: list[int] | None = None  # players still to take their final turn
    end_reason: str | None = None
    over: bool = False
    final_scores: dict[int, int] = field(default_factory=dict)  # fixed at each final turn's end

    def roof_facts(self, player: int) -> list[RoofFact]:
        facts = []
        for site in dict.fromkeys(self.players[player].roofs):
            building = self.buildings[site]
            for level, owner in building.roofs:
                if owner == player:
                    facts.append(RoofFact(site, building.colour, self.side.district_of[site],
                                          building.height, level == building.height))
        return facts

    def visible_roofs(self, player: int) -> int:
        return sum(1 for b in self.buildings.values()
                   if b.roofs and b.roofs[-1] == (b.height, player))

    def open_sites(self) -> list[str]:
        """Empty sites next to a building: the only places a building may start."""
        return [s for s in self.side.site_ids if s not in self.buildings
                and any(n in self.buildings for n in self.side.neighbours[s])]


def new_game(side: Side, rules: Rules, words: Vocabulary, objectives: tuple[ObjectiveCard, ...],
             players: int, seed: int) -> GameState:
    """Shuffle, lay out the market, colour the start sites from the market cards' bottom floors,
    give every player their starting floors."""
    if players not in side.players:
        raise UserError(f"--players: the {side.name} side is for "
                        f"{' or '.join(map(str, side.players))} players, not {players}")
    if len(side.start_sites) != rules.market_size:
        raise UserError(f"side {side.name}: {len(side.start_sites)} start sites but a market of "
                        f"{rules.market_size} cards")
    rng = random.Random(seed)
    draw = list(rules.deck)
    rng.shuffle(draw)
    market = [draw.pop() for _ in range(rules.market_size)]
    supply = Counter({c: rules.floors_per_colour for c in rules.colours})
    buildings = {}
    for site, card in zip(side.start_sites, market, strict=True):
        buildings[site] = Building(card.items[0])
        supply[card.items[0]] -= 1
    seats = []
    for _ in range(players):
        hand = Counter({c: rules.starting_floors for c in rules.colours})
        supply.subtract(hand)
        seats.append(Player(hand, rules.roofs_per_player, {c: 0 for c in rules.colours}))
    chips = {o.id: list(rules.chip_values(players)) for o in objectives}
    return GameState(side, rules, words, objectives, seats, buildings, supply, draw, [], market,
                     chips, rng)


def check(state: GameState, action: Action) -> str | None:
    """Why `action` is illegal for the current player now, or None when it is legal."""
    if state.over:
        return "the game is over"
    if isinstance(action, Take):
        return _take_plan(state, action)[1]
    return _build_problem(state, action)


def play(state: GameState, action: Action) -> None:
    """Apply a legal action for the current player and move play on; IllegalMove otherwise."""
    reason = check(state, action)
    if reason is not None:
        raise IllegalMove(reason)
    me = state.current
    player = state.players[me]
    stars_before = player.stars
    if isinstance(action, Take):
        _take(state, action)
    else:
        _build(state, action)
    player.turns += 1
    _claim_objectives(state, me)
    if player.stars > stars_before:
        return  # an extra turn: the turn goes on
    if state.ending is not None and me not in state.ending:
        state.final_scores[me] = _points(state, me)  # that was this player's final turn
    if state.ending is None:
        state.current = (me + 1) % len(state.players)
    elif state.ending:
        state.current = state.ending.pop(0)
    else:
        state.over = True


def _take_plan(state: GameState, take: Take) -> tuple[Counter[str], str | None, bool]:
    """The floors `take` gives, the reason it is illegal (or None), whether a colour ran out."""
    if not 0 <= take.slot < len(state.market):
        return Counter(), f"no market card in slot {take.slot}", False
    gained: Counter[str] = Counter()
    picks = list(take.picks)
    exhausted = False
    for item in state.market[take.slot].floors:
        left = [c for c in state.rules.colours if state.supply[c] - gained[c] > 0]
        if item != WILD and item in left:
            gained[item] += 1
            continue
        exhausted = exhausted or item != WILD
        if not left:
            continue
        if not picks:
            return gained, f"the card needs a colour choice for its {item} floor", exhausted
        pick = picks.pop(0)
        if pick not in left:
            return gained, f"no {pick} floor left to pick", exhausted
        gained[pick] += 1
    if picks:
        return gained, f"{len(picks)} colour choice(s) too many", exhausted
    hand = state.players[state.current].hand + gained
    over = sum(hand.values()) - state.rules.hand_limit
    returned = Counter(take.discard)
    if sum(returned.values()) != max(over, 0):
        return gained, (f"the hand would hold {sum(hand.values())} floors: return exactly "
                        f"{max(over, 0)}, not {sum(returned.values())}"), exhausted
    if any(hand[c] < n for c, n in returned.items()):
        return gained, "cannot return floors the hand does not hold", exhausted
    return gained, None, exhausted


def _take(state: GameState, take: Take) -> None:
    gained, _, exhausted = _take_plan(state, take)
    player = state.players[state.current]
    card = state.market[take.slot]
    player.hand.update(gained)
    state.supply.subtract(gained)
    returned = Counter(take.discard)
    player.hand.subtract(returned)
    state.supply.update(returned)
    player.hand = +player.hand
    for colour in card.moves:
        _advance(state, colour, 1)
    state.discard.append(card)
    if not state.draw and state.discard:
        state.draw = state.discard
        state.discard = []
        state.rng.shuffle(state.draw)
    if state.draw:
        state.market[take.slot] = state.draw.pop()
    else:
        del state.market[take.slot]
    if exhausted:
        _trigger_end(state, EXHAUSTED)


def build_cost(state: GameState, site: str, colour: str) -> Counter[str]:
    """One floor for the new building plus one of each neighbour's colour to pay it."""
    cost = Counter(state.buildings[n].colour for n in state.side.neighbours[site]
                   if n in state.buildings)
    cost[colour] += 1
    return cost


def _free_colours(state: GameState, site: str) -> list[str]:
    """Colours a building on `site` may have: none of its built neighbours'."""
    taken = {state.buildings[n].colour for n in state.side.neighbours[site] if n in state.buildings}
    return [c for c in state.rules.colours if c not in taken]


def _build_problem(state: GameState, build: Build) -> str | None:
    player = state.players[state.current]
    side = state.side
    if player.roofs_left == 0:
        return "no roofs left to place"
    if build.site not in side.neighbours:
        return f"no site {build.site} on the {side.name} side"
    if build.site in state.buildings:
        return f"site {build.site} is already built"
    if build.colour not in state.rules.colours:
        return f"no floor colour {build.colour}"
    built = [n for n in side.neighbours[build.site] if n in state.buildings]
    if not built:
        return f"site {build.site} is not next to a building"
    clash = [n for n in built if state.buildings[n].colour == build.colour]
    if clash:
        return f"a {build.colour} building cannot stand next to the {build.colour} one on " \
               f"{clash[0]}"
    short = {c: n - player.hand[c] for c, n in build_cost(state, build.site, build.colour).items()
             if player.hand[c] < n}
    if short:
        missing = ", ".join(f"{n} {c}" for c, n in sorted(short.items()))
        return f"cannot pay: {missing} floor(s) short"
    if build.roof != build.site and build.roof not in built:
        return f"the roof must go on {build.site} or a building just paid ({', '.join(built)})"
    return None


def _build(state: GameState, build: Build) -> None:
    me = state.current
    player = state.players[me]
    player.hand.subtract(build_cost(state, build.site, build.colour))
    player.hand = +player.hand
    for n in state.side.neighbours[build.site]:
        if n in state.buildings:
            state.buildings[n].height += 1
    state.buildings[build.site] = Building(build.colour)
    roofed = state.buildings[build.roof]
    roofed.roofs.append((roofed.height, me))
    player.roofs.append(build.roof)
    player.roofs_left -= 1
    _advance(state, roofed.colour, roofed.height)
    if player.roofs_left == 0:
        _trigger_end(state, LAST_ROOF)
    elif not any(_free_colours(state, s) for s in state.open_sites()):
        _trigger_end(state, CITY_FULL)


def _advance(state: GameState, colour: str, spaces: int) -> None:
    """Move a vehicle; moves past the end are lost. All four past a new star column: one extra
    turn (recorded by raising `stars`, which `play` compares)."""
    player = state.players[state.current]
    last = len(state.rules.tracks[colour]) - 1
    player.track[colour] = min(last, player.track[colour] + spaces)
    slowest = min(player.track.values())
    player.stars = max(player.stars, sum(1 for c in state.rules.star_columns if slowest >= c))


def _trigger_end(state: GameState, reason: str) -> None:
    if state.ending is not None:
        return
    n = len(state.players)
    me = state.current
    others = [(me + k) % n for k in range(1, n)]
    state.ending = others + [me] if reason == EXHAUSTED else others
    state.end_reason = reason


def _claim_objectives(state: GameState, actor: int) -> None:
    """Everyone who now meets an objective for the first time takes its best chip left."""
    n = len(state.players)
    for p in [(actor + k) % n for k in range(n) if (actor + k) % n not in state.final_scores]:
        player = state.players[p]
        facts = None
        for card in state.objectives:
            if card.id in player.met:
                continue
            facts = facts if facts is not None else state.roof_facts(p)
            if holds(card.objective, facts, state.words, state.side.neighbours):
                player.met[card.id] = player.turns
                if state.chips_left[card.id]:
                    player.chips.append(state.chips_left[card.id].pop(0))


def score(state: GameState, player: int) -> int:
    """The player's score: fixed at the end of their final turn ("each player calculates their
    score at the end of their final turn"), so later turns of others cannot change it."""
    if player in state.final_scores:
        return state.final_scores[player]
    return _points(state, player)


def _points(state: GameState, player: int) -> int:
    """Points under each vehicle + the cone's points for visible roofs + objective chips."""
    p = state.players[player]
    tracks = sum(state.rules.tracks[c][pos] for c, pos in p.track.items())
    return tracks + state.rules.cone_points(state.visible_roofs(player)) + sum(p.chips)


def winners(state: GameState) -> list[int]:
    """The leaders; with the "floors" tie rule, most floors left breaks a tie first."""
    scores = [score(state, p) for p in range(len(state.players))]
    best = [p for p, s in enumerate(scores) if s == max(scores)]
    if state.rules.tie == "floors":
        most = max(sum(state.players[p].hand.values()) for p in best)
        best = [p for p in best if sum(state.players[p].hand.values()) == most]
    return best

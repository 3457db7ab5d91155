"""Materials deck and the numbers of the game (supplies, tracks, stars, cone, chips), from content.

The published game's exact numbers are not public, so every one of them lives in
`content/towerup/*.yaml` where a designer can change it; this module only reads and checks them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tower_print.content import Node, load_yaml

WILD = "wild"
MOVE = "move "
CARDS_IN_DECK = 44
TIES = ("share", "floors")


@dataclass(frozen=True)
class Card:
    """Items in printed order: a colour (one floor), "wild" (a floor of any colour), or
    "move C" (advance vehicle C one space)."""

    index: int
    items: tuple[str, ...]

    @property
    def floors(self) -> tuple[str, ...]:
        return tuple(i for i in self.items if not i.startswith(MOVE))

    @property
    def moves(self) -> tuple[str, ...]:
        return tuple(i[len(MOVE):] for i in self.items if i.startswith(MOVE))


@dataclass(frozen=True)
class Rules:
    colours: tuple[str, ...]
    floors_per_colour: int
    roofs_per_player: int
    hand_limit: int
    starting_floors: int
    market_size: int
    tie: str
    tracks: dict[str, tuple[int, ...]]  # colour -> points on each space (index 0 = start)
    star_columns: tuple[int, ...]
    cone: tuple[int, ...]  # points for 0, 1, ... visible roofs; more count as the last
    chips: tuple[int, ...]
    chips_per_players: dict[int, int]
    deck: tuple[Card, ...]

    @property
    def max_card_floors(self) -> int:
        return max(len(c.floors) for c in self.deck)

    def chip_values(self, players: int) -> tuple[int, ...]:
        return self.chips[:self.chips_per_players[players]]

    def cone_points(self, visible: int) -> int:
        return self.cone[min(visible, len(self.cone) - 1)]


def load_rules(rules_path: Path, deck_path: Path) -> Rules:
    root = load_yaml(rules_path)
    root.only_keys("colours", "floors_per_colour", "roofs_per_player", "hand_limit",
                   "starting_floors", "market_size", "tie", "tracks", "star_columns", "cone",
                   "chips", "chips_per_players")
    colours = tuple(c.str() for c in root["colours"].items())
    if len(set(colours)) != len(colours) or len(colours) < 2:
        raise root["colours"].error("expected at least two different colours")
    tracks_node = root["tracks"]
    tracks: dict[str, tuple[int, ...]] = {}
    for colour, track in tracks_node.as_mapping().items():
        if colour not in colours:
            raise track.error(f"unknown colour '{colour}'")
        tracks[colour] = tuple(p.int(0) for p in track.items())
        if len(tracks[colour]) < 2:
            raise track.error("a track needs at least two spaces")
    for colour in colours:
        if colour not in tracks:
            raise tracks_node.error(f"no track for colour '{colour}'")
    stars = tuple(s.int(1) for s in root["star_columns"].items())
    shortest = min(len(t) for t in tracks.values())
    if list(stars) != sorted(set(stars)) or (stars and stars[-1] >= shortest):
        raise root["star_columns"].error(
            f"expected increasing spaces below the shortest track's length {shortest}")
    chips = tuple(c.int(1) for c in root["chips"].items())
    if not chips or list(chips) != sorted(chips, reverse=True):
        raise root["chips"].error("expected chip values, highest first (it is taken first)")
    cone = tuple(c.int(0) for c in root["cone"].items())
    if len(cone) < 2 or list(cone) != sorted(cone):
        raise root["cone"].error("expected points for 0, 1, 2, ... visible roofs, never falling")
    per_players: dict[int, int] = {}
    for key, node in root["chips_per_players"].as_mapping().items():
        if not key.isdigit() or not 2 <= int(key) <= 4:
            raise node.error("expected a player count 2-4")
        per_players[int(key)] = node.int(1, len(chips))
    for players in (2, 3, 4):
        if players not in per_players:
            raise root["chips_per_players"].error(f"no chip count for {players} players")
    return Rules(
        colours=colours,
        floors_per_colour=root["floors_per_colour"].int(1),
        roofs_per_player=root["roofs_per_player"].int(1),
        hand_limit=root["hand_limit"].int(1),
        starting_floors=root["starting_floors"].int(0),
        market_size=root["market_size"].int(1, 10),
        tie=root["tie"].choice(TIES),
        tracks=tracks,
        star_columns=stars,
        cone=cone,
        chips=chips,
        chips_per_players=per_players,
        deck=_load_deck(deck_path, colours),
    )


def _load_deck(path: Path, colours: tuple[str, ...]) -> tuple[Card, ...]:
    root = load_yaml(path)
    root.only_keys("cards")
    cards = [_card(i, node, colours) for i, node in enumerate(root["cards"].items())]
    if len(cards) != CARDS_IN_DECK:
        raise root["cards"].error(f"{len(cards)} cards (expected {CARDS_IN_DECK})")
    return tuple(cards)


def _card(index: int, node: Node, colours: tuple[str, ...]) -> Card:
    items = tuple(i.str() for i in node.items())
    if not 2 <= len(items) <= 4:
        raise node.error(f"{len(items)} items (expected 2-4)")
    known = set(colours) | {WILD} | {MOVE + c for c in colours}
    for item_node, item in zip(node.items(), items, strict=True):
        if item not in known:
            raise item_node.error(f"'{item}' is not a colour, 'wild' or 'move COLOUR'")
    if items[0] not in colours:
        raise node.error("the first item must be a floor of a colour (it colours a start site)")
    return Card(index, items)

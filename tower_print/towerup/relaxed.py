"""The relaxed game behind "minimum turns": its definition, and a plain-Python replay of it.

For one player ("me") on a side with `players` players in all, a play is: colours for the start
buildings (any), then a sequence of builds, each by me or by an opponent. Every build starts a
building on an empty site next to a building, in a colour none of its built neighbours has, and
adds one floor to each built neighbour (the payment); my builds put my roof on the new building or
on a neighbour just paid. Floors of a colour on the board never exceed the supply; I place at most
`roofs_per_player` roofs. My turns are my builds plus my take-card turns, and the take-card turns
are the fewest that could bring the floors I placed: each card brings at most `max_card_floors`
floors of any colours I like, after the `starting_floors` of each colour (market luck and the hand
limit are relaxed away). Opponents' builds are free for me but bounded by their turns: at most
(players - 1) x (my turns + 1 + number of star columns), since each opponent gets at most one turn
between two of mine plus at most one extra turn per star column.

Every real game is such a play, so the minimum over plays is a lower bound on the turns in which
any real game can meet an objective, and "no play meets it" proves it can never be met. The Z3
model (model.py) searches plays; `replay` checks a play it returns, independently of Z3.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from tower_print.towerup.board import Side
from tower_print.towerup.components import Rules
from tower_print.towerup.objectives import Objective, RoofFact, Vocabulary, holds


@dataclass(frozen=True)
class Step:
    site: str
    colour: str
    roof: str | None  # where my roof went; None for an opponent's build

    @property
    def mine(self) -> bool:
        return self.roof is not None


@dataclass(frozen=True)
class Play:
    start: tuple[tuple[str, str], ...]  # (start site, colour)
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class Outcome:
    """What a play leads to: my roofs, my floors by colour, and the turns it costs me."""

    roofs: tuple[RoofFact, ...]
    placed: dict[str, int]  # floors I placed, by colour
    my_builds: int
    takes: int
    turns: int
    problems: tuple[str, ...]  # rule breaks; empty for a legal play


def takes_needed(placed: Counter[str], rules: Rules) -> int:
    """Fewest take-card turns that could supply the floors I placed."""
    extra = sum(max(0, n - rules.starting_floors) for n in placed.values())
    return -(-extra // rules.max_card_floors)


def opponent_limit(players: int, turns: int, rules: Rules) -> int:
    return (players - 1) * (turns + 1 + len(rules.star_columns))


def replay(side: Side, rules: Rules, players: int, play: Play) -> Outcome:
    """Play the builds in order and report the result, with every rule a step breaks."""
    problems: list[str] = []
    colour: dict[str, str] = {}
    height: dict[str, int] = {}
    roofs: list[tuple[str, int]] = []  # (site, floor number)
    placed: Counter[str] = Counter()
    for site, c in play.start:
        if site not in side.start_sites:
            problems.append(f"{site} is not a start site")
        colour[site], height[site] = c, 1
    for k, step in enumerate(play.steps, 1):
        paid = [n for n in side.neighbours.get(step.site, ()) if n in colour]
        if step.site in colour or step.site not in side.neighbours:
            problems.append(f"step {k}: {step.site} is built or unknown")
        if not paid:
            problems.append(f"step {k}: {step.site} is not next to a building")
        if any(colour[n] == step.colour for n in paid):
            problems.append(f"step {k}: {step.colour} next to {step.colour}")
        bad_roof = step.mine and step.roof != step.site and step.roof not in paid
        if bad_roof:
            problems.append(f"step {k}: roof on {step.roof}, not on a floor just placed")
        for n in paid:
            height[n] += 1
        colour[step.site], height[step.site] = step.colour, 1
        if step.mine and not bad_roof:
            placed[step.colour] += 1
            placed.update(colour[n] for n in paid)
            roofs.append((step.roof, height[step.roof]))  # type: ignore[arg-type]
    on_board: Counter[str] = Counter()
    for site, c in colour.items():
        on_board[c] += height[site]
    if any(n > rules.floors_per_colour for n in on_board.values()):
        problems.append("more floors of a colour than the supply")
    mine = sum(1 for s in play.steps if s.mine)
    if mine > rules.roofs_per_player:
        problems.append(f"{mine} roofs placed, only {rules.roofs_per_player} owned")
    takes = takes_needed(placed, rules)
    others = len(play.steps) - mine
    turns = mine + takes
    if players == 1 and others:
        problems.append("opponents' builds in a one-player play")
    elif players > 1:
        # Wasted take turns give opponents time: my turns are at least what their builds need.
        turns = max(turns, -(-others // (players - 1)) - 1 - len(rules.star_columns))
    facts = tuple(RoofFact(site, colour[site], side.district_of[site], height[site],
                           level == height[site]) for site, level in roofs)
    return Outcome(facts, dict(placed), mine, turns - mine, turns, tuple(problems))


def meets(outcome: Outcome, objectives: list[Objective], words: Vocabulary, side: Side) -> bool:
    return all(holds(o, outcome.roofs, words, side.neighbours) for o in objectives)

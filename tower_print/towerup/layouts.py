"""Objective layouts proven achievable, and single objectives checked, with printable reports.

A layout is three objective cards one player can meet together on the side in play (the Z3
model on the relaxed game), whose minimum turns differ: one quick, one middling, one slow.
Cards are tried in a seeded order, so the same seed always gives the same layout.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tower_print.content import UserError
from tower_print.towerup.board import Side
from tower_print.towerup.game import Content
from tower_print.towerup.model import ACHIEVABLE, UNKNOWN, Verdict, min_turns
from tower_print.towerup.objectives import Objective, ObjectiveCard, parse
from tower_print.towerup.relaxed import Play

DIFFICULTY = ("quick", "middling", "slow")  # the layout's cards, fewest minimum turns first
LAYOUT_SIZE = len(DIFFICULTY)
JOINT_BUDGET = 1.0  # seconds to look for the three cards' joint minimum once a play is found


@dataclass(frozen=True)
class Rated:
    card: ObjectiveCard
    verdict: Verdict


@dataclass(frozen=True)
class Layout:
    side: str
    players: int
    seed: int
    rated: tuple[Rated, ...]  # easiest first
    joint: Verdict  # a play meeting all three at once
    joint_is_minimum: bool  # else the play's turns are only an upper bound


def game_side(content: Content, side: str, players: int, alone_ok: bool = False) -> Side:
    chosen = content.board.side(side)
    allowed = ((1,) if alone_ok else ()) + chosen.players
    if players not in allowed:
        raise UserError(f"--players: the {side} side is for "
                        f"{' or '.join(map(str, allowed))} players, not {players}")
    return chosen


def draw_layout(content: Content, side: str, players: int, seed: int,
                timeout: float = 60.0) -> Layout | None:
    """Cards in a seeded order, each kept when its minimum turns differ from those kept so far,
    until three are kept that one play meets together (a kept card that spoils the joint check is
    dropped again); None when the cards run out. The three's joint minimum is looked for within
    JOINT_BUDGET seconds."""
    board_side = game_side(content, side, players)
    cards = [c for c in content.cards if not c.starting]
    random.Random(f"{seed}-{side}-{players}").shuffle(cards)
    kept: list[Rated] = []
    for card in cards:
        verdict = min_turns(board_side, content.rules, content.words, [card.objective], players,
                            timeout, seed)
        if verdict.status != ACHIEVABLE or verdict.turns in {r.verdict.turns for r in kept}:
            continue
        kept.append(Rated(card, verdict))
        if len(kept) < LAYOUT_SIZE:
            continue
        joint = min_turns(board_side, content.rules, content.words,
                          [r.card.objective for r in kept], players, timeout, seed,
                          minimise=False)
        if joint.status == ACHIEVABLE:
            rated = tuple(sorted(kept, key=lambda r: r.verdict.turns or 0))
            fewest = min_turns(board_side, content.rules, content.words,
                               [r.card.objective for r in rated], players,
                               min(JOINT_BUDGET, timeout), seed, at_least=rated[-1].verdict.turns)
            if fewest.status == ACHIEVABLE:
                return Layout(side, players, seed, rated, fewest, True)
            return Layout(side, players, seed, rated, joint, False)
        kept.pop()
    return None


def check_objective(content: Content, text: str, side: str, players: int | None,
                    timeout: float) -> tuple[Objective, Verdict, int]:
    """Parse a user's objective and decide it; players defaults to the side's fewest."""
    chosen = content.board.side(side)
    count = min(chosen.players) if players is None else players
    board_side = game_side(content, side, count, alone_ok=True)
    objective = parse(text, content.words)
    return objective, min_turns(board_side, content.rules, content.words, [objective], count,
                                timeout), count


def play_lines(play: Play, verdict: Verdict) -> list[str]:
    """A witness play as numbered steps a person can follow on the board."""
    lines = ["start buildings: " + ", ".join(f"{s} {c}" for s, c in play.start)]
    for k, step in enumerate(play.steps, 1):
        if step.mine:
            lines.append(f"{k}. you build {step.site} {step.colour}, roof on {step.roof}")
        else:
            lines.append(f"{k}. an opponent builds {step.site} {step.colour}")
    outcome = verdict.outcome
    if outcome is not None:
        floors = ", ".join(f"{n} {c}" for c, n in sorted(outcome.placed.items()))
        lines.append(f"your turns: {plural(outcome.my_builds, 'build')} + "
                     f"{plural(outcome.takes, 'take-card turn')} (floors placed: {floors})")
    return lines


def play_json(play: Play, verdict: Verdict) -> dict:
    outcome = verdict.outcome
    return {
        "start": [{"site": s, "colour": c} for s, c in play.start],
        "steps": [{"site": s.site, "colour": s.colour, "by": "you" if s.mine else "opponent",
                   "roof": s.roof} for s in play.steps],
        "builds": outcome.my_builds if outcome else None,
        "take_card_turns": outcome.takes if outcome else None,
        "floors_placed": outcome.placed if outcome else None,
    }


def verdict_json(verdict: Verdict) -> dict:
    found = verdict.play is not None
    return {"status": verdict.status, "min_turns": verdict.turns,
            "play": play_json(verdict.play, verdict) if found else None}  # type: ignore[arg-type]


def layout_json(layout: Layout) -> dict:
    return {
        "side": layout.side, "players": layout.players, "seed": layout.seed,
        "objectives": [{"id": r.card.id, "title": r.card.title, "text": r.card.text,
                        "formal": r.card.objective.text(), "difficulty": level,
                        **verdict_json(r.verdict)}
                       for r, level in zip(layout.rated, DIFFICULTY, strict=True)],
        "together": {"status": layout.joint.status, "turns": layout.joint.turns,
                     "minimum": layout.joint_is_minimum,
                     "play": play_json(layout.joint.play, layout.joint)},  # type: ignore[arg-type]
    }


def layout_text(layout: Layout) -> str:
    lines = [f"Objective layout for the {layout.side} side, {layout.players} players, "
             f"seed {layout.seed} (minimum turns for one player; README: Tower Up)"]
    for r, level in zip(layout.rated, DIFFICULTY, strict=True):
        lines.append(f"\n{r.card.id} {r.card.title} ({level}): {r.card.text}")
        lines.append(f"  formal: {r.card.objective.text()}")
        lines.append(f"  minimum turns: {r.verdict.turns}")
        lines += ["  " + line for line in play_lines(r.verdict.play, r.verdict)]  # type: ignore
    if layout.joint_is_minimum:
        lines.append(f"\nAll three at the same moment: minimum turns {layout.joint.turns}")
    else:
        lines.append(f"\nAll three at the same moment: achievable, in {layout.joint.turns} turns "
                     f"by the play found (the minimum was not found within {JOINT_BUDGET:g} s)")
    return "\n".join(lines)


def check_text(objective: Objective, verdict: Verdict, side: str, players: int) -> str:
    who = "alone on the board" if players == 1 else f"in a {players}-player game"
    head = f"{objective.text()} ({side} side, one player {who})"
    if verdict.status == ACHIEVABLE:
        lines = [f"achievable: {head}", f"minimum turns: {verdict.turns}"]
        return "\n".join(lines + play_lines(verdict.play, verdict))  # type: ignore[arg-type]
    if verdict.status == UNKNOWN:
        return f"unknown: {head}: no answer within the time limit"
    return f"impossible: {head}: no sequence of builds meets it"


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


SPELLED = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
           "eleven", "twelve")


def spelled(count: int) -> str:
    """A small number in words, as running text writes it ("ten floors"); digits above twelve."""
    return SPELLED[count] if 0 <= count < len(SPELLED) else str(count)

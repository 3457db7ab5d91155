"""`tower-print brix verify`: which conditions are asked about, and how the verdict is told.

Kept apart from the CLI so tests and the benchmark use exactly what users run.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tower_print.brix.bricks import BrickSet
from tower_print.brix.challenges import Challenge, RoundVerdict, challenge_items
from tower_print.brix.conflicts import known_conflicts, known_towers
from tower_print.brix.decks import DECK_NAMES, Deck, load_deck, shipped_deck
from tower_print.brix.difficulty import Difficulty, pool
from tower_print.brix.geometry import PlacedBrick
from tower_print.brix.language import ConditionSyntaxError, parse
from tower_print.brix.shape_library import shape_library
from tower_print.brix.solver import SOLVABLE, UNSOLVABLE, Labeled, TowerSolver, Verdict
from tower_print.content import UserError

EXIT_CODES = {SOLVABLE: 0, UNSOLVABLE: 1, "unknown": 3}

LATTICE_NOTE = (
    "no tower with bricks square to the table and to each other meets them "
    "(the model does not lean bricks at an angle)"
)


def open_deck(name_or_path: str) -> Deck:
    """A shipped deck by name, or a deck file the user wrote."""
    if name_or_path in DECK_NAMES:
        return shipped_deck(name_or_path)
    path = Path(name_or_path)
    if path.suffix in (".yaml", ".yml"):
        if not path.is_file():
            raise UserError(f"{path}: deck file not found")
        return load_deck(path)
    raise UserError(
        f"--deck: unknown deck '{name_or_path}' (expected {', '.join(DECK_NAMES)} or a .yaml file)"
    )


def verify_solver(deck: Deck, seed: int) -> TowerSolver:
    """The solver `brix verify` asks, with the measured difficulty's pool of random standing
    towers (read for the difficulty anyway): a set one of them meets is answered at once; with
    the shipped shape library for the deck's bricks, when there is one; and with the deck's
    known conflicts and the towers its audits met, when it has them."""
    return TowerSolver(deck.bricks, deck.all_used, seed=seed, pool=pool(deck.bricks, deck.all_used),
                       library=shape_library(deck.bricks, deck.all_used),
                       conflicts=known_conflicts(deck), known_towers=known_towers(deck))


def conditions_to_check(
    deck: Deck, card_ids: Sequence[str], texts: Sequence[str]
) -> list[Labeled]:
    """Cards by id, then free-text conditions labelled C1, C2, ... in the order given."""
    items = [card.item() for card in map(deck.card, card_ids)]
    for k, text in enumerate(texts, start=1):
        try:
            condition = parse(text, deck.bricks.color_names)
        except ConditionSyntaxError as error:
            raise UserError(f"--condition {k}: {error}") from None
        items.append(Labeled(f"C{k}", text, condition))
    labels = [item.label for item in items]
    repeated = sorted({label for label in labels if labels.count(label) > 1})
    if repeated:
        raise UserError(f"card {repeated[0]} is given twice")
    if not items:
        raise UserError("nothing to verify: give card ids or --condition TEXT")
    return items


def orientation(brick: PlacedBrick, brick_set: BrickSet) -> str:
    if brick_set.is_vertical((brick.dx, brick.dy, brick.dz)):
        return "upright"
    return "flat along x" if brick.dx >= brick.dy else "flat along y"


def building_steps(tower: Sequence[PlacedBrick], brick_set: BrickSet) -> list[str]:
    """Bottom to top, one line per brick, positions in lattice units from the tower's corner."""
    lines = []
    for brick in sorted(tower, key=lambda b: (b.z, b.x, b.y, b.name)):
        where = "on the table" if brick.z == 0 else f"at height {brick.z}"
        lines.append(
            f"{brick.name:<9} {orientation(brick, brick_set):<13} "
            f"x={brick.x:<2} y={brick.y:<2} {where}"
        )
    return lines


def verdict_json(verdict: Verdict, items: Sequence[Labeled], deck: Deck) -> dict[str, Any]:
    return {
        "status": verdict.status,
        "deck": deck.name,
        "cards": [{"label": it.label, "text": it.text} for it in items],
        "tower": None if verdict.tower is None else {
            "unit_mm": deck.bricks.unit_mm,
            "bricks": [b.as_json() for b in verdict.tower],
        },
        "conflict": None if verdict.conflict is None else list(verdict.conflict),
        "conflict_minimal": verdict.conflict_minimal if verdict.conflict is not None else None,
        "seconds": round(verdict.seconds, 3),
    }


def verdict_text(verdict: Verdict, items: Sequence[Labeled], deck: Deck) -> str:
    labels = " + ".join(it.label for it in items)
    took = f"{verdict.seconds:.1f} s"
    if verdict.status == SOLVABLE and verdict.tower is not None:
        lines = [f"solvable: {labels} ({took}); a tower that does it, checked independently:"]
        lines += ["  " + line for line in building_steps(verdict.tower, deck.bricks)]
        unit = deck.bricks.unit_mm
        lines.append(f"  (1 unit = {unit:g} mm; a brick is {deck.bricks.length} units long)")
        return "\n".join(lines)
    if verdict.status == UNSOLVABLE:
        conflict = verdict.conflict or ()
        texts = {it.label: it.text for it in items}
        minimal = "" if verdict.conflict_minimal else " (time ran out before this was minimal)"
        lines = [f"unsolvable: {labels} ({took}); these contradict each other{minimal}:"]
        lines += [f"  {label}: {texts[label]}" for label in conflict]
        if not conflict:
            lines.append("  (no card needed: the brick rules alone cannot be met)")
        lines.append(f"  {LATTICE_NOTE}")
        return "\n".join(lines)
    return (f"unknown: {labels}: no answer within the time limit (stopped after {took})"
            f"{falling_note(verdict.candidates)}; a longer --timeout may settle it")


def falling_note(falling: int) -> str:
    """What an undecided question's search got to: Z3's candidates meet every card by the
    model, so when there were some, only standing is in doubt (a designer's cue that the cards
    ask for a precarious tower, not an impossible arrangement)."""
    if not falling:
        return ""
    towers = "tower" if falling == 1 else "towers"
    return (f"; Z3 found {falling} {towers} meeting every card, and every one falls, so what is "
            "in doubt is whether any such tower stands")


def challenges_json(challenges: Sequence[Challenge]) -> list[dict[str, Any]]:
    return [{"name": c.name, "text": c.text, "condition": c.source, "may_drop": c.drop}
            for c in challenges]


def round_json(
    decided: RoundVerdict, cards: Sequence[Labeled], challenges: Sequence[Challenge],
    deck: Deck, difficulty: Difficulty | None,
) -> dict[str, Any]:
    """`verdict_json` (same keys) plus "challenges", "dropped" (the card set aside, or null),
    "notes" and "difficulty" (null when not measured)."""
    out = verdict_json(decided.verdict, cards, deck)
    out["challenges"] = challenges_json(challenges)
    out["dropped"] = decided.dropped
    out["notes"] = [*decided.verdict.notes, *decided.notes]
    out["difficulty"] = None if difficulty is None else difficulty.as_json()
    return out


def round_text(
    decided: RoundVerdict, cards: Sequence[Labeled], challenges: Sequence[Challenge],
    deck: Deck, difficulty: Difficulty | None,
) -> str:
    """`verdict_text` for the cards and challenges, then the card set aside, notes and the
    measured difficulty."""
    lines = [verdict_text(decided.verdict, [*cards, *challenge_items(challenges)], deck)]
    for challenge in challenges:
        lines.append(f"  challenge {challenge.name}: {challenge.text}")
    if decided.dropped is not None:
        text = next(c.text for c in cards if c.label == decided.dropped)
        lines.append(f"  set aside (the challenge allows one): {decided.dropped}: {text}")
    lines += [f"  note: {note}" for note in (*decided.verdict.notes, *decided.notes)]
    if difficulty is not None:
        lines.append(f"  {difficulty.text()}")
    return "\n".join(lines)

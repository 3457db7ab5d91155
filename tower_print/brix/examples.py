"""One example tower per condition card, kept as generated data in content/brix/examples/.

The card faces show a tower that meets the card. Finding one can take the solver seconds per card,
far too slow for printing, so `tower-print brix examples` finds them once and stores them: first
among seeded random standing towers (`sampling`), preferring the ones that draw largest in a
card's sketch box (low, compact towers with few bricks), and only for cards no sample meets, with
the Z3 solver. Printing re-checks every stored tower with the independent checker (geometry,
stability, the deck's brick rule and the card's condition), which is cheap; a missing or stale
example stops printing with the command that makes it again.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from tower_print.brix.bricks import BrickSet
from tower_print.brix.checker import problems
from tower_print.brix.decks import DECK_NAMES, Card, Deck, shipped_deck
from tower_print.brix.evaluate import Evaluator, holds
from tower_print.brix.geometry import PlacedBrick, normalized
from tower_print.brix.language import Condition, Quantified
from tower_print.brix.sampling import sample_towers
from tower_print.brix.stored_towers import named_bricks
from tower_print.content import Node, UserError, content_root, load_yaml
from tower_print.render.scene import write_atomic

Tower = tuple[PlacedBrick, ...]
SKETCH_ASPECT = 4 / 3  # width / height of the box a card gives its sketch (about 53 x 40 mm)
DEFAULT_SAMPLES = 1500
_COS30 = math.sqrt(3.0) / 2.0


def examples_path(deck_name: str) -> Path:
    return content_root() / "brix" / "examples" / f"{deck_name}.yaml"


def regenerate_hint(deck_ref: str) -> str:
    """`deck_ref`: a shipped deck's name or the path of a deck file."""
    return f"run `tower-print brix examples --deck {deck_ref}` to make them again"


def examples_beside(deck_file: Path) -> Path:
    """Where a deck file's example towers live: beside it, `NAME.yaml` -> `NAME.examples.yaml`."""
    return deck_file.with_name(f"{deck_file.stem}.examples.yaml")


@dataclass(frozen=True)
class DeckSource:
    """A deck to print, where its example towers are (None: the shipped ones) and how the user
    named it (for the hint to make the examples again)."""

    deck: Deck
    examples: Path | None = None
    ref: str | None = None


def deck_source(name: str) -> DeckSource:
    """A shipped deck by name, or a deck file with its examples beside it (`examples_beside`)."""
    if name in DECK_NAMES:
        return DeckSource(shipped_deck(name))
    from tower_print.brix.verify import open_deck

    return DeckSource(open_deck(name), examples_beside(Path(name)), name)


@dataclass(frozen=True)
class Example:
    card_id: str
    condition: str  # the card's condition as written when the tower was found
    tower: Tower
    line: int


def drawn_size(tower: Tower, aspect: float = SKETCH_ASPECT) -> float:
    """How large the tower's isometric drawing can be in a box of this aspect: the lattice
    span that limits it (smaller means the bricks are drawn bigger on the card)."""
    us: list[float] = []
    vs: list[float] = []
    for b in tower:
        for x in (b.x, b.x + b.dx):
            for y in (b.y, b.y + b.dy):
                for z in (b.z, b.z + b.dz):
                    us.append((x - y) * _COS30)
                    vs.append((x + y) * 0.5 - z)
    span_u, span_v = max(us) - min(us), max(vs) - min(vs)
    return max(span_u / aspect, span_v)


def vacuous_clauses(condition: Condition, tower: Tower, brick_set: BrickSet) -> int:
    """Clauses met only because nothing they speak of is there ("every upright brick ..." in
    a tower with no upright brick): true, but a poor picture of the card."""
    evaluator = Evaluator(tower, brick_set)
    return sum(1 for clause in condition.clauses
               if isinstance(clause, Quantified) and not evaluator.select(clause.subject))


def nicest(towers: Sequence[Tower], condition: Condition, brick_set: BrickSet,
           used: set[Tower] | frozenset[Tower] = frozenset()) -> Tower:
    """The best picture of `condition` among `towers` (all meeting it): no clause met only
    vacuously, not drawn on another card already, then drawn largest; ties: fewer bricks,
    lower, earlier."""
    def key(item: tuple[int, Tower]) -> tuple[int, bool, float, int, int, int]:
        index, tower = item
        return (vacuous_clauses(condition, tower, brick_set), _canonical(tower) in used,
                round(drawn_size(tower), 6), len(tower), max(b.top for b in tower), index)

    return min(enumerate(towers), key=key)[1]


def _canonical(tower: Tower) -> Tower:
    """Shifted to the origin and sorted bottom-up, bricks named colour-1, colour-2, ... in
    that order, so the stored form depends only on the shape."""
    ordered = sorted(normalized(tower), key=lambda b: (b.z, b.y, b.x, b.color, b.dx, b.dy, b.dz))
    counts: dict[str, int] = {}
    out = []
    for b in ordered:
        counts[b.color] = counts.get(b.color, 0) + 1
        out.append(PlacedBrick(f"{b.color}-{counts[b.color]}", b.color, b.x, b.y, b.z,
                               b.dx, b.dy, b.dz))
    return tuple(out)


def find_examples(
    deck: Deck, seed: int = 0, samples: int = DEFAULT_SAMPLES, timeout: float = 60.0,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Tower]:
    """An example tower for every card of `deck`: the nicest sampled tower that meets it, or
    the solver's. Raises UserError naming the card when neither finds one."""
    say = progress or (lambda _: None)
    say(f"sampling {samples} standing towers (seed {seed})")
    towers = sample_towers(deck.bricks, deck.all_used, samples, seed)
    found: dict[str, Tower] = {}
    used: set[Tower] = set()
    missing: list[Card] = []
    for card in deck.cards:
        meeting = [t for t in towers if holds(card.condition, t, deck.bricks)]
        if meeting:
            found[card.id] = _canonical(nicest(meeting, card.condition, deck.bricks, used))
            used.add(found[card.id])
        else:
            missing.append(card)
    if missing:
        from tower_print.brix.solver import SOLVABLE, TowerSolver

        solver = TowerSolver(deck.bricks, deck.all_used, seed=seed)
        for card in missing:
            say(f"{card.id}: no sampled tower meets it, asking the solver")
            verdict = solver.verify([card.item()], timeout)
            if verdict.status != SOLVABLE or verdict.tower is None:
                raise UserError(
                    f"deck {deck.name}: card {card.id}: no example tower found "
                    f"({verdict.status} after {verdict.seconds:.1f} s); try a longer --timeout"
                )
            found[card.id] = _canonical(verdict.tower)
    for card in deck.cards:  # the same independent check printing does
        wrong = problems(found[card.id], deck.bricks, deck.all_used, [(card.id, card.condition)])
        if wrong:
            raise AssertionError(f"example for {card.id} fails the checker: {'; '.join(wrong)}")
    return found


def examples_yaml(deck: Deck, towers: dict[str, Tower], seed: int, samples: int,
                  deck_ref: str | None = None) -> str:
    lines = [
        f"# Example towers for the {deck.name} deck's card faces: generated data, do not edit.",
        f"# Made by: tower-print brix examples --deck {deck_ref or deck.name} --seed {seed} "
        f"--samples {samples}",
        "# Each brick: [colour, x, y, z, dx, dy, dz] in lattice units (content/brix/bricks.yaml),",
        "# z up, z = 0 the table. `condition` is the card's condition the tower was found for;",
        "# printing re-checks every tower and refuses a stale one.",
        f"deck: {deck.name}",
        "examples:",
    ]
    for card in deck.cards:
        lines.append(f"  {card.id}:")
        lines.append(f"    condition: {yaml.safe_dump(card.source, width=1000).splitlines()[0]}")
        lines.append("    bricks:")
        for b in towers[card.id]:
            lines.append(f"      - [{b.color}, {b.x}, {b.y}, {b.z}, {b.dx}, {b.dy}, {b.dz}]")
    return "\n".join(lines) + "\n"


def write_examples(deck: Deck, towers: dict[str, Tower], seed: int, samples: int,
                   path: Path | None = None, deck_ref: str | None = None) -> Path:
    target = path or examples_path(deck.name)
    target.parent.mkdir(parents=True, exist_ok=True)
    text = examples_yaml(deck, towers, seed, samples, deck_ref)
    return write_atomic(target, text.encode("utf-8"))


def load_examples(
    deck: Deck, path: Path | None = None, deck_ref: str | None = None
) -> dict[str, Example]:
    """The stored examples, validated for shape (file, line and field in every error)."""
    path = path or examples_path(deck.name)
    if not path.is_file():
        raise UserError(f"{path}: no example towers for the {deck.name} deck; "
                        + regenerate_hint(deck_ref or deck.name))
    root = load_yaml(path)
    root.only_keys("deck", "examples")
    if root["deck"].str() != deck.name:
        raise root["deck"].error(f"examples are for deck '{root['deck'].value}', "
                                 f"not '{deck.name}'")
    colors = deck.bricks.color_names
    out: dict[str, Example] = {}
    for card_id, node in root["examples"].as_mapping().items():
        node.only_keys("condition", "bricks")
        out[str(card_id)] = Example(str(card_id), node["condition"].str(),
                                    tower_from_yaml(node["bricks"], colors), node.line)
    return out


def checked_examples(
    deck: Deck, path: Path | None = None, deck_ref: str | None = None
) -> dict[str, Tower]:
    """Every card's example tower, each re-checked against the card as it is now. `deck_ref`
    names the deck in the hint to make them again (default: the deck's name)."""
    path = path or examples_path(deck.name)
    hint = regenerate_hint(deck_ref or deck.name)
    stored = load_examples(deck, path, deck_ref)
    towers: dict[str, Tower] = {}
    for card in deck.cards:
        example = stored.get(card.id)
        if example is None:
            raise UserError(f"{path}: no example tower for card {card.id}; "
                            + hint)
        where = f"{path}:{example.line}: examples.{card.id}"
        if example.condition != card.source:
            raise UserError(f"{where}: stale: made for condition '{example.condition}', the "
                            f"card now says '{card.source}'; " + hint)
        wrong = problems(example.tower, deck.bricks, deck.all_used, [(card.id, card.condition)])
        if wrong:
            raise UserError(f"{where}: the stored tower is no longer valid ({wrong[0]}); "
                            + hint)
        towers[card.id] = example.tower
    return towers


def tower_from_yaml(node: Node, colors: Sequence[str]) -> Tower:
    """A tower written as a list of [colour, x, y, z, dx, dy, dz] (`named_bricks`)."""
    rows = []
    for entry in node.items():
        values = list(entry.items())
        if len(values) != 7:
            raise entry.error("a brick is [colour, x, y, z, dx, dy, dz]")
        color = values[0].choice(colors)
        x, y, z, dx, dy, dz = (v.int(-1000, 1000) for v in values[1:])
        rows.append((color, x, y, z, dx, dy, dz))
    return named_bricks(rows)

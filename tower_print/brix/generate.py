"""`tower-print brix generate`: a new condition deck, built from the condition language's pieces.

Candidates are drawn at random from clause shapes (`content/brix/generate.yaml`) as trees of the
condition language (`language`), and kept only with proof:

- satisfiable alone: a random standing tower of the reference pool (`difficulty`) meets it, or,
  when none does, the solver builds one;
- not a tautology: a pool tower (legal and standing) violates it;
- not equivalent to a card kept before: a tower meeting one and not the other. The pool tells
  almost every pair apart; for the rest the solver is asked for a tower meeting one card and the
  negation of the other (`implications.meets_one_not_other`), both ways; "unsolvable" both ways
  proves them equivalent, and the candidate is dropped, as it is when the solver cannot decide
  in time;
- measured share of pool towers within the content's bounds (playable, worth a card).
- each clause of a two-clause card matters: neither decides the card alone on the pool.

Points follow measured difficulty: the `three_point` cards met by the fewest pool towers are worth
3 (`pricing`), so the audit's price check agrees with every generated card. The printed words come
from the Jinja2 template `templates/brix/card-text.j2`. Everything is drawn from one seeded
generator, and the pool is fixed by content, so the same seed gives the same deck (unless a
solver check ran out of time: then a note says so).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
import yaml

from tower_print.brix.bricks import BrickSet, default_bricks
from tower_print.brix.decks import Card, Deck
from tower_print.brix.difficulty import TowerPool, pool
from tower_print.brix.examples import (
    DEFAULT_SAMPLES,
    examples_beside,
    examples_yaml,
    find_examples,
)
from tower_print.brix.implications import meets_one_not_other
from tower_print.brix.language import (
    ADJECTIVES,
    RELATIONS,
    Clause,
    Colour,
    Compare,
    Condition,
    Count,
    Height,
    Not,
    Pred,
    Quant,
    Quantified,
    Related,
    Selector,
    Trait,
    describe,
    parse,
)
from tower_print.brix.pricing import points_by_rank
from tower_print.brix.solver import SOLVABLE, UNKNOWN, UNSOLVABLE, TowerSolver
from tower_print.content import Node, UserError, content_root, load_yaml
from tower_print.render.layout import environment
from tower_print.render.output import check_out_file, write_together

SHAPES = ("relation", "property", "neighbours", "count", "compare", "height")
NUMBER_KINDS = ("bricks", "related", "neighbours", "upright", "flat")
DECK_RULES = ("all", "subset")


# ------------------------------------------------------------------ content


@dataclass(frozen=True)
class RuleSpec:
    colors: tuple[str, ...]
    rule: str
    title: str


@dataclass(frozen=True)
class GenerateSpec:
    rules: dict[str, RuleSpec]
    id_prefix: str
    shapes: dict[str, float]
    two_clauses: float
    negated: float
    adjective: float
    relations: tuple[str, ...]
    traits: tuple[str, ...]
    numbers: dict[str, tuple[int, int]]
    share: tuple[float, float]
    attempts_per_card: int
    max_cards: int
    timeout: float


def _share(node: Node) -> float:
    return node.number(0.0, 1.0)


def load_spec(path: Path | None = None) -> GenerateSpec:
    path = path or content_root() / "brix" / "generate.yaml"
    root = load_yaml(path)
    root.only_keys("rules", "id_prefix", "shapes", "two_clauses", "negated", "adjective",
                   "relations", "traits", "numbers", "share", "attempts_per_card", "max_cards",
                   "timeout")
    colours = default_bricks().color_names
    rules = {}
    for name, node in root["rules"].as_mapping().items():
        if name not in DECK_RULES:
            raise node.error(f"unknown deck rule '{name}' (expected {', '.join(DECK_RULES)})")
        node.only_keys("colors", "rule", "title")
        rules[name] = RuleSpec(tuple(c.choice(colours) for c in node["colors"].items()),
                               node["rule"].choice(("all", "one of each colour")),
                               node["title"].str())
    shapes = {}
    for name, node in root["shapes"].as_mapping().items():
        if name not in SHAPES:
            raise node.error(f"unknown shape '{name}' (expected one of: {', '.join(SHAPES)})")
        shapes[name] = node.number(0.0, 1000.0)
    if not any(shapes.values()):
        raise root["shapes"].error("at least one shape needs a weight above 0")
    numbers = {}
    for kind in NUMBER_KINDS:
        low, high = (v.int(0, 50) for v in root["numbers"][kind].items())
        if low > high:
            raise root["numbers"][kind].error(f"empty range {low}..{high}")
        numbers[kind] = (low, high)
    share_low, share_high = (_share(v) for v in root["share"].items())
    if share_low >= share_high:
        raise root["share"].error("the lower bound must be below the upper one")
    return GenerateSpec(
        rules=rules, id_prefix=root["id_prefix"].str(), shapes=shapes,
        two_clauses=_share(root["two_clauses"]), negated=_share(root["negated"]),
        adjective=_share(root["adjective"]),
        relations=tuple(r.choice(RELATIONS) for r in root["relations"].items()),
        traits=tuple(t.choice(ADJECTIVES) for t in root["traits"].items()),
        numbers=numbers, share=(share_low, share_high),
        attempts_per_card=root["attempts_per_card"].int(1, 100_000),
        max_cards=root["max_cards"].int(1, 10_000),
        timeout=root["timeout"].number(0.1, 3600.0),
    )


@cache
def default_spec() -> GenerateSpec:
    return load_spec()


# ------------------------------------------------------------------ drawing conditions


class ConditionDrawer:
    """Random conditions from the shapes in the spec, over the deck's colours."""

    def __init__(self, spec: GenerateSpec, colours: Sequence[str], rng: random.Random) -> None:
        self.spec = spec
        self.colours = tuple(colours)
        self.rng = rng

    def condition(self) -> Condition:
        clauses = [self.clause()]
        if self.rng.random() < self.spec.two_clauses:
            clauses.append(self.clause())
        return Condition(tuple(clauses))

    def clause(self) -> Clause:
        names = [s for s in SHAPES if self.spec.shapes.get(s, 0) > 0]
        shape = self.rng.choices(names, weights=[self.spec.shapes[s] for s in names])[0]
        return getattr(self, f"_{shape}")()

    # -- pieces
    def _n(self, kind: str) -> int:
        return self.rng.randint(*self.spec.numbers[kind])

    def _quant(self, kinds: Sequence[str], numbers: str) -> Quant:
        kind = self.rng.choice(kinds)
        return Quant(kind, self._n(numbers) if kind not in ("every", "no", "some") else 0)

    def _trait(self, exclude: Sequence[str] = ()) -> str:
        return self.rng.choice([t for t in self.spec.traits if t not in exclude])

    def _subject(self, colour: str | None, adjective: bool) -> Selector:
        """[colour] [trait] brick(s); the trait only when `adjective` is set."""
        preds: list[Pred] = []
        if colour is not None:
            preds.append(Colour((colour,)))
        if adjective:
            preds.append(Trait(self._trait()))
        return Selector(tuple(preds))

    def _maybe_not(self, pred: Pred) -> Pred:
        return Not(pred) if self.rng.random() < self.spec.negated else pred

    def _adjective(self) -> bool:
        return self.rng.random() < self.spec.adjective

    # -- shapes
    def _relation(self) -> Quantified:
        first, second = self.rng.sample(self.colours, 2) if self.rng.random() < 0.8 else (
            [self.rng.choice(self.colours)] * 2)
        subject = self._subject(first, self._adjective())
        target = self._subject(second, self._adjective()) if self.rng.random() < 0.85 else (
            Selector((Trait(self._trait()),)))
        quant = self._quant(("every", "every", "no", "some", "at least", "exactly"), "related")
        # "no" inside reads well only after "each" ("each red brick touches no blue brick")
        inner = self._quant(("some", "some", "every", "at least")
                            + (("no",) if quant.kind == "every" else ()), "related")
        pred = Related(self.rng.choice(self.spec.relations), inner, target)
        if quant.kind in ("every", "some") and inner.kind == "some":
            return Quantified(quant, subject, self._maybe_not(pred))  # "does not touch any"
        return Quantified(quant, subject, pred)

    def _property(self) -> Quantified:
        quant = self._quant(("every", "every", "no", "some", "exactly", "at least", "at most"),
                            "related")
        if self.rng.random() < 0.6:
            subject = self._subject(self.rng.choice(self.colours), False)
            pred: Pred = Trait(self._trait())
        else:
            subject = Selector((Trait(self._trait()),))
            pred = Colour(tuple(self.rng.sample(self.colours, self.rng.choice((1, 1, 2)))))
        return Quantified(quant, subject, pred if quant.kind == "no" else self._maybe_not(pred))

    def _neighbours(self) -> Quantified:
        quant = self._quant(("some", "every", "no"), "related")
        colour = self.rng.choice(self.colours) if self.rng.random() < 0.5 else None
        inner = self._quant(("at least", "at most", "exactly"), "neighbours")
        return Quantified(quant, self._subject(colour, False),
                          Related("touches", inner, Selector()))

    def _count(self) -> Count:
        colour = self.rng.choice(self.colours) if self.rng.random() < 0.6 else None
        subject = self._subject(colour, colour is None or self._adjective())
        return Count(self._quant(("exactly", "at least", "at most", "no", "some"), "bricks"),
                     subject)

    def _compare(self) -> Compare:
        left, right = self.rng.sample(list(self.colours) + ["vertical", "horizontal",
                                                            "grounded"], 2)

        def selector(word: str) -> Selector:
            return Selector((Colour((word,)),) if word in self.colours else (Trait(word),))

        return Compare(selector(left), self.rng.choice(("more", "fewer", "as many")),
                       selector(right))

    def _height(self) -> Height:
        unit = self.rng.choice(("upright bricks", "flat bricks"))
        kind = self.rng.choice(("at least", "at most", "exactly"))
        return Height(Quant(kind, self._n("upright" if unit == "upright bricks" else "flat")),
                      unit)


# ------------------------------------------------------------------ card text


def may_be_one_brick(subject: Selector, target: Selector) -> bool:
    """Could one brick match both selectors? A brick is never related to itself, so the card
    then says "other": "a purple brick touches every other purple brick" (read without "other"
    it could not hold at all)."""

    def colours(sel: Selector) -> set[str] | None:
        allowed = [set(p.colours) for p in sel.preds if isinstance(p, Colour)]
        return set.intersection(*allowed) if allowed else None

    def orientations(sel: Selector) -> set[str]:
        return {p.name for p in sel.preds
                if isinstance(p, Trait) and p.name in ("vertical", "horizontal")}

    one, two = colours(subject), colours(target)
    if one is not None and two is not None and not one & two:
        return False
    return len(orientations(subject) | orientations(target)) < 2


def as_data(condition: Condition) -> list[dict[str, Any]]:
    """The condition as plain data for the card-text template."""

    def quant(q: Quant) -> dict[str, Any]:
        return {"kind": q.kind, "n": q.n}

    def selector(sel: Selector) -> dict[str, Any]:
        colour = next((p.colours[0] for p in sel.preds if isinstance(p, Colour)), None)
        traits = [p.name for p in sel.preds if isinstance(p, Trait) and p.name != "bridge"]
        that = next((p for p in sel.preds if isinstance(p, (Related, Not))), None)
        return {"colour": colour, "traits": traits,
                "bridge": any(isinstance(p, Trait) and p.name == "bridge" for p in sel.preds),
                "that": None if that is None else pred(that, sel)}

    def pred(p: Pred, subject: Selector) -> dict[str, Any]:
        if isinstance(p, Colour):
            return {"type": "colour", "colours": list(p.colours)}
        if isinstance(p, Trait):
            return {"type": "trait", "name": p.name}
        if isinstance(p, Not):
            return {"type": "not", "pred": pred(p.pred, subject)}
        return {"type": "related", "relation": p.relation, "quant": quant(p.quant),
                "target": selector(p.target), "other": may_be_one_brick(subject, p.target)}

    out = []
    for c in condition.clauses:
        if isinstance(c, Quantified):
            out.append({"type": "quantified", "quant": quant(c.quant),
                        "subject": selector(c.subject), "pred": pred(c.pred, c.subject)})
        elif isinstance(c, Count):
            out.append({"type": "count", "quant": quant(c.quant), "subject": selector(c.subject)})
        elif isinstance(c, Compare):
            out.append({"type": "compare", "left": selector(c.left), "op": c.op,
                        "right": selector(c.right)})
        else:
            out.append({"type": "height", "quant": quant(c.quant), "unit": c.unit})
    return out


def text_environment(templates: Path | None = None) -> jinja2.Environment:
    env = environment(templates)
    env.filters["first_upper"] = lambda s: s[:1].upper() + s[1:]
    return env


def card_text(condition: Condition, env: jinja2.Environment) -> str:
    source = describe(condition)
    words = env.get_template("brix/card-text.j2").render(
        clauses=as_data(condition),
        mentions_ties=bool(re.search(r"\b(highest|lowest)\b", source)),
    )
    return " ".join(words.split())


# ------------------------------------------------------------------ the deck


@dataclass
class GeneratedDeck:
    deck: Deck
    shares: dict[str, float]
    candidates: int
    solver_checks: int
    notes: list[str] = field(default_factory=list)


class DistinctProver:
    """Is a candidate different from a kept card? Pool towers first, the solver for the rest."""

    def __init__(self, bricks: BrickSet, all_used: bool, seed: int, timeout: float) -> None:
        self.solver = TowerSolver(bricks, all_used, seed=seed)
        self.timeout = timeout
        self.checks = 0

    def _meets_one_not_other(self, one: Condition, other: Condition) -> str:
        """SOLVABLE when a tower meets `one` and not `other`, UNSOLVABLE when none does."""
        status, checks = meets_one_not_other(self.solver, one, other, self.timeout)
        self.checks += checks
        return status

    def distinct(self, a: Condition, b: Condition) -> str:
        """SOLVABLE: proved different; UNSOLVABLE: proved equivalent; UNKNOWN: undecided."""
        first = self._meets_one_not_other(a, b)
        if first == SOLVABLE:
            return SOLVABLE
        second = self._meets_one_not_other(b, a)
        if second == SOLVABLE:
            return SOLVABLE
        return UNSOLVABLE if first == second == UNSOLVABLE else UNKNOWN


def _canonical(condition: Condition, colours: tuple[str, ...]) -> Condition | None:
    """The condition as the deck file will hold it, or None if its text does not read back
    as the same tree (then it cannot be stored faithfully)."""
    try:
        text = describe(condition)
        return condition if parse(text, colours) == condition else None
    except (ValueError, UserError):
        return None


def generate_deck(
    cards: int, three_point: int, seed: int, rule: str = "all", name: str = "generated",
    spec: GenerateSpec | None = None, templates: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> GeneratedDeck:
    """A deck of `cards` cards, `three_point` of them worth 3 points (see the module docstring).
    Raises UserError when the request cannot be met."""
    spec = spec or default_spec()
    if rule not in spec.rules:
        raise UserError(f"--deck-rule: '{rule}' is not one of: {', '.join(spec.rules)}")
    if cards < 1:
        raise UserError("--cards: a deck needs at least one card")
    if cards > spec.max_cards:
        raise UserError(f"--cards: {cards} is more than the {spec.max_cards} a generated deck "
                        "may have (max_cards in content/brix/generate.yaml)")
    if not 0 <= three_point <= cards:
        raise UserError(f"--three-point: {three_point} is not between 0 and --cards ({cards})")
    env = text_environment(templates)  # a wrong --templates stops before the tower pool
    chosen = spec.rules[rule]
    bricks = default_bricks().subset(chosen.colors)
    all_used = chosen.rule == "all"
    reference: TowerPool = pool(bricks, all_used)
    rng = random.Random(seed)
    drawer = ConditionDrawer(spec, chosen.colors, rng)
    prover = DistinctProver(bricks, all_used, seed, spec.timeout)
    kept: list[tuple[Condition, int]] = []  # (condition, pool mask)
    seen: set[str] = set()
    notes: list[str] = []
    candidates = 0
    share_low, share_high = spec.share
    samples = len(reference.towers)
    while len(kept) < cards:
        if candidates >= spec.attempts_per_card * cards:
            raise UserError(f"found only {len(kept)} of {cards} cards in {candidates} "
                            "candidates; ask for fewer cards or widen the building blocks in "
                            "content/brix/generate.yaml")
        candidates += 1
        condition = _canonical(drawer.condition(), chosen.colors)
        if condition is None or describe(condition) in seen:
            continue
        seen.add(describe(condition))
        mask = reference.mask(condition)
        share = mask.bit_count() / samples
        if mask in (0, reference.everyone) or not share_low <= share <= share_high:
            continue  # no sampled witness, no sampled violation, or outside the playable band
        if len(condition.clauses) > 1 and any(
                reference.mask(Condition((clause,))) == mask for clause in condition.clauses):
            continue  # one clause decides the card on every pool tower: the other reads as noise
        twins = [other for other, other_mask in kept if other_mask == mask]
        verdicts = [prover.distinct(condition, other) for other in twins]
        if UNKNOWN in verdicts:
            notes.append(f"dropped '{describe(condition)}': the solver could not tell it from a "
                         f"kept card within {spec.timeout:g} s (the same seed may give another "
                         "deck on a slower machine)")
        if any(v != SOLVABLE for v in verdicts):
            continue
        kept.append((condition, mask))
        if progress:
            progress(len(kept), candidates)
    shares = [mask.bit_count() / samples for _, mask in kept]
    points = points_by_rank(shares, three_point)
    order = sorted(range(len(kept)), key=lambda k: (points[k], k))
    deck_cards = []
    share_of = {}
    for number, k in enumerate(order, start=1):
        card_id = f"{spec.id_prefix}{number:02d}"
        condition = kept[k][0]
        deck_cards.append(Card(card_id, points[k], card_text(condition, env), condition,
                               describe(condition)))
        share_of[card_id] = shares[k]
    deck = Deck(name, chosen.title, chosen.rule, bricks, tuple(deck_cards))
    return GeneratedDeck(deck, share_of, candidates, prover.checks, notes)


def deck_yaml(generated: GeneratedDeck, command: str) -> str:
    """The deck in the format of content/brix/decks/*.yaml (loadable with `--deck FILE`)."""
    deck = generated.deck
    twos = sum(1 for c in deck.cards if c.points == 2)
    lines = [
        f"# TowerBrix deck made by: {command}",
        f"# {len(deck.cards)} cards, {twos} worth 2 points and {len(deck.cards) - twos} worth 3. "
        "Every card is met by a random standing tower and violated by another, no two are",
        "# equivalent, and points follow measured difficulty (the share of the reference pool of",
        "# random standing towers meeting the card, given after each card).",
        f"deck: {deck.name}",
        f"title: {yaml.safe_dump(deck.title, width=1000).splitlines()[0]}",
        f"colors: [{', '.join(deck.bricks.color_names)}]",
        f"rule: {yaml.safe_dump(deck.rule, width=1000).splitlines()[0]}",
        "cards:",
    ]
    for card in deck.cards:
        lines += [
            f"  - id: {card.id}  # measured share {generated.shares[card.id]:.3f}",
            f"    points: {card.points}",
            f"    text: {_quoted(card.text)}",
            f"    condition: {card.source}",
        ]
    return "\n".join(lines) + "\n"


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def check_out_path(out: Path) -> None:
    """The deck file and its examples beside it can be written (before the minutes of work)."""
    check_out_file(out, "--out", (".yaml", ".yml"))
    check_out_file(examples_beside(out), "--out (its examples)")


def write_deck_files(
    generated: GeneratedDeck, out: Path, seed: int, command: str,
    progress: Callable[[str], None] | None = None,
) -> Path:
    """Write the deck to `out` and its example towers (for printing) beside it; both are made
    in memory first, so an error leaves neither. Returns the examples' path."""
    towers = find_examples(generated.deck, seed, DEFAULT_SAMPLES, progress=progress)
    examples = examples_beside(out)
    examples_text = examples_yaml(generated.deck, towers, seed, DEFAULT_SAMPLES, str(out))
    deck_text = deck_yaml(generated, command)
    write_together({examples: examples_text.encode("utf-8"), out: deck_text.encode("utf-8")})
    return examples

"""The objective language: parser, canonical printer, evaluator on a player's roofs.

Objective cards are data (content/towerup/objectives.yaml) and users write their own for
`towerup check-objective`, so one small language serves the cards, the rules engine (is it met
now?) and the Z3 model (can it be met, how soon?). Grammar, one objective:

    objective := clause { "and" clause }
    clause    := "at least" N roofs filter*                               (count)
               | roofs filter* "in" ("every" | "at least" N) "districts"  (spread over districts)
               | roofs filter* "on buildings of" ("every" | "at least" N) "colours"
               | roofs filter* "on" N "adjacent buildings"                (a connected group)
    roofs     := ["visible"] ("roof" | "roofs")
    filter    := "in district" DISTRICT | "on" COLOUR "buildings"
               | "on buildings at least" H "high"

Roofs are the player's own; a roof is visible when no floor lies on top of it; a building's height
is its number of floors; "adjacent buildings" are joined by streets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tower_print.content import UserError, load_yaml

DISTRICT = "district"
COLOUR = "colour"
OBJECTIVE_CARDS = 10
STARTING_CARDS = 3


@dataclass(frozen=True)
class Filter:
    """Which roofs a clause counts; the defaults count every roof."""

    visible: bool = False
    district: str | None = None
    colour: str | None = None
    min_height: int = 0

    def text(self, plural: bool = True) -> str:
        words = ["visible"] if self.visible else []
        words.append("roofs" if plural else "roof")
        if self.district:
            words.append(f"in district {self.district}")
        if self.colour:
            words.append(f"on {self.colour} buildings")
        if self.min_height:
            words.append(f"on buildings at least {self.min_height} high")
        return " ".join(words)


@dataclass(frozen=True)
class Count:
    """At least `n` matching roofs."""

    n: int
    filter: Filter

    def text(self) -> str:
        return f"at least {self.n} {self.filter.text(self.n != 1)}"


@dataclass(frozen=True)
class Spread:
    """Matching roofs in at least `n` different districts or on `n` building colours
    (`n` None: every one of them)."""

    key: str
    n: int | None
    filter: Filter

    def text(self) -> str:
        how_many = "every" if self.n is None else f"at least {self.n}"
        noun = DISTRICT if self.n is None else "districts"
        if self.key == DISTRICT:
            return f"{self.filter.text()} in {how_many} {noun}"
        noun = COLOUR if self.n is None else "colours"
        return f"{self.filter.text()} on buildings of {how_many} {noun}"


@dataclass(frozen=True)
class Group:
    """`n` buildings joined by streets, each with a matching roof."""

    n: int
    filter: Filter

    def text(self) -> str:
        return f"{self.filter.text()} on {self.n} adjacent buildings"


Clause = Count | Spread | Group


@dataclass(frozen=True)
class Objective:
    clauses: tuple[Clause, ...]

    def text(self) -> str:
        return " and ".join(c.text() for c in self.clauses)


@dataclass(frozen=True)
class Vocabulary:
    """The names an objective may use: the game's colours and the side's districts."""

    colours: tuple[str, ...]
    districts: tuple[str, ...]


@dataclass(frozen=True)
class RoofFact:
    """One of a player's roofs as objectives see it."""

    site: str
    colour: str
    district: str
    height: int
    visible: bool


def parse(text: str, words: Vocabulary) -> Objective:
    """Parse objective text; a UserError names the word where it went wrong."""
    return _Parser(text, words).objective()


class _Parser:
    def __init__(self, text: str, words: Vocabulary) -> None:
        self.tokens = text.lower().replace(",", " ").split()
        self.at = 0
        self.words = words

    def objective(self) -> Objective:
        if not self.tokens:
            raise UserError("the objective is empty")
        clauses = [self.clause()]
        while self.at < len(self.tokens):
            self.expect("and")
            clauses.append(self.clause())
        return Objective(tuple(clauses))

    def clause(self) -> Clause:
        if self.accept("at"):
            self.expect("least")
            n = self.number(1)
            filt = self.roofs()
            return Count(n, filt)
        filt = self.roofs()
        if self.accept("in"):
            n = self.how_many()
            self.expect(DISTRICT if n is None else "districts")
            self.check_count(n, len(self.words.districts), "districts")
            return Spread(DISTRICT, n, filt)
        self.expect("on")
        if self.accept("buildings"):
            self.expect("of")
            n = self.how_many()
            self.expect(COLOUR if n is None else "colours")
            self.check_count(n, len(self.words.colours), "colours")
            return Spread(COLOUR, n, filt)
        n = self.number(1)
        self.expect("adjacent")
        self.expect("buildings")
        return Group(n, filt)

    def roofs(self) -> Filter:
        visible = self.accept("visible")
        self.expect("roofs", "roof")
        district, colour, height = None, None, 0
        while True:
            if self.peek(0) == "in" and self.peek(1) == DISTRICT:
                self.at += 2
                district = self.name(self.words.districts, DISTRICT)
            elif self.peek(0) == "on" and self.peek(1) in self.words.colours \
                    and self.peek(2) == "buildings":
                colour = self.peek(1)
                self.at += 3
            elif self.peek(0) == "on" and self.peek(1) == "buildings" and self.peek(2) == "at":
                self.at += 3
                self.expect("least")
                height = self.number(1)
                self.expect("high")
            else:
                return Filter(visible, district, colour, height)

    def how_many(self) -> int | None:
        if self.accept("every"):
            return None
        self.expect("at")
        self.expect("least")
        return self.number(1)

    def check_count(self, n: int | None, most: int, what: str) -> None:
        if n is not None and n > most:
            raise UserError(f"there are only {most} {what}, not {n}")

    def peek(self, ahead: int) -> str | None:
        i = self.at + ahead
        return self.tokens[i] if i < len(self.tokens) else None

    def accept(self, word: str) -> bool:
        if self.peek(0) == word:
            self.at += 1
            return True
        return False

    def expect(self, *words: str) -> str:
        got = self.peek(0)
        if got not in words:
            self.fail(" or ".join(f"'{w}'" for w in words))
        self.at += 1
        return got  # type: ignore[return-value]

    def number(self, low: int) -> int:
        got = self.peek(0)
        if got is None or not got.isdigit() or int(got) < low:
            self.fail(f"a whole number >= {low}")
        self.at += 1
        return int(got)  # type: ignore[arg-type]

    def name(self, known: tuple[str, ...], what: str) -> str:
        got = self.peek(0)
        if got not in known:
            self.fail(f"a {what} ({', '.join(known)})")
        self.at += 1
        return got  # type: ignore[return-value]

    def fail(self, expected: str) -> None:
        got = self.peek(0)
        where = f"word {self.at + 1} ('{got}')" if got is not None else "the end"
        raise UserError(f"objective does not parse: at {where}: expected {expected}")


def holds(objective: Objective, roofs: Sequence[RoofFact], words: Vocabulary,
          neighbours: dict[str, tuple[str, ...]]) -> bool:
    """Is the objective met by these roofs (one player's, on the current board)?"""
    return all(_clause_holds(c, roofs, words, neighbours) for c in objective.clauses)


def matches(f: Filter, roof: RoofFact) -> bool:
    return ((not f.visible or roof.visible) and (f.district is None or roof.district == f.district)
            and (f.colour is None or roof.colour == f.colour) and roof.height >= f.min_height)


def _clause_holds(clause: Clause, roofs: Sequence[RoofFact], words: Vocabulary,
                  neighbours: dict[str, tuple[str, ...]]) -> bool:
    chosen = [r for r in roofs if matches(clause.filter, r)]
    if isinstance(clause, Count):
        return len(chosen) >= clause.n
    if isinstance(clause, Spread):
        seen = {r.district if clause.key == DISTRICT else r.colour for r in chosen}
        every = words.districts if clause.key == DISTRICT else words.colours
        return len(seen) >= (len(every) if clause.n is None else clause.n)
    return _largest_group({r.site for r in chosen}, neighbours) >= clause.n


def _largest_group(sites: set[str], neighbours: dict[str, tuple[str, ...]]) -> int:
    best = 0
    left = set(sites)
    while left:
        todo = [left.pop()]
        size = 1
        while todo:
            for other in neighbours[todo.pop()]:
                if other in left:
                    left.remove(other)
                    todo.append(other)
                    size += 1
        best = max(best, size)
    return best


def connected_sets(neighbours: dict[str, tuple[str, ...]], n: int) -> set[frozenset[str]]:
    """Every set of `n` sites joined by streets (for the model's "adjacent buildings")."""
    found: set[frozenset[str]] = {frozenset([s]) for s in neighbours}
    for _ in range(n - 1):
        found = {group | {o} for group in found for s in group for o in neighbours[s]
                 if o not in group}
    return found


@dataclass(frozen=True)
class ObjectiveCard:
    id: str
    title: str
    text: str
    objective: Objective
    starting: bool


def load_objective_cards(path: Path, words: Vocabulary) -> tuple[ObjectiveCard, ...]:
    root = load_yaml(path)
    root.only_keys("objectives")
    cards: list[ObjectiveCard] = []
    for node in root["objectives"].items():
        node.only_keys("id", "title", "text", "formal", "starting")
        card_id = node["id"].str()
        if any(c.id == card_id for c in cards):
            raise node["id"].error(f"duplicate id '{card_id}'")
        starting = node.get("starting")
        if starting is not None and not isinstance(starting.value, bool):
            raise starting.error("expected true or false")
        cards.append(ObjectiveCard(card_id, node["title"].str(), node["text"].str(),
                                   node["formal"].parsed(lambda t: parse(t, words)),
                                   bool(starting and starting.value)))
    first = sum(c.starting for c in cards)
    if (len(cards) - first, first) != (OBJECTIVE_CARDS, STARTING_CARDS):
        raise root["objectives"].error(
            f"{len(cards) - first} objective cards and {first} starting ones (expected "
            f"{OBJECTIVE_CARDS} and {STARTING_CARDS})")
    return tuple(cards)

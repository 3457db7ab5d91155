"""The condition language: what a TowerBrix card demands, in words people can read and type.

    every blue brick touches some red brick
    at most 2 bricks touch the ground
    every highest brick is purple or red
    there are as many vertical bricks as horizontal bricks
    the tower is at least 4 upright bricks tall

A condition is one or more clauses joined by "and". The grammar is in the README; `parse` turns
text into the small tree below and `describe` turns a tree back into canonical text, so that
parse(describe(c)) == c. Colours are checked against the brick set by the caller.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass, replace
from typing import cast

from tower_print.content import UserError

# ---------------------------------------------------------------- the tree

QUANTIFIERS = ("every", "no", "some", "at least", "at most", "exactly", "more than", "fewer than")
RELATIONS = ("touches", "rests on", "supports", "is above", "is below")
ADJECTIVES = ("vertical", "horizontal", "highest", "lowest", "grounded", "bridge")
HEIGHT_UNITS = ("upright bricks", "flat bricks")


@dataclass(frozen=True)
class Quant:
    kind: str  # one of QUANTIFIERS
    n: int = 0

    def __post_init__(self) -> None:
        if self.kind not in QUANTIFIERS:
            raise ValueError(f"unknown quantifier {self.kind!r}")

    def holds(self, count: int, total: int) -> bool:
        """Plain-Python meaning of the quantifier over `count` of `total` candidates."""
        return self.shortfall(count, total) == 0

    def shortfall(self, count: int, total: int) -> int:
        """How many candidates would have to change for the quantifier to hold (0: it holds).
        A graded reading of `holds`, used to steer the search for towers (which asks it
        hundreds of thousands of times: hence tests, not a table built per call)."""
        kind, n = self.kind, self.n
        if kind == "every":
            return total - count
        if kind == "no":
            return count
        if kind == "some":
            return 0 if count else 1
        if kind == "at least":
            return max(0, n - count)
        if kind == "at most":
            return max(0, count - n)
        if kind == "exactly":
            return abs(count - n)
        if kind == "more than":
            return max(0, n + 1 - count)
        return max(0, count - n + 1)  # fewer than

    def graded_shortfall(self, distances: Sequence[int]) -> int:
        """`shortfall` when each candidate is some `distance` from meeting the predicate (0: it
        meets it): a candidate that lacks one of three supports costs less than one that lacks
        all three, which gives the tower search a slope where counting alone is flat. Zero
        exactly when `holds`; equal to `shortfall` when every distance is 0 or 1."""
        count = sum(1 for d in distances if d == 0)
        wanted = {
            "every": len(distances), "some": 1, "at least": self.n, "more than": self.n + 1,
            "exactly": self.n,
        }.get(self.kind)
        if wanted is None or count >= wanted:
            return self.shortfall(count, len(distances))
        closest = sorted(d for d in distances if d)[: wanted - count]
        return sum(closest) + wanted - count - len(closest)


@dataclass(frozen=True)
class Colour:
    """The brick has one of these colours."""

    colours: tuple[str, ...]


@dataclass(frozen=True)
class Trait:
    """vertical, horizontal, highest, lowest, grounded (touches the table) or bridge."""

    name: str

    def __post_init__(self) -> None:
        if self.name not in ADJECTIVES:
            raise ValueError(f"unknown trait {self.name!r}")


@dataclass(frozen=True)
class Related:
    """The brick stands in `relation` to `quant` of the other bricks matching `target`."""

    relation: str
    quant: Quant
    target: Selector

    def __post_init__(self) -> None:
        if self.relation not in RELATIONS:
            raise ValueError(f"unknown relation {self.relation!r}")


@dataclass(frozen=True)
class Not:
    pred: Pred


Pred = Colour | Trait | Related | Not


@dataclass(frozen=True)
class Selector:
    """Bricks that satisfy every one of `preds` (no preds: every brick)."""

    preds: tuple[Pred, ...] = ()


@dataclass(frozen=True)
class Quantified:
    """`quant` of the bricks matching `subject` satisfy `pred`."""

    quant: Quant
    subject: Selector
    pred: Pred


@dataclass(frozen=True)
class Count:
    """There are `quant` bricks matching `subject` ("every" is not allowed here)."""

    quant: Quant
    subject: Selector


@dataclass(frozen=True)
class Compare:
    """There are more / fewer / as many bricks matching `left` than `right`."""

    left: Selector
    op: str  # "more", "fewer", "as many"
    right: Selector


@dataclass(frozen=True)
class Height:
    """The tower's top is `quant` (at least / at most / exactly / ...) n units tall."""

    quant: Quant
    unit: str  # one of HEIGHT_UNITS


@dataclass(frozen=True)
class Symmetric:
    """The tower has mirror symmetry: reflected in some upright plane square to the table's
    axes it is the same set of boxes (colours do not matter), as the "masterpiece" challenge
    asks. A plane at 45 degrees is not considered: the lattice model keeps bricks square."""


Clause = Quantified | Count | Compare | Height | Symmetric


@dataclass(frozen=True)
class Condition:
    clauses: tuple[Clause, ...]


# ---------------------------------------------------------------- parsing

class ConditionSyntaxError(UserError):
    def __init__(self, text: str, position: int, expected: str, found: str) -> None:
        self.position = position
        super().__init__(
            f"condition '{text}': at character {position + 1}: expected {expected}, found {found}"
        )


NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}
_TOKEN = re.compile(r"[A-Za-z]+|\d+|\S")


class _Parser:
    def __init__(self, text: str, colours: tuple[str, ...]) -> None:
        self.text = text
        self.colours = colours
        self.tokens = [(m.group().lower(), m.start()) for m in _TOKEN.finditer(text)]
        self.i = 0

    # -- token helpers
    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.tokens[j][0] if j < len(self.tokens) else ""

    def fail(self, expected: str) -> ConditionSyntaxError:
        if self.i < len(self.tokens):
            word, position = self.tokens[self.i]
            return ConditionSyntaxError(self.text, position, expected, f"'{word}'")
        return ConditionSyntaxError(self.text, len(self.text), expected, "the end")

    def at(self, *words: str) -> bool:
        return all(self.peek(k) == w for k, w in enumerate(words))

    def accept(self, *phrases: str) -> str | None:
        for phrase in phrases:
            words = phrase.split()
            if self.at(*words):
                self.i += len(words)
                return phrase
        return None

    def expect(self, *phrases: str) -> str:
        found = self.accept(*phrases)
        if found is None:
            raise self.fail(" or ".join(f"'{p}'" for p in phrases))
        return found

    def number(self) -> int:
        word = self.peek()
        if word.isdigit():
            self.i += 1
            return int(word)
        if word in NUMBER_WORDS:
            self.i += 1
            return NUMBER_WORDS[word]
        raise self.fail("a number")

    # -- grammar
    def condition(self) -> Condition:
        clauses = [self.clause()]
        while self.accept("and"):
            clauses.append(self.clause())
        if self.i < len(self.tokens):
            raise self.fail("'and' or the end of the condition")
        return Condition(tuple(clauses))

    def clause(self) -> Clause:
        if self.accept("there are", "there is"):
            if self.accept("as many"):
                left = self.selector()
                self.expect("as")
                return Compare(left, "as many", self.selector())
            if self.peek() in ("more", "fewer") and self.peek(1) != "than":
                op = self.expect("more", "fewer")
                left = self.selector()
                self.expect("than")
                return Compare(left, op, self.selector())
            quant = self.quant(allow_every=False)
            return Count(quant, self.selector())
        if self.accept("the tower has mirror symmetry"):
            return Symmetric()
        if self.accept("the tower is"):
            if self.accept("mirror symmetric", "symmetric"):
                return Symmetric()
            if not self.at("at") and self.peek() not in ("exactly", "more", "fewer"):
                raise self.fail("'mirror symmetric', 'at least N', 'at most N' or 'exactly N'")
            quant = self.quant(allow_every=False)
            unit = self.expect(*HEIGHT_UNITS, "upright brick", "flat brick")
            self.expect("tall", "high")
            return Height(quant, unit if unit.endswith("s") else unit + "s")
        if self.peek() == "the" and self.peek(1) in ("highest", "lowest"):
            self.i += 1  # "the highest brick is red": every highest brick (ties count) is red
            quant = Quant("every")
        else:
            quant = self.quant(allow_every=True)
        subject = self.selector()
        return Quantified(quant, subject, self.predicate())

    def quant(self, allow_every: bool) -> Quant:
        if allow_every and self.accept("every", "each", "all", "both"):
            return Quant("every")
        if self.accept("no", "none of the"):
            return Quant("no")
        if self.accept("some", "a", "an", "any", "at least one"):
            return Quant("some")
        kind = self.accept("at least", "at most", "exactly", "more than", "fewer than")
        if kind is None:
            first = "'every', " if allow_every else ""
            raise self.fail(first + "'no', 'some', 'at least N', 'at most N' or 'exactly N'")
        return Quant(kind, self.number())

    def selector(self) -> Selector:
        preds: list[Pred] = []
        colours: list[str] = []
        while True:
            word = self.peek()
            if word in self.colours:
                self.i += 1
                colours.append(word)
            elif word in ADJECTIVES and word != "bridge":
                self.i += 1
                preds.append(Trait(word))
            else:
                break
        if len(colours) > 1:
            raise self.fail("one colour per brick")
        noun = self.accept("bricks", "brick", "bridges", "bridge")
        if noun is None and not (colours or preds):
            raise self.fail("a colour or 'brick'")
        if noun and noun.startswith("bridge"):
            preds.append(Trait("bridge"))
        if colours:
            preds.insert(0, Colour((colours[0],)))
        if self.accept("that", "which"):
            preds.append(self.predicate())
        return Selector(tuple(preds))

    def predicate(self) -> Pred:
        if self.accept("is not", "are not"):
            return Not(self.be_complement())
        if self.accept("does not", "do not"):
            return Not(self.verb_phrase())
        if self.accept("is", "are"):
            return self.be_complement()
        return self.verb_phrase()

    def be_complement(self) -> Pred:
        for rel in ("above", "below"):
            if self.accept(rel):
                return Related(f"is {rel}", self.quant(allow_every=True), self.selector())
        self.accept("a", "an", "the")
        if self.accept("bridge", "bridges"):
            return Trait("bridge")
        word = self.peek()
        if word in self.colours:
            colours = [word]
            self.i += 1
            while self.accept("or"):
                if self.peek() not in self.colours:
                    raise self.fail("a colour")
                colours.append(self.peek())
                self.i += 1
            return Colour(tuple(colours))
        if word in ADJECTIVES:
            self.i += 1
            self.accept("brick", "bricks")
            return Trait(word)
        raise self.fail("a colour, 'vertical', 'horizontal', 'highest', 'lowest', 'above', "
                        "'below' or 'a bridge'")

    def verb_phrase(self) -> Pred:
        verb = self.accept("touches", "touch", "rests on", "rest on", "supports", "support")
        if verb is None:
            raise self.fail("'touches', 'rests on', 'supports', 'is' or 'does not'")
        verbs = {"touch": "touches", "rest on": "rests on", "support": "supports"}
        relation = verbs.get(verb, verb)
        if relation in ("touches", "rests on") and self.accept("the ground", "the table"):
            return Trait("grounded")
        return Related(relation, self.quant(allow_every=True), self.selector())


def names_a_colour(node: object) -> bool:
    """Does the condition tree hold a colour predicate anywhere? (A tower meets the conditions
    naming none in every colouring or in none.)"""
    if isinstance(node, Colour):
        return True
    if isinstance(node, tuple | list):
        return any(names_a_colour(item) for item in node)
    if is_dataclass(node):
        return any(names_a_colour(getattr(node, f.name)) for f in fields(node))
    return False


def recoloured(condition: Condition, colours: Mapping[str, str]) -> Condition:
    """The condition with each colour it names replaced by its image in `colours` (others
    kept): what it asks of a tower whose bricks were repainted so. The colours of one "or"
    come out in alphabetical order, so that conditions that say the same compare equal."""

    def walk(node: object) -> object:
        if isinstance(node, Colour):
            return Colour(tuple(sorted(colours.get(c, c) for c in node.colours)))
        if isinstance(node, tuple):
            return tuple(walk(item) for item in node)
        if is_dataclass(node) and not isinstance(node, type):
            return replace(node, **{f.name: walk(getattr(node, f.name)) for f in fields(node)})
        return node

    return cast(Condition, walk(condition))


def parse(text: str, colours: tuple[str, ...]) -> Condition:
    """Parse a condition; errors say where, what was expected and what was found."""
    return _Parser(text, colours).condition()


# ---------------------------------------------------------------- printing back

def describe(condition: Condition) -> str:
    """Canonical text for a condition: parse(describe(c)) == c."""
    return " and ".join(_clause(c) for c in condition.clauses)


def _quant(q: Quant) -> str:
    return q.kind if q.kind in ("every", "no", "some") else f"{q.kind} {q.n}"


def _plural(q: Quant) -> bool:
    return q.kind not in ("every", "no", "some") and q.n != 1


def _selector(sel: Selector, plural: bool) -> str:
    words: list[str] = []
    rest: list[Pred] = []
    bridge = False
    for pred in sel.preds:
        if isinstance(pred, Colour) and len(pred.colours) == 1 and not words:
            words.append(pred.colours[0])
        elif isinstance(pred, Trait) and pred.name == "bridge" and not bridge:
            bridge = True
        elif isinstance(pred, Trait) and not rest and pred.name != "bridge":
            words.append(pred.name)
        else:
            rest.append(pred)
    noun = ("bridges" if plural else "bridge") if bridge else ("bricks" if plural else "brick")
    if words and isinstance(sel.preds[0], Trait) and any(
        isinstance(p, Colour) for p in sel.preds[1:]
    ):
        raise ValueError("selector puts a trait before a colour; canonical order is colour first")
    text = " ".join([*words, noun])
    if len(rest) > 1:
        raise ValueError("a selector holds at most one relative clause")
    if rest:
        text += " that " + _pred(rest[0], plural)
    return text


def _pred(pred: Pred, plural: bool, negated: bool = False) -> str:
    """`negated`: under "no", where "some" reads as "any" ("no red brick touches any ...")."""
    be, does = ("are", "do") if plural else ("is", "does")
    if isinstance(pred, Not):
        inner = pred.pred
        if isinstance(inner, Related) and inner.relation.startswith("is "):
            return f"{be} not {inner.relation[3:]} {_object(inner, negated=True)}"
        if isinstance(inner, (Colour, Trait)) and not (
            isinstance(inner, Trait) and inner.name == "grounded"
        ):
            return f"{be} not {_complement(inner)}"
        if isinstance(inner, Related):
            verb = {"touches": "touch", "rests on": "rest on", "supports": "support"}
            return f"{does} not {verb[inner.relation]} {_object(inner, negated=True)}"
        return f"{does} not {_pred(inner, plural=True)}"
    if isinstance(pred, Trait) and pred.name == "grounded":
        return ("touch" if plural else "touches") + " the ground"
    if isinstance(pred, (Colour, Trait)):
        return f"{be} {_complement(pred)}"
    if pred.relation.startswith("is "):
        return f"{be} {pred.relation[3:]} {_object(pred, negated)}"
    verb = {"touches": "touch", "rests on": "rest on", "supports": "support"}[pred.relation]
    return f"{verb if plural else pred.relation} {_object(pred, negated)}"


def _complement(pred: Colour | Trait) -> str:
    if isinstance(pred, Colour):
        return " or ".join(pred.colours)
    return "a bridge" if pred.name == "bridge" else pred.name


def _object(rel: Related, negated: bool = False) -> str:
    quant = "any" if negated and rel.quant.kind == "some" else _quant(rel.quant)
    return f"{quant} {_selector(rel.target, _plural(rel.quant))}"


def _clause(clause: Clause) -> str:
    if isinstance(clause, Quantified):
        plural = _plural(clause.quant)
        subject = _selector(clause.subject, plural)
        negated = clause.quant.kind == "no"
        return f"{_quant(clause.quant)} {subject} {_pred(clause.pred, plural, negated)}"
    if isinstance(clause, Count):
        verb = "are" if _plural(clause.quant) else "is"
        subject = _selector(clause.subject, _plural(clause.quant))
        return f"there {verb} {_quant(clause.quant)} {subject}"
    if isinstance(clause, Compare):
        left, right = _selector(clause.left, True), _selector(clause.right, True)
        if clause.op == "as many":
            return f"there are as many {left} as {right}"
        return f"there are {clause.op} {left} than {right}"
    if isinstance(clause, Symmetric):
        return "the tower is mirror symmetric"
    return f"the tower is {_quant(clause.quant)} {clause.unit} tall"

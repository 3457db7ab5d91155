"""Drawing condition cards the way the rulebook deals a round: by total points.

A round of a difficulty level has a point total in the level's band (Easy <= 12, Medium 13-19,
Hard >= 20); the table draws 2- and 3-point cards until the total is reached.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tower_print.brix.challenges import Challenge, challenge_items, decide, may_drop, unmet_cards
from tower_print.brix.checker import check_witness
from tower_print.brix.conflicts import known_conflicts, known_towers, save_known_towers
from tower_print.brix.decks import Card, Deck
from tower_print.brix.difficulty import LEVEL_NAMES, Difficulty
from tower_print.brix.difficulty import default_settings as difficulty_settings
from tower_print.brix.difficulty import pool as difficulty_pool
from tower_print.brix.geometry import normalized
from tower_print.brix.sampling import Tower
from tower_print.brix.search import TowerSearch
from tower_print.brix.shape_library import shape_library
from tower_print.brix.solver import SOLVABLE, UNKNOWN, UNSOLVABLE, TowerSolver
from tower_print.content import UserError

LEVELS = {"easy": (8, 12), "medium": (13, 19), "hard": (20, 24)}
"""Point totals drawn for each level. The rulebook bounds Easy only from above and Hard only
from below; 8 (a four-card round) and 24 (the most a table of six usually takes) close them."""


def fitting_points(left: int, available: dict[int, int]) -> list[int]:
    """Card values that can be drawn next with `left` points still to make: a value with cards
    left that does not overshoot and does not leave a single point (no card is worth 1)."""
    return [p for p, count in available.items() if count and p <= left and left - p != 1]


def draw_cards(deck: Deck, total: int, rng: random.Random) -> tuple[Card, ...]:
    """Random cards of `deck` whose points add up to exactly `total`."""
    if total < 2:
        raise ValueError("a round needs at least 2 points")
    stacks = {
        points: rng.sample([c for c in deck.cards if c.points == points], k=sum(
            1 for c in deck.cards if c.points == points))
        for points in sorted({c.points for c in deck.cards})
    }
    drawn: list[Card] = []
    left = total
    while left > 0:
        fitting = fitting_points(left, {p: len(stack) for p, stack in stacks.items()})
        if not fitting:
            raise ValueError(f"deck {deck.name} cannot make {total} points")
        points = rng.choice(fitting)
        drawn.append(stacks[points].pop())
        left -= points
    return tuple(drawn)


def draw_level(deck: Deck, level: str, rng: random.Random) -> tuple[Card, ...]:
    low, high = LEVELS[level]
    return draw_cards(deck, rng.randint(low, high), rng)


# --- dealing rounds that are certain to be buildable ---------------------------------------

MEASURED_PREFIX = "measured:"
PUT_BACK_LIMIT = 40
"""Cards put back in one round before the round is dealt again from scratch."""
BACKTRACK_AFTER = 5
"""Cards put back in a row before the last kept card is put back too: it left too little
room (at the end of a round only one value may fit, and few of its cards)."""
REDEALS = 40
"""Rounds dealt again before giving up with an error (an impossible request)."""
NUDGE_STEPS = 150
"""Search steps spent moving the round's current tower to meet one more card. Measured on hard
deals: most searches that succeed do within 150 steps, and one that fails costs a tenth of a
second or more, the largest cost of dealing."""
SOLVER_WORK = 300_000
"""Z3 work units (rlimit) for one card's question, a few hundredths of a second: measured on
hard deals, contradictions are proved within it (about 0.01-0.02 s each), and a larger budget
mostly bought more "unknown" answers, not towers. A count of work, not seconds, so the same
seed deals the same rounds on any machine."""


@dataclass(frozen=True)
class Level:
    """What a round is drawn to: card points in [low, high], and with `measured` a measured
    difficulty band the finished round must fall in."""

    name: str
    low: int
    high: int
    measured: str | None = None

    def describe(self) -> str:
        points = f"{self.low} points" if self.low == self.high else f"{self.low}-{self.high} points"
        if self.measured:
            return f"{self.name} (any {points}, kept when measured {self.measured})"
        return f"{self.name} ({points})"


def parse_level(text: str, challenge_totals: dict[str, int] | None = None) -> Level:
    """easy | medium | hard | N | measured:easy|medium|hard. With challenges
    (`challenge_totals`), the named levels are the challenge totals (exactly 12, 15, 18)."""
    word = text.strip().lower()
    if word in LEVELS:
        if challenge_totals is not None:
            total = challenge_totals[word]
            return Level(word, total, total)
        return Level(word, *LEVELS[word])
    if word.isdigit():
        total = int(word)
        if not 2 <= total <= 60:
            raise UserError(f"--level: {total} points is out of range 2..60")
        return Level(word, total, total)
    if word.startswith(MEASURED_PREFIX) and word[len(MEASURED_PREFIX):] in LEVEL_NAMES:
        low = min(lo for lo, _ in LEVELS.values())
        high = max(hi for _, hi in LEVELS.values())
        return Level(word, low, high, word[len(MEASURED_PREFIX):])
    raise UserError(f"--level: '{text}' is not easy, medium, hard, a number of points, or "
                    f"measured:easy|medium|hard")


def share_out(cards: Sequence[Card], players: int, first: int) -> tuple[tuple[Card, ...], ...]:
    """Cards divided as evenly as the rulebook asks, dealt round the table from player `first`
    (0-based): the players who get an extra card change from round to round."""
    hands: list[list[Card]] = [[] for _ in range(players)]
    for k, card in enumerate(cards):
        hands[(first + k) % players].append(card)
    return tuple(tuple(hand) for hand in hands)


class Piles:
    """A draw pile and a discard pile per point value, kept the way the table keeps them: a
    round's cards go to the discard pile afterwards, and an empty draw pile is refilled by
    shuffling its discard pile."""

    def __init__(self, deck: Deck, rng: random.Random) -> None:
        self.rng = rng
        values = sorted({c.points for c in deck.cards})
        self.draw_piles = {p: rng.sample([c for c in deck.cards if c.points == p],
                                         k=sum(1 for c in deck.cards if c.points == p))
                           for p in values}
        self.discards: dict[int, list[Card]] = {p: [] for p in values}

    def available(self) -> dict[int, int]:
        return {p: len(pile) + len(self.discards[p]) for p, pile in self.draw_piles.items()}

    def draw(self, points: int) -> Card:
        pile = self.draw_piles[points]
        if not pile:
            pile.extend(self.rng.sample(self.discards[points], k=len(self.discards[points])))
            self.discards[points].clear()
        return pile.pop()

    def discard(self, cards: Sequence[Card]) -> None:
        for card in cards:
            self.discards[card.points].append(card)


@dataclass
class Round:
    number: int
    cards: tuple[Card, ...]
    hands: tuple[tuple[Card, ...], ...]
    tower: Tower
    dropped: str | None
    difficulty: Difficulty
    unsolvable: int = 0  # cards put back: with them no tower could meet the round
    unknown: int = 0  # cards put back: the solver could not decide in time
    off_level: int = 0  # cards put back: the round's measured difficulty left the band
    redeals: int = 0  # times the round was dealt again from scratch

    @property
    def points(self) -> int:
        return sum(c.points for c in self.cards)


@dataclass
class Deal:
    deck: Deck
    level: Level
    players: int
    seed: int
    challenges: tuple[Challenge, ...]
    timeout: float
    rounds: list[Round] = field(default_factory=list)


class Dealer:
    """Deals rounds of one deck, each with a tower that meets it (checked independently).

    Cards are drawn one at a time as the rulebook draws them (a value that fits the points
    still to make, then the top card of that value). A drawn card is kept when the round stays
    buildable: the round's current tower already meets it, or a tower of the reference pool
    meets the round, or (when the solver cannot prove the round unsolvable with it on its small
    budget) a short search moves the current tower to meet it. Otherwise the card is put back
    (to the discard pile, after the round) and another card of the same value is drawn, and the
    round counts why: unsolvable, or undecided. So no round is handed out without a tower that
    meets it.
    """

    def __init__(self, deck: Deck, challenges: Sequence[Challenge], seed: int,
                 timeout: float) -> None:
        self.deck = deck
        self.challenges = tuple(challenges)
        self.seed = seed
        self.timeout = timeout
        self.required = challenge_items(self.challenges)
        self.may_drop = may_drop(self.challenges)
        self.solver = TowerSolver(deck.bricks, deck.all_used, seed=seed, work=SOLVER_WORK,
                                  search_steps=0, conflicts=known_conflicts(deck),
                                  known_towers=known_towers(deck))
        self.search = TowerSearch(deck.bricks, deck.all_used, seed)
        self.pool = difficulty_pool(deck.bricks, deck.all_used)
        self.library = shape_library(deck.bricks, deck.all_used)
        self._base: Tower | None = None

    def measure(self, cards: Sequence[Card]) -> Difficulty:
        return self.pool.measure([c.condition for c in cards],
                                 [r.condition for r in self.required], self.may_drop)

    def _fits(self, cards: Sequence[Card], tower: Tower | None) -> tuple[str, Tower | None]:
        """(status, a tower meeting `cards` and the challenges), cheapest proof first. Z3 goes
        before the search: measured on hard deals, it proves a contradiction in a few
        hundredths of a second, while a search that finds nothing takes a quarter second."""
        items = [c.item() for c in cards]
        if tower is not None:
            unmet = unmet_cards(tower, self.deck.bricks, items, self.required)
            if unmet is not None and len(unmet) <= self.may_drop:
                return SOLVABLE, tower
        found = self.pool.witness([c.condition for c in cards],
                                  [r.condition for r in self.required], self.may_drop)
        if found is not None:
            return SOLVABLE, found
        decided = decide(self.solver, items, self.challenges, self.timeout, minimise=False)
        if decided.status != UNKNOWN:
            return decided.status, decided.verdict.tower
        # The library and the search meet every card (stricter than a challenge's "all but
        # one": still fine). The library goes first: it holds the unusual structures the
        # search rarely reaches, and what it learns of one card set speeds up the next.
        wanted = [it.condition for it in [*items, *self.required]]
        if self.library is not None:
            found = self.library.witness(wanted)
            if found is not None:
                return SOLVABLE, found
        moved = self.search.find(wanted, NUDGE_STEPS,
                                 start=tower if tower is not None else self.base())
        return (SOLVABLE, moved) if moved is not None else (UNKNOWN, None)

    def base(self) -> Tower | None:
        """Where a round's first search starts: a tower meeting the challenges' conditions
        (found once per deal, by the solver without its small budget), or None (a random
        tower) when there are none. A challenge no tower can meet is bad input."""
        if self._base is None and self.required:
            decided = decide(TowerSolver(self.deck.bricks, self.deck.all_used, seed=self.seed),
                             [], self.challenges, self.timeout)
            if decided.status == UNSOLVABLE:
                names = ", ".join(c.name for c in self.challenges)
                raise UserError(f"--challenge {names}: no tower of deck {self.deck.name} can "
                                f"meet it")
            self._base = decided.verdict.tower
        return self._base

    def deal_round(self, number: int, level: Level, players: int, rng: random.Random,
                   piles: Piles) -> Round:
        band = difficulty_settings().band(level.measured) if level.measured else None
        counts = {"unsolvable": 0, "unknown": 0, "off_level": 0}
        for redeals in range(REDEALS):
            total = rng.randint(level.low, level.high)
            kept: list[Card] = []
            towers: list[Tower] = []  # towers[k]: meets the first k + 1 kept cards
            put_back: list[Card] = []
            misses = 0  # cards put back since the last card was kept
            while sum(c.points for c in kept) < total and len(put_back) <= PUT_BACK_LIMIT:
                left = total - sum(c.points for c in kept)
                fitting = fitting_points(left, piles.available())
                if misses >= BACKTRACK_AFTER or not fitting:
                    if not kept or self._complete(kept, level, band):
                        break
                    put_back.append(kept.pop())  # this card leaves too little room: undo it
                    towers.pop()
                    misses = 0
                    continue
                card = piles.draw(rng.choice(fitting))
                reason = self._reason_to_put_back([*kept, card], towers, band)
                if reason is None:
                    kept.append(card)
                    misses = 0
                    continue
                counts[reason] += 1
                put_back.append(card)
                misses += 1
            piles.discard(put_back)
            piles.discard(kept)
            if kept and (sum(c.points for c in kept) == total
                         or self._complete(kept, level, band)):
                measured = self.measure(kept)
                if band is None or measured.share < band[1]:
                    return self._finish(number, kept, towers[-1], measured, players, counts,
                                        redeals)
        raise UserError(
            f"--level {level.name}: no buildable round of deck {self.deck.name} found in "
            f"{REDEALS} tries" + (" with these challenges" if self.challenges else ""))

    def _complete(self, kept: list[Card], level: Level, band: tuple[float, float] | None,
                  ) -> bool:
        """A measured level's round may end short of its drawn total, once it has the level's
        least points and its measured share is in the band: no further card keeps it there
        (for measured:easy, most rounds end so, with few cards that leave room)."""
        if band is None or sum(c.points for c in kept) < level.low:
            return False
        return band[0] <= self.measure(kept).share < band[1]

    def _reason_to_put_back(
        self, cards: list[Card], towers: list[Tower], band: tuple[float, float] | None,
    ) -> str | None:
        """None when `cards` (the kept ones and a new one) can be kept, and then their tower is
        pushed on `towers`; else why not: "off_level", "unsolvable" or "unknown"."""
        if band is not None and self.measure(cards).share < band[0]:
            return "off_level"
        status, found = self._fits(cards, towers[-1] if towers else None)
        if status == SOLVABLE and found is not None:
            towers.append(found)
            return None
        return "unsolvable" if status == UNSOLVABLE else "unknown"

    def _finish(self, number: int, cards: list[Card], tower: Tower, measured: Difficulty,
                players: int, counts: dict[str, int], redeals: int) -> Round:
        """The round with its tower re-checked by the independent checker."""
        items = [c.item() for c in cards]
        unmet = unmet_cards(tower, self.deck.bricks, items, self.required)
        assert unmet is not None and len(unmet) <= self.may_drop, "round tower does not fit"
        dropped = unmet[0] if unmet else None
        check_witness(tower, self.deck.bricks, self.deck.all_used,
                      [(it.label, it.condition) for it in [*items, *self.required]
                       if it.label != dropped])
        hands = share_out(cards, players, (number - 1) % players)
        return Round(number, tuple(cards), hands, normalized(tower), dropped, measured,
                     counts["unsolvable"], counts["unknown"], counts["off_level"], redeals)


def deal(
    deck: Deck, level: Level, players: int, rounds: int, seed: int,
    challenges: Sequence[Challenge] = (), timeout: float = 10.0,
    progress: Callable[[str], None] | None = None,
) -> Deal:
    """`rounds` rounds for `players` players, every one with a checked tower that meets it.
    Same arguments, same deal (unless the solver's time limit cut a check short: then a card
    was put back and `Round.unknown` says so)."""
    if not 1 <= players <= 6:
        raise UserError(f"--players: {players} is out of range 1..6")
    if not 1 <= rounds <= 20:
        raise UserError(f"--rounds: {rounds} is out of range 1..20")
    dealer = Dealer(deck, challenges, seed, timeout)
    rng = random.Random(seed)
    piles = Piles(deck, rng)
    result = Deal(deck, level, players, seed, tuple(challenges), timeout)
    for number in range(1, rounds + 1):
        result.rounds.append(dealer.deal_round(number, level, players, rng, piles))
        if progress:
            progress(f"round {number} of {rounds} dealt")
    dealer.pool.save()
    save_known_towers(deck)
    return result


# --- telling the deal --------------------------------------------------------------------------


def put_back_note(r: Round, timeout: float) -> str | None:
    """Why cards were put back while dealing this round, in words (None: none were)."""
    parts = []
    if r.unsolvable:
        parts.append(f"{r.unsolvable} that made the round unsolvable")
    if r.unknown:
        parts.append(f"{r.unknown} that no quick search could fit and the solver could not "
                     f"decide within its budget ({SOLVER_WORK:,} Z3 work units, at most "
                     f"{timeout:g} s), so they were not risked")
    if r.off_level:
        parts.append(f"{r.off_level} that took the measured difficulty out of the level")
    if r.redeals:
        parts.append(f"the round was dealt again {r.redeals} times")
    return "put back while dealing: " + "; ".join(parts) if parts else None


def deal_json(result: Deal) -> dict[str, Any]:
    """The deal for scripts; no timings, so the same seed gives the same bytes."""
    bricks = result.deck.bricks
    return {
        "deck": result.deck.name,
        "level": {"name": result.level.name, "points": [result.level.low, result.level.high],
                  "measured": result.level.measured},
        "players": result.players,
        "seed": result.seed,
        "challenges": [{"name": c.name, "text": c.text, "condition": c.source,
                        "may_drop": c.drop} for c in result.challenges],
        "rounds": [{
            "round": r.number,
            "points": r.points,
            "cards": [{"id": c.id, "points": c.points, "text": c.text} for c in r.cards],
            "hands": [{"player": k, "cards": [c.id for c in hand]}
                      for k, hand in enumerate(r.hands, start=1)],
            "status": SOLVABLE,
            "dropped": r.dropped,
            "difficulty": r.difficulty.as_json(),
            "put_back": {"unsolvable": r.unsolvable, "unknown": r.unknown,
                         "off_level": r.off_level},
            "redeals": r.redeals,
            "tower": {"unit_mm": bricks.unit_mm, "bricks": [b.as_json() for b in r.tower]},
        } for r in result.rounds],
    }


def deal_text(result: Deal) -> str:
    """The deal for people: each round's cards by player, its measured difficulty, and what
    was put back on the way. The towers are left to the answer pages (--pdf) and --json."""
    challenges = "".join(f", challenge {c.name}" for c in result.challenges)
    lines = [f"TowerBrix deal: {result.deck.name} deck, level {result.level.describe()}, "
             f"{result.players} players, {len(result.rounds)} rounds, seed {result.seed}"
             f"{challenges}"]
    for r in result.rounds:
        lines.append(f"Round {r.number}: {len(r.cards)} cards, {r.points} points; "
                     f"{r.difficulty.text()}")
        for k, hand in enumerate(r.hands, start=1):
            if not hand:
                lines.append(f"  player {k}: no card this round (the rulebook allows it)")
            for j, card in enumerate(hand):
                who = f"player {k}:" if j == 0 else ""
                lines.append(f"  {who:<10} {card.id} ({card.points} pt) {card.text}")
        lines.append("  buildable: a tower meeting every card was found and checked; it is on "
                     "the answer page (--pdf) and in --json")
        if r.dropped:
            lines.append(f"  the challenge lets the table set a card aside; the answer tower "
                         f"sets aside {r.dropped}")
        note = put_back_note(r, result.timeout)
        if note:
            lines.append(f"  {note}")
    return "\n".join(lines)

"""What `tower-print brix audit` tells: the conflicts, the odds of an unsolvable deal, the prices.

Kept apart from the search (`audit`) so that the subset test on deals and the price check can be
read, tested and reused on their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from statistics import NormalDist
from typing import Any

from tower_print.brix.audit import (
    UNDECIDED_NEIGHBOURS,
    AuditSettings,
    Exploration,
    largest_deal,
    level_deals,
)
from tower_print.brix.deals import LEVELS
from tower_print.brix.decks import Deck
from tower_print.brix.difficulty import default_settings, pool, wilson
from tower_print.brix.marco import MaskSet, members
from tower_print.brix.pricing import PriceCheck, check_prices
from tower_print.brix.solver import SOLVABLE, UNKNOWN, UNSOLVABLE
from tower_print.brix.verify import LATTICE_NOTE


@dataclass(frozen=True)
class Odds:
    """Of `deals` sampled deals of a level, `unsolvable` contain a known conflict and `unknown`
    could not be told (only when the audit is incomplete). The `first` of the same deals
    are the audit's deal seeds (`AuditSettings.deal_seeds`), decided early on: of them
    `first_unsolvable` are unsolvable and `first_unknown` undecided. [`low`, `high`]: 95 %
    interval for the level's share of unsolvable deals, every undecided deal counted as
    possibly unsolvable.

    Why both: after a few rounds of audits a quarter of all hard deals may hold no known
    conflict and lie in no known solvable set, so the bound from all deals spans 25 points;
    the deals the audit decides first are a random sample of the same deals, decided one by
    one, so their share bounds the odds to a few points however much of the map is open."""

    level: str
    deals: int
    unsolvable: int
    unknown: int
    low: float
    high: float
    first: int = 0
    first_unsolvable: int = 0
    first_unknown: int = 0

    @property
    def share(self) -> float:
        """The share of sampled deals that hold a known conflict (a lower bound when some are
        undecided)."""
        return self.unsolvable / self.deals if self.deals else 0.0


def deal_odds(deck: Deck, found: Exploration, settings: AuditSettings) -> list[Odds]:
    """The subset test on `settings.deals` sampled deals per level."""
    n = len(deck.cards)
    conflicts = MaskSet(n, [*found.muses, *found.conflicts_unminimised])
    solvable = MaskSet(n, found.solvable)

    def verdict(deal: int) -> str:
        if conflicts.has_subset_of(deal):
            return UNSOLVABLE
        if (found.complete or deal.bit_count() <= found.complete_up_to
                or solvable.has_superset_of(deal)):
            return SOLVABLE  # every conflict that small is known, and it holds none
        return UNKNOWN

    # Each of the two bounds at half the content's miss rate, so that their intersection is a
    # 95 % interval (Bonferroni), whatever the two have in common.
    miss = 2 * (1 - NormalDist().cdf(default_settings().z))
    z = NormalDist().inv_cdf(1 - miss / 4)
    out = []
    for level in LEVELS:
        deals = level_deals(deck, level, settings.deals, settings.seed)
        if not deals:  # the deck cannot make this level's points
            out.append(Odds(level, 0, 0, 0, 0.0, 1.0))
            continue
        verdicts = [verdict(deal) for deal in deals]
        first = verdicts[:settings.deal_seeds]
        odds = Odds(level, len(deals), verdicts.count(UNSOLVABLE), verdicts.count(UNKNOWN),
                    0.0, 1.0, len(first), first.count(UNSOLVABLE), first.count(UNKNOWN))
        low, high = _bounds(odds.unsolvable, odds.unknown, odds.deals, z)
        if first:
            first_low, first_high = _bounds(
                odds.first_unsolvable, odds.first_unknown, odds.first, z)
            if max(low, first_low) <= min(high, first_high):
                low, high = max(low, first_low), min(high, first_high)
            else:  # disjoint: one of them missed (odds under 5 %), so claim only their hull
                low, high = min(low, first_low), max(high, first_high)
        out.append(replace(odds, low=low, high=high))
    return out


def _bounds(unsolvable: int, unknown: int, deals: int, z: float) -> tuple[float, float]:
    """The Wilson interval's low end for the unsolvable deals, its high end counting every
    undecided one as unsolvable too."""
    return wilson(unsolvable, deals, z)[0], wilson(unsolvable + unknown, deals, z)[1]


def card_prices(deck: Deck) -> list[PriceCheck]:
    """Each card's measured difficulty (the shared reference pool) against its points."""
    reference = pool(deck.bricks, deck.all_used)
    return check_prices([c.points for c in deck.cards],
                        [reference.measure([c.condition]) for c in deck.cards])


def _pct(share: float) -> str:
    return f"{100 * share:.1f} %"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def audit_json(
    deck: Deck, found: Exploration, settings: AuditSettings, odds: Sequence[Odds],
    prices: Sequence[PriceCheck],
) -> dict[str, Any]:
    ids = [c.id for c in deck.cards]
    texts = {c.id: c.text for c in deck.cards}

    def cards(mask: int) -> list[str]:
        return [ids[k] for k in members(mask)]

    return {
        "deck": deck.name,
        "cards": len(deck.cards),
        "complete": found.complete,
        "complete_up_to": found.complete_up_to,
        "max_cards": settings.max_cards,
        "conflicts": [{"cards": cards(m), "texts": [texts[i] for i in cards(m)]}
                      for m in found.muses],
        "conflicts_unminimised": [cards(m) for m in found.conflicts_unminimised],
        "undecided": [cards(m) for m in found.unknown],
        "undecided_by_budget": [cards(m) for m in found.budget_cut],
        "odds": {o.level: None if not o.deals else {
            "deals": o.deals, "unsolvable": o.unsolvable, "unknown": o.unknown,
            "share": round(o.share, 6), "low": round(o.low, 6), "high": round(o.high, 6),
            "first": {"deals": o.first, "unsolvable": o.first_unsolvable,
                      "unknown": o.first_unknown},
        } for o in odds},
        "card_difficulty": [
            {"id": c.id, "points": p.points, "share": round(p.difficulty.share, 6),
             "low": round(p.difficulty.low, 6), "high": round(p.difficulty.high, 6),
             "price": p.verdict}
            for c, p in zip(deck.cards, prices, strict=True)
        ],
        "checks": found.checks,
        "facts_resumed": found.resumed,
        "conflicts_taken": found.taken,
        "complete_up_to_taken": found.taken_up_to,
        "towers_taken": found.towers_taken,
        "towers_recoloured": found.towers_recoloured,
        "unminimised_taken": found.unminimised_taken,
        "unminimised_left": found.unminimised_left,
        "unminimised_too_large": found.unminimised_too_large,
        "undecided_taken": found.undecided_taken,
        "first_tries_taken": found.first_tries_taken,
        "passed_beside_undecided": found.passed,
        "met_by_colourings": found.met_by_colourings,
        "implications": found.implications,
        "conflicts_implied": found.conflicts_implied,
        "swept_open_sets": found.swept,
        "seconds": round(found.seconds, 1),
        "note": "unsolvable means: " + LATTICE_NOTE,
    }


def audit_text(
    deck: Deck, found: Exploration, settings: AuditSettings, odds: Sequence[Odds],
    prices: Sequence[PriceCheck],
) -> str:
    ids = [c.id for c in deck.cards]
    texts = {c.id: c.text for c in deck.cards}
    cut = set(found.budget_cut)
    timed_out = [m for m in found.unknown if m not in cut]  # the rest ran out of time
    deal_holds = largest_deal(deck)
    scope = ("every set of cards" if settings.max_cards is None
             else f"every set of up to {settings.max_cards} cards"
             + (" (the most a deal holds)" if settings.max_cards == deal_holds
                else f" (a deal holds up to {deal_holds}: --max-cards)"))
    lines = [f"audit of deck {deck.name} ({len(deck.cards)} cards), {scope}:"]
    if found.complete:
        lines.append(f"  COMPLETE: these {len(found.muses)} minimal conflicts are all there are; "
                     "a deal is unsolvable exactly when it holds all cards of one of them.")
    else:
        why = []
        if timed_out:
            why.append(f"{_count(len(timed_out), 'set')} undecided within the time limit")
        if found.conflicts_unminimised:
            unminimised = _count(len(found.conflicts_unminimised), 'conflict')
            why.append(f"{unminimised} not minimised in time")
        if found.stopped:
            why.append("the time budget ran out"
                       + (f", cutting {_count(len(cut), 'check')} short" if cut else ""))
        elif not why:
            why.append("the search was stopped")
        lines.append(f"  INCOMPLETE ({'; '.join(why)}): {len(found.muses)} minimal conflicts "
                     "found so far; there may be more. Run again to go on.")
        if found.complete_up_to:
            lines.append(f"  Every conflict of up to {found.complete_up_to} cards is among them: "
                         "a deal that holds none of those has no conflict that small.")
    if found.taken:
        lines.append(f"  {found.taken} of the conflicts were taken from --known (earlier "
                     "audits proved them; not proved again here).")
    if found.taken_up_to:
        lines.append(f"  So were its sets of up to {found.taken_up_to} cards: every one that "
                     "holds none of its conflicts is solvable (its complete_up_to).")
    if found.towers_taken:
        lines.append(f"  And its {_count(found.towers_taken, 'tower')}, each checked: the cards "
                     "one meets are solvable together.")
    if found.towers_recoloured:
        lines.append(f"  Recoloured, they gave {_count(found.towers_recoloured, 'tower')} meeting "
                     "sets of cards it lists as undecided (each checked as a witness).")
    if found.unminimised_taken:
        shrunk = (found.unminimised_taken - found.unminimised_left
                  - found.unminimised_too_large)
        lines.append(f"  And its {_count(found.unminimised_taken, 'set')} no tower meets that "
                     f"were still to shrink ({shrunk} shrunk here in turn with the other work"
                     + (f"; {found.unminimised_left} not, as their checks ran out of time "
                        "before with as long a limit: only a longer --timeout tries them again"
                        if found.unminimised_left else "")
                     + (f"; {found.unminimised_too_large} not, as they hold more cards than "
                        "--max-cards: the exploration itself meets any conflict that small "
                        "inside them" if found.unminimised_too_large else "") + ").")
    if found.undecided_taken:
        lines.append(f"  And its {_count(found.undecided_taken, 'undecided set')}, set aside "
                     "unasked: checks as long as this run's ran out of time on them before "
                     "(only a longer --timeout asks them again).")
    if found.first_tries_taken:
        lines.append(f"  And its {_count(found.first_tries_taken, 'set')} a first try ran out "
                     "on, set aside as after this run's own: asked with the next longer "
                     "--first-try, or the full --timeout, once nothing else is left.")
    if found.passed:
        lines.append(f"  {_count(found.passed, 'set')} the exploration met were passed over "
                     f"unasked, each holding all but one card of {UNDECIDED_NEIGHBOURS} or more "
                     "sets checks ran out on: asked once nothing else is left, open until then.")
    if found.swept:
        lines.append(f"  {_count(found.swept, 'set')} of {found.taken_up_to + 1} cards were open "
                     "at the start, listed from their ranks and asked in turn.")
    if found.met_by_colourings:
        lines.append(f"  {_count(found.met_by_colourings, 'set')} the exploration met were "
                     "settled unasked: a colouring of a tower met before meets each (checked "
                     "as a witness).")
    if found.conflicts_implied:
        lines.append(f"  {_count(found.conflicts_implied, 'set')} the exploration met were "
                     "settled unasked as unsolvable: their cards imply every card of a known "
                     f"conflict ({_count(found.implications, 'implication')} between cards, "
                     "each proved by the solver).")
    lines.append(f"  ({found.checks} solver checks this run, {found.resumed} facts read back "
                 f"from the cache, {found.seconds:.0f} s; unsolvable means: {LATTICE_NOTE})")
    lines.append("")
    lines.append(f"minimal conflicts ({len(found.muses)}):")
    for mask in found.muses:
        cards = [ids[k] for k in members(mask)]
        lines.append("  " + " + ".join(cards))
        lines += [f"      {card}: {texts[card]}" for card in cards]
    for title, sets in (
        ("conflicts not minimised (not yet shrunk when the budget ended, or a check ran out "
         "of time)",
         found.conflicts_unminimised),
        ("undecided sets (a check ran out of time)", timed_out),
        ("undecided sets (the budget ended their checks; run again to go on)", found.budget_cut),
    ):
        if sets:
            lines.append(f"{title}:")
            lines += ["  " + " ".join(ids[k] for k in members(m))
                      + (f"  (its checks ran out of time at {tried_at:g} s)"
                         if (tried_at := found.unminimised_tried_at.get(m)
                             or found.undecided_tried_at.get(m)) else "")
                      for m in sets]
    lines.append("")
    lines.append(f"odds that a random deal is unsolvable ({settings.deals} deals per level, "
                 "95 % interval):")
    for o in odds:
        if not o.deals:
            lines.append(f"  {o.level:<7} the deck's cards cannot make this level's points")
            continue
        told = f"{o.unsolvable} of {o.deals}"
        if o.unknown:
            told += (f" hold a known conflict, {o.unknown} undecided; of the first {o.first}: "
                     f"{o.first_unsolvable} unsolvable")
            told += f", {o.first_unknown} undecided" if o.first_unknown else ""
        if o.unknown:  # the interval is all there is to tell
            lines.append(f"  {o.level:<7} {_pct(o.low)} - {_pct(o.high)}  ({told})")
        else:
            lines.append(f"  {o.level:<7} {_pct(o.share):>7}  ({_pct(o.low)} - {_pct(o.high)}; "
                         f"{told})")
    if any(o.unknown for o in odds):
        lines.append(f"  (undecided deals count as possibly unsolvable; the first "
                     f"{settings.deal_seeds} deals of each level, a random sample the audit "
                     "decides early on, bound the odds too)")
    lines.append("")
    first = prices[0].difficulty if prices else None
    pool_size = first.samples if first else 0
    lines.append(f"cards: share of {pool_size} random standing towers meeting each one "
                 "(95 % interval) against printed points:")
    for card, price in zip(deck.cards, prices, strict=True):
        d = price.difficulty
        flag = {"ok": "", "too high": "  <- priced too high: measured easier than its points",
                "too low": "  <- priced too low: measured harder than its points"}[price.verdict]
        lines.append(f"  {card.id:<5} {price.points} pt {_pct(d.share):>7} "
                     f"({_pct(d.low)} - {_pct(d.high)}){flag}")
    wrong = [c.id for c, p in zip(deck.cards, prices, strict=True) if p.verdict != "ok"]
    lines.append(f"  priced wrong: {', '.join(wrong) if wrong else 'none'}")
    return "\n".join(lines)

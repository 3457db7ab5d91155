"""Known conflicts of a deck (content/brix/conflicts/<deck>.yaml): minimal sets of its cards
that no tower meets, found by `tower-print brix audit --conflicts-out`.

The file gathers what every audit of the same deck found: a minimal conflict stays one
whatever else is learnt, so an audit writing to a file that already holds conflicts of the
same deck keeps them and adds its own. Two audits that disagree (a kept set is a part of a new
one, or holds one, or this audit met a tower meeting all its cards) stop the write: one of
them is wrong, and the file must not hide it.

A few conflicts Z3 cannot prove in any audit's time may be proved another way (an exhaustive
enumeration in plain Python, in benchmarks/): such a set is listed with the others and named
under `proofs` with the command that proves it, so the tests, which prove the small conflicts
again with Z3, know to leave it out, and a reader knows what to rerun. An audit taking the file
`--known` still holds each of them against every tower it meets.

The file also keeps the towers its audits met (`towers`, one line each), those meeting a set of
cards that no other tower there and no tower of the audit's pool meets (of one audit's, at most
`NEW_TOWERS_KEPT`, those that spare the next audit the most checks; they are read when asked
for): towers, unlike the solver's cached facts, stay valid when the solver changes, and an
audit taking the file `--known` starts from them, so it neither looks again for the towers
earlier audits found nor counts the deals they settle as undecided. Each is checked (it
stands, keeps the deck's brick rule, meets no listed conflict) before it is taken. `brix
verify` and `deal` ask them too (`known_towers`): a set of cards one of them meets is
solvable, with that tower, checked like every witness.

An audit that runs out of time while shrinking a conflict leaves a set no tower meets that
may hold a smaller conflict. Such sets are kept too (`unminimised`): not for the deals (a
verdict names a minimal conflict), but for the next audit taking the file `--known`, which
counts them as unsolvable from the start and shrinks them in turn with its other work instead
of proving them again. A set is dropped once a listed conflict lies inside it. One whose
shrinking stopped because checks of its parts ran out of time notes their limit (`tried_at`,
seconds): the next audit shrinks it again only if its checks get longer.

Sets an audit asked and got no answer for within its time limit are kept as well (`undecided`,
each with that limit as `tried_at`): the next audit taking the file `--known` sets them aside
as undecided again instead of asking them at the same limit (asking them again, checks that ran
out of time took 2063 s of the 3000 s of worker time of a 25-minute green round, 12 of its 17
undecided sets undecided in the round before too); with a longer `--timeout` it asks them. A
set is dropped once a tower meets all its cards or a listed conflict lies inside it.

Why keep them: the audit proved each one with Z3 (and met every smaller part of it with a
checked tower), and once they are known a deal is checked by a subset test, as the audit
promises: a deal holding one is unsolvable, with that set as its conflict, without asking Z3
again (1.5-4 s on a hard deal, most of it Z3's first look at the model). The file records a
fingerprint of what makes the sets conflicts (the deck's conditions and rule, the bricks and
their stability margin); when the deck changes, the file is ignored until the audit is run
again. The tests prove the shipped small conflicts again with today's solver, so a change to
the model that broke one would fail them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeVar, cast

from tower_print.brix.checker import problems
from tower_print.brix.decks import Deck
from tower_print.brix.difficulty import TowerPool, cache_folder
from tower_print.brix.in_processes import map_in_parts
from tower_print.brix.language import Condition
from tower_print.brix.marco import MaskSet, mask_of
from tower_print.brix.new_sets import most_new_sets_first
from tower_print.brix.stored_towers import Tower, TowerLines, tower_line
from tower_print.content import Node, UserError, content_root, load_yaml
from tower_print.render.scene import write_atomic

T = TypeVar("T")


def conflicts_folder() -> Path:
    return content_root() / "brix" / "conflicts"


def deck_fingerprint(deck: Deck) -> str:
    """A hash of what decides which card sets conflict (`Deck.what_decides`)."""
    payload = json.dumps(deck.what_decides(), sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()[:24]


HEADER = (
    "# Minimal sets of cards of the {deck} deck that no tower meets (each proved by Z3 unless",
    "# `proofs` names another proof; each smaller part met by a checked tower), for",
    "# tower_print/brix/conflicts.py.",
)


@dataclass(frozen=True)
class ConflictFile:
    """A conflicts file as read back: the sets (card ids), how far they are complete, and the
    header lines that say how the audits made it (`# ` taken off)."""

    sets: tuple[tuple[str, ...], ...]
    complete_up_to: int = 0
    history: tuple[str, ...] = ()
    nodes: tuple[Node, ...] = field(default=(), compare=False)  # each set's line, for errors
    proofs: tuple[tuple[tuple[str, ...], str], ...] = ()
    """(set, the command that proves it) for the sets proved without Z3 (module docstring)."""
    towers: Sequence[Tower] = ()
    """Towers audits met (module docstring); read back unchecked (`conflicts_to_take`), each
    when first asked for (`TowerLines`)."""
    unminimised: tuple[tuple[str, ...], ...] = ()
    """Sets no tower meets that an audit had no time to shrink (module docstring)."""
    unminimised_tried_at: tuple[float | None, ...] = ()
    """For each of `unminimised`: the time limit its shrinking ran out at, if known (empty:
    none known)."""
    unminimised_nodes: tuple[Node, ...] = field(default=(), compare=False)
    undecided: tuple[tuple[tuple[str, ...], float], ...] = ()
    """(set, time limit) for the sets an audit's checks ran out of time on (module docstring)."""

    @property
    def tower_nodes(self) -> tuple[Node, ...]:
        """Each tower's line in the file, for errors (none for towers not read from one)."""
        return self.towers.nodes if isinstance(self.towers, TowerLines) else ()

    def unminimised_limits(self) -> list[tuple[tuple[str, ...], float | None]]:
        """Each of `unminimised` with its `tried_at` (None when not known)."""
        return list(zip(self.unminimised, self.unminimised_tried_at
                        or (None,) * len(self.unminimised), strict=True))


UNMINIMISED_COMMENT = ("# Sets no tower meets, proved by an audit that had no time to shrink "
                       "them to minimal\n# conflicts; the next audit taking this file --known "
                       "shrinks them, those with `tried_at`\n# (seconds: its checks ran out "
                       "of time at that limit) only if its checks get longer.")
UNDECIDED_COMMENT = ("# Sets an audit's checks ran out of time on (`tried_at`: the limit, in "
                     "seconds); the next audit\n# taking this file --known asks them again "
                     "only if its checks get longer.")
TOWERS_COMMENT = ("# Towers the audits met, each meeting a set of cards no other tower here or "
                  "in the audit's pool meets;\n# each brick: colour x y z dx dy dz in lattice "
                  "units, z = 0 the table.")


def write_conflicts(path: Path, deck: Deck, known: ConflictFile, note: str) -> None:
    """`known.sets` and `known.unminimised`: card ids of each set, written smallest first."""
    ordered = sorted((sorted(ids) for ids in known.sets), key=lambda ids: (len(ids), ids))
    unminimised = _smallest_first(known.unminimised_limits())
    undecided = _smallest_first(known.undecided)
    lines = [
        *(line.format(deck=deck.name) for line in HEADER),
        *(f"# {line}" for line in known.history),
        f"# {note}",
        f"deck: {deck.name}",
        f"fingerprint: {deck_fingerprint(deck)}",
        *([f"complete_up_to: {known.complete_up_to}"] if known.complete_up_to else []),
        "conflicts:" if ordered else "conflicts: []",
        *(f"  - {' '.join(ids)}" for ids in ordered),
        *(["proofs:"] if known.proofs else []),
        *(line for ids, command in sorted((sorted(ids), command) for ids, command in known.proofs)
          for line in (f"  - cards: {' '.join(ids)}", f"    by: {json.dumps(command)}")),
        *([UNMINIMISED_COMMENT, "unminimised:"] if unminimised else []),
        *(line for ids, tried_at in unminimised for line in (
            f"  - cards: {' '.join(ids)}",
            *([] if tried_at is None else [f"    tried_at: {tried_at:g}"]))),
        *([UNDECIDED_COMMENT, "undecided:"] if known.undecided else []),
        *(line for ids, tried_at in undecided
          for line in (f"  - cards: {' '.join(ids)}", f"    tried_at: {tried_at:g}")),
        *([TOWERS_COMMENT, "towers:"] if known.towers else []),
        *(f"  - {tower_line(tower)}" for tower in known.towers),
    ]
    write_atomic(path, ("\n".join(lines) + "\n").encode("utf-8"))


def file_note(known: ConflictFile, complete: bool = False) -> str:
    """The comment line under the history that sums the file up (`write_conflicts`): how many
    conflicts, what proved them (`complete`: one complete audit), and what is left."""
    merged = sum(line.startswith("Built by: ") for line in known.history) > 1
    state = ("a complete audit" if complete else
             "incomplete audits, each set proved by one of them" if merged else
             "an incomplete audit")
    if known.proofs:
        state += f" ({len(known.proofs)} by the proof `proofs` names)"
    note = f"{len(known.sets)} minimal conflicts, from {state}."
    if known.unminimised:
        note += f" {len(known.unminimised)} more sets no tower meets are still to shrink."
    if known.undecided:
        note += f" {len(known.undecided)} sets are undecided (`undecided`)."
    if not complete and known.complete_up_to:
        note += f" Every conflict of up to {known.complete_up_to} cards is here."
    return note


def record_proof(path: Path, deck: Deck, ids: Sequence[str], by: str, why: str) -> ConflictFile:
    """Add to the file at `path` a conflict proved without Z3 (`by`: the command that proves
    it, listed under `proofs`; `why`: why Z3 did not, for the history), dropping the sets still
    to shrink or undecided that hold it. It must be minimal by what the file knows: no listed
    conflict inside it or around it, no tower meeting it, and each part one card smaller met
    by a tower of the file or no larger than `complete_up_to` (then holding no conflict, it is
    solvable). Only what is added is checked: the file's towers were when they were added
    (`conflicts_to_take` checks them all again, a minute for green's 15,000)."""
    known = current_file(path, deck)
    new = frozenset(ids)
    wrong = _not_minimal(deck, known, new)
    if wrong is not None:
        raise UserError(f"{path}: '{' '.join(sorted(new))}' cannot be added as a minimal "
                        f"conflict: {wrong}")
    left = [(s, t) for s, t in known.unminimised_limits() if not new <= frozenset(s)]
    known = replace(
        known, sets=(*known.sets, tuple(sorted(new))),
        proofs=(*known.proofs, (tuple(sorted(new)), by)),
        unminimised=tuple(s for s, _ in left),
        unminimised_tried_at=tuple(t for _, t in left) if known.unminimised_tried_at else (),
        undecided=tuple((s, t) for s, t in known.undecided if not new <= frozenset(s)),
        history=(*known.history, f"Proved by {why}: {' '.join(sorted(new))};",
                 "  see proofs."))
    write_conflicts(path, deck, known, file_note(known))
    return current_file(path, deck)


def current_file(path: Path, deck: Deck) -> ConflictFile:
    """The file, which must be written for this very version of `deck` (else an error naming
    its fingerprint); its towers are not checked here (`conflicts_to_take` does)."""
    known = read_conflict_file(path, deck)
    if known is None:
        raise load_yaml(path, fast=True)["fingerprint"].error(
            f"these conflicts are of another version of deck '{deck.name}' (its conditions, "
            "rule or bricks changed); audit it without --known")
    return known


def _not_minimal(deck: Deck, known: ConflictFile, new: frozenset[str]) -> str | None:
    """Why what `known` holds does not let `new` be a minimal conflict (None: it does)."""
    for ids in known.sets:
        if frozenset(ids) <= new:
            return f"it holds the listed conflict '{' '.join(ids)}'"
        if new < frozenset(ids):
            return f"it lies inside the listed conflict '{' '.join(ids)}'"
    met = [_card_ids(deck, deck.cards_met(tower)) for tower in known.towers]
    if any(new <= m for m in met):
        return "a tower of the file meets all its cards"
    for card in sorted(new):
        part = new - {card}
        if len(part) > known.complete_up_to and not any(part <= m for m in met):
            return (f"its part '{' '.join(sorted(part))}' is not known solvable (no tower of "
                    f"the file meets it, and the file is complete up to "
                    f"{known.complete_up_to} cards)")
    return None


def add_towers(path: Path, deck: Deck, towers: Sequence[Tower], why: str) -> ConflictFile:
    """Add to the file at `path` standing towers found without Z3 (`why`: how, for the
    history), dropping the undecided sets they meet; the file is written once. Each must keep
    the deck's rule and meet no listed conflict, as `conflicts_to_take` asks of every tower
    (only of these here). A tower the file holds already is left out (a script's tower that
    settles its own set, listed undecided, comes again among its recolourings)."""
    known = current_file(path, deck)
    history = list(known.history)
    undecided = list(known.undecided)
    held = {tower_line(tower) for tower in known.towers}
    towers = [tower for tower in towers if tower_line(tower) not in held]
    for tower in towers:
        wrong = problems(tower, deck.bricks, deck.all_used, [])
        met = _card_ids(deck, deck.cards_met(tower))
        clash = next((ids for ids in (*known.sets, *known.unminimised)
                      if frozenset(ids) <= met), None)
        if wrong or clash is not None:
            raise UserError(f"{path}: the tower cannot be added: " + (
                wrong[0] if wrong else f"it meets every card of the conflict '{' '.join(clash)}'"))
        settled = [ids for ids, _ in undecided if frozenset(ids) <= met]
        undecided = [(s, t) for s, t in undecided if s not in settled]
        history.append(f"Tower found by {why}: it meets "
                       + ("; ".join(" ".join(ids) for ids in settled) or "no undecided set") + ".")
    known = replace(known, towers=(*known.towers, *towers), undecided=tuple(undecided),
                    history=tuple(history))
    write_conflicts(path, deck, known, file_note(known))
    return current_file(path, deck)


def _smallest_first(
    entries: Iterable[tuple[Sequence[str], T]],
) -> list[tuple[list[str], T]]:
    """(set, limit) entries, each set's ids sorted, the sets smallest first."""
    return sorted(((sorted(ids), limit) for ids, limit in entries),
                  key=lambda entry: (len(entry[0]), entry[0]))


def gather_conflicts(
    path: Path, deck: Deck, found: Sequence[Sequence[str]], solvable: Sequence[set[str]],
    complete: bool, complete_up_to: int, command: str, towers: Sequence[Tower] = (),
    unminimised: Sequence[tuple[Sequence[str], float | None]] = (),
    undecided: Sequence[tuple[Sequence[str], float]] = (),
) -> ConflictFile:
    """What to write to `path` after an audit: the conflicts it `found` and those the file
    already holds for this version of the deck (see the module docstring), each checked
    against this audit's facts (`solvable`: card sets it met a tower for, the pool's among
    them); the `towers` it met with those the file holds (`_towers_to_keep`); and the sets
    still to shrink, its `unminimised` (each with its `tried_at`) and the file's
    (`_left_to_shrink`); and the sets left undecided, its `undecided` and the file's, each
    with the longest limit it was tried at, but those a tower or a conflict now decides
    (`_still_undecided`)."""
    new = {frozenset(ids) for ids in found}
    new_unminimised = {frozenset(ids): tried_at for ids, tried_at in unminimised}
    met_sets = MaskSet(len(deck.cards), card_masks(deck, solvable))
    kept = read_conflict_file(path, deck) if path.is_file() else None
    if kept is None:
        left, tried_at = _left_to_shrink(new_unminimised, new)
        return ConflictFile(tuple(tuple(ids) for ids in found), complete_up_to,
                            (f"Built by: {command}",),
                            towers=_towers_to_keep(deck, {}, towers, met_sets, complete_up_to),
                            unminimised=left, unminimised_tried_at=tried_at,
                            undecided=_still_undecided(deck, undecided, [*new, *new_unminimised],
                                                       met_sets))
    for ids, mask, node in zip(kept.sets, card_masks(deck, kept.sets), kept.nodes, strict=True):
        old = frozenset(ids)
        clash = next((m for m in new if m != old and (m < old or old < m)), None)
        if clash is not None:
            raise node.error(f"'{' '.join(ids)}' and this audit's conflict "
                             f"'{' '.join(sorted(clash))}' cannot both be minimal; one of "
                             "the audits is wrong")
        if met_sets.has_superset_of(mask):
            raise node.error(f"'{' '.join(ids)}' is no conflict: this audit met a tower "
                             "meeting every card of it")
        if complete and old not in new:
            raise node.error(f"'{' '.join(ids)}' is missing from this audit, which is "
                             "complete; one of the audits is wrong")
    for ids, mask, node in zip(kept.unminimised, card_masks(deck, kept.unminimised),
                               kept.unminimised_nodes, strict=True):
        if met_sets.has_superset_of(mask):
            raise node.error(f"'{' '.join(ids)}' is no conflict: this audit met a tower "
                             "meeting every card of it")
        around = next((m for m in new if frozenset(ids) < m), None)
        if around is not None:
            raise node.error(f"'{' '.join(ids)}' lies inside this audit's conflict "
                             f"'{' '.join(sorted(around))}', which then cannot be minimal; one "
                             "of the audits is wrong")
    kept_masks = [deck.cards_met(tower) for tower in kept.towers]
    _check_towers_meet_none(deck, kept_masks, kept.tower_nodes, new | new_unminimised.keys())
    added = new - {frozenset(k) for k in kept.sets}  # in sorted order: a set's varies by run
    sets = [*kept.sets, *sorted(tuple(sorted(m)) for m in added)]
    both = {frozenset(ids): tried_at for ids, tried_at in kept.unminimised_limits()}
    for ids, tried_at in new_unminimised.items():
        both[ids] = longest_limit(both.get(ids), tried_at)
    left, tried_at = _left_to_shrink(both, map(frozenset, sets))
    up_to = max(kept.complete_up_to, complete_up_to)
    return ConflictFile(tuple(sets), up_to,
                        (*kept.history, f"Built by: {command}"), proofs=kept.proofs,
                        towers=_towers_to_keep(deck, _first_per_set(kept_masks, kept.towers),
                                               towers, met_sets, up_to),
                        unminimised=left, unminimised_tried_at=tried_at,
                        undecided=_still_undecided(deck, [*kept.undecided, *undecided],
                                                   [*map(frozenset, sets), *both], met_sets))


def _check_towers_meet_none(
    deck: Deck, tower_masks: Sequence[int], nodes: Sequence[Node],
    conflicts: Iterable[frozenset[str]],
) -> None:
    """Raise at the first tower (its cards met: `tower_masks`) that meets every card of one
    of the `conflicts`."""
    towers = MaskSet(len(deck.cards), tower_masks)
    listed = list(conflicts)
    met = {mask: ids for mask, ids in zip(card_masks(deck, listed), listed, strict=True)
           if towers.has_superset_of(mask)}
    for tower, node in zip(tower_masks, nodes, strict=True):
        clash = next((ids for mask, ids in met.items() if mask & ~tower == 0), None)
        if clash is not None:
            raise node.error(f"this tower meets every card of this audit's conflict "
                             f"'{' '.join(sorted(clash))}'; one of the audits is wrong")


def _left_to_shrink(
    unminimised: dict[frozenset[str], float | None], conflicts: Iterable[frozenset[str]],
) -> tuple[tuple[tuple[str, ...], ...], tuple[float | None, ...]]:
    """Of the `unminimised` sets, those holding none of the `conflicts` and no other of them:
    the ones a smaller conflict may still hide in, smallest first; and their `tried_at`."""
    minimal = list(conflicts)
    left = sorted(((tuple(sorted(m)), tried_at) for m, tried_at in unminimised.items()
                   if not any(c <= m for c in minimal) and not any(o < m for o in unminimised)),
                  key=lambda entry: (len(entry[0]), entry[0]))
    return tuple(ids for ids, _ in left), tuple(tried_at for _, tried_at in left)


def _still_undecided(
    deck: Deck, undecided: Iterable[tuple[Sequence[str], float]],
    conflicts: Sequence[frozenset[str]], met_sets: MaskSet,
) -> tuple[tuple[tuple[str, ...], float], ...]:
    """Each of the `undecided` sets once, with the longest limit it was tried at, but those
    holding one of the `conflicts` or met by a tower (inside one of the `met_sets`)."""
    longest: dict[frozenset[str], float] = {}
    for ids, tried_at in undecided:
        key = frozenset(ids)
        longest[key] = max(longest.get(key, tried_at), tried_at)
    held = MaskSet(len(deck.cards), card_masks(deck, conflicts))
    return tuple((tuple(sorted(ids)), tried_at)
                 for (ids, tried_at), mask in zip(longest.items(), card_masks(deck, longest),
                                                  strict=True)
                 if not held.has_subset_of(mask) and not met_sets.has_superset_of(mask))


def longest_limit(*limits: float | None) -> float | None:
    """The longest of the time limits known (None: none is)."""
    known = [limit for limit in limits if limit is not None]
    return max(known) if known else None


def _card_ids(deck: Deck, mask: int) -> frozenset[str]:
    return frozenset(card.id for k, card in enumerate(deck.cards) if mask >> k & 1)


def card_masks(deck: Deck, sets: Iterable[Iterable[str]]) -> list[int]:
    """Each set of card ids as a bit mask over the deck's cards."""
    index = {card.id: k for k, card in enumerate(deck.cards)}
    return [mask_of(index[i] for i in ids) for ids in sets]


NEW_TOWERS_KEPT = 1000
"""The most towers one audit adds to a file: a round of green in the fifty-second session met
34,036 sets no earlier tower met (5.8 MB of towers; the file held 3,056), most of them
by-products of a few checks that each grew one set and met hundreds of towers on the way. Those
kept are the ones that spare the next audit the most checks (`new_sets`)."""


def _towers_to_keep(
    deck: Deck, kept_met: Mapping[int, Tower], found: Sequence[Tower], met_sets: MaskSet,
    complete_up_to: int,
) -> tuple[Tower, ...]:
    """Of the file's towers (`kept_met`: the first for each set of cards met, as a bit mask)
    and the audit's (`found`), one per set of cards met, and none whose set lies inside a
    larger one a tower kept meets or `met_sets` does without a tower offered (the audit's pool,
    which every audit draws again): the few towers that add to what the next audit starts from.
    Of the audit's, at most `NEW_TOWERS_KEPT`: first those meeting the most sets of one card
    more than the file is complete for that no other meets (`new_sets.most_new_sets_first`),
    then those meeting the most cards. The file's stay unless a tower kept or the pool covers
    them. In the order offered, the file's first."""
    cards = len(deck.cards)
    found_met = _first_per_set(map(deck.cards_met, found), found)
    before = MaskSet(cards, (set(met_sets) - found_met.keys()) | kept_met.keys())
    offered = [mask for mask in _most_cards_first(found_met.keys() - kept_met.keys())
               if not before.has_larger_superset_of(mask)]
    # With no more offered than kept, the greedy choice would keep the same towers: it never
    # takes one inside another offered before it, and all the others not inside one are taken
    # after it. Counting the sets the file's towers meet took 3.5 of the 6 minutes pink's
    # eleventh round spent writing its file.
    added = [] if len(offered) <= NEW_TOWERS_KEPT else most_new_sets_first(
        offered, before, cards, complete_up_to + 1, NEW_TOWERS_KEPT)
    larger, taken = MaskSet(cards, [*before, *added]), set(added)
    for mask in offered:  # most cards first
        if len(taken) == NEW_TOWERS_KEPT:
            break
        if mask not in taken and not larger.has_larger_superset_of(mask):
            larger.add(mask)
            taken.add(mask)
    return (*(tower for mask, tower in kept_met.items()
              if not larger.has_larger_superset_of(mask)),
            *(tower for mask, tower in found_met.items() if mask in taken))


def _first_per_set(masks: Iterable[int], towers: Sequence[Tower]) -> dict[int, Tower]:
    """The first of `towers` for each set of cards met (`masks`, one per tower; bit k:
    `deck.cards[k]`)."""
    first: dict[int, Tower] = {}
    for mask, tower in zip(masks, towers, strict=True):
        first.setdefault(mask, tower)
    return first


def _most_cards_first(masks: Iterable[int]) -> list[int]:
    return sorted(masks, key=int.bit_count, reverse=True)


def read_conflict_file(path: Path, deck: Deck) -> ConflictFile | None:
    """The file checked against `deck` (its name and card ids); None when it was written for
    another version of the deck (its fingerprint)."""
    root = load_yaml(path, fast=True)
    root.only_keys("deck", "fingerprint", "complete_up_to", "conflicts", "proofs",
                   "unminimised", "undecided", "towers")
    named = root["deck"]
    if named.str() != deck.name:
        raise named.error(f"conflicts of deck '{named.str()}', not of '{deck.name}'")
    if root["fingerprint"].str() != deck_fingerprint(deck):
        return None
    known = {card.id for card in deck.cards}

    def card_ids(line: str) -> tuple[str, ...]:
        ids = tuple(line.split())
        if not ids or len(set(ids)) != len(ids):
            raise UserError(f"expected distinct card ids separated by spaces, found '{line}'")
        unknown = [i for i in ids if i not in known]
        if unknown:
            raise UserError(f"unknown card id '{unknown[0]}' in deck {deck.name}")
        return ids

    complete = root.get("complete_up_to")
    nodes = tuple(root["conflicts"].items())
    sets = tuple(node.parsed(card_ids) for node in nodes)
    listed = root.get("towers")
    tower_nodes = () if listed is None else tuple(listed.items())
    colors = deck.bricks.color_names
    unminimised_nodes, unminimised, tried_at = _limited_sets(
        root.get("unminimised"), card_ids, sets, "it has nothing left to shrink", required=False)
    _, undecided, undecided_at = _limited_sets(
        root.get("undecided"), card_ids, [*sets, *unminimised], "no tower meets it",
        required=True)
    return ConflictFile(
        sets, 0 if complete is None else complete.int(low=0), _history(path, deck), nodes,
        _proofs(root.get("proofs"), {frozenset(ids) for ids in sets}, card_ids),
        TowerLines(tower_nodes, colors), unminimised, tried_at, unminimised_nodes,
        tuple(zip(undecided, cast(tuple[float, ...], undecided_at), strict=True)))


def _limited_sets(
    listed: Node | None, card_ids: Callable[[str], tuple[str, ...]],
    conflicts: Sequence[tuple[str, ...]], so: str, required: bool,
) -> tuple[tuple[Node, ...], tuple[tuple[str, ...], ...], tuple[float | None, ...]]:
    """A section of sets each with the time limit it was tried at (`unminimised`,
    `undecided`): the sets' nodes, the sets, the limits (`required`: every entry names one).
    A set holding one of the `conflicts` is an error (`so`: what that would mean)."""
    entries = () if listed is None else tuple(listed.items())
    for entry in entries:
        entry.only_keys("cards", "tried_at")
    nodes = tuple(entry["cards"] for entry in entries)
    sets = tuple(node.parsed(card_ids) for node in nodes)
    limits = tuple(entry["tried_at"].number(low=0) if required
                   else None if (limit := entry.get("tried_at")) is None else limit.number(low=0)
                   for entry in entries)
    as_sets = [(c, frozenset(c)) for c in conflicts]  # made once: 161 x 971 took 0.07 s
    for ids, node in zip(sets, nodes, strict=True):
        held = frozenset(ids)
        inside = next((c for c, cards in as_sets if cards <= held), None)
        if inside is not None:
            raise node.error(f"'{' '.join(ids)}' holds the conflict '{' '.join(inside)}', so "
                             + so)
    return nodes, sets, limits


def _proofs(
    listed: Node | None, sets: set[frozenset[str]], card_ids: Callable[[str], tuple[str, ...]],
) -> tuple[tuple[tuple[str, ...], str], ...]:
    """The `proofs` section: each entry a set of the conflicts list and its command."""
    proofs = []
    for entry in () if listed is None else listed.items():
        entry.only_keys("cards", "by")
        ids = entry["cards"].parsed(card_ids)
        if frozenset(ids) not in sets:
            raise entry["cards"].error(f"'{' '.join(ids)}' is not in the conflicts list")
        proofs.append((ids, entry["by"].str()))
    return tuple(proofs)


def conflicts_to_take(path: Path, deck: Deck, jobs: int = 1) -> ConflictFile:
    """The conflicts and towers an audit is to take as known (`brix audit --known`): those of
    a file written for this very version of `deck` (else an error naming its fingerprint),
    each tower checked (else an error naming its line), over `jobs` processes."""
    known = current_file(path, deck)
    conflicts = MaskSet(len(deck.cards), card_masks(deck, (*known.sets, *known.unminimised)))
    verdicts = tower_verdicts(deck, known.towers, jobs)
    for (wrong, met), node in zip(verdicts, known.tower_nodes, strict=True):
        if wrong is not None:
            raise node.error(f"this tower is none of the deck's: {wrong}")
        clash = conflicts.subset_of(met)
        if clash is not None:
            raise node.error(f"this tower meets every card of the conflict "
                             f"'{' '.join(sorted(_card_ids(deck, clash)))}'; the file "
                             "contradicts itself")
    return known


TOWERS_A_TASK = 2000
"""Towers one process checks at a time (`tower_verdicts`). Pink's 34,501, beside a running
round's two workers: 181 s in one process (41 % statics, 33 % testing the cards each meets
against the conflicts in a Python loop, now a MaskSet, 18 % the cards met), 87 s in two."""


def tower_verdicts(
    deck: Deck, towers: Sequence[Tower], jobs: int = 1,
) -> list[tuple[str | None, int]]:
    """Each tower's first problem (None: it stands and keeps the deck's rule) and the cards
    it meets (`Deck.cards_met`, which remembers them here as well), over `jobs` processes."""
    verdicts = map_in_parts(_tower_verdicts, deck, towers, jobs, TOWERS_A_TASK)
    for tower, (_, met) in zip(towers, verdicts, strict=True):
        deck.remember_met(tower, met)
    return verdicts


def _tower_verdicts(deck: Deck, towers: Sequence[Tower]) -> list[tuple[str | None, int]]:
    verdicts = []
    for tower in towers:
        wrong = problems(tower, deck.bricks, deck.all_used, [])
        verdicts.append((wrong[0] if wrong else None, deck.cards_met(tower)))
    return verdicts


def _history(path: Path, deck: Deck) -> tuple[str, ...]:
    """The comment lines the file starts with, `# ` taken off, but for the fixed `HEADER` and
    the last line (the note `write_conflicts` ends them with, rewritten on every write)."""
    fixed = {line.format(deck=deck.name) for line in HEADER}
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        if line not in fixed:
            lines.append(line.removeprefix("#").removeprefix(" "))
    return tuple(lines[:-1])


@dataclass(frozen=True)
class Shipped:
    """What verify and deal take from a deck's shipped conflicts file."""

    conflicts: tuple[frozenset[Condition], ...]  # the conditions of each conflict
    towers: TowerPool | None  # its towers, judged as a pool (None: it has none)


_SHIPPED: dict[tuple[str, tuple[tuple[str, str], ...]], Shipped] = {}


def shipped(deck: Deck) -> Shipped:
    """The shipped conflicts file of `deck` (nothing when it has none, or one of another
    version of the deck), read once per process and per deck content."""
    key = (deck.name, tuple((c.id, c.source) for c in deck.cards))
    if key not in _SHIPPED:
        path = conflicts_folder() / f"{deck.name}.yaml"
        known = read_conflict_file(path, deck) if path.is_file() else None
        sets = () if known is None else known.sets
        towers = None if known is None or not known.towers else TowerPool(
            deck.bricks, deck.all_used, 0, 0, cache=cache_folder(), towers=known.towers)
        condition = {card.id: card.condition for card in deck.cards}
        _SHIPPED[key] = Shipped(
            tuple(frozenset(condition[i] for i in ids) for ids in sets), towers)
    return _SHIPPED[key]


def known_conflicts(deck: Deck) -> tuple[frozenset[Condition], ...]:
    """The conditions of each shipped conflict of `deck` (`shipped`)."""
    return shipped(deck).conflicts


def known_towers(deck: Deck) -> TowerPool | None:
    """The towers the audits of `deck` met (`shipped`): a set of cards one of them meets is
    solvable, with that tower, at once. Each card's verdict on them is kept on disk, as the
    difficulty pool's are (`TowerPool`)."""
    return shipped(deck).towers


def save_known_towers(deck: Deck) -> None:
    """Keep on disk each card's verdict on the known towers learnt in this run, so the next
    run reads it instead of judging 1000 towers again (`TowerPool.save`)."""
    towers = shipped(deck).towers
    if towers is not None:
        towers.save()

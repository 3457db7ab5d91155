"""The map of MARCO: which sets of cards are still unexplored while hunting every minimal conflict.

Why: a deck is certified when every minimal unsatisfiable set of cards (MUS) is known, because
then any deal is unsolvable exactly when it contains one of them (a subset test). MARCO (Liffiton
et al., "Fast, flexible MUS enumeration", Constraints 2016) finds them all by keeping a Boolean
formula over one variable per card whose models are the sets not yet explained:

- a set known to be solvable (a tower meets it) explains all its subsets: block them ("grow");
- a known MUS explains all its supersets (each is unsolvable): block them ("shrink").

The caller asks for a seed (an unexplored set), decides it with the tower solver, and reports
back; when the map has no model left, every set is explained and the MUSes found are all there
are. Seeds are grown to be maximal (no card can be added and stay unexplored), so a solvable
answer blocks as much as possible. Sets are bit masks over the deck's cards (bit k: card k).

Several seeds can be out at once (a process pool decides them in parallel): while a seed is
being decided, its subsets are held back by a guarded clause, as if it were solvable, so the
next seed differs from it; the guard is switched off when its answer comes in.

A set the solver could not decide in time ("unknown") is held back with its subsets for good:
the map then closes without having explained them, and the caller must report the result as
incomplete (the MUSes inside such a set may be missing). Its supersets come last: most are as
hard (green's 30-minute audit spent 1,300 of its 3,600 s of worker time on eleven sets of 4
cards holding G13 G24 G30, undecided each), and if the set is unsolvable none of them is a MUS.

A set can also be set aside for now (`defer`): a first short check ran out of time. It is
treated like an undecided set (its subsets held back, its supersets last) until `reconsider`
brings it back to be asked with more time, once nothing else is left; meanwhile the answers to
other sets often explain it (a generated deck's X34 X35 X50, undecided at 240 s twice, was met
by a colouring of a later set's tower), and the map does not close while it is aside.

Seeds can also be asked for in growing sizes (`seed_by_size`), so that the conflicts of few
cards, which spoil the most deals, are found before the larger ones.

Small sets first (`small_seed`): a full enumeration may be out of reach in the time at hand,
but the map can be asked for an unexplored set of at most k cards, not grown. Deciding those
first, k = 1, 2, 3, ..., finds every conflict of up to k cards (a small seed that is unsolvable
shrinks to a MUS inside it) and proves there are no others (`open_up_to`). An undecided large
set does not hide its small subsets from this question (they are usually quick to decide).
Small seeds are not asked of Z3 but met walking the small sets in order, each tested against
the known sets: to Z3 the question is a hitting set over thousands of solvable sets, and on a
generated 50-card deck it took 0.5 s a seed while the workers waited (two thirds of their time).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from itertools import chain, combinations

import numpy as np
import z3

from tower_print import z3check


def members(mask: int) -> list[int]:
    """Indices of the set bits, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(indices: Iterable[int]) -> int:
    mask = 0
    for k in indices:
        mask |= 1 << k
    return mask


class MaskSet:
    """Card sets with fast subset tests (tens of thousands of them: the tower pool): numpy over
    64-bit words when the deck has at most 63 cards, plain integers otherwise."""

    def __init__(self, n: int, masks: Iterable[int] = ()) -> None:
        self.fast = n <= 63
        self._buf = np.zeros(64, dtype=np.uint64)
        self._items: list[int] = []
        for mask in masks:
            self.add(mask)

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[int]:
        return iter(list(self._items))

    def __contains__(self, mask: object) -> bool:
        return mask in self._items

    def add(self, mask: int) -> None:
        if self.fast:
            if len(self._items) == len(self._buf):
                self._buf = np.concatenate([self._buf, np.zeros_like(self._buf)])
            self._buf[len(self._items)] = mask
        self._items.append(mask)

    def _array(self) -> np.ndarray:
        return self._buf[:len(self._items)]

    def has_superset_of(self, mask: int) -> bool:
        """Some set here contains `mask`."""
        if self.fast:
            return bool(np.any(np.uint64(mask) & ~self._array() == 0))
        return any(mask & ~s == 0 for s in self._items)

    def has_larger_superset_of(self, mask: int) -> bool:
        """Some set here contains `mask` and more cards."""
        if self.fast:
            held = self._array()
            return bool(np.any((np.uint64(mask) & ~held == 0) & (held != np.uint64(mask))))
        return any(mask & ~s == 0 and s != mask for s in self._items)

    def has_subset_of(self, mask: int) -> bool:
        """Some set here lies inside `mask`."""
        return self.subset_of(mask) is not None

    def subset_of(self, mask: int, proper: bool = False) -> int | None:
        """The first set here that lies inside `mask` (with `proper`, other than `mask`
        itself), or None."""
        if self.fast:
            held = self._array()
            inside = held & ~np.uint64(mask) == 0
            if proper:
                inside &= held != np.uint64(mask)
            found = np.flatnonzero(inside)
            return self._items[int(found[0])] if len(found) else None
        return next((s for s in self._items if s & ~mask == 0 and not (proper and s == mask)),
                    None)

    def drop_subsets_of(self, mask: int) -> None:
        """Forget the sets inside `mask` (a larger one now covers them)."""
        if self.fast:
            keep = (self._array() & ~np.uint64(mask)) != 0
            kept = self._array()[keep]
            self._buf = np.zeros(max(64, 2 * len(kept)), dtype=np.uint64)
            self._buf[:len(kept)] = kept
            self._items = [s for s, k in zip(self._items, keep.tolist(), strict=True) if k]
        else:
            self._items = [s for s in self._items if s & ~mask != 0]


class CardMap:
    """The unexplored sets of `n` cards, optionally only those of at most `max_cards` cards."""

    def __init__(self, n: int, max_cards: int | None = None, seed: int = 0) -> None:
        self.n = n
        self.full = (1 << n) - 1
        self.max_cards = max_cards
        self.ctx = z3check.new_context()
        # The map is pure Boolean with cardinality constraints: Z3's finite-domain SAT solver
        # found the first seed of a green round (14,000 solvable sets, sets of 5 cards) in
        # 2.4 s, where the default solver took 80-105 s with the workers waiting.
        self.solver = z3.SolverFor("QF_FD", ctx=self.ctx)
        self.solver.set("random_seed", seed)
        self.cards = [z3.Bool(f"card_{k}", self.ctx) for k in range(n)]
        if max_cards is not None and max_cards < n:
            self.solver.add(z3.AtMost(*self.cards, max_cards))
        self.rng = random.Random(seed)
        self.solvable = MaskSet(n)  # the maximal known solvable sets
        self.muses = MaskSet(n)
        self.unknown = MaskSet(n)
        self._pending: dict[int, z3.BoolRef] = {}  # seed -> guard of its temporary block
        # set aside for now -> guards of its block below (subsets) and above (supersets)
        self._deferred: dict[int, tuple[z3.BoolRef, z3.BoolRef]] = {}
        # being asked again (`retry`) -> guard of its block above, dropped when it settles
        self._retrying: dict[int, z3.BoolRef] = {}
        self._guards = 0
        self.closed = False
        # An undecided set is set aside with its subsets for `seed` (under `_undecided_below`),
        # but with its supersets for `small_seed`: a small subset of it may still be decided,
        # while a superset would mostly be undecided too, at the full time limit each (and it
        # is open anyway). `open_up_to` assumes neither, so undecided sets count as open.
        self._undecided_below = z3.Bool("undecided_below", self.ctx)
        self._undecided_above = z3.Bool("undecided_above", self.ctx)  # supersets: last
        self._small: dict[int, z3.BoolRef] = {}  # k -> literal for "1 to k cards"
        self._small_walk: tuple[int, Iterator[int]] | None = None  # (limit, sets still ahead)
        self._small_waiting: list[int] = []  # small sets met while held back: asked first
        self.explained_up_to = 0  # `explain_up_to`
        # `seed_by_size`: the sizes explored, with the supersets of undecided sets aside (True)
        # and then with them (False)
        self._explored = {True: 0, False: 0}
        self._swept: tuple[int, list[int]] | None = None  # `sweep`: (size, sets still ahead)

    # ------------------------------------------------------------------ what is known
    def known_solvable(self, mask: int) -> bool:
        return self.solvable.has_superset_of(mask)

    def known_unsolvable(self, mask: int) -> bool:
        return self.muses.has_subset_of(mask)

    def add_solvable(self, mask: int) -> bool:
        """A set a checked tower meets; False when a known solvable set already covered it."""
        if self.known_solvable(mask):
            return False
        self.solvable.drop_subsets_of(mask)
        self.solvable.add(mask)
        self._block_down(mask)
        return True

    def add_solvable_many(self, masks: Iterable[int]) -> None:
        """Many solvable sets at once (a tower pool): largest first, so that few are kept."""
        for mask in sorted(set(masks), key=lambda m: (-m.bit_count(), m)):
            if not self.known_solvable(mask):
                self.solvable.add(mask)
                self._block_down(mask)

    def add_mus(self, mask: int) -> bool:
        """A minimal unsolvable set; False when it was known already."""
        if mask in self.muses:
            return False
        self.muses.add(mask)
        self.solver.add(self._not_all_of(mask))
        return True

    def explain_up_to(self, k: int) -> None:
        """Every set of up to `k` cards is explained: an earlier audit decided them all (those
        holding none of the conflicts added are solvable)."""
        if k > self.explained_up_to:
            self.explained_up_to = k
            self.solver.add(z3.AtLeast(*self.cards, k + 1))
            for beside_undecided, explored in self._explored.items():
                self._explored[beside_undecided] = max(explored, k)

    def explained(self, mask: int) -> bool:
        """Known solvable, known unsolvable, or set aside as undecided (for good: a set inside
        one set aside for now is still asked when it comes up)."""
        return (mask.bit_count() <= self.explained_up_to or self.known_solvable(mask)
                or self.known_unsolvable(mask) or self.unknown.has_superset_of(mask))

    def held_back(self, mask: int) -> bool:
        """Inside a pending seed: its answer may explain this set, so wait for it."""
        return any(mask & ~p == 0 for p in self._pending)

    def add_unknown(self, mask: int) -> None:
        """A set left undecided: it and its subsets are set aside, unexplained (for small seeds,
        it and its supersets); `seed_by_size` leaves its supersets to the end."""
        self.unknown.add(mask)
        self._set_aside(mask, self._undecided_below, self._undecided_above)

    def defer(self, mask: int) -> None:
        """Set `mask` aside for now, as if undecided, until `reconsider` or `retry`."""
        self._guards += 1
        below = z3.Bool(f"deferred_below_{self._guards}", self.ctx)
        above = z3.Bool(f"deferred_above_{self._guards}", self.ctx)
        self._set_aside(mask, below, above)
        self._deferred[mask] = (below, above)

    def deferred(self) -> list[int]:
        """The sets set aside for now, in the order they were."""
        return list(self._deferred)

    def reconsider(self, mask: int) -> None:
        """Bring back a set set aside (`defer`) that was explained meanwhile: it is open again.
        The walk over small sets starts again, to meet the sets it passed for holding it."""
        self.undefer(mask)
        self._restart_small_walk(mask)

    def undefer(self, mask: int) -> None:
        """Drop the setting aside of `mask` for now, if it is: explained meanwhile
        (`reconsider`), or, a log replayed, asked again since (`retry`) with that answer."""
        guards = self._deferred.pop(mask, None)
        if guards is not None:
            self._release(*guards)

    def retry(self, mask: int) -> None:
        """Claim a set set aside (`defer`) to ask it again now. Its supersets stay aside until
        it settles: while green's G13 G24 G30 was asked again for 480 s (and stayed undecided),
        two sets of 4 cards holding it were asked, for 20 s each, in vain."""
        below, above = self._deferred.pop(mask)
        self._release(below)
        self._retrying[mask] = above
        self.claim(mask)

    def _restart_small_walk(self, mask: int) -> None:
        if self._small_walk is not None and mask.bit_count() <= self._small_walk[0]:
            self._small_walk = None

    def _set_aside_above(self, mask: int) -> bool:
        """Holding a set set aside for now (or being asked again) or for good."""
        return self.unknown.has_subset_of(mask) or any(
            d & ~mask == 0 for d in chain(self._deferred, self._retrying))

    def _set_aside(self, mask: int, below: z3.BoolRef, above: z3.BoolRef) -> None:
        """Under `below`, no seed inside `mask`; under `above`, none holding it."""
        self._block_down(mask, below)
        self.solver.add(z3.Implies(above, self._not_all_of(mask)))

    def _not_all_of(self, mask: int) -> z3.BoolRef:
        """No seed holds every card of `mask`."""
        return z3.Or([z3.Not(self.cards[k]) for k in members(mask)])

    def _block_down(self, mask: int, guard: z3.BoolRef | None = None) -> None:
        outside = [self.cards[k] for k in range(self.n) if not mask >> k & 1]
        clause = z3.Or(outside) if outside else z3.BoolVal(False, self.ctx)
        self.solver.add(clause if guard is None else z3.Implies(guard, clause))

    # ------------------------------------------------------------------ seeds
    def seed(self, limit: int | None = None, beside_undecided: bool = False) -> int | None:
        """A maximal unexplored set (of at most `limit` cards, when given; holding no undecided
        set, with `beside_undecided`) not overlapping the pending ones' subsets, or None when
        there is none (`closed` once nothing is pending either and neither option was given)."""
        guards = [*self._pending.values(), self._undecided_below,
                  *(below for below, _ in self._deferred.values())]
        if limit is not None:
            guards.append(self._at_most(limit))
        if beside_undecided:
            guards += [self._undecided_above, *(above for _, above in self._deferred.values()),
                       *self._retrying.values()]
        if z3check.check(self.solver, *guards) != z3.sat:
            self.closed = (limit is None and not beside_undecided and not self._pending
                           and not self._deferred)
            return None
        model = self.solver.model()
        mask = mask_of(k for k in range(self.n) if z3.is_true(model.eval(self.cards[k])))
        order = [k for k in range(self.n) if not mask >> k & 1]
        self.rng.shuffle(order)
        cap = min(c for c in (limit, self.max_cards, self.n) if c is not None)
        # Growing keeps every clause but the conflicts' true (a set that holds a card outside a
        # solvable or pending set still does with more cards), so a card may join unless the
        # set would then hold a known conflict: a subset test instead of one Z3 check a card.
        for k in order:
            if mask.bit_count() >= cap:
                break
            grown = mask | 1 << k
            if not self.muses.has_subset_of(grown) and not (
                    beside_undecided and self._set_aside_above(grown)):
                mask = grown
        self.claim(mask)
        return mask

    def seed_by_size(self) -> int | None:
        """`seed`, small sets first: a maximal unexplored set of at most `explored_up_to` + 1
        cards while there are any, then of one card more (a larger one while those left are
        pending), `explored_up_to` going up once none is left or pending. A small conflict is
        held by many more deals than a large one, and a search among small sets finds them
        fast: pink's shipped file, complete up to 3 cards, lacked 121 conflicts of 4 cards that
        one 30-minute audit of the sets of up to 4 cards found (a round over all sizes had just
        found 7, of 5 to 9 cards). The supersets of undecided sets come once no other set is
        left, in growing sizes too. The sets of the size `sweep` listed come from its list."""
        largest = min(self.n, self.max_cards or self.n)
        for beside_undecided in (True, False):
            for limit in range(self._explored[beside_undecided] + 1, largest + 1):
                if self._swept is not None and self._swept[0] == limit:
                    seed = self._swept_seed(limit == largest, beside_undecided)
                else:
                    seed = self.seed(limit if limit < largest else None, beside_undecided)
                if seed is not None:
                    return seed
                if not self._pending and limit < largest:
                    self._explored[beside_undecided] = limit
        return None

    def sweep(self, size: int, sets: Iterable[int]) -> None:
        """Every set of `size` cards nothing explains yet, listed outside the map (from its
        ranks: `new_sets.open_sets_of_size`), when every smaller set is explained: `seed_by_size`
        takes them from the list, in an order drawn from the map's seed, instead of searching
        the map. Pink's twelfth round found 2,231 seeds of 6 cards in 15 minutes, a search of
        the map each, as Z3 weighed the guards of thousands of sets aside, the workers idle
        for most of it; and once the list was done, one last search that would find none ran
        for minutes. The list stands for the map at its size: a set it drops is explained,
        pending or set aside (`deferred`), and the sets set aside are asked again from there."""
        if size != self.explained_up_to + 1:
            raise ValueError(f"a sweep of {size} cards needs every set of up to {size - 1} "
                             f"cards explained, not {self.explained_up_to}")
        ahead = [mask for mask in sets if not self.explained(mask)
                 and mask not in self._deferred and mask not in self._pending]
        self.rng.shuffle(ahead)
        self._swept = (size, ahead)

    def _swept_seed(self, largest: bool, beside_undecided: bool) -> int | None:
        """The first set of the sweep's list that `seed` could answer with: claimed, and
        dropped from the list with those explained or claimed meanwhile; those only held back
        or set aside for now stay for later. None as `seed` would (`closed` too, when the
        sweep's size is the `largest` explored)."""
        assert self._swept is not None
        size, ahead = self._swept
        larger_aside = [mask for mask in chain(self._deferred, self._pending)
                        if mask.bit_count() > size]
        kept: list[int] = []
        for at, mask in enumerate(ahead):
            if self.explained(mask) or mask in self._deferred or mask in self._pending:
                continue
            if any(mask & ~aside == 0 for aside in larger_aside) or (
                    beside_undecided and self._set_aside_above(mask)):
                kept.append(mask)
                continue
            self._swept = (size, kept + ahead[at + 1:])
            self.claim(mask)
            return mask
        self._swept = (size, kept)
        self.closed = (largest and not beside_undecided and not self._pending
                       and not self._deferred)
        return None

    @property
    def explored_up_to(self) -> int:
        """Every set of up to this many cards holding no undecided set is explained, set aside
        or pending (`seed_by_size`)."""
        return self._explored[True]

    def small_seed(self, limit: int) -> int | None:
        """An unexplored set of 1 to `limit` cards, fewest cards first (then in index order),
        not grown; None when there is none outside the pending seeds and the undecided sets and
        their supersets. Each set is met once: one explained then stays explained, and one held
        back by a pending seed waits to be asked first next time."""
        if self._small_walk is None or self._small_walk[0] != limit:
            walk = (mask_of(chosen) for size in range(1, limit + 1)
                    for chosen in combinations(range(self.n), size))
            self._small_walk, self._small_waiting = (limit, walk), []
        for mask in chain(list(self._small_waiting), self._small_walk[1]):
            if mask in self._small_waiting:
                self._small_waiting.remove(mask)
            if (mask.bit_count() <= self.explained_up_to or self.known_solvable(mask)
                    or self.known_unsolvable(mask) or self._set_aside_above(mask)):
                continue
            if self.held_back(mask):
                self._small_waiting.append(mask)
                continue
            self.claim(mask)
            return mask
        return None

    def open_up_to(self, limit: int) -> bool:
        """Some set of 1 to `limit` cards is not explained by a known solvable set or a known
        conflict (it is undecided, pending or not yet asked). A set the map holds open by name
        (undecided, set aside, pending or on the sweep's list) answers at once: at the end of
        pink's sixteenth round the search of the map for one of 6 cards took two minutes."""
        if limit <= self.explained_up_to:
            return False
        named = chain(self.unknown, self._deferred, self._pending, self._retrying,
                      self._swept[1] if self._swept is not None else ())
        if any(self.explained_up_to < mask.bit_count() <= limit and self._open(mask)
               for mask in named):
            return True
        return z3check.check(self.solver, self._at_most(limit)) == z3.sat

    def _open(self, mask: int) -> bool:
        """Neither a known solvable set nor a known conflict explains `mask`."""
        return not self.known_solvable(mask) and not self.known_unsolvable(mask)

    def _at_most(self, k: int) -> z3.BoolRef:
        """A literal that, assumed, asks for a set of 1 to `k` cards."""
        if k not in self._small:
            self._small[k] = z3.Bool(f"at_most_{k}", self.ctx)
            self.solver.add(z3.Implies(self._small[k], z3.And(z3.AtMost(*self.cards, k),
                                                              z3.Or(self.cards))))
        return self._small[k]

    def claim(self, mask: int) -> None:
        """`mask` is being decided: hold its subsets back until `settle`."""
        self._guards += 1
        guard = z3.Bool(f"pending_{self._guards}", self.ctx)
        self._block_down(mask, guard)
        self._pending[mask] = guard

    def pending(self, seed: int) -> bool:
        """Is `seed` claimed, its answer still to come (`claim`, `settle`)?"""
        return seed in self._pending

    def settle(self, seed: int) -> None:
        """The pending seed's answer is in (and was added): drop its temporary block, and, for a
        set asked again (`retry`), the block of its supersets."""
        self._release(self._pending.pop(seed))
        above = self._retrying.pop(seed, None)
        if above is not None:
            self._release(above)
            self._restart_small_walk(seed)

    def _release(self, *guards: z3.BoolRef) -> None:
        """Drop the blocks under `guards` for good (each guard is false from now on)."""
        for guard in guards:
            self.solver.add(z3.Not(guard))

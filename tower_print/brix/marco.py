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
incomplete (the MUSes inside such a set may be missing).
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import z3


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


class CardMap:
    """The unexplored sets of `n` cards, optionally only those of at most `max_cards` cards."""

    def __init__(self, n: int, max_cards: int | None = None, seed: int = 0) -> None:
        self.n = n
        self.full = (1 << n) - 1
        self.max_cards = max_cards
        self.ctx = z3.Context()
        self.solver = z3.Solver(ctx=self.ctx)
        self.solver.set("random_seed", seed)
        self.cards = [z3.Bool(f"card_{k}", self.ctx) for k in range(n)]
        if max_cards is not None and max_cards < n:
            self.solver.add(z3.AtMost(*self.cards, max_cards))
        self.rng = random.Random(seed)
        self.solvable: list[int] = []  # maximal known solvable sets
        self.muses: list[int] = []
        self.unknown: list[int] = []
        self._pending: dict[int, z3.BoolRef] = {}  # seed -> guard of its temporary block
        self._guards = 0
        self.closed = False

    # ------------------------------------------------------------------ what is known
    def known_solvable(self, mask: int) -> bool:
        return any(mask & ~s == 0 for s in self.solvable)

    def known_unsolvable(self, mask: int) -> bool:
        return any(m & ~mask == 0 for m in self.muses)

    def add_solvable(self, mask: int) -> bool:
        """A set a checked tower meets; False when a known solvable set already covered it."""
        if self.known_solvable(mask):
            return False
        self.solvable = [s for s in self.solvable if s & ~mask != 0]
        self.solvable.append(mask)
        self._block_down(mask)
        return True

    def add_mus(self, mask: int) -> bool:
        """A minimal unsolvable set; False when it was known already."""
        if mask in self.muses:
            return False
        self.muses.append(mask)
        self.solver.add(z3.Or([z3.Not(self.cards[k]) for k in members(mask)]))
        return True

    def explained(self, mask: int) -> bool:
        """Known solvable, known unsolvable, or set aside as undecided."""
        return (self.known_solvable(mask) or self.known_unsolvable(mask)
                or any(mask & ~u == 0 for u in self.unknown))

    def held_back(self, mask: int) -> bool:
        """Inside a pending seed: its answer may explain this set, so wait for it."""
        return any(mask & ~p == 0 for p in self._pending)

    def add_unknown(self, mask: int) -> None:
        """A set left undecided: it and its subsets are set aside, unexplained."""
        self.unknown.append(mask)
        self._block_down(mask)

    def _block_down(self, mask: int, guard: z3.BoolRef | None = None) -> None:
        outside = [self.cards[k] for k in range(self.n) if not mask >> k & 1]
        clause = z3.Or(outside) if outside else z3.BoolVal(False, self.ctx)
        self.solver.add(clause if guard is None else z3.Implies(guard, clause))

    # ------------------------------------------------------------------ seeds
    def seed(self) -> int | None:
        """A maximal unexplored set not overlapping the pending ones' subsets, or None when
        nothing is left (`closed` once nothing is pending either)."""
        guards = list(self._pending.values())
        if self.solver.check(*guards) != z3.sat:
            self.closed = not self._pending
            return None
        model = self.solver.model()
        chosen = [k for k in range(self.n) if z3.is_true(model.eval(self.cards[k]))]
        order = [k for k in range(self.n) if k not in chosen]
        self.rng.shuffle(order)
        for k in order:
            if self.max_cards is not None and len(chosen) >= self.max_cards:
                break
            trial = [*chosen, k]
            if self.solver.check(*guards, *(self.cards[j] for j in trial)) == z3.sat:
                chosen = trial
        mask = mask_of(chosen)
        self.claim(mask)
        return mask

    def claim(self, mask: int) -> None:
        """`mask` is being decided: hold its subsets back until `settle`."""
        self._guards += 1
        guard = z3.Bool(f"pending_{self._guards}", self.ctx)
        self._block_down(mask, guard)
        self._pending[mask] = guard

    def settle(self, seed: int) -> None:
        """The pending seed's answer is in (and was added): drop its temporary block."""
        guard = self._pending.pop(seed)
        self.solver.add(z3.Not(guard))

    @property
    def pending(self) -> int:
        return len(self._pending)

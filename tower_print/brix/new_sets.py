"""Which of an audit's towers a conflicts file keeps: those meeting the most sets of cards of
the smallest size the file is not complete for, that no tower it keeps and no tower of the
audit's pool meets. The next audit taking the file asks those sets first, a check each (2 s on
average for the solvable ones in green's rounds), unless a tower it starts from meets them.

Green's first round of the fifty-third session settled 8,040 sets of 5 cards with the 29,043
towers it met; the 1,000 of them meeting the most cards, kept by the rule before this one, met
417 of those sets, while 1,086 taken greedily (each time the tower meeting the most sets not yet
met) meet them all, 99 % with 1,006.

Sets are counted by their rank in the combinatorial number system, in numpy arrays: those
towers meet some 400 million sets of 5 cards between them."""

from __future__ import annotations

import functools
import heapq
import itertools
import math
from collections.abc import Iterable, Iterator, Sequence

import numpy as np

from tower_print.brix.in_processes import map_in_parts
from tower_print.brix.marco import members

MOST_SETS = 50_000_000
"""The most sets of the size (one byte each) counted; beyond, no tower is taken for them."""


@functools.cache
def choice_rows(count: int, size: int) -> np.ndarray:
    """Each way to choose `size` of `count` positions, one row each, in increasing order."""
    return np.array(list(itertools.combinations(range(count), size)),
                    dtype=np.int64).reshape(math.comb(count, size), size)


class SetsOfSize:
    """The sets of `size` of a deck's `cards`, each by its rank, those met so far marked."""

    def __init__(self, cards: int, size: int) -> None:
        self.cards = cards
        self.size = size
        self._binomials = np.array([[math.comb(n, k) for k in range(size + 1)]
                                    for n in range(cards)], dtype=np.int64)
        self.met = np.zeros(math.comb(cards, size), dtype=bool)

    def ranks(self, mask: int) -> np.ndarray:
        """The rank of each set of `size` of the cards in `mask` (bit k: card k), in no
        particular order."""
        chunks = list(self._rank_chunks(mask))
        return np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int64)

    def mark_inside(self, mask: int) -> None:
        """Mark every set of `size` of the cards in `mask` met."""
        for chunk in self._rank_chunks(mask):
            self.met[chunk] = True

    def _rank_chunks(self, mask: int) -> Iterator[np.ndarray]:
        """The ranks of the sets of `size` of the cards in `mask`, one array per highest card.
        A set's rank is the sum of C(card, place) over its cards in increasing order (the
        combinatorial number system), so the sums of the sets of `k` of the cards below one
        card extend by it to those of `k + 1`: four times faster than summing the columns of
        every combination (pink's 28,013 towers meet six billion sets of 6 cards)."""
        below: list[np.ndarray] = [np.zeros(1, dtype=np.int64)]  # k cards below: their sums
        below += [np.zeros(0, dtype=np.int64)] * (self.size - 1)
        for count, card in enumerate(members(mask)):
            if count >= self.size - 1:
                yield below[self.size - 1] + math.comb(card, self.size)
            for k in range(min(self.size - 1, count + 1), 0, -1):
                below[k] = np.concatenate((below[k], below[k - 1] + math.comb(card, k)))

    def ranks_of_rows(self, rows: np.ndarray) -> np.ndarray:
        """The rank of each set given as a row of `size` cards in increasing order."""
        ranks = np.zeros(len(rows), dtype=np.int64)
        for k in range(self.size):
            ranks += self._binomials[rows[:, k], k + 1]
        return ranks

    def ranks_holding(self, mask: int) -> np.ndarray:
        """The rank of each set of `size` cards that holds every card of `mask`."""
        inside = members(mask)
        others = np.array([k for k in range(self.cards) if not mask >> k & 1], dtype=np.int64)
        choices = choice_rows(len(others), self.size - len(inside))
        rows = np.sort(np.concatenate([np.tile(np.array(inside, dtype=np.int64),
                                               (len(choices), 1)), others[choices]], axis=1),
                       axis=1)
        return self.ranks_of_rows(rows)

    def mask_of_rank(self, rank: int) -> int:
        """The set of `size` cards of that rank, as a card mask."""
        mask, card = 0, self.cards
        for place in range(self.size, 0, -1):
            card -= 1
            while math.comb(card, place) > rank:
                card -= 1
            mask |= 1 << card
            rank -= math.comb(card, place)
        return mask


MASKS_A_TASK = 10_000
"""Sets met one process marks at a time (`open_sets_of_size`): the twenty-third pink round's
start listed its open sets of 6 cards, those inside some 50,000 sets met marked, in about 30 s
in one process."""


def open_sets_of_size(cards: int, size: int, met: Iterable[int], conflicts: Iterable[int],
                      jobs: int = 1) -> list[int]:
    """The sets of `size` of `cards` cards (as card masks, by rank) inside no mask `met` and
    holding none of the `conflicts`: those an audit knowing just these still has to decide.
    Pink's sets of 6 cards with its file's towers and an audit's pool: 4,373 of 29 million.
    The sets met are marked in `jobs` processes."""
    sets = SetsOfSize(cards, size)
    for packed in map_in_parts(_marked_inside, (cards, size), list(met), jobs, MASKS_A_TASK):
        sets.met |= np.unpackbits(packed, count=len(sets.met)).astype(bool)
    for conflict in conflicts:
        if conflict.bit_count() <= size:
            sets.met[sets.ranks_holding(conflict)] = True
    return [sets.mask_of_rank(int(rank)) for rank in np.flatnonzero(~sets.met)]


def _marked_inside(shape: tuple[int, int], met: Sequence[int]) -> list[np.ndarray]:
    """The sets of `shape` (cards, size) inside one of the masks `met`, as packed bits."""
    sets = SetsOfSize(*shape)
    for mask in met:
        sets.mark_inside(mask)
    return [np.packbits(sets.met)]


def most_new_sets_first(
    candidates: Sequence[int], known: Iterable[int], cards: int, size: int, limit: int,
) -> list[int]:
    """Up to `limit` of the `candidates` (card masks), taken greedily: each time the one
    meeting the most sets of `size` cards that no mask `known` and none taken meets (ties: the
    first offered), until none meets a new one; none when there are too many such sets to
    count (`MOST_SETS`)."""
    if limit <= 0 or not 0 < size <= cards or math.comb(cards, size) > MOST_SETS:
        return []
    sets = SetsOfSize(cards, size)
    for mask in known:
        sets.mark_inside(mask)
    new: dict[int, np.ndarray] = {}
    for mask in candidates:
        ranks = sets.ranks(mask)
        new[mask] = ranks[~sets.met[ranks]]
    order = {mask: k for k, mask in enumerate(candidates)}
    queue = [(-len(ranks), order[mask], mask) for mask, ranks in new.items() if len(ranks)]
    heapq.heapify(queue)
    taken: list[int] = []
    while queue and len(taken) < limit:
        count, _, mask = heapq.heappop(queue)
        ranks = new[mask] = new[mask][~sets.met[new[mask]]]
        if len(ranks) < -count:  # others taken since met some of them: queue it again
            if len(ranks):
                heapq.heappush(queue, (-len(ranks), order[mask], mask))
            continue
        sets.met[ranks] = True
        taken.append(mask)
    return taken

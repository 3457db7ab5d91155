"""An upper bound on the best score for a roll sequence, so that par's quality is known.

The relaxation: forget the shapes. Every placed piece is 4 blocks of sand that may be poured into
any columns. Every real game is also a game of this relaxed kind, so the relaxed optimum is an
upper bound on the real one:

- In T turns at most T rolled pieces and u at-will pieces (u <= 6, u <= T, one per turn) are
  placed: at most B = 4 (T + u) blocks.
- A floor at level L holding k blocks needs k columns at least L high, and columns have no
  holes, so it takes at least L x k blocks: its value L x k is at most the largest L x k with
  L <= floors, k <= width and L x k <= B.
- The bonus for u used circles is the table's value for 6 - u unused.

The bound is the best over u of those two terms. It ignores lost turns and every fit of a piece
to the surface, which is exactly where the real game can fall short of it.
"""

from __future__ import annotations

from collections.abc import Sequence

from tower_print.uptower.engine import game_length
from tower_print.uptower.pieces import Rules


def best_floor(rules: Rules, blocks: int) -> int:
    """The largest level x columns that `blocks` blocks can fill (the relaxed best floor)."""
    return max((level * min(rules.width, blocks // level)
                for level in range(1, rules.floors + 1)), default=0)


def upper_bound(rules: Rules, rolls: Sequence[int]) -> int:
    """No game with these rolls scores more (see the module docstring for why)."""
    turns = game_length(rules, rolls)
    return max(best_floor(rules, 4 * (turns + used)) + rules.bonus[rules.faces - used]
               for used in range(min(rules.faces, turns) + 1))

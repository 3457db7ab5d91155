"""Pausing Python's cyclic garbage collector while Z3 runs in a second thread.

Why: `TowerSolver.check` runs Z3 in a thread while the local search runs in the caller's. Python
frees Z3 objects through `Z3_dec_ref` on their context; when the cyclic garbage collector does
that in the search thread while Z3 is inside `check` on the same context (Z3 contexts are not
thread-safe), Z3's state can be corrupted and it returns a tower that does not meet the cards
(seen here as "solver witness rejected by the checker" in the audit's brute-force test; part or
all of that turned out to be a stray interrupt, see `TowerSolver._clear_interrupt`). Z3 contexts
are not thread-safe all the same, so the solver pauses the collector for the length of each
check: reference counting still frees almost everything, only cycles wait for the end of it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

import tower_print.z3check  # noqa: F401 - Ctrl-C during a check is Python's, not Z3's


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector (if it was on) for the duration of the block."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()

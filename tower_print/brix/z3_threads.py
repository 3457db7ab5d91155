"""A guard for calling `TowerSolver.check` while Z3 runs in a second thread.

Why: `TowerSolver.check` runs Z3 in a thread while the local search runs in the caller's. Python
frees Z3 objects through `Z3_dec_ref` on their context; when the cyclic garbage collector does
that in the search thread while Z3 is inside `check` on the same context (Z3 contexts are not
thread-safe), Z3's state can be corrupted and it returns a tower that does not meet the cards
(seen here: "solver witness rejected by the checker", on about 4 runs in 10 of the audit's
brute-force test under load; none in 12 runs with the collector paused). Until the solver
guards itself, callers pause the collector around each check: reference counting still frees
almost everything, only cycles wait for the end of the check.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


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

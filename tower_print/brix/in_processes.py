"""Plain work over many items split across processes: the checks an audit makes of a
conflicts file's towers before its own workers start, which took minutes in one process."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import TypeVar

C = TypeVar("C")
T = TypeVar("T")
R = TypeVar("R")


def map_in_parts(
    work: Callable[[C, Sequence[T]], list[R]], common: C, items: Sequence[T], jobs: int,
    part: int,
) -> list[R]:
    """`work(common, some_items)` over `items`, `part` of them at a time, in `jobs` spawned
    processes (in this one when one process or one part will do): the results in order.
    `work` must be a module's function and `common` picklable; spawned, no state of this
    process (a Z3 context, a thread) is copied."""
    parts = [items[k:k + part] for k in range(0, len(items), part)]
    if jobs <= 1 or len(parts) <= 1:
        return work(common, items)
    with ProcessPoolExecutor(min(jobs, len(parts)), mp_context=get_context("spawn")) as pool:
        return [r for done in pool.map(work, [common] * len(parts), parts) for r in done]

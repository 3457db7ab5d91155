"""Ctrl-C that is never lost.

Python raises KeyboardInterrupt wherever the main thread is when it handles the signal. If that
is inside a destructor (`__del__`: Z3's terms release themselves that way thousands of times a
second while the solvers run), Python prints "Exception ignored in ..." and drops it, and the
command carries on as if nothing had happened: a `brix deal` interrupted in its first round went
on to deal all twenty (1 run in 25 here, under load). `keep_interrupts` hands such a dropped
interrupt back to the main thread (`_thread.interrupt_main`), which raises it again a moment
later; should that land in a destructor too, the same happens again. The moment is taken by a
short-lived thread: the main thread would raise it at once, inside the hook, where it would be
dropped for good. A Ctrl-C that lands while ctypes converts the arguments of a call into Z3's
library comes out as `ctypes.ArgumentError("argument 1: KeyboardInterrupt: ")` instead (CI saw
one in `Z3_dec_ref`, and the deal went on to its twentieth round): `interrupted` knows both.
A Ctrl-C that lands while a Z3 term is being made (`AstRef.__init__` sets `ast`, then `ctx`)
leaves a half-made term whose destructor fails on the missing `ctx`; it owns nothing yet, so the
hook lets it go quietly (CI once saw "'BoolSortRef' object has no attribute 'ctx'" printed after
an interrupted `brix verify` had said its last line).
"""

from __future__ import annotations

import _thread
import contextlib
import ctypes
import sys
import threading
from typing import Any

REDELIVERY_DELAY = 0.01
"""Seconds before a dropped interrupt is raised again: destructors take microseconds."""


def keep_interrupts() -> None:
    """Install the hook (once per process; the command line's `main` does)."""
    if getattr(sys.unraisablehook, "keeps_interrupts", False):
        return
    previous = sys.unraisablehook

    def hook(unraisable: Any) -> None:
        if unraisable.exc_value is not None and interrupted(unraisable.exc_value):
            timer = threading.Timer(REDELIVERY_DELAY, _thread.interrupt_main)
            timer.daemon = True  # never keeps a finishing command alive
            # No new threads while Python shuts down: it is ending anyway.
            with contextlib.suppress(RuntimeError):
                timer.start()
            return
        if _half_made_z3_object(unraisable):
            return
        previous(unraisable)

    hook.keeps_interrupts = True  # type: ignore[attr-defined]
    sys.unraisablehook = hook


def _half_made_z3_object(unraisable: Any) -> bool:
    """A Z3 destructor that failed on an attribute its constructor, interrupted, never set."""
    return (isinstance(unraisable.exc_value, AttributeError)
            and getattr(unraisable.object, "__name__", None) == "__del__"
            and getattr(unraisable.object, "__module__", "").startswith("z3"))


def interrupted(error: BaseException) -> bool:
    """Ctrl-C, also when it landed while Python was converting the arguments of a call into
    Z3's library: ctypes then raises ArgumentError("argument 1: KeyboardInterrupt: ") instead."""
    return isinstance(error, KeyboardInterrupt) or (
        isinstance(error, ctypes.ArgumentError) and "KeyboardInterrupt" in str(error))

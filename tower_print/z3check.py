"""Z3 checks that Ctrl-C can stop.

Left to itself, Z3 takes SIGINT for its own during `Solver.check`: it cancels the check, which
returns "unknown", and Python never hears of the signal, so a Ctrl-C read as a time limit (or, where
"unknown" counts as "no", as an answer) and the command went on. Importing this module turns that
off (Z3's global `ctrl_c` parameter): Ctrl-C is Python's KeyboardInterrupt again. Python only
raises it between bytecodes, though, and a check is one long call into C; so `check` runs the
check in a second thread and waits in this one, and on an interrupt stops the check and re-raises.
Shared by the games' solvers (a module of its own because no game imports another).
"""

from __future__ import annotations

import gc
import threading

import z3

z3.set_param("ctrl_c", False)


def new_context() -> z3.Context:
    """A Z3 context that Ctrl-C may interrupt while it is being made. `z3.Context` sets `owner`
    only once Z3 has made the context, and its destructor reads it: an interrupt before that
    left "AttributeError: 'Context' object has no attribute 'owner'" as the last line of an
    interrupted command. Marked as owning nothing first, a half-made context goes quietly."""
    context = z3.Context.__new__(z3.Context)
    context.owner = False
    context.__init__()  # type: ignore[misc]
    return context


def check(solver: z3.Solver, *assumptions: z3.BoolRef) -> z3.CheckSatResult:
    """`solver.check(*assumptions)`, interruptible by Ctrl-C (KeyboardInterrupt) in the main
    thread. The cyclic garbage collector is paused meanwhile: it would free Z3 objects of the
    same context from this thread while Z3 works in the other (see brix/z3_threads.py)."""
    if threading.current_thread() is not threading.main_thread():
        return _check(solver, assumptions)  # no signal reaches this thread: nothing to wait for
    answer: list[z3.CheckSatResult] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            answer.append(_check(solver, assumptions))
        except BaseException as error:  # re-raised below, in the caller's thread
            failure.append(error)

    was_on = gc.isenabled()
    gc.disable()
    worker = threading.Thread(target=run, name="z3-check", daemon=True)
    try:
        worker.start()
        while worker.is_alive():
            worker.join(0.05)
    except BaseException:
        while worker.is_alive():  # the check may not have begun yet: ask until it ends
            solver.interrupt()
            worker.join(0.01)
        raise
    finally:
        if was_on:
            gc.enable()
    if failure:
        raise failure[0]
    return answer[0]


def _check(solver: z3.Solver, assumptions: tuple[z3.BoolRef, ...]) -> z3.CheckSatResult:
    """`solver.check(*assumptions)` for Boolean assumptions, without z3's cast of each one
    (a sort comparison through the C API apiece): with 5,000 guards, as the audit's map of
    card sets holds late in a round, 2 ms a check instead of 38 ms, where the cast took a
    third of the audit's search for its next set."""
    array = (z3.Ast * len(assumptions))(*(a.as_ast() for a in assumptions))
    return z3.CheckSatResult(z3.Z3_solver_check_assumptions(
        solver.ctx.ref(), solver.solver, len(assumptions), array))

"""A Ctrl-C that Python would drop (raised inside a destructor) is raised again."""

from __future__ import annotations

import ctypes
import gc
import signal
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
import z3

from tower_print import z3check
from tower_print.interrupts import keep_interrupts


class RaisesOnDelete:
    def __init__(self, error: type[BaseException] | BaseException) -> None:
        self.error = error

    def __del__(self) -> None:
        raise self.error


@pytest.fixture
def hooked(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """`keep_interrupts` installed over a recording hook, with Python's own Ctrl-C handler."""
    seen: list[Any] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: seen.append(unraisable.exc_type))
    keep_interrupts()
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield seen
    finally:
        signal.signal(signal.SIGINT, previous)


def wait(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        time.sleep(0.001)


def test_an_interrupt_dropped_in_a_destructor_is_raised_again(hooked: list[Any]) -> None:
    with pytest.raises(KeyboardInterrupt):
        RaisesOnDelete(KeyboardInterrupt)  # deleted at once; Python drops what __del__ raised
        wait(2.0)
    assert hooked == []  # handled, not printed as "Exception ignored"


def test_an_interrupt_ctypes_wrapped_in_a_destructor_is_raised_again(hooked: list[Any]) -> None:
    """What CI saw: Ctrl-C while ctypes converted `Z3_dec_ref`'s arguments in a term's __del__."""
    with pytest.raises(KeyboardInterrupt):
        RaisesOnDelete(ctypes.ArgumentError("argument 1: KeyboardInterrupt: "))
        wait(2.0)
    assert hooked == []


def test_other_errors_in_destructors_go_to_the_usual_hook(hooked: list[Any]) -> None:
    RaisesOnDelete(ValueError)
    wait(0.1)  # nothing is raised again
    assert hooked == [ValueError]


def test_a_z3_term_interrupted_while_it_is_made_goes_quietly(hooked: list[Any]) -> None:
    """`AstRef.__init__` sets `ast`, then `ctx`: Ctrl-C between them left a term whose
    destructor printed "'BoolSortRef' object has no attribute 'ctx'" (CI, after verify)."""
    half_made = z3.BoolSortRef.__new__(z3.BoolSortRef)
    half_made.ast = None
    del half_made
    gc.collect()
    assert hooked == []


def test_installing_twice_wraps_once(hooked: list[Any]) -> None:
    installed = sys.unraisablehook
    keep_interrupts()
    assert sys.unraisablehook is installed


@pytest.mark.parametrize(("make", "complaints"), [
    (z3.Context, [AttributeError]),  # why new_context exists: this is what CI printed once
    (z3check.new_context, []),
])
def test_a_context_interrupted_while_it_is_made_goes_quietly(
    monkeypatch: pytest.MonkeyPatch, make: Any, complaints: list[type],
) -> None:
    """Ctrl-C inside Z3's making of a context leaves a half-made object behind."""
    def interrupted(_config: Any) -> None:
        raise KeyboardInterrupt

    seen: list[Any] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: seen.append(unraisable.exc_type))
    monkeypatch.setattr(z3.z3, "Z3_mk_context_rc", interrupted)
    with pytest.raises(KeyboardInterrupt):
        make()
    gc.collect()
    assert seen == complaints


def test_the_installed_command_keeps_interrupts() -> None:
    """`tower-print` starts at `cli.main`, which installs the hook, not at the bare Typer app."""
    from importlib.metadata import entry_points

    from tower_print import cli

    (script,) = entry_points(group="console_scripts", name="tower-print")
    assert script.load() is cli.main

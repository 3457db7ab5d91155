"""The `tower-print` command line: thin wrappers that parse options and call the game packages."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from tower_print.content import UserError

app = typer.Typer(
    help="Print-and-play kits and proven-solvable puzzles for three tower games.",
    no_args_is_help=True, pretty_exceptions_enable=False, add_completion=False,
)
brix = typer.Typer(help="TowerBrix: verify condition cards.", no_args_is_help=True)
app.add_typer(brix, name="brix")

F = TypeVar("F", bound=Callable[..., Any])


def reports_user_errors(command: F) -> F:
    """Bad input becomes one line on stderr and exit code 2, never a traceback."""

    @wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except UserError as error:
            typer.echo(f"error: {error}", err=True)
            raise typer.Exit(2) from None

    return run  # type: ignore[return-value]


@brix.command("verify")
@reports_user_errors
def brix_verify(
    cards: Annotated[list[str] | None, typer.Argument(help="Card ids, e.g. G03 G17.")] = None,
    condition: Annotated[list[str] | None, typer.Option(
        "--condition", "-c", help="A condition in the condition language (repeatable).")] = None,
    deck: Annotated[str, typer.Option(help="green, pink, or a deck .yaml file.")] = "green",
    timeout: Annotated[float, typer.Option(min=0.1, help="Seconds before 'unknown'.")] = 60.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON.")] = False,
    svg: Annotated[Path | None, typer.Option(help="Draw the witness tower to this SVG.")] = None,
    seed: Annotated[int, typer.Option(help="Z3 random seed.")] = 0,
) -> None:
    """Can one tower meet all these cards? Exit 0 solvable (with a checked tower), 1 unsolvable
    (with the cards that contradict), 3 unknown (time limit), 2 bad input."""
    from tower_print.brix.sketch import tower_scene
    from tower_print.brix.solver import TowerSolver
    from tower_print.brix.verify import (
        EXIT_CODES,
        conditions_to_check,
        open_deck,
        verdict_json,
        verdict_text,
    )
    from tower_print.render.svg import write_svg

    chosen = open_deck(deck)
    items = conditions_to_check(chosen, cards or [], condition or [])
    if svg is not None and not svg.parent.is_dir():
        raise UserError(f"--svg: folder {svg.parent} does not exist")
    verdict = TowerSolver(chosen.bricks, chosen.all_used, seed=seed).verify(items, timeout)
    if as_json:
        typer.echo(json.dumps(verdict_json(verdict, items, chosen), indent=2))
    else:
        typer.echo(verdict_text(verdict, items, chosen))
    if svg is not None and verdict.tower is not None:
        colors = chosen.bricks.colors
        write_svg(tower_scene(verdict.tower, colors, chosen.bricks.unit_mm), svg)
    raise typer.Exit(EXIT_CODES[verdict.status])


def main() -> None:
    app()

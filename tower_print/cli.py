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
brix = typer.Typer(help="TowerBrix: verify condition cards, print the print-and-play kit.",
                    no_args_is_help=True)
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


DeckChoice = Annotated[str, typer.Option(help="green, pink or all.")]


def _deck_names(deck: str) -> list[str]:
    from tower_print.brix.decks import DECK_NAMES

    if deck == "all":
        return list(DECK_NAMES)
    if deck not in DECK_NAMES:
        raise UserError(f"--deck: unknown deck '{deck}' (expected {', '.join(DECK_NAMES)} or all)")
    return [deck]


@brix.command("examples")
@reports_user_errors
def brix_examples(
    deck: DeckChoice = "all",
    seed: Annotated[int, typer.Option(help="Seed of the sampled towers and of Z3.")] = 0,
    samples: Annotated[int, typer.Option(min=1, help="Random standing towers to choose from.")]
    = 1500,
    timeout: Annotated[float, typer.Option(
        min=0.1, help="Seconds the solver may take for a card no sample meets.")] = 60.0,
) -> None:
    """Find an example tower for every card (drawn on the card faces) and store it in
    content/brix/examples/DECK.yaml. Run it after editing a deck or the bricks."""
    from tower_print.brix.decks import shipped_deck
    from tower_print.brix.examples import find_examples, write_examples

    for name in _deck_names(deck):
        chosen = shipped_deck(name)
        towers = find_examples(chosen, seed, samples, timeout,
                               progress=lambda line, n=name: typer.echo(f"{n}: {line}", err=True))
        path = write_examples(chosen, towers, seed, samples)
        typer.echo(f"{name}: {len(towers)} example towers written to {path}")


@brix.command("print")
@reports_user_errors
def brix_print(
    out: Annotated[Path, typer.Option(help="Folder for the output files (made if missing).")],
    deck: DeckChoice = "all",
    paper: Annotated[str, typer.Option(help="a4 or letter.")] = "a4",
    duplex: Annotated[str, typer.Option(
        help="long / short: backs mirrored for double-sided printing flipped on that edge; "
             "none: backs on their own pages for gluing.")] = "long",
    card: Annotated[str | None, typer.Option(
        help="Card size: poker (63.5x88.9, default), bridge, mini, tarot or WxH in mm.")] = None,
    cut_guides: Annotated[bool, typer.Option(
        "--cut-guides", help="Draw rounded cut guides on the trim lines.")] = False,
    png: Annotated[bool, typer.Option(
        "--png", help="Also one PNG per card at 300 dpi with 1/8 inch bleed (print shops).")]
    = False,
    tts: Annotated[bool, typer.Option(
        "--tts", help="Also Tabletop Simulator deck sheets (faces, backs, hidden card).")] = False,
    templates: Annotated[Path | None, typer.Option(
        help="Folder of your own templates, used before the shipped ones.")] = None,
) -> None:
    """Print-and-play files: condition cards (fronts and backs), overview cards, score pad and
    fold-up paper bricks, as PDF and SVG pages; with --png and --tts also pictures per card and
    Tabletop Simulator sheets. All files are written at the end, or none on an error."""
    from tower_print.brix.printables import PrintJob, build_outputs
    from tower_print.render.impose import DUPLEX_MODES
    from tower_print.render.output import write_files

    if duplex not in DUPLEX_MODES:
        raise UserError(f"--duplex: '{duplex}' is not one of: {', '.join(DUPLEX_MODES)}")
    job = PrintJob(tuple(_deck_names(deck)), paper.lower(), card, duplex, cut_guides, png, tts,
                   templates)
    files = build_outputs(job, progress=lambda line: typer.echo(line, err=True))
    written = write_files(out, files)
    pdfs = sorted(str(p) for p in written if p.suffix == ".pdf")
    typer.echo(f"{len(written)} files written to {out}: " + ", ".join(Path(p).name for p in pdfs))


def main() -> None:
    app()

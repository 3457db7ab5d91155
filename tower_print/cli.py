"""The `tower-print` command line: thin wrappers that parse options and call the game packages."""

from __future__ import annotations

import ctypes
import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

import typer
from typer.core import TyperGroup

from tower_print.content import UserError, load_yaml
from tower_print.interrupts import interrupted, keep_interrupts

if TYPE_CHECKING:
    from tower_print.brix.audit import Exploration
    from tower_print.brix.decks import Deck

try:  # newer typer carries its own copy of click
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover - typer on the click package
    from click import exceptions as click_errors  # type: ignore[no-redef]

# click >= 8.2: no arguments on a group with no_args_is_help; that one shows the help as it is.
_SHOW_HELP = getattr(click_errors, "NoArgsIsHelpError", ())


def _usage_error(error: click_errors.UsageError) -> NoReturn:
    """A wrong option or argument as one line (like every other bad input), not click's usage
    box: `error: --jobs: ... (see 'tower-print brix audit --help')`, exit 2."""
    if isinstance(error, click_errors.BadParameter) \
            and not isinstance(error, click_errors.MissingParameter) and error.param is not None:
        name = (error.param.opts[0] if error.param.param_type_name == "option"
                else error.param.human_readable_name)
        text = f"{name}: {error.message}"
    else:
        text = error.format_message()
    text = " ".join(text.split())
    if error.ctx is not None:
        text += f" (see '{error.ctx.command_path} --help')"
    typer.echo(f"error: {text}", err=True)
    raise typer.Exit(2)


class OneLineErrors(TyperGroup):
    """The top command group: a usage error of any subcommand is one line (`_usage_error`)."""

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except _SHOW_HELP:
            raise
        except click_errors.UsageError as error:
            _usage_error(error)

    def invoke(self, ctx: typer.Context) -> Any:
        try:
            return super().invoke(ctx)
        except _SHOW_HELP:
            raise
        except click_errors.UsageError as error:
            _usage_error(error)


app = typer.Typer(
    help="Print-and-play kits and proven-solvable puzzles for three tower games.",
    no_args_is_help=True, pretty_exceptions_enable=False, add_completion=False, cls=OneLineErrors,
    # Markdown help: the hard-wrapped docstrings below flow as paragraphs in --help.
    rich_markup_mode="markdown",
)
brix = typer.Typer(help="TowerBrix: verify cards, deal buildable rounds, audit and generate "
                         "decks, print the cards.",
                    no_args_is_help=True)
app.add_typer(brix, name="brix")

F = TypeVar("F", bound=Callable[..., Any])


def reports_user_errors(command: F) -> F:
    """Bad input becomes one line on stderr and exit code 2, never a traceback; so does a file
    that cannot be read or written (the commands check their outputs before the work; this is
    the backstop). Ctrl-C is one line and exit code 130: output files are written all at once at
    the end, so an interrupted command has written nothing. A `--templates` folder is compiled
    first, so a typo in it is reported before any work or progress line."""

    @wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            if kwargs.get("templates") is not None:
                from tower_print.render.layout import environment

                environment(kwargs["templates"])
            return command(*args, **kwargs)
        except UserError as error:
            typer.echo(f"error: {error}", err=True)
            raise typer.Exit(2) from None
        except OSError as error:
            where = error.filename2 or error.filename
            text = f"{where}: {error.strerror}" if where and error.strerror else str(error)
            typer.echo(f"error: {text}", err=True)
            raise typer.Exit(2) from None
        except (KeyboardInterrupt, ctypes.ArgumentError) as error:
            if not interrupted(error):
                raise
            typer.echo("interrupted: nothing written", err=True)
            raise typer.Exit(130) from None

    return run  # type: ignore[return-value]


def _challenge_epilog() -> str:
    """The challenges for --help: modelled ones by name, the physical ones with the reason."""
    from tower_print.brix.bricks import default_bricks
    from tower_print.brix.challenges import default_challenges

    try:
        known = default_challenges(default_bricks().color_names)
    except UserError as error:
        return f"Challenges: see content/brix/challenges.yaml ({error})."
    modelled = ", ".join(c.name for c in known.modelled)
    skipped = "; ".join(f"{name} ({why})" for name, why in known.not_modelled)
    return (f"Challenges (--challenge, repeatable): {modelled}. Not modelled, because a tower "
            f"model cannot judge them: {skipped}.")


CardPngOption = Annotated[bool, typer.Option(
    "--png", help="Also one PNG per card at 300 dpi with 1/8 inch bleed (print shops).")]
TemplatesOption = Annotated[Path | None, typer.Option(
    help="Folder of your own templates, used before the shipped ones.")]
ChallengeOption = Annotated[list[str] | None, typer.Option(
    "--challenge", help="A rulebook challenge the round must also meet (repeatable; the list "
    "is at the end of this help).")]


@brix.command("verify", epilog=_challenge_epilog())
@reports_user_errors
def brix_verify(
    cards: Annotated[list[str] | None, typer.Argument(help="Card ids, e.g. G03 G17.")] = None,
    condition: Annotated[list[str] | None, typer.Option(
        "--condition", "-c", help="A condition in the condition language (repeatable).")] = None,
    deck: Annotated[str, typer.Option(help="green, pink, or a deck .yaml file.")] = "green",
    challenge: ChallengeOption = None,
    timeout: Annotated[float, typer.Option(min=0.1, help=(
        "Seconds before 'unknown' (checked between steps: building the model, up to about a "
        "second, is not cut short)."))] = 60.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON.")] = False,
    svg: Annotated[Path | None, typer.Option(help="Draw the witness tower to this SVG.")] = None,
    seed: Annotated[int, typer.Option(help="Z3 random seed.")] = 0,
) -> None:
    """Can one tower meet all these cards?

    Exit 0 solvable (with a checked tower), 1 unsolvable (with the cards that contradict),
    3 unknown (time limit), 2 bad input. Also prints the measured difficulty (unless the
    cards are proved unsolvable): the share of random standing towers that meet every card."""
    from tower_print.brix.challenges import decide, default_challenges
    from tower_print.brix.conflicts import save_known_towers
    from tower_print.brix.difficulty import measure
    from tower_print.brix.solver import UNSOLVABLE
    from tower_print.brix.verify import (
        EXIT_CODES,
        conditions_to_check,
        open_deck,
        round_json,
        round_text,
        verify_solver,
    )
    from tower_print.render.output import check_out_file

    chosen = open_deck(deck)
    items = conditions_to_check(chosen, cards or [], condition or [])
    challenges = default_challenges(chosen.bricks.color_names).pick(challenge or [])
    if svg is not None:
        check_out_file(svg, "--svg")
    decided = decide(verify_solver(chosen, seed), items, challenges, timeout)
    save_known_towers(chosen)
    # A set proved unsolvable has no difficulty: its share of random towers is 0, and the
    # line would call it "hard" beside the proof that it cannot be built.
    difficulty = None if decided.status == UNSOLVABLE else measure(
        [it.condition for it in items], chosen.bricks, chosen.all_used,
        required=[c.condition for c in challenges if c.condition],
        may_drop=max((c.drop for c in challenges), default=0))
    if as_json:
        typer.echo(json.dumps(round_json(decided, items, challenges, chosen, difficulty),
                              indent=2))
    else:
        typer.echo(round_text(decided, items, challenges, chosen, difficulty))
    tower = decided.verdict.tower
    if svg is not None and tower is not None:
        from tower_print.brix.sketch import tower_scene  # svgwrite: 0.2 s, only for --svg
        from tower_print.render.svg import write_svg

        write_svg(tower_scene(tower, chosen.bricks.colors, chosen.bricks.unit_mm), svg)
    raise typer.Exit(EXIT_CODES[decided.status])


@brix.command("deal", epilog=_challenge_epilog())
@reports_user_errors
def brix_deal(
    deck: Annotated[str, typer.Option(help="green, pink, or a deck .yaml file.")] = "green",
    level: Annotated[str, typer.Option(
        help="easy (8-12 points), medium (13-19), hard (20-24), a number of points, or "
             "measured:easy|medium|hard (any points, kept when the measured difficulty is in "
             "that band). With --challenge, easy/medium/hard are exactly 12/15/18 points.")]
    = "medium",
    players: Annotated[int, typer.Option(help="Players at the table (1-6).")] = 4,
    rounds: Annotated[int, typer.Option(help="Rounds to deal.")] = 3,
    seed: Annotated[int, typer.Option(help="Same seed, same deal.")] = 0,
    challenge: ChallengeOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the deal as JSON.")] = False,
    pdf: Annotated[Path | None, typer.Option(
        help="Write round packets (cards by player) and answer pages to this PDF.")] = None,
    paper: Annotated[str, typer.Option(help="a4 or letter (for --pdf).")] = "a4",
    timeout: Annotated[float, typer.Option(
        min=0.1, help="Seconds one solver question may take; an undecided card is put back.")]
    = 10.0,
    templates: Annotated[Path | None, typer.Option(
        help="Folder of your own templates, used before the shipped ones (for --pdf).")] = None,
) -> None:
    """Deal rounds that are certain to be buildable.

    Cards are drawn by points as the rulebook does and divided among the players; every round
    comes with a tower that meets it (checked independently). A card that would make a round
    unsolvable, or that the solver cannot decide in time, is put back and another drawn; the
    output says how many."""
    from tower_print.brix.challenges import default_challenges
    from tower_print.brix.deals import deal, deal_json, deal_text, parse_level
    from tower_print.brix.examples import checked_examples, deck_source
    from tower_print.render.output import check_out_file
    from tower_print.render.scene import write_atomic
    from tower_print.render.settings import default_settings

    source = deck_source(deck)
    chosen = source.deck
    catalogue = default_challenges(chosen.bricks.color_names)
    challenges = catalogue.pick(challenge or [])
    wanted = parse_level(level, catalogue.totals if challenges else None)
    if pdf is not None:  # a wrong --pdf or --paper, or missing sketches, stop before the dealing
        check_out_file(pdf, "--pdf")
        default_settings().paper(paper)
        sketches = checked_examples(chosen, source.examples, source.ref)
    result = deal(chosen, wanted, players, rounds, seed, challenges, timeout,
                  progress=lambda line: typer.echo(line, err=True))
    data = None
    if pdf is not None:
        from tower_print.brix.deal_print import deal_pdf  # reportlab: 1.6 s to import

        data = deal_pdf(result, sketches, paper.lower(), None, templates)
    if as_json:
        typer.echo(json.dumps(deal_json(result), indent=2))
    else:
        typer.echo(deal_text(result))
    if pdf is not None and data is not None:
        write_atomic(pdf, data)
        typer.echo(f"round packets and answers written to {pdf}", err=True)


DeckChoice = Annotated[str, typer.Option(
    help="green, pink, all, or a deck .yaml file (its example towers beside it, in "
         "NAME.examples.yaml).")]


def _deck_names(deck: str) -> list[str]:
    """Shipped deck names, or the one deck file given (checked to exist)."""
    from tower_print.brix.decks import DECK_NAMES

    if deck == "all":
        return list(DECK_NAMES)
    if deck in DECK_NAMES:
        return [deck]
    if Path(deck).suffix in (".yaml", ".yml"):
        if not Path(deck).is_file():
            raise UserError(f"--deck: deck file {deck} not found")
        return [deck]
    raise UserError(f"--deck: unknown deck '{deck}' (expected {', '.join(DECK_NAMES)}, all "
                    "or a .yaml file)")


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
    """Find an example tower for every card, for the sketches on the card faces.

    The towers are stored in content/brix/examples/DECK.yaml (for a deck file: beside it, in
    NAME.examples.yaml). Run it after editing a deck or the bricks."""
    from tower_print.brix.examples import deck_source, examples_path, find_examples, write_examples
    from tower_print.render.output import check_out_file

    sources = {name: deck_source(name) for name in _deck_names(deck)}
    for source in sources.values():
        target = source.examples or examples_path(source.deck.name)
        check_out_file(target, "examples file")
    for name, source in sources.items():
        towers = find_examples(source.deck, seed, samples, timeout,
                               progress=lambda line, n=name: typer.echo(f"{n}: {line}", err=True))
        path = write_examples(source.deck, towers, seed, samples, source.examples, source.ref)
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
    png: CardPngOption = False,
    tts: Annotated[bool, typer.Option(
        "--tts", help="Also Tabletop Simulator deck sheets (faces, backs, hidden card).")] = False,
    templates: TemplatesOption = None,
) -> None:
    """Print-and-play files: condition cards, overview cards, score pad, paper bricks.

    Condition cards (fronts and backs), overview cards, score pad and fold-up paper bricks, as
    PDF and SVG pages; with --png and --tts also a picture per card and Tabletop Simulator
    sheets. All files are written at the end, or none on an error."""
    from tower_print.brix.printables import PrintJob, build_outputs
    from tower_print.render.impose import DUPLEX_MODES
    from tower_print.render.output import check_out_folder, write_files

    if duplex not in DUPLEX_MODES:
        raise UserError(f"--duplex: '{duplex}' is not one of: {', '.join(DUPLEX_MODES)}")
    check_out_folder(out)
    job = PrintJob(tuple(_deck_names(deck)), paper.lower(), card, duplex, cut_guides, png, tts,
                   templates)
    files = build_outputs(job, progress=lambda line: typer.echo(line, err=True))
    written = write_files(out, files)
    pdfs = sorted(str(p) for p in written if p.suffix == ".pdf")
    typer.echo(f"{len(written)} files written to {out}: " + ", ".join(Path(p).name for p in pdfs))


AUDIT_SAMPLES = 20_000
"""Default tower pool of the audit (about a minute on 2 cores; the tower-print.brix.audit
default): on the green deck it covers 73 % of easy deals, 22 % of medium, 3 % of hard without
a solver check (3000 towers: 56 %, 11 %, 1 %)."""
AUDIT_SMALL_TIMEOUT = 240.0
"""Seconds per check of a set of up to 3 cards (tower_print.brix.audit.SMALL_TIMEOUT, why there)."""
AUDIT_TRIES = (10.0,)
"""Seconds of each set's short checks (tower_print.brix.audit.FIRST_TRY, why there)."""
AUDIT_FIRST_DEALS = 300
"""Sampled deals per level the audit decides first (`AuditSettings.deal_seeds`): a hard
interval of about 7.5 points when all are decided, for a few minutes of a 30-minute audit."""


@brix.command("audit")
@reports_user_errors
def brix_audit(
    deck: Annotated[str, typer.Option(help="green, pink, or a deck .yaml file.")] = "green",
    jobs: Annotated[int, typer.Option(min=1, help="Processes deciding card sets in parallel.")]
    = max(1, os.cpu_count() or 1),
    timeout: Annotated[float, typer.Option(
        min=0.1, help="Seconds one solver check may take before its set is 'undecided'. A "
                      "--known file's set still to shrink that was tried at this limit "
                      "(its tried_at) is shrunk again only with a longer one.")] = 60.0,
    small_timeout: Annotated[float, typer.Option(
        min=0.1, help="The same for the sets of up to 3 cards, all decided first (at least "
                      "--timeout).")] = AUDIT_SMALL_TIMEOUT,
    first_try: Annotated[list[float] | None, typer.Option(
        min=0, metavar="SECONDS",
        help="Seconds of each set's first check: a set still open then is set aside and asked "
             "again with its full limit once nothing else is left (others' answers often "
             "settle it first); 0: no first try. Given again, longer tries before the full "
             "limit: --first-try 3 --first-try 15 asks every set set aside for 15 s before "
             f"any for its full time. [default: {AUDIT_TRIES[0]:g}]")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the tower pool, the deals and Z3.")] = 0,
    max_cards: Annotated[int | None, typer.Option(
        min=0, help="Only sets of at most this many cards; 0: every set. Default: the most "
                    "cards a deal can hold.")] = None,
    samples: Annotated[int, typer.Option(
        min=1, help="Random standing towers drawn first (each proves the cards it meets).")]
    = AUDIT_SAMPLES,
    deals: Annotated[int, typer.Option(
        min=1, help="Sampled deals per level for the odds of an unsolvable deal.")] = 10_000,
    first_deals: Annotated[int, typer.Option(
        min=1, help="Of those, per level, decided one by one before the rest of the search: a "
                    "random sample that bounds the odds however much is still open (more: "
                    "narrower odds, less time for the rest).")] = AUDIT_FIRST_DEALS,
    budget: Annotated[float | None, typer.Option(
        min=1, help="Stop after this many seconds (the report then says incomplete; run "
                    "again to go on).")] = None,
    cache: Annotated[Path | None, typer.Option(
        help="Folder for the facts learnt (default ~/.cache/tower-print/audit); an "
             "interrupted audit resumes from it.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    conflicts_out: Annotated[Path | None, typer.Option(
        help="Also write the minimal conflicts found to this file, in the form of "
             "content/brix/conflicts/, where verify and deal look for a shipped deck's.")]
    = None,
    known: Annotated[Path | None, typer.Option(
        help="Take the minimal conflicts and towers of this file (earlier audits' "
             "--conflicts-out, of the same deck version) as known instead of finding them "
             "again; the audit explores what they leave open. Its undecided sets are asked "
             "again only with a longer --timeout than their tried_at (those only a first try "
             "ran out on: last, with the full --timeout).")] = None,
) -> None:
    """Certify a deck: its conflicts, the odds of an unsolvable deal, each card's price.

    Finds every minimal set of cards that contradict each other (so any deal is checked by a
    subset test), the odds that a random deal of each level is unsolvable, and each card's
    measured difficulty against its points. Exit 0 complete, 3 incomplete (a check ran out of
    time or the budget did), 2 bad input, 130 interrupted (run again to resume)."""
    from tower_print.brix.audit import (
        AuditSettings,
        Explorer,
        KnownConflictDisputed,
        largest_deal,
    )
    from tower_print.brix.audit_report import audit_json, audit_text, card_prices, deal_odds
    from tower_print.brix.conflicts import card_masks
    from tower_print.brix.verify import open_deck

    chosen = open_deck(deck)
    if conflicts_out is not None:
        from tower_print.render.output import check_out_file

        check_out_file(conflicts_out, "--conflicts-out", (".yaml", ".yml"))
        if conflicts_out.is_file():  # conflicts it holds are kept: a wrong file fails now
            from tower_print.brix.conflicts import read_conflict_file

            read_conflict_file(conflicts_out, chosen)
    taken = None
    if known is not None:
        from tower_print.brix.conflicts import conflicts_to_take

        if not known.is_file():
            raise UserError(f"--known: {known}: no such conflicts file")
        taken = conflicts_to_take(known, chosen, jobs)
    taken_masks = [] if taken is None else card_masks(chosen, taken.sets)
    to_shrink = [] if taken is None else card_masks(chosen, taken.unminimised)
    tried_at = [] if taken is None else [limit for _, limit in taken.unminimised_limits()]
    limit = largest_deal(chosen) if max_cards is None else (max_cards or None)
    settings = AuditSettings(seed=seed, timeout=timeout, samples=samples, max_cards=limit,
                             deals=deals, deal_seeds=min(deals, first_deals),
                             budget=budget, small_timeout=small_timeout,
                             tries=tuple(AUDIT_TRIES if first_try is None else first_try))
    explorer = Explorer(chosen, settings, cache, taken_masks,
                        0 if taken is None else taken.complete_up_to,
                        () if taken is None else taken.towers,
                        dict(zip(to_shrink, tried_at, strict=True)),
                        {} if taken is None else dict(zip(
                            card_masks(chosen, [ids for ids, _ in taken.undecided]),
                            [limit for _, limit in taken.undecided], strict=True)))
    try:
        with _audit_progress() as show:
            found = explorer.run(jobs, show)
    except KnownConflictDisputed as dispute:
        assert taken is not None and known is not None
        listed = [*zip(taken_masks, taken.nodes, strict=True),
                  *zip(to_shrink, taken.unminimised_nodes, strict=True)]
        node = next((node for mask, node in listed if mask == dispute.mask), None)
        if node is not None:
            raise node.error(f"'{node.str()}' {dispute.why}; one of the audits is wrong") from None
        raise load_yaml(known, fast=True)["complete_up_to"].error(
            f"the file {dispute.why}; one of the audits is wrong") from None
    except (KeyboardInterrupt, ctypes.ArgumentError) as error:
        if not interrupted(error):
            raise
        typer.echo(f"interrupted: what was learnt is kept in {explorer.log.path}; "
                   "run the same command again to resume", err=True)
        raise typer.Exit(130) from None
    odds = deal_odds(chosen, found, settings)
    prices = card_prices(chosen)
    if conflicts_out is not None:
        command = (f"tower-print brix audit --deck {deck} --seed {seed} --timeout {timeout:g} "
                   f"--small-timeout {small_timeout:g} --samples {samples}"
                   + "".join(f" --first-try {seconds:g}" for seconds in first_try or ())
                   + ("" if max_cards is None else f" --max-cards {max_cards}")
                   + ("" if budget is None else f" --budget {budget:g}")
                   + ("" if first_deals == AUDIT_FIRST_DEALS else f" --first-deals {first_deals}")
                   + ("" if known is None else f" --known {known.name}")
                   + f" --conflicts-out {conflicts_out.name}")
        _write_audit_conflicts(conflicts_out, chosen, found, command)
    if as_json:
        typer.echo(json.dumps(audit_json(chosen, found, settings, odds, prices), indent=2))
    else:
        typer.echo(audit_text(chosen, found, settings, odds, prices))
    raise typer.Exit(0 if found.complete else 3)


def _write_audit_conflicts(path: Path, deck: Deck, found: Exploration, command: str) -> None:
    """The conflicts found, with those `path` already holds for this deck (`gather_conflicts`)."""
    from tower_print.brix.conflicts import file_note, gather_conflicts, write_conflicts
    from tower_print.brix.marco import members

    def ids(mask: int) -> list[str]:
        return [deck.cards[k].id for k in members(mask)]

    known = gather_conflicts(path, deck, [ids(m) for m in found.muses],
                             [set(ids(m)) for m in found.solvable], found.complete,
                             found.complete_up_to, command, found.towers,
                             [(ids(m), found.unminimised_tried_at.get(m))
                              for m in found.conflicts_unminimised],
                             [(ids(m), limit) for m, limit in found.undecided_tried_at.items()])
    write_conflicts(path, deck, known, file_note(known, found.complete))


@contextmanager
def _audit_progress() -> Iterator[Callable[[dict[str, Any]], None]]:
    """A rich progress display on stderr: the tower pool as a bar, then the search's counts
    (how many sets remain is not known in advance, so no bar there)."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                  TimeElapsedColumn(), console=Console(stderr=True), transient=True) as bar:
        pool = bar.add_task("sampling standing towers", total=None)
        search = bar.add_task("deciding card sets", total=None, visible=False)

        def show(state: dict[str, Any]) -> None:
            if state["phase"] == "pool":
                bar.update(pool, completed=state["towers"], total=state["of"])
                return
            bar.update(pool, visible=False)
            if state["phase"] in ("sweep", "implications"):
                bar.update(search, visible=True, description=(
                    f"listing the open sets of {state['cards']} cards"
                    if state["phase"] == "sweep" else
                    f"asking which card implies which ({state['pairs']} pairs)"))
                return
            bar.update(search, visible=True, description=(
                f"checks {state['checks']}, conflicts {state['muses']}, solvable sets "
                f"{state['solvable']}, undecided {state['unknown']}, sampled deals to settle "
                f"{state['deals_left']}"))

        yield show


@brix.command("generate")
@reports_user_errors
def brix_generate(
    out: Annotated[Path, typer.Option(help="The deck file to write (.yaml); its example "
                                           "towers go beside it, in NAME.examples.yaml.")],
    cards: Annotated[int, typer.Option(min=1, help="Cards in the deck.")] = 50,
    three_point: Annotated[int, typer.Option(
        min=0, help="How many of them are worth 3 points (the hardest by measure).")] = 22,
    seed: Annotated[int, typer.Option(help="Seed of the drawing (same seed, same deck).")] = 0,
    deck_rule: Annotated[str, typer.Option(
        help="all: all eight coloured bricks used (like green); subset: any bricks, one of "
             "each of the five colours (like pink).")] = "all",
    templates: Annotated[Path | None, typer.Option(
        help="Folder of your own templates (brix/card-text.j2 words the cards).")] = None,
) -> None:
    """Generate a new condition deck from the condition language.

    Every card is met by a standing tower and violated by another, no two are equivalent, and
    points follow measured difficulty. Print it with `tower-print brix print --deck FILE`;
    check it with `tower-print brix audit --deck FILE`."""
    from tower_print.brix.generate import check_out_path, generate_deck, write_deck_files

    check_out_path(out)
    command = (f"tower-print brix generate --cards {cards} --three-point {three_point} "
               f"--seed {seed} --deck-rule {deck_rule}")
    with _counting_progress("cards found", cards) as found:
        generated = generate_deck(cards, three_point, seed, deck_rule, out.stem,
                                  templates=templates, progress=lambda k, _: found(k))
    examples = write_deck_files(generated, out, seed, command,
                                progress=lambda line: typer.echo(line, err=True))
    for note in generated.notes:
        typer.echo(f"note: {note}", err=True)
    three = sum(1 for c in generated.deck.cards if c.points == 3)
    typer.echo(f"{len(generated.deck.cards)} cards ({three} worth 3 points) written to {out}, "
               f"their example towers to {examples} ({generated.candidates} candidates drawn, "
               f"{generated.solver_checks} solver checks)")


SHAPES_WORK = 200_000_000
"""Z3 work units (rlimit) per training deal of `brix shapes`, about 20 s: a budget of work
rather than seconds, so the same command builds the same library on any machine."""


@brix.command("shapes")
@reports_user_errors
def brix_shapes(
    out: Annotated[Path, typer.Option(help="The library file to write (.yaml).")],
    deck: Annotated[str, typer.Option(help="green, pink, or a deck .yaml file.")] = "green",
    seeds: Annotated[list[int] | None, typer.Option(
        "--seed", help="Seeds of the training deals (repeat the option); default 2 and 3. "
                       "The verify benchmark draws seed 1.")] = None,
    level: Annotated[list[str] | None, typer.Option(
        help="Levels of the training deals (repeat the option); default medium and hard.")]
    = None,
    deals: Annotated[int, typer.Option(min=1, help="Deals per seed and level.")] = 100,
    work: Annotated[int, typer.Option(
        min=1, help="Z3 work units (rlimit) per deal.")] = SHAPES_WORK,
    extend: Annotated[Path | None, typer.Option(
        help="A library to extend: its shapes stay first and the training deals are solved "
             "with it, so only the deals it misses cost time.")] = None,
) -> None:
    """Build a shape library: shapes of witness towers of random deals, most useful first.

    The solver tries these shapes in every colouring before its search (content/brix/shapes/
    holds the shipped ones). Rebuild after changing the bricks' sizes or stability margin."""
    from tower_print.brix.deals import LEVELS
    from tower_print.brix.shape_library import load_library
    from tower_print.brix.shape_training import (
        greedy_shapes,
        library_history,
        solve_training_deals,
        write_library,
    )
    from tower_print.brix.verify import open_deck
    from tower_print.render.output import check_out_file

    check_out_file(out, "--out", (".yaml", ".yml"))
    chosen = open_deck(deck)
    seeds = seeds or [2, 3]
    levels = level or ["medium", "hard"]
    for name in levels:
        if name not in LEVELS:
            raise UserError(f"--level: '{name}' is not one of: {', '.join(LEVELS)}")
    base, history = None, []
    if extend is not None:
        base = load_library(extend, chosen.bricks, chosen.all_used)
        if base is None:
            raise UserError(f"--extend: {extend} was built for other bricks, stability margin "
                            "or brick rule than this deck's")
        history = library_history(extend)
    with _counting_progress("deals solved", deals * len(seeds) * len(levels)) as done:
        solved = solve_training_deals(chosen, seeds, levels, deals, work, done, library=base)
    kept = [] if base is None else base.boxes
    shapes = greedy_shapes(solved, chosen.bricks, chosen.all_used, kept=kept)
    command = (f"tower-print brix shapes --deck {deck} "
               + " ".join(f"--seed {s}" for s in seeds) + " "
               + " ".join(f"--level {name}" for name in levels)
               + f" --deals {deals} --work {work}"
               + ("" if extend is None else f" --extend {extend.name}") + f" --out {out.name}")
    note = (f"{len(shapes)} shapes ({len(shapes) - len(kept)} new) meet all {len(solved)} "
            f"solvable deals of the {deals * len(seeds) * len(levels)} drawn last.")
    write_library(out, shapes, chosen.bricks, chosen.all_used, [*history, command], note)
    typer.echo(f"{note} Written to {out}.")


@contextmanager
def _counting_progress(what: str, total: int) -> Iterator[Callable[[int], None]]:
    """A rich progress bar on stderr counting up to `total`."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    with Progress(BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(what, total=total)
        yield lambda done: bar.update(task, completed=done)


# --- UpTower -----------------------------------------------------------------------------------

uptower = typer.Typer(help="UpTower: play-sheet pads, solo puzzles with a par, checking games.",
                      no_args_is_help=True)
app.add_typer(uptower, name="uptower")

WidthOption = Annotated[int | None, typer.Option(
    help="Playfield columns (4-12; default from content/uptower/game.yaml, 8).")]
BonusOption = Annotated[str | None, typer.Option(
    help="Bonus table: published (default) or triangular (the designer's notes).")]


def _pdf_out(out: Path) -> None:
    from tower_print.render.output import check_out_file

    check_out_file(out, "--out", (".pdf",))


@uptower.command("pad")
@reports_user_errors
def uptower_pad(
    out: Annotated[Path, typer.Option(help="The PDF to write.")],
    sheets: Annotated[int, typer.Option(min=1, max=500, help="Play sheets, numbered.")] = 10,
    paper: Annotated[str, typer.Option(help="a4 or letter.")] = "a4",
    per_page: Annotated[int, typer.Option(
        help="1: a sheet per portrait page; 2: two half-size sheets side by side on a "
             "landscape page (cut along the dashed line).")] = 1,
    width: WidthOption = None,
    bonus: BonusOption = None,
    templates: TemplatesOption = None,
) -> None:
    """A pad of numbered UpTower play sheets.

    Each sheet has the playfield with floor numbers and multipliers, the six pieces with their
    turn boxes and at-will circles, the bonus table and a score box."""
    from tower_print.render.scene import write_atomic
    from tower_print.uptower.pieces import chosen_rules
    from tower_print.uptower.printables import PER_PAGE, pad_pdf

    if per_page not in PER_PAGE:
        raise UserError(f"--per-page: {per_page} is not 1 or 2")
    _pdf_out(out)
    data = pad_pdf(chosen_rules(width, bonus), sheets, paper, per_page, templates)
    write_atomic(out, data)
    typer.echo(f"{sheets} play sheet{'s' if sheets > 1 else ''} written to {out}")


@uptower.command("puzzle")
@reports_user_errors
def uptower_puzzle(
    seed: Annotated[int, typer.Option(help="Seed of the rolls (same seed, same puzzle).")],
    out: Annotated[Path, typer.Option(help="The PDF to write: sheets and answer keys.")],
    count: Annotated[int, typer.Option(
        min=1, max=200, help="Puzzles, for seeds SEED, SEED+1, ...")] = 1,
    paper: Annotated[str, typer.Option(help="a4 or letter.")] = "a4",
    beam: Annotated[int | None, typer.Option(
        min=1, max=5000, help="Beam width of the par search (default 200; wider is slower "
                              "and usually finds as good a par or better).")] = None,
    budget: Annotated[int | None, typer.Option(
        min=0, help="States the branch and bound after the beam may expand to beat par or "
                    "prove it best (default 15000; 0: beam only).")] = None,
    width: WidthOption = None,
    bonus: BonusOption = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print rolls, par, bound and the par moves as JSON (each puzzle in "
                       "the GAME.json format that `uptower score` reads).")] = False,
    templates: TemplatesOption = None,
) -> None:
    """Solo puzzles: seeded die rolls with a par score, an upper bound and an answer key.

    Par is found by searching over the rules engine; the answer key shows the moves that reach
    it (replayed and checked). The upper bound is a score no game with those rolls can beat."""
    from tower_print.render.scene import write_atomic
    from tower_print.render.settings import default_settings
    from tower_print.uptower.pieces import chosen_rules
    from tower_print.uptower.printables import puzzle_pdf
    from tower_print.uptower.puzzle import make_puzzle, puzzle_json, puzzle_text

    rules = chosen_rules(width, bonus)
    _pdf_out(out)
    default_settings().paper(paper)  # a wrong --paper stops before the search
    puzzles = []
    for number, value in enumerate(range(seed, seed + count), start=1):
        puzzles.append(make_puzzle(rules, value, beam, budget))
        if count > 1:
            typer.echo(f"puzzle {number} of {count}: seed {value}, par "
                       f"{puzzles[-1].par.score}", err=True)
    write_atomic(out, puzzle_pdf(rules, puzzles, paper, templates))
    if as_json:
        typer.echo(json.dumps({"puzzles": [puzzle_json(rules, p) for p in puzzles]}, indent=2))
    else:
        typer.echo("\n\n".join(puzzle_text(rules, p) for p in puzzles))
        typer.echo(f"{count} puzzle sheet{'s' if count > 1 else ''} with answer keys written "
                   f"to {out}", err=True)


@uptower.command("score")
@reports_user_errors
def uptower_score(
    game: Annotated[Path, typer.Argument(help="A recorded game (GAME.json).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Check a recorded game move by move and score it.

    Exit 0: legal (with the score); 1: an illegal move (the first one is named); 2: the file
    is malformed."""
    from tower_print.uptower.pieces import default_rules
    from tower_print.uptower.record import check, read_record, summary, summary_text

    record = read_record(game, default_rules())
    data = summary(record.rules, check(record))
    typer.echo(json.dumps(data, indent=2) if as_json else summary_text(game, data))
    raise typer.Exit(0 if data["legal"] else 1)


# --- Tower Up ----------------------------------------------------------------------------------

towerup = typer.Typer(help="Tower Up: objective layouts proven achievable, objective checks, "
                           "simulated games.", no_args_is_help=True)
app.add_typer(towerup, name="towerup")

SideOption = Annotated[str, typer.Option(help="Board side: front (3-4 players) or back (2).")]
TimeoutOption = Annotated[float, typer.Option(min=0.1, help="Seconds per Z3 question before "
                                                             "'unknown'.")]


@towerup.command("objectives")
@reports_user_errors
def towerup_objectives(
    players: Annotated[int, typer.Option(help="Players in the game (the side must suit them).")],
    side: SideOption = "front",
    seed: Annotated[int, typer.Option(help="Same seed, same layout.")] = 0,
    timeout: TimeoutOption = 60.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the layout as JSON.")] = False,
) -> None:
    """Draw three objective cards one player can meet together on this board side.

    One quick, one middling, one slow, each with its minimum turns and a build sequence that
    does it. Exit 0 with a layout, 1 if no three cards qualify."""
    from tower_print.towerup.game import default_content
    from tower_print.towerup.layouts import draw_layout, layout_json, layout_text

    layout = draw_layout(default_content(), side, players, seed, timeout)
    if layout is None:
        typer.echo(f"no three objective cards with different minimum turns can be met together "
                   f"on the {side} side", err=True)
        raise typer.Exit(1)
    typer.echo(json.dumps(layout_json(layout), indent=2) if as_json else layout_text(layout))


@towerup.command("check-objective")
@reports_user_errors
def towerup_check_objective(
    text: Annotated[str, typer.Argument(help="An objective in the objective language, e.g. "
                                             "\"roofs in every district\".")],
    side: SideOption = "front",
    players: Annotated[int | None, typer.Option(
        help="Players in the game; 1 = alone on the board (default: the side's fewest).")] = None,
    timeout: TimeoutOption = 60.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON.")] = False,
) -> None:
    """Can one player meet this objective on this side, and in how few turns?

    Exit 0 achievable (with a build sequence), 1 impossible, 2 bad input, 3 unknown (time
    limit)."""
    from tower_print.towerup.game import default_content
    from tower_print.towerup.layouts import check_objective, check_text, verdict_json
    from tower_print.towerup.model import EXIT_CODES

    objective, verdict, count = check_objective(default_content(), text, side, players, timeout)
    if as_json:
        typer.echo(json.dumps({"objective": objective.text(), "side": side, "players": count,
                               **verdict_json(verdict)}, indent=2))
    else:
        typer.echo(check_text(objective, verdict, side, count))
    raise typer.Exit(EXIT_CODES[verdict.status])


@towerup.command("simulate")
@reports_user_errors
def towerup_simulate(
    games: Annotated[int, typer.Option(min=1, max=100000, help="Games to play.")] = 100,
    players: Annotated[int, typer.Option(help="Players per game, 2-4.")] = 3,
    side: Annotated[str | None, typer.Option(
        help="Board side (default: back for 2 players, front for 3-4).")] = None,
    seed: Annotated[int, typer.Option(help="Games use seeds SEED, SEED+1, ...")] = 0,
    objectives: Annotated[str | None, typer.Option(
        help="Objective card ids in play, comma-separated (default: the starting three).")]
    = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Play seeded games between greedy bots and summarise them.

    The games run through the rules engine; the summary gives average scores, game length, and
    how often and how early each objective is met. Exit 130 when interrupted."""
    from tower_print.towerup.game import default_content
    from tower_print.towerup.simulate import chosen_objectives, default_side, simulate, summarise

    content = default_content()
    side = side or default_side(players)
    cards = chosen_objectives(content, objectives)
    with _counting_progress("games", games) as progress:
        results = simulate(content, side, players, cards, games, seed, progress)
    summary = summarise(results, players, side, cards)
    typer.echo(json.dumps(summary.as_json(), indent=2) if as_json else summary.text())


@towerup.command("print")
@reports_user_errors
def towerup_print(
    out: Annotated[Path, typer.Option(help="Folder for the output files (made if missing).")],
    paper: Annotated[str, typer.Option(help="a4 or letter.")] = "a4",
    side: Annotated[str, typer.Option(help="Board side to print: front, back or both.")]
    = "both",
    duplex: Annotated[str, typer.Option(
        help="long / short: card backs mirrored for double-sided printing flipped on that "
             "edge; none: backs on their own pages for gluing.")] = "long",
    overlap: Annotated[float, typer.Option(
        min=3.0, max=40.0, help="mm the board's tiles overlap (for gluing and aligning).")]
    = 10.0,
    png: CardPngOption = False,
    cubes: Annotated[bool, typer.Option(
        "--cubes", help="Floors as fold-up paper cubes instead of flat squares.")] = False,
    templates: TemplatesOption = None,
) -> None:
    """Print-and-play files: cards, the board (large and tiled), personal boards, tokens.

    The 44 materials and 13 objective cards with backs; the board, each side as one large page
    for print shops and tiled over A4/Letter sheets; personal boards, tokens and a player aid;
    as PDF and SVG pages. All files are written at the end, or none on an error."""
    from tower_print.render.impose import DUPLEX_MODES
    from tower_print.render.output import check_out_folder, write_files
    from tower_print.towerup.printables import SIDES, PrintJob, build_outputs

    if duplex not in DUPLEX_MODES:
        raise UserError(f"--duplex: '{duplex}' is not one of: {', '.join(DUPLEX_MODES)}")
    check_out_folder(out)
    if side not in SIDES:
        raise UserError(f"--side: '{side}' is not one of: {', '.join(SIDES)}")
    job = PrintJob(paper.lower(), side, duplex, png, cubes, overlap, templates)
    files = build_outputs(job, progress=lambda line: typer.echo(line, err=True))
    written = write_files(out, files)
    pdfs = sorted(p.name for p in written if p.suffix == ".pdf")
    typer.echo(f"{len(written)} files written to {out}: " + ", ".join(pdfs))


# --- the whole kit -----------------------------------------------------------------------------


@app.command("kit")
@reports_user_errors
def kit(
    out: Annotated[Path, typer.Option(help="Folder for the kit (made if missing).")],
    paper: Annotated[str, typer.Option(help="a4 or letter.")] = "a4",
    games: Annotated[str, typer.Option(
        help="Comma-separated games: towerbrix, towerup, uptower.")] = "towerbrix,towerup,uptower",
    seed: Annotated[int, typer.Option(
        help="Seed of the UpTower solo puzzles (same seed, byte-identical kit).")] = 0,
) -> None:
    """Every printable of the chosen games in one folder, with an index page.

    One folder per game, with index.html (a thumbnail, size and print instructions for every
    file) and manifest.json (a SHA-256 per file). All files are written at the end, or none on
    an error."""
    from tower_print.kit import KitJob, build_kit, check_job, parse_games, step_count
    from tower_print.render.output import write_files

    job = KitJob(parse_games(games), paper.lower(), seed)
    check_job(job, out)
    with _counting_progress("kit", step_count(job)) as done:
        files = build_kit(job, done)
    write_files(out, files)
    typer.echo(f"{len(files)} files written to {out}; open {out / 'index.html'}")


def main() -> None:
    keep_interrupts()
    app()

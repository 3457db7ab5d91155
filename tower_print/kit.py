"""The whole print-and-play kit: every game's printables in one folder, an index and a manifest.

This module only composes: each game renders its own files, the renderer makes the thumbnails, and
the kit adds `index.html` (from `templates/kit/index.html.j2`) and `manifest.json`. Games never
import it. Nothing in the kit depends on the clock, so the same options give byte-identical files.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path, PurePosixPath

from tower_print.content import UserError
from tower_print.render.layout import environment
from tower_print.render.output import check_out_folder
from tower_print.render.raster import first_page, png_bytes
from tower_print.render.settings import default_settings

GAMES = ("towerbrix", "towerup", "uptower")
PAD_SHEETS = 5
PUZZLES = 3
THUMB_PX = 240
INDEX = "index.html"
MANIFEST = "manifest.json"

DUPLEX = "double-sided, flip on the long edge"
INSTRUCTIONS = (
    ("towerbrix/towerbrix-*-cards.pdf", f"Condition cards: {DUPLEX}; cut along the crop marks."),
    ("towerbrix/towerbrix-extras.pdf", f"Overview cards {DUPLEX}, the rest single-sided; cut out "
     "the cards, one score pad page per game, cut the brick nets on the solid lines, fold the "
     "dashed ones."),
    ("towerup/towerup-cards.pdf", f"Materials and objective cards: {DUPLEX}; cut along the crop "
     "marks."),
    ("towerup/towerup-extras.pdf", "Single-sided: one personal board and player aid per player; "
     "cut the tokens out along their outlines."),
    ("towerup/towerup-board-*-large.pdf", "The board side on one large page, for a print shop "
     "(single-sided)."),
    ("towerup/towerup-board-*.pdf", "The board side tiled over sheets, single-sided: trim the "
     "margin, lay each sheet over its neighbour to the dashed line, match the targets, glue."),
    ("uptower/uptower-pad.pdf", "Play sheets, single-sided; copy as many as you need."),
    ("uptower/uptower-puzzles.pdf", "Solo puzzles, single-sided; each sheet is followed by its "
     "answer key: fold it away before you play."),
    ("*.svg", "One page as an editable vector drawing; print the PDF beside it instead."),
)


@dataclass(frozen=True)
class KitJob:
    games: tuple[str, ...] = GAMES
    paper: str = "a4"
    seed: int = 0


def parse_games(text: str) -> tuple[str, ...]:
    """`towerbrix,uptower` -> the games in kit order; an unknown or empty list is a user error."""
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in GAMES]
    if unknown or not names:
        raise UserError(f"--games: unknown game '{','.join(unknown)}' (expected a comma-separated "
                        f"list of {', '.join(GAMES)})")
    return tuple(game for game in GAMES if game in names)


def check_job(job: KitJob, out: Path) -> None:
    """Stop on a wrong --paper or an --out that cannot be written before minutes of rendering."""
    default_settings().paper(job.paper)
    check_out_folder(out)


def step_count(job: KitJob) -> int:
    """Steps `build_kit` reports: one per game, then the thumbnails and index."""
    return len(job.games) + 1


def _towerbrix(job: KitJob) -> dict[str, bytes]:
    from tower_print.brix.decks import DECK_NAMES
    from tower_print.brix.printables import PrintJob, build_outputs

    return build_outputs(PrintJob(tuple(DECK_NAMES), job.paper))


def _towerup(job: KitJob) -> dict[str, bytes]:
    from tower_print.towerup.printables import PrintJob, build_outputs

    return build_outputs(PrintJob(job.paper))


def _uptower(job: KitJob) -> dict[str, bytes]:
    from tower_print.uptower.pieces import default_rules
    from tower_print.uptower.printables import pad_pdf, puzzle_pdf
    from tower_print.uptower.puzzle import make_puzzle

    rules = default_rules()
    puzzles = [make_puzzle(rules, seed) for seed in range(job.seed, job.seed + PUZZLES)]
    return {"uptower-pad.pdf": pad_pdf(rules, PAD_SHEETS, job.paper, 1),
            "uptower-puzzles.pdf": puzzle_pdf(rules, puzzles, job.paper)}


BUILDERS: dict[str, Callable[[KitJob], dict[str, bytes]]] = {
    "towerbrix": _towerbrix, "towerup": _towerup, "uptower": _uptower,
}


def instructions(path: str) -> str:
    """How to print one kit file (the first pattern in INSTRUCTIONS that matches)."""
    return next((text for pattern, text in INSTRUCTIONS if fnmatch(path, pattern)), "")


def _size(count: int) -> str:
    if count < 1000:
        return f"{count} B"
    if count < 1_000_000:
        return f"{count / 1000:.0f} kB"
    return f"{count / 1_000_000:.1f} MB"


def thumbnails(files: Mapping[str, bytes]) -> dict[str, str]:
    """Kit path -> its thumbnail's path. PDFs get a PNG of their first page under thumbs/; SVGs
    and PNGs are shown as they are (a browser scales them)."""
    thumbs = {}
    for path in files:
        if path.endswith(".pdf"):
            thumbs[path] = "thumbs/" + str(PurePosixPath(path).with_suffix(".png"))
        else:
            thumbs[path] = path
    return thumbs


def manifest(files: Mapping[str, bytes]) -> bytes:
    """`manifest.json`: every file with its size and SHA-256, sorted by path."""
    entries = [{"path": path, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
               for path, data in sorted(files.items())]
    return (json.dumps({"files": entries}, indent=2) + "\n").encode("utf-8")


def index_html(job: KitJob, files: Mapping[str, bytes], thumbs: Mapping[str, str]) -> bytes:
    """The kit's `index.html`: per game, every file with its thumbnail, size and instructions."""
    games = [{"name": game, "files": [
        {"path": path, "thumb": thumbs[path], "size": _size(len(files[path])),
         "kind": PurePosixPath(path).suffix[1:].upper(), "how": instructions(path)}
        for path in sorted(files, key=lambda p: (p.endswith(".svg"), p))
        if path.startswith(f"{game}/")]} for game in job.games]
    page = environment().get_template("kit/index.html.j2").render(
        games=games, paper=job.paper, seed=job.seed, total=_size(sum(map(len, files.values()))),
        command=f"tower-print kit --paper {job.paper} --out DIR --games {','.join(job.games)} "
                f"--seed {job.seed}")
    return page.encode("utf-8")


def build_kit(job: KitJob, progress: Callable[[int], None] | None = None) -> dict[str, bytes]:
    """Every file of the kit, rendered in memory (path -> bytes); `progress` is told how many
    of the `step_count` steps are done after each one."""
    done = progress or (lambda _: None)
    files: dict[str, bytes] = {}
    for step, game in enumerate(job.games, start=1):
        files.update({f"{game}/{name}": data for name, data in BUILDERS[game](job).items()})
        done(step)
    thumbs = thumbnails(files)
    printables = dict(files)
    for path, data in printables.items():
        if path.endswith(".pdf"):
            files[thumbs[path]] = png_bytes(first_page(data, THUMB_PX))
    files[INDEX] = index_html(job, printables, thumbs)
    files[MANIFEST] = manifest(files)
    done(step_count(job))
    return files

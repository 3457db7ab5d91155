"""UpTower printables: pads of play sheets, and solo puzzles with their answer keys.

A play sheet is one scene drawn from `templates/uptower/play-sheet.yaml.j2` at the design size in
content/uptower/print.yaml, then scaled onto the paper: one sheet per portrait page, or two side
by side on a landscape page (cut in half). Puzzle sheets are play sheets that also print the
rolls and par; each is followed by an answer-key page (`answer-key.yaml.j2`) drawn from the par
game as the engine replayed it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from tower_print.content import Node, content_root, load_yaml
from tower_print.render.impose import with_footers
from tower_print.render.layout import environment, render_layout
from tower_print.render.pdf import check_color, scenes_to_pdf_bytes
from tower_print.render.scene import Item, Line, Scene, group_in_box
from tower_print.render.settings import PrintSettings, default_settings
from tower_print.uptower.pieces import Rules
from tower_print.uptower.puzzle import Puzzle, column_name, move_text, placed_pieces

PER_PAGE = (1, 2)
CUT_GAP = 8.0  # mm between the two sheets of a landscape page (the cut line runs in it)


@dataclass(frozen=True)
class Look:
    sheet_w: float
    sheet_h: float
    accent: str
    piece_colors: tuple[str, ...]
    reminder: str


def _color(node: Node) -> str:
    try:
        check_color(node.str())
    except ValueError:
        raise node.error(f"not a colour: {node.value!r}") from None
    return node.str()


def load_look(path: Path | None = None) -> Look:
    root = load_yaml(path or content_root() / "uptower" / "print.yaml")
    root.only_keys("sheet_size", "accent", "piece_colors", "reminder")
    size = [v.number(50, 1000) for v in root["sheet_size"].items()]
    if len(size) != 2:
        raise root["sheet_size"].error("expected [width, height] in mm")
    return Look(size[0], size[1], _color(root["accent"]),
                tuple(_color(c) for c in root["piece_colors"].items()), root["reminder"].str())


@cache
def default_look() -> Look:
    return load_look()


def _pieces(rules: Rules, look: Look) -> list[dict[str, Any]]:
    """The pieces as the sheet draws them: cells as [column, row from the top]."""
    out = []
    for piece in rules.pieces:
        cols = max(x for x, _ in piece.cells) + 1
        rows = max(y for _, y in piece.cells) + 1
        out.append({"number": piece.number, "name": piece.name, "cols": cols, "rows": rows,
                    "cells": [[x, rows - 1 - y] for x, y in piece.cells],
                    "color": look.piece_colors[(piece.number - 1) % len(look.piece_colors)]})
    return out


def _rules_context(rules: Rules, look: Look) -> dict[str, Any]:
    return {
        "floors": rules.floors, "width": rules.width, "turn_boxes": rules.turn_boxes,
        "columns": [column_name(c) for c in range(rules.width)],
        "pieces": _pieces(rules, look),
        "bonus": [{"unused": k, "points": p} for k, p in enumerate(rules.bonus)],
        "bonus_name": rules.bonus_name,
    }


def play_sheet(rules: Rules, look: Look, env: jinja2.Environment, number: int,
               puzzle: Puzzle | None = None) -> Scene:
    """One play sheet at the design size; with `puzzle`, its rolls and par instead of the
    reminder."""
    data = None
    if puzzle is not None:
        data = {"seed": puzzle.seed, "rolls": list(puzzle.rolls), "par": puzzle.par.score,
                "proven": puzzle.par.proven}
    layout = render_layout(
        env, "uptower/play-sheet.yaml.j2",
        {"sheet": {"w": look.sheet_w, "h": look.sheet_h, "number": number},
         "rules": _rules_context(rules, look), "accent": look.accent,
         "reminder": look.reminder, "puzzle": data},
        what=f"play sheet {number}",
    )
    return Scene(look.sheet_w, look.sheet_h, layout.items)


def answer_key(rules: Rules, look: Look, env: jinja2.Environment, puzzle: Puzzle) -> Scene:
    """The par game: the final tower with every piece's turn, and the moves turn by turn."""
    colors = {p["number"]: p["color"] for p in _pieces(rules, look)}
    cells = []
    for placed in placed_pieces(rules, puzzle):
        for x, y in placed.cells:
            cells.append({"col": x, "floor": y, "turn": placed.turn,
                          "at_will": placed.move.at_will, "color": colors[placed.move.piece]})
    turns = []
    for turn, moves in enumerate(puzzle.par.turns, start=1):
        turns.append({"turn": turn, "roll": puzzle.rolls[turn - 1],
                      "moves": [move_text(m) for m in moves]})
    state = puzzle.par.state
    layout = render_layout(
        env, "uptower/answer-key.yaml.j2",
        {"sheet": {"w": look.sheet_w, "h": look.sheet_h}, "rules": _rules_context(rules, look),
         "accent": look.accent, "cells": cells, "turns": turns,
         "puzzle": {"seed": puzzle.seed, "par": puzzle.par.score, "bound": puzzle.bound,
                    "proven": puzzle.par.proven, "heights": list(state.heights)}},
        what=f"answer key of seed {puzzle.seed}",
    )
    return Scene(look.sheet_w, look.sheet_h, layout.items)


def _pages(sheets: Sequence[Scene], paper: tuple[float, float], per_page: int,
           settings: PrintSettings) -> list[Scene]:
    """Sheets scaled onto pages: one per portrait page, or two per landscape page with a
    dashed cut line between them. Room is kept at the bottom for the footer."""
    short, long = sorted(paper)
    margin = settings.margin + 3
    if per_page == 1:
        w, h = short, long
        slots = [(margin, margin, w - 2 * margin, h - 2 * margin - settings.legend_band)]
    else:
        w, h = long, short
        half = (w - 2 * margin - CUT_GAP) / 2
        slot_h = h - 2 * margin - settings.legend_band
        slots = [(margin, margin, half, slot_h), (margin + half + CUT_GAP, margin, half, slot_h)]
    pages = []
    for start in range(0, len(sheets), per_page):
        items: list[Item] = []
        chunk = sheets[start:start + per_page]
        for sheet, slot in zip(chunk, slots, strict=False):
            items.append(group_in_box(sheet, *slot))
        if per_page == 2 and len(chunk) == 2:
            items.append(Line(w / 2, settings.margin, w / 2, h - margin - settings.legend_band,
                              "#9A9A9A", 0.2, (2.0, 1.5)))
        pages.append(Scene(w, h, tuple(items)))
    return pages


def _document(env: jinja2.Environment, pages: Sequence[Scene], legend: str, title: str,
              settings: PrintSettings) -> bytes:
    footed = with_footers(env, [(p, f"{title} · {legend}") for p in pages], settings.margin,
                          settings.legend_band)
    return scenes_to_pdf_bytes(footed, title)


def pad_pdf(rules: Rules, sheets: int, paper: str, per_page: int,
            templates: Path | None = None, settings: PrintSettings | None = None) -> bytes:
    """A pad of `sheets` numbered play sheets as PDF bytes."""
    settings = settings or default_settings()
    env = environment(templates)
    look = default_look()
    scenes = [play_sheet(rules, look, env, n) for n in range(1, sheets + 1)]
    legend = "play sheets · print at 100 %" + (" · cut along the dashed line"
                                                 if per_page == 2 else "")
    return _document(env, _pages(scenes, settings.paper(paper), per_page, settings), legend,
                     "UpTower", settings)


def puzzle_pdf(rules: Rules, puzzles: Sequence[Puzzle], paper: str,
               templates: Path | None = None, settings: PrintSettings | None = None) -> bytes:
    """Each puzzle's sheet followed by its answer key, one per portrait page."""
    settings = settings or default_settings()
    env = environment(templates)
    look = default_look()
    scenes: list[Scene] = []
    for number, puzzle in enumerate(puzzles, start=1):
        scenes.append(play_sheet(rules, look, env, number, puzzle))
        scenes.append(answer_key(rules, look, env, puzzle))
    legend = "solo puzzles, each followed by its answer key (fold it away before you play)"
    return _document(env, _pages(scenes, settings.paper(paper), 1, settings), legend,
                     "UpTower", settings)


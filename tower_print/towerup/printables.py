"""Tower Up print-and-play: cards with backs, the board, personal boards, tokens, player aid.

Everything is drawn from the Tower Up content (`content/towerup/*.yaml`) with the looks in
`content/towerup/print.yaml` and the templates in `templates/towerup/`, imposed and tiled by
`tower_print.render`, and returned as files in memory (name -> bytes) so the caller writes all of
them or none. Every colour that carries meaning is drawn with its symbol too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from tower_print.content import Node, UserError, content_root, load_yaml
from tower_print.render.impose import SheetSpec, card_pages, document_files, with_footers
from tower_print.render.layout import CardSpec, card_scene, environment, render_layout
from tower_print.render.pdf import check_color, scenes_to_pdf_bytes
from tower_print.render.raster import pixels, png_bytes, rasterise
from tower_print.render.scene import Scene
from tower_print.render.settings import PrintSettings, default_settings
from tower_print.render.svg import scene_to_svg
from tower_print.render.tile import TileSpec, tile
from tower_print.towerup.board import Side
from tower_print.towerup.components import MOVE, WILD, Rules
from tower_print.towerup.game import Content, default_content
from tower_print.towerup.layouts import spelled

GAME = "Tower Up"
SIDES = ("front", "back", "both")
OBJECTIVES_IN_PLAY = 3  # objective cards laid out in a game, each with its set of bonus chips
# --- looks ------------------------------------------------------------------------------------


def _check_colors(node: Node) -> None:
    """Every `fill`/`ink`/`color` below `node` must be a colour the backends draw."""
    mapping = node.as_mapping() if isinstance(node.value, dict) else {}
    for key, child in mapping.items():
        if key in ("fill", "ink", "color"):
            try:
                check_color(child.str())
            except ValueError:
                raise child.error(f"not a colour: {child.value!r}") from None
        elif isinstance(child.value, (dict, list)):
            _check_colors(child)
    if isinstance(node.value, list):
        for child in node.items():
            _check_colors(child)


def _check_symbols(node: Node, symbols: dict[str, Any]) -> None:
    mapping = node.as_mapping() if isinstance(node.value, dict) else {}
    for key, child in mapping.items():
        if key == "symbol" and child.str() not in symbols:
            raise child.error(f"unknown symbol '{child.value}' (known: {', '.join(symbols)})")
        if isinstance(child.value, (dict, list)):
            _check_symbols(child, symbols)
    if isinstance(node.value, list):
        for child in node.items():
            _check_symbols(child, symbols)


def load_look(path: Path, content: Content) -> dict[str, Any]:
    """The kit's looks as plain data for the templates, checked against the game content."""
    root = load_yaml(path)
    root.only_keys("symbols", "floors", "wild", "move", "players", "districts", "cards", "board",
                   "tokens")
    for name, outline in root["symbols"].as_mapping().items():
        for point in outline.items():
            if len([p.number(0, 1) for p in point.items()]) != 2:
                raise point.error(f"symbol {name}: a point is [x, y] in 0..1")
    symbols = root["symbols"].plain()
    for group in ("board", "tokens"):
        for child in root[group].as_mapping().values():
            if not isinstance(child.value, dict):
                child.number(0.5, 500.0)  # a length in mm: refuse a typo here, not in a template
    _check_colors(root)
    _check_symbols(root, symbols)
    for colour in content.rules.colours:
        if root["floors"].get(colour) is None:
            raise root["floors"].error(f"no look for floor colour '{colour}'")
    for district in content.board.districts:
        if root["districts"].get(district) is None:
            raise root["districts"].error(f"no look for district '{district}'")
    if len(root["players"].plain()) != 4:
        raise root["players"].error("expected four player colours")
    return root.plain()


@cache
def default_look() -> dict[str, Any]:
    return load_look(content_root() / "towerup" / "print.yaml", default_content())


# --- cards ------------------------------------------------------------------------------------


def _item(item: str, look: dict[str, Any]) -> dict[str, Any]:
    if item == WILD:
        return {"kind": "wild", **look["wild"]}
    if item.startswith(MOVE):
        return {"kind": "move", **look["floors"][item[len(MOVE):]]}
    return {"kind": "floor", **look["floors"][item]}


def materials_faces(content: Content, look: dict[str, Any], env: jinja2.Environment,
                    spec: CardSpec) -> list[Scene]:
    return [card_scene(env, "towerup/materials-face.yaml.j2",
                       {"card": {"number": card.index + 1,
                                 "rows": [_item(i, look) for i in card.items]}, "look": look},
                       spec, what=f"materials card {card.index + 1}")
            for card in content.rules.deck]


def objective_faces(content: Content, look: dict[str, Any], env: jinja2.Environment,
                    spec: CardSpec) -> list[Scene]:
    return [card_scene(env, "towerup/objective-face.yaml.j2",
                       {"card": {"id": c.id, "title": c.title, "text": c.text,
                                 "starting": c.starting}, "look": look},
                       spec, what=f"objective card {c.id}")
            for c in content.cards]


def card_back(deck: str, look: dict[str, Any], env: jinja2.Environment,
              spec: CardSpec) -> Scene:
    deck_look = look["cards"][deck]
    return card_scene(env, "towerup/card-back.yaml.j2",
                      {"deck": {"title": deck_look["title"], "color": deck_look["color"],
                                "game": GAME}},
                      spec, what=f"{deck} card back")


# --- the board --------------------------------------------------------------------------------


def board_scene(side: Side, content: Content, look: dict[str, Any], env: jinja2.Environment,
                card: tuple[float, float]) -> Scene:
    """One side of the board as one large page (the print-shop file; tiles are cut from it)."""
    by_id = {s.id: s for s in side.sites}
    layout = render_layout(
        env, "towerup/board.yaml.j2",
        {"side": {"name": side.name, "players": list(side.players)},
         "sites": [{"id": s.id, "x": s.x, "y": s.y, "district": s.district,
                    "start": s.id in side.start_sites} for s in side.sites],
         "streets": [[by_id[a].x, by_id[a].y, by_id[b].x, by_id[b].y] for a, b in side.streets],
         "districts": [{"id": d, "name": name, **look["districts"][d]}
                       for d, name in content.board.districts.items()],
         "market": content.rules.market_size, "objectives": OBJECTIVES_IN_PLAY,
         "cone": list(content.rules.cone),
         "card": {"w": card[0], "h": card[1]}, "look": look, "game": GAME},
        what=f"board {side.name}", extra_keys=("size",))
    size = layout.root["size"]
    size.only_keys("w", "h")
    return Scene(size["w"].number(10, 5000), size["h"].number(10, 5000), layout.items)


# --- pages of the extras: personal boards ----------------------------------------------------


def _page(paper: tuple[float, float], settings: PrintSettings) -> dict[str, float]:
    w, h = paper
    return {"w": w, "h": h, "margin": settings.margin,
            "bottom": settings.margin + settings.legend_band}


def personal_boards(content: Content, look: dict[str, Any], env: jinja2.Environment,
                    paper: tuple[float, float], settings: PrintSettings) -> list[Scene]:
    """One landscape page per player colour."""
    w, h = sorted(paper, reverse=True)
    rules = content.rules
    tracks = [{**look["floors"][c], "points": list(rules.tracks[c])} for c in rules.colours]
    return [Scene(w, h, render_layout(
        env, "towerup/personal-board.yaml.j2",
        {"player": player, "tracks": tracks, "stars": list(rules.star_columns),
         "roofs": rules.roofs_per_player, "cone": list(rules.cone), "look": look,
         "page": _page((w, h), settings)},
        what=f"personal board {player['name']}").items) for player in look["players"]]


# --- pages of the extras: tokens -------------------------------------------------------------


HEADING = 8.0  # mm above each group of tokens for its heading


def token_groups(content: Content, look: dict[str, Any], cubes: bool = False,
                 ) -> list[tuple[str, list[dict[str, Any]]]]:
    """(heading, tokens) for the bonus chips, the roofs and (unless they are cubes) the floors."""
    sizes, rules = look["tokens"], content.rules
    chips = [{"shape": "circle", "size": sizes["chip"], "label": str(v), **sizes["chip_look"]}
             for _ in range(OBJECTIVES_IN_PLAY) for v in rules.chips]
    roofs = [{"shape": "circle", "size": sizes["roof"], "label": "", **p}
             for p in look["players"] for _ in range(rules.roofs_per_player)]
    floors = [{"shape": "square", "size": sizes["floor"], **look["floors"][c], "label": ""}
              for c in rules.colours for _ in range(rules.floors_per_colour)]
    values = ", ".join(map(str, rules.chips))
    return [(f"Bonus chips: {OBJECTIVES_IN_PLAY} sets of {values}", chips),
            (f"Roofs: {rules.roofs_per_player} per player", roofs),
            (f"Floors: {rules.floors_per_colour} of each colour", floors)][:2 if cubes else 3]


def token_pages(content: Content, look: dict[str, Any], env: jinja2.Environment,
                paper: tuple[float, float], settings: PrintSettings, cubes: bool = False,
                ) -> list[Scene]:
    """Tokens packed row by row, group after group, on as many portrait pages as they need."""
    w, h = sorted(paper)
    gap, left, top = look["tokens"]["gap"], settings.margin + 2, settings.margin + 2
    right, bottom = w - settings.margin - 2, h - settings.margin - settings.legend_band - 2
    pages: list[dict[str, list[dict[str, Any]]]] = [{"headings": [], "tokens": []}]
    y = top
    for heading, tokens in token_groups(content, look, cubes):
        size = tokens[0]["size"]
        if y + HEADING + size > bottom:
            pages.append({"headings": [], "tokens": []})
            y = top
        pages[-1]["headings"].append({"x": left, "y": round(y, 3), "w": right - left,
                                      "text": heading})
        y += HEADING
        x = left
        for token in tokens:
            if x + size > right:
                x, y = left, y + size + gap
            if y + size > bottom:
                pages.append({"headings": [], "tokens": []})
                x, y = left, top
            pages[-1]["tokens"].append({**token, "x": round(x, 3), "y": round(y, 3)})
            x += size + gap
        y += size + 2 * gap
    return [Scene(w, h, render_layout(env, "towerup/tokens.yaml.j2", {**page, "look": look},
                                      what=f"token page {k}").items)
            for k, page in enumerate(pages, start=1)]


def cube_pages(content: Content, look: dict[str, Any], env: jinja2.Environment,
               paper: tuple[float, float], settings: PrintSettings) -> list[Scene]:
    """The floors as fold-up cube nets (`--cubes`), as many to a portrait page as fit."""
    w, h = sorted(paper)
    edge, tab, gap = (look["tokens"]["cube"], look["tokens"]["cube_tab"], look["tokens"]["gap"])
    net_w, net_h = 3 * edge + 2 * tab + gap, 4 * edge + 2 * tab + gap
    left, top = settings.margin + 2, settings.margin + 2
    cols = int((w - 2 * left + gap) // net_w)
    rows = int((h - top - settings.margin - settings.legend_band - 2 + gap) // net_h)
    cubes = [look["floors"][c] for c in content.rules.colours
             for _ in range(content.rules.floors_per_colour)]
    per_page = cols * rows
    pages = []
    for start in range(0, len(cubes), per_page):
        placed = [{**cube, "x": round(left + (k % cols) * net_w, 3),
                   "y": round(top + (k // cols) * net_h, 3)}
                  for k, cube in enumerate(cubes[start:start + per_page])]
        pages.append(Scene(w, h, render_layout(
            env, "towerup/cubes.yaml.j2", {"cubes": placed, "edge": edge, "tab": tab,
                                           "look": look},
            what=f"cube page {start // per_page + 1}").items))
    return pages


# --- pages of the extras: the player aid -----------------------------------------------------


def load_aid(path: Path, rules: Rules) -> dict[str, Any]:
    """The player aid's texts with their numbers filled in from `rules` (`{{ ... }}` in the
    file, with `rules` and `spelled`), so that the aid cannot disagree with the rules the
    engine plays by when someone edits rules.yaml."""
    root = load_yaml(path)
    root.only_keys("title", "sections")
    sections = []
    for node in root["sections"].items():
        node.only_keys("heading", "text")
        sections.append({"heading": node["heading"].str(),
                         "text": node["text"].parsed(lambda text: _with_rules(text, rules))})
    return {"title": root["title"].str(), "sections": sections}


_AID_WORDING = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False)


def _with_rules(text: str, rules: Rules) -> str:
    try:
        return _AID_WORDING.from_string(text).render(rules=rules, spelled=spelled)
    except jinja2.TemplateError as error:
        raise UserError(f"cannot fill in the rules: {error}") from None


def player_aid(content: Content, look: dict[str, Any], env: jinja2.Environment,
               paper: tuple[float, float], settings: PrintSettings) -> Scene:
    w, h = sorted(paper)
    aid = load_aid(content_root() / "towerup" / "aid.yaml", content.rules)
    floors = [look["floors"][c] for c in content.rules.colours]
    return Scene(w, h, render_layout(
        env, "towerup/player-aid.yaml.j2",
        {"aid": aid, "floors": floors, "players": look["players"], "look": look,
         "page": _page((w, h), settings)}, what="player aid").items)


# --- the print job ----------------------------------------------------------------------------


@dataclass(frozen=True)
class PrintJob:
    paper: str = "a4"
    side: str = "both"
    duplex: str = "long"
    png: bool = False
    cubes: bool = False
    overlap: float = 10.0
    templates: Path | None = None
    settings: PrintSettings = field(default_factory=default_settings)


def _sheet_spec(job: PrintJob) -> SheetSpec:
    s = job.settings
    card_w, card_h = s.card(None)
    paper_w, paper_h = s.paper(job.paper)
    return SheetSpec(paper_w, paper_h, card_w, card_h, s.bleed, s.gutter, s.margin,
                     s.legend_band, job.duplex)


def _document(name: str, title: str, parts: Sequence[tuple[Scene, str]],
              env: jinja2.Environment, settings: PrintSettings) -> dict[str, bytes]:
    """A PDF and one SVG per page, each page with the footer legend."""
    pages = with_footers(env, [(scene, f"{title} · {legend}") for scene, legend in parts],
                         settings.margin, settings.legend_band)
    return document_files(name, pages, title)


def _card_pngs(label: str, ids: Sequence[str], faces: Sequence[Scene], back: Scene,
               spec: CardSpec, dpi: int) -> dict[str, bytes]:
    """One PNG per card face and one of the back, with the print shops' bleed."""
    w = pixels(spec.w + 2 * spec.bleed, dpi)
    h = pixels(spec.h + 2 * spec.bleed, dpi)
    images = rasterise(scenes_to_pdf_bytes([*faces, back]), w, h)
    return {f"png/{label}/{name}.png": png_bytes(image, dpi)
            for name, image in zip([*ids, "back"], images, strict=True)}


def sides_of(job: PrintJob) -> tuple[str, ...]:
    return ("front", "back") if job.side == "both" else (job.side,)


def build_outputs(job: PrintJob, progress: Callable[[str], None] | None = None,
                  content: Content | None = None) -> dict[str, bytes]:
    """Every output file of the kit, rendered in memory (name -> bytes)."""
    say = progress or (lambda _: None)
    content = content or default_content()
    look = default_look()
    env = environment(job.templates)
    s = job.settings
    spec = _sheet_spec(job)
    sheet_cards = CardSpec(spec.card_w, spec.card_h, s.bleed, s.safe)
    outputs: dict[str, bytes] = {}

    say(f"cards: {len(content.rules.deck)} materials, {len(content.cards)} objectives")
    mat = materials_faces(content, look, env, sheet_cards)
    obj = objective_faces(content, look, env, sheet_cards)
    mat_back = card_back("materials", look, env, sheet_cards)
    obj_back = card_back("objective", look, env, sheet_cards)
    parts = (card_pages(mat, [mat_back] * len(mat), spec, env, "materials cards")
             + card_pages(obj, [obj_back] * len(obj), spec, env, "objective cards"))
    outputs.update(_document("towerup-cards", f"{GAME} cards", parts, env, s))
    if job.png:
        say("cards: one PNG per card for print shops")
        shop = CardSpec(spec.card_w, spec.card_h, s.png_bleed, s.safe)
        mat_ids = [f"M{c.index + 1:02d}" for c in content.rules.deck]
        outputs.update(_card_pngs("materials", mat_ids, materials_faces(content, look, env, shop),
                                  card_back("materials", look, env, shop), shop, s.png_dpi))
        outputs.update(_card_pngs("objectives", [c.id for c in content.cards],
                                  objective_faces(content, look, env, shop),
                                  card_back("objective", look, env, shop), shop, s.png_dpi))

    say("personal boards, tokens, player aid")
    paper = (spec.paper_w, spec.paper_h)
    parts = [(page, "personal board · print one per player") for page in
             personal_boards(content, look, env, paper, s)]
    parts += [(page, "tokens · cut out along the outlines") for page in
              token_pages(content, look, env, paper, s, job.cubes)]
    if job.cubes:
        parts += [(page, "floor cubes · cut the solid lines, fold the dashed ones, glue the "
                         "white tabs inside") for page in cube_pages(content, look, env, paper, s)]
    parts.append((player_aid(content, look, env, paper, s), "player aid · one per player"))
    outputs.update(_document("towerup-extras", f"{GAME} extras", parts, env, s))

    for side_name in sides_of(job):
        side = content.board.side(side_name)
        say(f"board, {side_name} side: one large page and tiles")
        board = board_scene(side, content, look, env, (spec.card_w, spec.card_h))
        title = f"{GAME} board, {side_name} side ({'-'.join(map(str, side.players))} players)"
        outputs[f"towerup-board-{side_name}-large.pdf"] = scenes_to_pdf_bytes([board], title)
        outputs[f"svg/towerup-board-{side_name}-large.svg"] = scene_to_svg(board).encode("utf-8")
        tiles = tile(board, TileSpec(spec.paper_w, spec.paper_h, s.margin, s.legend_band,
                                     job.overlap))
        parts = [(t.scene, f"tile {t.label} of {t.rows} x {t.cols} · trim the margin, lay the "
                           f"sheet over its neighbour to the dashed line, match the targets · "
                           f"print at 100 %") for t in tiles]
        outputs.update(_document(f"towerup-board-{side_name}", title, parts, env, s))
    return outputs

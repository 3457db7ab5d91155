"""TowerBrix print-and-play: condition cards, overview cards, score pad and paper bricks.

Everything is built as `Scene`s from the templates in `templates/brix/` and the data in
`content/brix/`, imposed on sheets by `tower_print.render.impose`, and written as PDF, SVG pages,
and on request PNGs per card and Tabletop Simulator sheets. All outputs are rendered in memory
and written at the end, all or nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from tower_print.brix.bricks import BrickSet, default_bricks
from tower_print.brix.decks import Deck
from tower_print.brix.examples import (
    DeckSource,
    Tower,
    checked_examples,
    deck_source,
    tower_from_yaml,
)
from tower_print.brix.printables_bricks import brick_net_pages
from tower_print.brix.sketch import tower_scene
from tower_print.content import Node, UserError, content_root, load_yaml
from tower_print.render.impose import SheetSpec, card_pages, document_files, with_footers
from tower_print.render.layout import CardSpec, card_scene, environment, render_layout
from tower_print.render.pdf import check_color, scenes_to_pdf_bytes
from tower_print.render.raster import pixels, png_bytes, rasterise, tts_grid, tts_sheet
from tower_print.render.scene import Scene
from tower_print.render.settings import PrintSettings, default_settings

# --- content ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DeckLook:
    title: str
    subtitle: str
    color: str


@dataclass(frozen=True)
class OverviewCard:
    id: str
    title: str
    text: str
    show: tuple[str, ...]


@dataclass(frozen=True)
class BrixPrintContent:
    decks: dict[str, DeckLook]
    overview_color: str
    emblem: Tower
    levels: tuple[dict[str, Any], ...]
    bonuses: tuple[dict[str, Any], ...]
    rounds: int
    ratings: tuple[dict[str, Any], ...]
    overview: tuple[OverviewCard, ...]


def _color(node: Node) -> str:
    value = node.str()
    try:
        check_color(value)
    except ValueError:
        raise node.error(f"not a colour: {value!r}") from None
    return value


def _bands(node: Node, *text_keys: str) -> tuple[dict[str, Any], ...]:
    out = []
    for item in node.items():
        item.only_keys("min", "max", "points", *text_keys)
        entry: dict[str, Any] = {k: item[k].str() for k in text_keys}
        for key in ("min", "max", "points"):
            if item.get(key) is not None:
                entry[key] = item[key].int(0, 1000)
        out.append(entry)
    return tuple(out)


def load_print_content(folder: Path | None = None) -> BrixPrintContent:
    folder = folder or content_root() / "brix"
    look = load_yaml(folder / "print.yaml")
    look.only_keys("decks", "overview_color", "emblem")
    decks = {}
    for name, node in look["decks"].as_mapping().items():
        node.only_keys("title", "subtitle", "color")
        decks[name] = DeckLook(node["title"].str(), node["subtitle"].str(), _color(node["color"]))
    overview = load_yaml(folder / "overview.yaml")
    overview.only_keys("levels", "bonuses", "rounds", "ratings", "cards")
    cards = []
    for node in overview["cards"].items():
        node.only_keys("id", "title", "text", "show")
        show = tuple(s.choice(("levels", "bonuses", "ratings"))
                     for s in (node["show"].items() if node.get("show") else ()))
        cards.append(OverviewCard(node["id"].str(), node["title"].str(), node["text"].str(), show))
    return BrixPrintContent(
        decks=decks, overview_color=_color(look["overview_color"]),
        emblem=tower_from_yaml(look["emblem"], default_bricks().color_names),
        levels=_bands(overview["levels"], "name"), bonuses=_bands(overview["bonuses"], "text"),
        rounds=overview["rounds"].int(1, 10), ratings=_bands(overview["ratings"], "text"),
        overview=tuple(cards),
    )


@cache
def default_print_content() -> BrixPrintContent:
    return load_print_content()


# --- cards ------------------------------------------------------------------------------------


CUSTOM_LOOK = "custom"
"""The look in content/brix/print.yaml for a deck that has none of its own (a deck file)."""


def deck_context(deck: Deck, content: BrixPrintContent) -> dict[str, Any]:
    look = content.decks.get(deck.name) or content.decks.get(CUSTOM_LOOK)
    if look is None:
        raise UserError(f"content/brix/print.yaml: decks: no look for deck '{deck.name}' "
                        f"and none named '{CUSTOM_LOOK}'")
    return {"name": deck.name, "title": look.title, "subtitle": look.subtitle,
            "color": look.color, "cards": len(deck.cards)}


def _emblem(bricks: BrickSet, content: BrixPrintContent) -> Scene:
    return tower_scene(content.emblem, default_bricks().colors, bricks.unit_mm, ground=False)


def condition_faces(
    deck: Deck, towers: dict[str, Tower], content: BrixPrintContent, env: jinja2.Environment,
    spec: CardSpec,
) -> list[Scene]:
    context_deck = deck_context(deck, content)
    faces = []
    for card in deck.cards:
        sketch = tower_scene(towers[card.id], deck.bricks.colors, deck.bricks.unit_mm)
        faces.append(card_scene(
            env, "brix/condition-face.yaml.j2",
            {"card": {"id": card.id, "text": card.text, "points": card.points},
             "deck": context_deck},
            spec, {"sketch": sketch}, what=f"card {card.id}",
        ))
    return faces


def condition_back(
    deck: Deck, points: int | None, content: BrixPrintContent, env: jinja2.Environment,
    spec: CardSpec,
) -> Scene:
    return card_scene(
        env, "brix/condition-back.yaml.j2",
        {"card": {"points": points}, "deck": deck_context(deck, content)},
        spec, {"emblem": _emblem(deck.bricks, content)},
        what=f"{deck.name} back" + (f" ({points} points)" if points else " (hidden card)"),
    )


def condition_backs(
    deck: Deck, content: BrixPrintContent, env: jinja2.Environment, spec: CardSpec,
) -> list[Scene]:
    by_points = {p: condition_back(deck, p, content, env, spec)
                 for p in sorted({c.points for c in deck.cards})}
    return [by_points[card.points] for card in deck.cards]


def _overview_context(content: BrixPrintContent) -> dict[str, Any]:
    return {"levels": list(content.levels), "bonuses": list(content.bonuses),
            "ratings": list(content.ratings), "rounds": content.rounds,
            "color": content.overview_color}


def overview_faces(
    content: BrixPrintContent, env: jinja2.Environment, spec: CardSpec,
) -> list[Scene]:
    return [
        card_scene(env, "brix/overview-face.yaml.j2",
                   {"card": {"id": c.id, "title": c.title, "text": c.text, "show": list(c.show)},
                    **_overview_context(content)},
                   spec, what=f"overview card {c.id}")
        for c in content.overview
    ]


def overview_back(content: BrixPrintContent, env: jinja2.Environment, spec: CardSpec) -> Scene:
    return card_scene(env, "brix/overview-back.yaml.j2", _overview_context(content), spec,
                      {"emblem": _emblem(default_bricks(), content)}, what="overview back")


def score_pad(content: BrixPrintContent, env: jinja2.Environment, paper: tuple[float, float],
              settings: PrintSettings) -> Scene:
    w, h = paper
    layout = render_layout(
        env, "brix/score-pad.yaml.j2",
        {"page": {"w": w, "h": h, "margin": settings.margin + 3,
                  "bottom": settings.margin + settings.legend_band},
         **_overview_context(content)},
        what="score pad",
    )
    return Scene(w, h, layout.items)


# --- the print job ----------------------------------------------------------------------------


@dataclass(frozen=True)
class PrintJob:
    decks: tuple[str, ...]
    paper: str = "a4"
    card: str | None = None
    duplex: str = "long"
    cut_guides: bool = False
    png: bool = False
    tts: bool = False
    templates: Path | None = None
    settings: PrintSettings = field(default_factory=default_settings)


def _sheet_spec(job: PrintJob) -> SheetSpec:
    s = job.settings
    card_w, card_h = s.card(job.card)
    paper_w, paper_h = s.paper(job.paper)
    return SheetSpec(paper_w, paper_h, card_w, card_h, s.bleed, s.gutter, s.margin,
                     s.legend_band, job.duplex, job.cut_guides)


def _document(
    title: str, parts: Sequence[tuple[Scene, str]], env: jinja2.Environment,
    settings: PrintSettings,
) -> list[Scene]:
    return with_footers(env, [(scene, f"{title} · {legend}") for scene, legend in parts],
                        settings.margin, settings.legend_band)


def _png_and_tts(
    label: str, ids: Sequence[str], faces: Sequence[Scene], backs: dict[str, Scene],
    back_of: Sequence[str], hidden: Scene, job: PrintJob, card_spec: CardSpec,
) -> dict[str, bytes]:
    """PNG per card (with the shops' bleed) and/or a TTS face sheet and backs sheet."""
    s = job.settings
    out: dict[str, bytes] = {}
    full_w = pixels(card_spec.w + 2 * card_spec.bleed, s.png_dpi)
    full_h = pixels(card_spec.h + 2 * card_spec.bleed, s.png_dpi)
    face_pdf = scenes_to_pdf_bytes(faces)
    back_names = list(backs)
    back_pdf = scenes_to_pdf_bytes([backs[n] for n in back_names] + [hidden])
    if job.png:
        for card_id, image in zip(ids, rasterise(face_pdf, full_w, full_h), strict=True):
            out[f"png/{label}/{card_id}.png"] = png_bytes(image, s.png_dpi)
        for name, image in zip(back_names, rasterise(back_pdf, full_w, full_h), strict=False):
            out[f"png/{label}/{name}.png"] = png_bytes(image, s.png_dpi)
    if job.tts:
        grid = tts_grid(len(faces), card_spec.h / card_spec.w, s.tts_columns, s.tts_rows,
                        s.tts_max_px)
        cut = card_spec.bleed
        face_images = list(rasterise(face_pdf, grid.cell_w, grid.cell_h, cut))
        back_images = list(rasterise(back_pdf, grid.cell_w, grid.cell_h, cut))
        by_name = dict(zip([*back_names, "hidden"], back_images, strict=True))
        hidden_image = by_name["hidden"]
        out[f"tts/{label}-faces.png"] = png_bytes(tts_sheet(face_images, hidden_image, grid))
        out[f"tts/{label}-backs.png"] = png_bytes(
            tts_sheet([by_name[n] for n in back_of], hidden_image, grid))
        out[f"tts/{label}.json"] = (json.dumps({
            "faces": f"{label}-faces.png", "backs": f"{label}-backs.png",
            "columns": grid.columns, "rows": grid.rows, "cards": len(faces),
            "cell_px": [grid.cell_w, grid.cell_h], "unique_backs": True, "back_is_hidden": True,
            "order": list(ids),
            "how": "Tabletop Simulator: Objects > Components > Custom > Deck; Face = faces "
                   "sheet, Back = backs sheet, Unique Backs and Back is Hidden on, Width = "
                   "columns, Height = rows, Number = cards.",
        }, indent=2) + "\n").encode("utf-8")
    return out


def deck_pages(deck: Deck, job: PrintJob, source: DeckSource | None = None,
               ) -> tuple[str, list[Scene]]:
    """(title, pages) of a deck's condition cards: fronts and backs imposed, with footers. The
    example towers are re-checked first."""
    env = environment(job.templates)
    content = default_print_content()
    spec = _sheet_spec(job)
    s = job.settings
    sheet_cards = CardSpec(spec.card_w, spec.card_h, s.bleed, s.safe)
    source = source or DeckSource(deck)
    towers = checked_examples(deck, source.examples, source.ref)
    faces = condition_faces(deck, towers, content, env, sheet_cards)
    backs = condition_backs(deck, content, env, sheet_cards)
    title = f"TowerBrix {deck_context(deck, content)['title'].lower()}"
    return title, _document(title, card_pages(faces, backs, spec, env, "condition cards"), env, s)


def card_png_files(deck: Deck, job: PrintJob, source: DeckSource | None = None,
                   ) -> dict[str, bytes]:
    """The PNG (and with `job.tts` the Tabletop Simulator) files of one deck."""
    env = environment(job.templates)
    content = default_print_content()
    spec = _sheet_spec(job)
    shop_cards = CardSpec(spec.card_w, spec.card_h, job.settings.png_bleed, job.settings.safe)
    source = source or DeckSource(deck)
    towers = checked_examples(deck, source.examples, source.ref)
    shop_faces = condition_faces(deck, towers, content, env, shop_cards)
    points = sorted({c.points for c in deck.cards})
    shop_backs = {f"back-{p}": condition_back(deck, p, content, env, shop_cards) for p in points}
    hidden = condition_back(deck, None, content, env, shop_cards)
    return _png_and_tts(deck.name, [c.id for c in deck.cards], shop_faces, shop_backs,
                        [f"back-{c.points}" for c in deck.cards], hidden, job, shop_cards)


def build_outputs(job: PrintJob, progress: Callable[[str], None] | None = None,
                  ) -> dict[str, bytes]:
    """Every output file of the job, rendered in memory (name -> bytes)."""
    say = progress or (lambda _: None)
    env = environment(job.templates)
    content = default_print_content()
    spec = _sheet_spec(job)
    s = job.settings
    sheet_cards = CardSpec(spec.card_w, spec.card_h, s.bleed, s.safe)
    shop_cards = CardSpec(spec.card_w, spec.card_h, s.png_bleed, s.safe)
    outputs: dict[str, bytes] = {}
    for ref in job.decks:
        source = deck_source(ref)
        deck, name = source.deck, source.deck.name
        say(f"{name}: checking the example towers, drawing {len(deck.cards)} cards")
        title, pages = deck_pages(deck, job, source)
        outputs.update(document_files(f"towerbrix-{name}-cards", pages, title))
        if job.png or job.tts:
            say(f"{name}: pictures for print shops and Tabletop Simulator")
            outputs.update(card_png_files(deck, job, source))
    say("overview cards, score pad and paper bricks")
    ov_faces = overview_faces(content, env, sheet_cards)
    ov_back = overview_back(content, env, sheet_cards)
    parts = card_pages(ov_faces, [ov_back] * len(ov_faces), spec, env, "overview cards")
    paper = (spec.paper_w, spec.paper_h)
    parts.append((score_pad(content, env, paper, s), "score pad · copy as many as you need"))
    for page in brick_net_pages(default_bricks(), env, paper, s.margin, s.legend_band):
        parts.append((page, "paper bricks · cut the solid lines, fold the dashed ones, "
                            "glue the tabs inside"))
    title = "TowerBrix extras"
    outputs.update(document_files("towerbrix-extras", _document(title, parts, env, s),
                                         title))
    if job.png or job.tts:
        shop_ov = overview_faces(content, env, shop_cards)
        shop_back = overview_back(content, env, shop_cards)
        outputs.update(_png_and_tts(
            "overview", [c.id for c in content.overview], shop_ov, {"back": shop_back},
            ["back"] * len(shop_ov), shop_back, job, shop_cards))
    return outputs

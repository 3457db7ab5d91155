"""Round packets for a dealt game: each round's cards by player, then the answer pages.

Built from the same pieces as the print-and-play kit (`printables`): the card faces come from
`templates/brix/condition-face.yaml.j2` with their example sketches, the pages from
`templates/brix/deal-round.yaml.j2` and `deal-answer.yaml.j2`, footers from the shared
footer template, and the PDF from `tower_print.render`. The answers come last, one page per
round, so dealing from the packet does not show them.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import jinja2

from tower_print.brix.challenges import Challenge
from tower_print.brix.deals import Deal, Round
from tower_print.brix.examples import Tower
from tower_print.brix.printables import condition_faces, deck_context, default_print_content
from tower_print.brix.sketch import tower_scene
from tower_print.brix.verify import building_steps
from tower_print.render.impose import with_footers
from tower_print.render.layout import CardSpec, environment, render_layout
from tower_print.render.pdf import scenes_to_pdf_bytes
from tower_print.render.scene import Scene
from tower_print.render.settings import PrintSettings, default_settings


def _page(settings: PrintSettings, paper: str) -> dict[str, float]:
    w, h = settings.paper(paper)
    return {"w": w, "h": h, "margin": settings.margin + 3,
            "bottom": settings.margin + settings.legend_band}


def _challenge_lines(challenges: tuple[Challenge, ...]) -> list[str]:
    return [f"Challenge {c.name}: {c.text}" for c in challenges]


def round_page(result: Deal, r: Round, sketches: dict[str, Tower], env: jinja2.Environment,
               settings: PrintSettings, paper: str, card: str | None) -> Scene:
    """The packet of one round: the players' strips of card faces (`sketches`: each card's
    example tower, `checked_examples`)."""
    content = default_print_content()
    card_w, card_h = settings.card(card)
    spec = CardSpec(card_w, card_h, 0.0, settings.safe)
    faces = condition_faces(replace(result.deck, cards=r.cards), sketches, content, env, spec)
    by_id = {c.id: face for c, face in zip(r.cards, faces, strict=True)}
    players: list[dict[str, Any]] = [
        {"number": k, "cards": [{"id": c.id, "slot": f"card-{c.id}"} for c in hand]}
        for k, hand in enumerate(r.hands, start=1)
    ]
    page = _page(settings, paper)
    layout = render_layout(env, "brix/deal-round.yaml.j2", {
        "page": page, "deck": deck_context(result.deck, content),
        "round": {"number": r.number, "count": len(result.rounds), "points": r.points,
                  "cards": len(r.cards), "level": result.level.describe(),
                  "difficulty": r.difficulty.text(),
                  "challenges": _challenge_lines(result.challenges)},
        "players": players, "most": max(1, *(len(h) for h in r.hands)),
        "card": {"w": card_w, "h": card_h},
    }, slots={f"card-{c_id}": face for c_id, face in by_id.items()},
        what=f"round {r.number} packet")
    return Scene(page["w"], page["h"], layout.items)


def answer_page(result: Deal, r: Round, env: jinja2.Environment, settings: PrintSettings,
                paper: str) -> Scene:
    """The answer to one round: the tower drawn, the cards, and the tower brick by brick."""
    content = default_print_content()
    bricks = result.deck.bricks
    page = _page(settings, paper)
    layout = render_layout(env, "brix/deal-answer.yaml.j2", {
        "page": page, "deck": deck_context(result.deck, content),
        "round": {"number": r.number, "count": len(result.rounds), "dropped": r.dropped,
                  "cards": [{"id": c.id, "points": c.points, "text": c.text} for c in r.cards],
                  "challenges": _challenge_lines(result.challenges)},
        "steps": [" ".join(line.split()) for line in building_steps(r.tower, bricks)],
    }, slots={"tower": tower_scene(r.tower, bricks.colors, bricks.unit_mm)},
        what=f"round {r.number} answer")
    return Scene(page["w"], page["h"], layout.items)


def deal_pdf(result: Deal, sketches: dict[str, Tower], paper: str = "a4",
             card: str | None = None, templates: Path | None = None) -> bytes:
    """The whole packet as PDF bytes: one page per round, then one answer page per round.
    `sketches`: the deck's example towers (`checked_examples`), drawn on the card faces."""
    settings = default_settings()
    env = environment(templates)
    title = f"TowerBrix deal, {result.deck.name} deck, seed {result.seed}"
    parts = [(round_page(result, r, sketches, env, settings, paper, card),
              f"{title} · round {r.number} · print at 100 % · cut on the dashed lines")
             for r in result.rounds]
    parts += [(answer_page(result, r, env, settings, paper),
               f"{title} · answer to round {r.number} · keep face down until the round is over")
              for r in result.rounds]
    pages = with_footers(env, parts, settings.margin, settings.legend_band)
    return scenes_to_pdf_bytes(pages, title)

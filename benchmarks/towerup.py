"""Tower Up speed: objective layouts (Z3 minimum turns for the cards tried, one joint check) and
seeded simulated games through the rules engine.

    python benchmarks/towerup.py                 # layouts for seeds 0-9 on each side, 1000 games
    python benchmarks/towerup.py --seeds 3 --games 200

Each layout figure is what `tower-print towerup objectives` spends after start-up: the content is
loaded once, each layout computes its own minima (nothing cached between seeds). Targets
(issue 5): one objective layout <= 5 s; 1000 simulated 3-player games <= 60 s.
"""

from __future__ import annotations

import argparse
import statistics
import time

from tower_print.towerup.game import default_content
from tower_print.towerup.layouts import draw_layout
from tower_print.towerup.simulate import simulate, summarise

LAYOUTS = (("front", 3), ("front", 4), ("back", 2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=10, help="layout seeds 0..N-1 per side")
    parser.add_argument("--games", type=int, default=1000, help="simulated 3-player games")
    args = parser.parse_args()
    content = default_content()
    print("| layout | seeds | median s | max s | min turns (first seed) |")
    print("| --- | ---: | ---: | ---: | --- |")
    for side, players in LAYOUTS:
        seconds = []
        first = ""
        for seed in range(args.seeds):
            began = time.perf_counter()
            layout = draw_layout(content, side, players, seed)
            seconds.append(time.perf_counter() - began)
            if layout is not None and not first:
                first = ", ".join(f"{r.card.id} {r.verdict.turns}" for r in layout.rated)
        print(f"| {side}, {players} players | {args.seeds} | {statistics.median(seconds):.2f} | "
              f"{max(seconds):.2f} | {first} |")
    cards = tuple(c for c in content.cards if c.starting)
    began = time.perf_counter()
    results = simulate(content, "front", 3, cards, args.games, seed=0)
    took = time.perf_counter() - began
    summary = summarise(results, 3, "front", cards)
    print(f"\n{args.games} simulated 3-player games (front side, starting objectives): "
          f"{took:.2f} s, {summary.mean_actions:.1f} actions a game, winner's mean score "
          f"{summary.mean_winning_score:.1f}")


if __name__ == "__main__":
    main()

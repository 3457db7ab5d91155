"""Print speed: both TowerBrix decks with backs (105 cards) to PDF and to SVG, every card as a
300 dpi PNG, and the size of the PDFs.

    python benchmarks/brix_print.py              # A4, long-edge duplex, 3 runs, best and median
    python benchmarks/brix_print.py --paper letter --runs 1

Each figure is the whole path a user waits for, from the content files to the bytes: loading the
decks and example towers, re-checking every example with the independent checker, drawing the
cards from the templates, imposing them on sheets with backs, and writing the format. Targets
(issue 3): PDF <= 5 s, SVG <= 5 s, all card PNGs <= 60 s.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from tower_print.brix import decks
from tower_print.brix.decks import DECK_NAMES, shipped_deck
from tower_print.brix.printables import PrintJob, card_png_files, deck_pages
from tower_print.render.pdf import scenes_to_pdf_bytes
from tower_print.render.svg import scene_to_svg


def to_pdf(job: PrintJob) -> int:
    size = 0
    for name in DECK_NAMES:
        title, pages = deck_pages(shipped_deck(name), job)
        size += len(scenes_to_pdf_bytes(pages, title))
    return size


def to_svg(job: PrintJob) -> int:
    size = 0
    for name in DECK_NAMES:
        _, pages = deck_pages(shipped_deck(name), job)
        size += sum(len(scene_to_svg(page).encode("utf-8")) for page in pages)
    return size


def to_png(job: PrintJob) -> int:
    size = 0
    for name in DECK_NAMES:
        size += sum(len(data) for data in card_png_files(shipped_deck(name), job).values())
    return size


def timed(work: Callable[[PrintJob], int], job: PrintJob, runs: int) -> tuple[list[float], int]:
    seconds: list[float] = []
    size = 0
    for _ in range(runs):
        decks.shipped_deck.cache_clear()  # read and validate the deck files again each run
        start = time.perf_counter()
        size = work(job)
        seconds.append(time.perf_counter() - start)
    return seconds, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--paper", default="a4")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--png-runs", type=int, default=1)
    args = parser.parse_args()
    job = PrintJob(DECK_NAMES, paper=args.paper)
    cards = sum(len(shipped_deck(n).cards) for n in DECK_NAMES)
    print(f"{cards} cards with backs, paper {args.paper}, {args.runs} runs (PNG {args.png_runs})")
    print(f"{'output':8} {'best s':>7} {'median s':>9} {'target s':>9} {'bytes':>11}")
    for label, work, runs, target, png in (
        ("PDF", to_pdf, args.runs, 5, False),
        ("SVG", to_svg, args.runs, 5, False),
        ("PNG", to_png, args.png_runs, 60, True),
    ):
        run_job = PrintJob(DECK_NAMES, paper=args.paper, png=png)
        seconds, size = timed(work, run_job if png else job, runs)
        print(f"{label:8} {min(seconds):7.2f} {statistics.median(seconds):9.2f} {target:9d} "
              f"{size:11,d}")


if __name__ == "__main__":
    main()

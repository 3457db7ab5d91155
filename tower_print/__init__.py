"""tower-print: print-and-play kits and proven-solvable puzzles for three tower games."""

__version__ = "0.1.0"

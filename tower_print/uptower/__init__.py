"""UpTower, the roll-and-write: rules from content/uptower, a deterministic engine, a par search
with an upper bound, and the printable play sheets and solo puzzles."""

"""Seeded games between greedy bots, and what they say about the objectives.

Each game is played entirely through `engine.play`, so a simulation is also a long test of the
rules: any illegal move the bot proposed would stop it with the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tower_print.content import UserError
from tower_print.towerup import bot
from tower_print.towerup.engine import GameState, new_game, play, score, winners
from tower_print.towerup.game import Content
from tower_print.towerup.objectives import ObjectiveCard

TURN_LIMIT = 1000  # actions per game; a game reaching it would be a bug in the rules or bot


@dataclass(frozen=True)
class GameResult:
    seed: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    actions: int  # every player's actions, extra turns included
    end_reason: str
    met: tuple[dict[str, int], ...]  # per player: objective id -> own turns when met


def play_game(content: Content, side: str, players: int, objectives: tuple[ObjectiveCard, ...],
              seed: int, watch: Callable[[GameState], None] | None = None) -> GameResult:
    """One seeded game; `watch` sees the state after every action (tests check it)."""
    state = new_game(content.board.side(side), content.rules, content.words, objectives,
                     players, seed)
    actions = 0
    while not state.over:
        if actions == TURN_LIMIT:
            raise RuntimeError(f"game {seed} did not end within {TURN_LIMIT} actions")
        play(state, bot.choose(state))
        actions += 1
        if watch is not None:
            watch(state)
    return GameResult(seed, tuple(score(state, p) for p in range(players)),
                      tuple(winners(state)), actions, state.end_reason or "",
                      tuple(dict(p.met) for p in state.players))


@dataclass(frozen=True)
class Summary:
    games: int
    players: int
    side: str
    objectives: tuple[ObjectiveCard, ...]
    mean_scores: tuple[float, ...]  # by seat
    mean_winning_score: float
    mean_actions: float
    mean_rounds: float
    end_reasons: dict[str, int]
    met_share: dict[str, float]  # objective id -> share of player-games that met it
    met_first_turn: dict[str, int | None]  # earliest own turn it was met in any game
    met_mean_turn: dict[str, float | None]

    def as_json(self) -> dict:
        return {
            "games": self.games, "players": self.players, "side": self.side,
            "objectives": [{"id": o.id, "text": o.objective.text(),
                            "met_share": round(self.met_share[o.id], 4),
                            "earliest_turn": self.met_first_turn[o.id],
                            "mean_turn": _rounded(self.met_mean_turn[o.id])}
                           for o in self.objectives],
            "mean_scores": [round(s, 2) for s in self.mean_scores],
            "mean_winning_score": round(self.mean_winning_score, 2),
            "mean_actions": round(self.mean_actions, 2),
            "mean_rounds": round(self.mean_rounds, 2),
            "end_reasons": self.end_reasons,
        }

    def text(self) -> str:
        lines = [f"{self.games} games, {self.players} players, {self.side} side",
                 "average score by seat: " + ", ".join(f"{s:.1f}" for s in self.mean_scores)
                 + f" (winner {self.mean_winning_score:.1f})",
                 f"average length: {self.mean_actions:.1f} actions "
                 f"({self.mean_rounds:.1f} turns per player)",
                 "ended by: " + ", ".join(f"{k} {v}" for k, v in sorted(self.end_reasons.items()))]
        for o in self.objectives:
            first, mean = self.met_first_turn[o.id], self.met_mean_turn[o.id]
            when = "never met" if first is None else f"earliest turn {first}, mean {mean:.1f}"
            lines.append(f"{o.id} {o.objective.text()}: met by {self.met_share[o.id]:.0%} of "
                         f"players, {when}")
        return "\n".join(lines)


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def summarise(results: list[GameResult], players: int, side: str,
              objectives: tuple[ObjectiveCard, ...]) -> Summary:
    n = len(results)
    reasons: dict[str, int] = {}
    for r in results:
        reasons[r.end_reason] = reasons.get(r.end_reason, 0) + 1
    share, first, mean = {}, {}, {}
    for o in objectives:
        turns = [m[o.id] for r in results for m in r.met if o.id in m]
        share[o.id] = len(turns) / (n * players)
        first[o.id] = min(turns) if turns else None
        mean[o.id] = sum(turns) / len(turns) if turns else None
    return Summary(
        games=n, players=players, side=side, objectives=objectives,
        mean_scores=tuple(sum(r.scores[p] for r in results) / n for p in range(players)),
        mean_winning_score=sum(max(r.scores) for r in results) / n,
        mean_actions=sum(r.actions for r in results) / n,
        mean_rounds=sum(r.actions for r in results) / n / players,
        end_reasons=reasons, met_share=share, met_first_turn=first, met_mean_turn=mean)


def simulate(content: Content, side: str, players: int, objectives: tuple[ObjectiveCard, ...],
             games: int, seed: int,
             progress: Callable[[int], None] | None = None) -> list[GameResult]:
    """`games` games with seeds seed, seed+1, ...: the same arguments give the same games."""
    results = []
    for k in range(games):
        results.append(play_game(content, side, players, objectives, seed + k))
        if progress is not None:
            progress(k + 1)
    return results


def default_side(players: int) -> str:
    return "back" if players == 2 else "front"


def chosen_objectives(content: Content, ids: str | None) -> tuple[ObjectiveCard, ...]:
    """Cards by comma-separated ids; the three starting cards when none are named."""
    if ids is None:
        return tuple(c for c in content.cards if c.starting)
    known = {c.id: c for c in content.cards}
    chosen = []
    for card_id in (i.strip() for i in ids.split(",")):
        if card_id not in known:
            raise UserError(f"--objectives: unknown card '{card_id}' (known: "
                            f"{', '.join(known)})")
        chosen.append(known[card_id])
    return tuple(chosen)

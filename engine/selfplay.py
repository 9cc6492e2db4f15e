"""Random self-play through the public API: a smoke test and a speed figure."""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field

from engine import api
from engine.variant import get_variant


@dataclass
class SelfplayStats:
    variant: str
    players: int
    games: int = 0
    deals: int = 0
    moves: int = 0
    seconds: float = 0.0
    endings: Counter[str] = field(default_factory=Counter)

    def summary(self) -> str:
        rate = self.seconds or 1e-9
        ends = ", ".join(f"{k} {v}" for k, v in sorted(self.endings.items()))
        return (
            f"{self.variant}, {self.players} players: {self.games} games, {self.deals} deals, "
            f"{self.moves} moves in {self.seconds:.2f} s\n"
            f"games/s {self.games / rate:.1f}, moves/s {self.moves / rate:.0f}\n"
            f"deals ended: {ends}"
        )


def selfplay(variant: str, games: int, players: int | None = None, seed: int = 0) -> SelfplayStats:
    """Play ``games`` whole matches with uniformly random legal moves."""
    game = get_variant(variant)
    players = players if players is not None else game.min_players
    stats = SelfplayStats(game.name, players)
    choose = random.Random(seed).choice
    started = time.perf_counter()
    for number in range(games):
        state = api.new_match(game, players, seed=seed + number)
        while True:
            if state.deal_over:
                stats.deals += 1
                assert state.result is not None
                stats.endings[state.result.end.value] += 1
                if state.match_over:
                    break
                state = api.next_deal(state)
                continue
            state, _ = game.apply(state, choose(game.legal_moves(state)))
            stats.moves += 1
        stats.games += 1
    stats.seconds = time.perf_counter() - started
    return stats

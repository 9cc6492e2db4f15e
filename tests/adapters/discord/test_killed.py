"""Two bot processes on one Redis and the real core: the first dies (its tasks cancelled,
its liveness key gone) while Discord holds up the table edit of a move, and the second,
looking at every table on its first timer round, shows the move."""

from __future__ import annotations

import redis.asyncio as aredis

from bot.storage.store import Store
from tests.adapters.discord.conftest import ALICE, BOB
from tests.adapters.discord.fake_api import FakeDiscord
from tests.adapters.discord.matches import boot_bot, open_table, plain_text, table_message
from tests.adapters.discord.test_channel_delivery import CHANNEL_EDIT, refused_once, until
from tests.adapters.discord.test_hands import mover_and_counter, my_tiles
from tests.adapters.discord.test_rate_limits import move_from_hand


async def test_a_move_whose_table_edit_died_with_its_process_is_shown_by_another(
    fake: FakeDiscord, redis_client: aredis.Redis, store: Store
) -> None:
    first = await boot_bot(fake, redis_client)
    second = await boot_bot(fake, redis_client)
    try:
        await open_table(first, "tyaga", 0)
        hands = {p.id: await my_tiles(first, p) for p in (ALICE, BOB)}
        mover, _counter = await mover_and_counter(first, store)
        fake.throttle("PATCH", CHANNEL_EDIT, retry_after=60.0)  # held up for a minute
        await move_from_hand(first, store, hands)
        await until(refused_once(fake))
        await first.stop()
        assert f"<@{mover.id}> to move" in plain_text(table_message(second))
        await second.tick()
        now, _counter = await mover_and_counter(second, store)
        assert now is not mover
        assert f"<@{now.id}> to move" in plain_text(table_message(second))
    finally:
        await second.close()

"""A channel where the bot may not post: hands and lobbies still go out as interaction
responses, the person who acts is told, in a message he alone sees, what permission
the bot lacks, and what Discord refused is shown as soon as the bot may post again."""

from __future__ import annotations

from bot.model import codec
from bot.storage.store import Store
from tests.adapters.discord.conftest import ALICE, BOB
from tests.adapters.discord.fake_api import EPHEMERAL, FakeDiscord
from tests.adapters.discord.fake_wire import SEND_MESSAGES
from tests.adapters.discord.gateway import Person
from tests.adapters.discord.harness import CHANNEL_ID, Bot
from tests.adapters.discord.matches import custom_id_for, open_table, plain_text, table_message
from tests.adapters.discord.test_hands import mover_and_counter, my_tiles

MISSING = "I lack the permission Send Messages"


def told(bot: Bot, person: Person) -> bool:
    """Whether the person was shown, him alone, that the bot may not send messages."""
    return any(MISSING in plain_text(m) for m in bot.owned_ephemeral(person))


async def test_without_send_messages_the_starter_is_told_and_the_channel_is_not_posted_to(
    bot: Bot, fake: FakeDiscord
) -> None:
    fake.denied[CHANNEL_ID] = SEND_MESSAGES
    await open_table(bot, "tyaga", 0)
    assert not any(e.action == "create" and e.via == "channel" for e in fake.events)
    assert told(bot, ALICE), "the player who started was not told what is missing"
    assert not any(
        e.message.get("flags", 0) & EPHEMERAL == 0 and MISSING in plain_text(e.message)
        for e in fake.events
    )


async def test_a_table_refused_mid_match_is_redrawn_once_the_permission_is_back(
    bot: Bot, fake: FakeDiscord, store: Store
) -> None:
    await open_table(bot, "tyaga", 0)
    mover, counter = await mover_and_counter(bot, store)
    hand = await my_tiles(bot, mover)
    fake.denied[CHANNEL_ID] = SEND_MESSAGES
    move = custom_id_for(hand, codec.MovePress, counter=counter)
    assert move is not None
    await bot.press(mover, hand, move)
    assert told(bot, mover)
    assert f"<@{mover.id}> to move" in plain_text(table_message(bot)), "the edit went through"

    record = await bot.command(BOB, "table")
    answer = plain_text(bot.reply_to(record))
    assert MISSING in answer and "\N{WHITE HEAVY CHECK MARK}" not in answer

    del fake.denied[CHANNEL_ID]
    other = BOB if mover is ALICE else ALICE
    await my_tiles(bot, other)
    now, _counter = await mover_and_counter(bot, store)
    assert now is not mover
    assert f"<@{now.id}> to move" in plain_text(table_message(bot))


async def test_a_timer_round_shows_a_refused_table_once_the_bot_may_post(
    bot: Bot, fake: FakeDiscord, store: Store
) -> None:
    await open_table(bot, "tyaga", 0)
    mover, counter = await mover_and_counter(bot, store)
    hand = await my_tiles(bot, mover)
    fake.denied[CHANNEL_ID] = SEND_MESSAGES
    move = custom_id_for(hand, codec.MovePress, counter=counter)
    assert move is not None
    await bot.press(mover, hand, move)
    assert f"<@{mover.id}> to move" in plain_text(table_message(bot)), "the edit went through"
    del fake.denied[CHANNEL_ID]
    bot.adapter.retry_refused_after = 0.0
    await bot.tick()
    now, _counter = await mover_and_counter(bot, store)
    assert now is not mover
    assert f"<@{now.id}> to move" in plain_text(table_message(bot))


async def test_without_send_messages_the_lobby_becomes_the_table_when_the_game_starts(
    bot: Bot, fake: FakeDiscord, store: Store
) -> None:
    fake.denied[CHANNEL_ID] = SEND_MESSAGES
    await open_table(bot, "tyaga", 0)
    (table,) = fake.live_channel_messages(CHANNEL_ID)
    assert custom_id_for(table, codec.LobbyPress) is None, "the lobby kept its buttons"
    mover, _counter = await mover_and_counter(bot, store)
    assert f"<@{mover.id}> to move" in plain_text(table)
    assert told(bot, ALICE)
    tiles = custom_id_for(table, codec.TilesPress)
    assert tiles is not None
    record = await bot.press(BOB, table, tiles)
    assert record.original_id is not None
    assert "Your tiles" in plain_text(bot.message(record.original_id))


async def test_without_send_messages_a_start_command_shows_the_table_as_its_reply(
    bot: Bot, fake: FakeDiscord, store: Store
) -> None:
    fake.denied[CHANNEL_ID] = SEND_MESSAGES
    await bot.command(ALICE, "new", variant="tyaga")
    lobby = table_message(bot)
    join = custom_id_for(lobby, codec.LobbyPress, action="join")
    assert join is not None
    await bot.press(BOB, lobby, join)
    record = await bot.command(ALICE, "start")
    (table,) = fake.live_channel_messages(CHANNEL_ID)
    assert int(table["id"]) == record.original_id, "the table is not the command's reply"
    assert custom_id_for(table, codec.TilesPress) is not None
    mover, _counter = await mover_and_counter(bot, store)
    assert f"<@{mover.id}> to move" in plain_text(table)
    assert told(bot, ALICE)

"""The real client starting against the fake API: login, command sync, first answers."""

from __future__ import annotations

import discord
import redis.asyncio as aredis

from adapters.discord.client import build_client
from bot.model.contract import ChatRef, Command, Screen, Show, Slot, SlotKind
from tests.adapters.discord.conftest import ALICE, BOB
from tests.adapters.discord.fake_api import EPHEMERAL, FakeDiscord
from tests.adapters.discord.harness import CHANNEL_ID, GUILD_ID, THREAD_ID, Bot
from tests.adapters.discord.scripted import ScriptedCore


async def boot(fake: FakeDiscord, core: ScriptedCore, redis: aredis.Redis, **kw: object) -> Bot:
    return await Bot.boot(fake, core, redis, [ALICE, BOB], **kw)


async def test_login_syncs_one_domino_group_globally(
    fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    bot = await boot(fake, ScriptedCore(), redis_client)
    try:
        (group,) = fake.commands["global"]
        assert group["name"] == "domino"
        subs = {o["name"] for o in group["options"]}
        wanted = {"new", "join", "leave", "start", "stop", "scores", "stats", "rules"}
        assert wanted | {"settings", "lang", "help"} <= subs
    finally:
        await bot.close()


async def test_the_commands_are_described_in_each_users_language(
    fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    bot = await boot(fake, ScriptedCore(), redis_client)
    try:
        (group,) = fake.commands["global"]
        assert group["description_localizations"]["ru"] == "Столы для домино в этом канале"
        subs = {o["name"]: o for o in group["options"]}
        new = subs["new"]
        assert new["description_localizations"]["pl"] == "otwórz stół do gry"
        assert new["description_localizations"]["uk"] == "відкрити стіл для гри"
        # Discord's table command brings the live table, not a picture of it.
        assert subs["table"]["description"] == "the live table with its buttons, posted again below"
        assert subs["table"]["description_localizations"]["pl"].startswith("bieżący stół")
        variant = next(o for o in new["options"] if o["name"] == "variant")
        assert variant["description_localizations"]["ru"] == "игра"
        titles = {c["value"]: c.get("name_localizations", {}) for c in variant["choices"]}
        assert titles["kozel"]["ru"] == "Козёл" and titles["baghdad"]["pl"] == "Złodziej z Bagdadu"
        # Names too: Discord sends the English name back, so the handlers need no change.
        assert group["name_localizations"]["ru"] == "домино"
        assert new["name_localizations"] == {"ru": "новая", "uk": "нова", "pl": "nowa"}
        assert variant["name_localizations"]["uk"] == "гра"
        teams = next(o for o in new["options"] if o["name"] == "teams")
        assert teams["name_localizations"]["pl"] == "drużyny"
    finally:
        await bot.close()


async def test_a_guild_id_syncs_the_commands_to_that_guild_only(
    fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    bot = await boot(fake, ScriptedCore(), redis_client, guild_id=GUILD_ID)
    try:
        assert [c["name"] for c in fake.commands[str(GUILD_ID)]] == ["domino"]
        assert "global" not in fake.commands or fake.commands["global"] == []
    finally:
        await bot.close()


async def test_new_with_typed_options_reaches_the_core_as_words(
    fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    core = ScriptedCore()
    bot = await boot(fake, core, redis_client)
    try:
        await bot.command(ALICE, "new", variant="kozel", target=51, options="teams=on")
        (command,) = core.inbounds
        assert isinstance(command, Command)
        assert command.name == "new"
        assert command.args == ("kozel", "target=51", "teams=on")
        assert command.chat == ChatRef("dc", str(CHANNEL_ID))
        assert command.user.user_id == str(ALICE.id) and command.user.name == "Alice"
        assert command.chat_title == f"#channel-{CHANNEL_ID}"
    finally:
        await bot.close()


async def test_managing_the_server_makes_an_admin(
    fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    core = ScriptedCore()
    bot = await boot(fake, core, redis_client)
    try:
        await bot.command(ALICE, "stop")
        await bot.command(BOB, "stop")
        admin_flags = [c.is_admin for c in core.inbounds if isinstance(c, Command)]
        assert admin_flags == [True, False]
    finally:
        await bot.close()


async def test_a_thread_is_a_chat_of_its_own(fake: FakeDiscord, redis_client: aredis.Redis) -> None:
    core = ScriptedCore()
    bot = await boot(fake, core, redis_client)
    try:
        await bot.command(BOB, "join", channel=THREAD_ID)
        await bot.command(BOB, "join")
        chats = [c.chat for c in core.inbounds if isinstance(c, Command)]
        assert chats == [ChatRef("dc", str(THREAD_ID)), ChatRef("dc", str(CHANNEL_ID))]
    finally:
        await bot.close()


async def test_a_command_that_opens_a_lobby_answers_with_the_lobby_in_public(
    fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    chat = ChatRef("dc", str(CHANNEL_ID))
    lobby = Slot(SlotKind.LOBBY, chat, "g1")
    screen = Screen((("Kozel: waiting for players",),))
    core = ScriptedCore(lambda inbound: [Show(lobby, screen, version=1)])
    bot = await boot(fake, core, redis_client)
    try:
        record = await bot.command(ALICE, "new", variant="kozel")
        (callback,) = record.callbacks
        assert callback["type"] == 4
        assert not (callback["data"].get("flags") or 0) & EPHEMERAL
        assert bot.reply_to(record)["content"] == "Kozel: waiting for players"
    finally:
        await bot.close()


async def test_lang_for_the_whole_chat_puts_chat_before_the_language(
    fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    core = ScriptedCore()
    bot = await boot(fake, core, redis_client)
    try:
        await bot.command(ALICE, "lang", whole_chat=True, language="pl")
        await bot.command(BOB, "lang", language="uk")
        args = [c.args for c in core.inbounds if isinstance(c, Command)]
        assert args == [("chat", "pl"), ("uk",)]
    finally:
        await bot.close()


async def test_shard_ids_and_count_are_taken_as_given(redis_client: aredis.Redis) -> None:
    client, _ = build_client(ScriptedCore(), redis_client, shard_ids=[2, 3], shard_count=4)
    assert isinstance(client, discord.AutoShardedClient)
    assert client.shard_ids == [2, 3] and client.shard_count == 4

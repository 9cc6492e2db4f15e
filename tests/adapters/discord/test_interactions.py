"""How the adapter answers interactions and carries out the core's instructions,
with a scripted core: ephemeral hands, edits in place, versions, deferral, pings,
hand refreshes, rate limits and restarts."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aredis

from adapters.discord.pings import NO_TIMER_WAIT
from bot.contract import (
    Answer,
    Button,
    ChatRef,
    Delete,
    Document,
    Inbound,
    Mention,
    Notice,
    Outbound,
    Press,
    Response,
    Screen,
    Show,
    Slot,
    SlotKind,
    Style,
    UserRef,
)
from bot.store import Store
from tests.adapters.discord.conftest import ALICE, BOB
from tests.adapters.discord.fake_api import EPHEMERAL, FakeDiscord
from tests.adapters.discord.harness import CHANNEL_ID, Bot, buttons_of, labels_of, payloads_of
from tests.adapters.discord.ledger import MemoryLedger
from tests.adapters.discord.scripted import ScriptedCore

GAME = "g1abcdef"
CHAT = ChatRef("dc", str(CHANNEL_ID))
TABLE = Slot(SlotKind.TABLE, CHAT, GAME)


def person_ref(person: object) -> UserRef:
    return UserRef("dc", str(person.id), person.name)  # type: ignore[attr-defined]


def hand_slot(person: object) -> Slot:
    user = person_ref(person)
    return Slot(SlotKind.HAND, ChatRef("dc", user.user_id), GAME, user, CHAT)


def table(text: str) -> Screen:
    return Screen(((text,),), ((Button("My tiles", payload=f"1t_{GAME}"),),))


def hand(text: str, moves: list[str]) -> Screen:
    buttons = tuple(Button(m, payload=f"1m_{GAME}_0_{m}", style=Style.PRIMARY) for m in moves)
    return Screen(((text,),), (buttons,) if buttons else ())


@pytest.fixture
def core() -> ScriptedCore:
    return ScriptedCore()


@pytest.fixture
async def bot(
    fake: FakeDiscord, core: ScriptedCore, redis_client: aredis.Redis
) -> AsyncIterator[Bot]:
    ledger = MemoryLedger()
    running = await Bot.boot(fake, core, redis_client, ledger, [ALICE, BOB])
    try:
        yield running
    finally:
        await running.close()


async def show_table(bot: Bot, core: ScriptedCore, *outbounds: Outbound) -> None:
    core.ticks.append(list(outbounds))
    await bot.adapter.tick()


def table_message(fake: FakeDiscord) -> dict[str, object]:
    (message,) = fake.live_channel_messages(CHANNEL_ID)
    return message


async def test_my_tiles_answers_with_a_hand_only_the_presser_sees(
    bot: Bot, fake: FakeDiscord, core: ScriptedCore
) -> None:
    await show_table(bot, core, Show(TABLE, table("Alice to move"), 1))
    core.answer = lambda inbound: [Answer("6-4 5-5", True, hand("Your tiles", ["6-4", "5-5"]))]
    record = await bot.press_label(ALICE, table_message(fake), "My tiles")
    (callback,) = record.callbacks
    assert callback["type"] == 4 and callback["data"]["flags"] & EPHEMERAL
    reply = bot.reply_to(record)
    assert labels_of(reply) == ["6-4", "5-5"]
    assert [m["id"] for m in bot.owned_ephemeral(ALICE)] == [reply["id"]]
    assert bot.owned_ephemeral(BOB) == []


async def test_a_press_on_the_ephemeral_hand_updates_that_message(
    bot: Bot, fake: FakeDiscord, core: ScriptedCore
) -> None:
    await show_table(bot, core, Show(TABLE, table("Alice to move"), 1))
    core.answer = lambda inbound: [Answer("", False, hand("Your tiles", ["6-4", "5-5"]))]
    first = await bot.press_label(ALICE, table_message(fake), "My tiles")

    def moved(inbound: Inbound) -> list[Outbound]:
        return [
            Answer(),
            Show(TABLE, table("Bob to move"), 2),
            Show(hand_slot(ALICE), hand("Wait for your turn", []), 2),
        ]

    core.answer = moved
    hand_message = bot.reply_to(first)
    second = await bot.press_label(ALICE, hand_message, "6-4")
    assert second.callbacks[0]["type"] == 7
    assert bot.message(int(hand_message["id"]))["content"] == "Wait for your turn"
    assert labels_of(bot.message(int(hand_message["id"]))) == []
    assert table_message(fake)["content"] == "Bob to move"
    assert isinstance(core.inbounds[-1], Press) and core.inbounds[-1].payload == f"1m_{GAME}_0_6-4"


async def test_the_table_is_one_message_edited_in_place(
    bot: Bot, fake: FakeDiscord, core: ScriptedCore
) -> None:
    for version in (1, 2, 3):
        await show_table(bot, core, Show(TABLE, table(f"version {version}"), version))
    assert table_message(fake)["content"] == "version 3"
    actions = [e.action for e in fake.channel_events(CHANNEL_ID)]
    assert actions == ["create", "edit", "edit"]


async def test_an_older_version_never_overwrites_a_newer_one(
    bot: Bot, fake: FakeDiscord, core: ScriptedCore
) -> None:
    await show_table(bot, core, Show(TABLE, table("version 5"), 5))
    await show_table(bot, core, Show(TABLE, table("version 4"), 4))
    assert table_message(fake)["content"] == "version 5"


async def test_a_press_that_redraws_its_own_message_updates_it_in_the_response(
    bot: Bot, fake: FakeDiscord, core: ScriptedCore
) -> None:
    await show_table(bot, core, Show(TABLE, table("Lobby: Alice"), 1))
    core.answer = lambda inbound: [Answer("You joined"), Show(TABLE, table("Lobby: Alice, Bob"), 2)]
    record = await bot.press_label(BOB, table_message(fake), "My tiles")
    assert record.callbacks[0]["type"] == 7
    assert table_message(fake)["content"] == "Lobby: Alice, Bob"
    assert [e.via for e in fake.channel_events(CHANNEL_ID)] == ["channel", "callback"]


async def test_a_refusal_is_shown_to_the_presser_alone(
    bot: Bot, fake: FakeDiscord, core: ScriptedCore
) -> None:
    await show_table(bot, core, Show(TABLE, table("Alice to move"), 1))
    core.answer = lambda inbound: [Answer("Not your turn", alert=True)]
    record = await bot.press_label(BOB, table_message(fake), "My tiles")
    assert record.callbacks[0]["type"] == 4
    assert record.callbacks[0]["data"]["flags"] & EPHEMERAL
    assert bot.reply_to(record)["content"] == "Not your turn"


async def test_a_notice_for_the_presser_s_private_chat_is_shown_to_him_alone(
    bot: Bot, fake: FakeDiscord, core: ScriptedCore
) -> None:
    await show_table(bot, core, Show(TABLE, table("Alice to move"), 1))
    private = ChatRef("dc", str(BOB.id))
    core.answer = lambda inbound: [Answer(), Notice(private, Screen((("That game is over.",),)))]
    record = await bot.press_label(BOB, table_message(fake), "My tiles")
    assert record.callbacks[0]["data"]["flags"] & EPHEMERAL
    assert bot.reply_to(record)["content"] == "That game is over."
    assert len(fake.live_channel_messages(CHANNEL_ID)) == 1


async def test_a_press_on_a_button_that_is_not_ours_is_acknowledged_and_ignored(
    bot: Bot, fake: FakeDiscord, core: ScriptedCore
) -> None:
    await show_table(bot, core, Show(TABLE, table("Alice to move"), 1))
    stray = dict(table_message(fake))
    button = {"type": 2, "style": 1, "label": "Old", "custom_id": "legacy:42"}
    stray["components"] = [{"type": 1, "components": [button]}]
    record = await bot.press(ALICE, stray, "legacy:42")
    assert record.callbacks[0]["type"] == 6
    assert core.inbounds == []


async def test_an_export_is_sent_to_the_channel_as_a_file(
    bot: Bot, fake: FakeDiscord, core: ScriptedCore
) -> None:
    core.answer = lambda inbound: [Document(CHAT, "game.json", b'{"variant": "kozel"}', "Replay")]
    await bot.command(ALICE, "export")
    (message,) = fake.live_channel_messages(CHANNEL_ID)
    (attachment,) = message["attachments"]
    assert attachment["filename"] == "game.json"
    assert attachment["data"] == '{"variant": "kozel"}'


async def test_a_failing_core_still_answers_the_press(
    bot: Bot, fake: FakeDiscord, core: ScriptedCore
) -> None:
    await show_table(bot, core, Show(TABLE, table("Alice to move"), 1))

    def broken(inbound: Inbound) -> list[Outbound]:
        raise RuntimeError("the core is broken")

    core.answer = broken
    record = await bot.press_label(ALICE, table_message(fake), "My tiles")
    assert record.callbacks[0]["type"] == 4
    assert record.callbacks[0]["data"]["flags"] & EPHEMERAL


async def test_a_slow_core_is_deferred_then_answered(
    bot: Bot, fake: FakeDiscord, core: ScriptedCore
) -> None:
    await show_table(bot, core, Show(TABLE, table("Alice to move"), 1))
    bot.adapter.defer_after = 0.05
    core.delay = 0.3
    core.answer = lambda inbound: [Answer("", False, hand("Your tiles", ["6-4"]))]
    record = await bot.press_label(ALICE, table_message(fake), "My tiles")
    assert [c["type"] for c in record.callbacks] == [6]
    (followup,) = record.followup_ids
    assert bot.message(followup)["flags"] & EPHEMERAL
    assert labels_of(bot.message(followup)) == ["6-4"]


async def test_a_slow_command_is_deferred_privately_then_answered(
    bot: Bot, fake: FakeDiscord, core: ScriptedCore
) -> None:
    bot.adapter.defer_after = 0.05
    core.delay = 0.3
    core.answer = lambda inbound: [Show(TABLE, table("Lobby"), 1)]
    record = await bot.command(ALICE, "new", variant="kozel")
    assert [c["type"] for c in record.callbacks] == [5]
    assert table_message(fake)["content"] == "Lobby"
    assert not bot.message(record.original_id or 0)["flags"] & 128  # no longer "thinking"


async def test_a_response_for_the_whole_channel_reaches_it_even_when_deferred(
    bot: Bot, fake: FakeDiscord, core: ScriptedCore
) -> None:
    board = Screen((("Scoreboard: Kozel",), ("1. Alice: won 1 of 1",)))
    core.answer = lambda inbound: [Response(CHAT, board, topic="scores", public=True)]
    record = await bot.command(ALICE, "scores")
    assert not bot.reply_to(record)["flags"] & EPHEMERAL
    bot.adapter.defer_after = 0.05
    core.delay = 0.3
    await bot.command(ALICE, "scores")
    posted = [m["content"] for m in fake.live_channel_messages(CHANNEL_ID)]
    assert posted == ["Scoreboard: Kozel\n1. Alice: won 1 of 1"] * 2


async def ping_alice(bot: Bot, core: ScriptedCore) -> Slot:
    alice = person_ref(ALICE)
    ping = Slot(SlotKind.PING, ChatRef("dc", alice.user_id), GAME, alice, CHAT)
    await show_table(bot, core, Show(ping, Screen(((Mention(alice), ", your turn"),)), 3, True))
    return ping


async def test_a_ping_is_held_back_then_names_its_player_alone_and_is_never_deleted(
    bot: Bot, fake: FakeDiscord, core: ScriptedCore
) -> None:
    ping = await ping_alice(bot, core)
    assert fake.live_channel_messages(CHANNEL_ID) == []  # held back: the table says it
    bot.adapter.delivery.pings.clock = lambda: time.time() + NO_TIMER_WAIT + 1
    await bot.adapter.tick()
    (message,) = fake.live_channel_messages(CHANNEL_ID)
    assert message["content"] == f"<@{ALICE.id}>, your turn"
    assert message["allowed_mentions"]["parse"] == []
    assert [int(u) for u in message["allowed_mentions"]["users"]] == [ALICE.id]
    await show_table(bot, core, Delete(ping))
    assert fake.live_channel_messages(CHANNEL_ID) == [message]


async def test_a_held_ping_is_dropped_when_its_player_moves_first(
    bot: Bot, fake: FakeDiscord, core: ScriptedCore
) -> None:
    ping = await ping_alice(bot, core)
    await show_table(bot, core, Delete(ping))
    bot.adapter.delivery.pings.clock = lambda: time.time() + NO_TIMER_WAIT + 1
    await bot.adapter.tick()
    assert fake.live_channel_messages(CHANNEL_ID) == []
    assert fake.channel_events(CHANNEL_ID) == []


async def test_a_hand_is_refreshed_through_its_token_while_the_token_is_young(
    bot: Bot, fake: FakeDiscord, core: ScriptedCore
) -> None:
    await show_table(bot, core, Show(TABLE, table("Bob to move"), 1))
    core.answer = lambda inbound: [Answer("", False, hand("Wait for your turn", []))]
    record = await bot.press_label(ALICE, table_message(fake), "My tiles")
    await show_table(bot, core, Show(hand_slot(ALICE), hand("Your turn", ["3-3"]), 2))
    assert labels_of(bot.reply_to(record)) == ["3-3"]
    (push,) = [r for r in fake.requests if r[1] == "PATCH" and "/webhooks/" in r[2]]
    assert push[2].endswith(f"/{record.token}/messages/@original") and push[3] == 200

    messages = bot.adapter.delivery.messages
    messages.clock = lambda: time.time() + 15 * 60
    await show_table(bot, core, Show(hand_slot(ALICE), hand("Your turn again", ["4-4"]), 3))
    assert labels_of(bot.reply_to(record)) == ["3-3"]


async def test_a_rate_limit_is_waited_out(bot: Bot, fake: FakeDiscord, core: ScriptedCore) -> None:
    fake.throttle("POST", rf"/channels/{CHANNEL_ID}/messages", retry_after=0.3)
    started = time.monotonic()
    await show_table(bot, core, Show(TABLE, table("Alice to move"), 1))
    assert table_message(fake)["content"] == "Alice to move"
    sends = [r for r in fake.requests if r[1] == "POST" and "/messages" in r[2]]
    assert [r[3] for r in sends] == [429, 200]
    assert sends[1][0] - sends[0][0] >= 0.3
    assert time.monotonic() - started >= 0.3


async def test_a_button_sent_before_a_restart_works_on_a_new_client(
    fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    ledger = MemoryLedger()
    first_core = ScriptedCore()
    first = await Bot.boot(fake, first_core, redis_client, ledger, [ALICE, BOB])
    await show_table(first, first_core, Show(TABLE, table("Alice to move"), 1))
    await first.close()

    second_core = ScriptedCore(lambda inbound: [Answer("", False, hand("Your tiles", ["6-4"]))])
    second = await Bot.boot(fake, second_core, redis_client, ledger, [ALICE, BOB])
    try:
        record = await second.press_label(ALICE, table_message(fake), "My tiles")
        assert record.callbacks[0]["type"] == 4
        assert [i.payload for i in second_core.inbounds if isinstance(i, Press)] == [f"1t_{GAME}"]
        await show_table(second, second_core, Show(TABLE, table("Bob to move"), 2))
        assert table_message(fake)["content"] == "Bob to move"
        assert payloads_of(table_message(fake)) == [f"1t_{GAME}"]
    finally:
        await second.close()


async def test_a_hand_of_30_moves_can_choose_every_move_with_a_click(
    bot: Bot, fake: FakeDiscord, core: ScriptedCore
) -> None:
    moves = [f"{a}-{b}@{end}" for a in range(7) for b in range(a + 1) for end in "LR"][:30]
    rows = tuple(
        tuple(Button(m, payload=f"1m_{GAME}_0_{m}", style=Style.PRIMARY) for m in moves[i : i + 3])
        for i in range(0, len(moves), 3)
    )
    draw = Button("Draw", payload=f"1m_{GAME}_0_draw")
    big = Screen((("Your turn",),), (*rows, (draw,)))
    await show_table(bot, core, Show(TABLE, table("Alice to move"), 1))
    core.answer = lambda inbound: [Answer("", False, big)]
    hand_message = bot.reply_to(await bot.press_label(ALICE, table_message(fake), "My tiles"))
    wanted = [f"1m_{GAME}_0_{m}" for m in [*moves, "draw"]]
    assert sorted(payloads_of(hand_message)) == sorted(wanted)
    assert len(hand_message["components"]) <= 5
    for payload in wanted:
        ids = [b.get("custom_id", "") for b in buttons_of(hand_message)]
        button = next((i for i in ids if i.endswith(":" + payload)), None)
        if button is not None:
            record = await bot.press(ALICE, hand_message, button)
        else:
            record = await bot.choose(ALICE, hand_message, payload)
        assert record.callbacks[0]["type"] == 7
        hand_message = bot.message(int(hand_message["id"]))
    pressed = [i.payload for i in core.inbounds if isinstance(i, Press)]
    assert pressed[1:] == wanted


async def test_two_processes_never_leave_an_older_table_over_a_newer_one(
    fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    store = Store(redis_client)  # versions shown, and the edit lock, are in Redis
    first = await Bot.boot(fake, ScriptedCore(), redis_client, store, [ALICE, BOB])
    second = await Bot.boot(fake, ScriptedCore(), redis_client, store, [ALICE, BOB])
    try:
        await first.adapter.delivery.show(Show(TABLE, table("version 1"), 1))
        # The first process's next edit is held up by a rate limit...
        fake.throttle("PATCH", rf"/channels/{CHANNEL_ID}/messages/[0-9]+", retry_after=0.3)
        older = asyncio.create_task(first.adapter.delivery.show(Show(TABLE, table("version 2"), 2)))
        await asyncio.sleep(0.1)
        # ...while the second process shows a newer version.
        await second.adapter.delivery.show(Show(TABLE, table("version 3"), 3))
        await older
        assert table_message(fake)["content"] == "version 3"
    finally:
        await first.close()
        await second.close()


async def test_a_hand_that_would_look_the_same_is_not_edited_again(
    bot: Bot, fake: FakeDiscord, core: ScriptedCore
) -> None:
    await show_table(bot, core, Show(TABLE, table("Bob to move"), 1))
    core.answer = lambda inbound: [Answer("", False, hand("Wait for your turn", []))]
    await bot.press_label(ALICE, table_message(fake), "My tiles")

    def waiting(counter: int) -> Screen:
        # Tiles that cannot be played, whose payloads name the turn they were made for.
        tiles = tuple(
            Button(t, payload=f"1u_{GAME}_{counter}_{i}", enabled=False)
            for i, t in enumerate(("6-6", "5-1"))
        )
        return Screen((("Wait for your turn",),), (tiles,))

    for version, counter in ((2, 4), (3, 5), (4, 6)):
        await show_table(bot, core, Show(hand_slot(ALICE), waiting(counter), version))
    pushes = [r for r in fake.requests if r[1] == "PATCH" and "/webhooks/" in r[2]]
    assert len(pushes) == 1
    await show_table(bot, core, Show(hand_slot(ALICE), hand("Your turn", ["6-6"]), 5))
    pushes = [r for r in fake.requests if r[1] == "PATCH" and "/webhooks/" in r[2]]
    assert len(pushes) == 2

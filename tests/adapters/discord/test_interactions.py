"""How the adapter answers interactions, with a scripted core: ephemeral hands,
answers in the response, refusals, deferral, buttons from before a restart, and
hands too long for one message."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aredis

from bot.model.contract import (
    Answer,
    Button,
    ChatRef,
    Document,
    Inbound,
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
from tests.adapters.discord.conftest import ALICE, BOB
from tests.adapters.discord.fake_api import EPHEMERAL, FakeDiscord
from tests.adapters.discord.harness import (
    CHANNEL_ID,
    Bot,
    buttons_of,
    find_button,
    labels_of,
    payloads_of,
)
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
    running = await Bot.boot(fake, core, redis_client, [ALICE, BOB])
    try:
        yield running
    finally:
        await running.close()


async def show_table(bot: Bot, core: ScriptedCore, *outbounds: Outbound) -> None:
    core.ticks.append(list(outbounds))
    await bot.tick()


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


async def test_a_button_sent_before_a_restart_works_on_a_new_client(
    fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    first_core = ScriptedCore()
    first = await Bot.boot(fake, first_core, redis_client, [ALICE, BOB])
    await show_table(first, first_core, Show(TABLE, table("Alice to move"), 1))
    await first.close()

    second_core = ScriptedCore(lambda inbound: [Answer("", False, hand("Your tiles", ["6-4"]))])
    second = await Bot.boot(fake, second_core, redis_client, [ALICE, BOB])
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


async def answer_with_two_private_notices(bot: Bot, fake: FakeDiscord, core: ScriptedCore) -> None:
    """A table Bob can press, and a core that answers him with two notices for him alone:
    the first becomes the interaction's response, the second comes after it."""
    await show_table(bot, core, Show(TABLE, table("Alice to move"), 1))
    private = ChatRef("dc", str(BOB.id))
    core.answer = lambda inbound: [
        Answer(),
        Notice(private, Screen((("Your review",),))),
        Notice(private, Screen((("Its second part",),))),
    ]


def in_his_direct_messages(fake: FakeDiscord, content: str, person_id: int) -> bool:
    """Whether the one message showing ``content`` went to ``person_id``'s direct
    messages, and nothing was sent to a channel named by his id."""
    (event,) = [e for e in fake.events if e.message["content"] == content]
    channel = fake.channels[int(event.message["channel_id"])]
    return (
        channel["type"] == 1
        and channel["recipient"] == str(person_id)
        and not any(f"/channels/{person_id}/" in r[2] for r in fake.requests)
    )


async def test_a_private_notice_discord_will_not_take_as_a_follow_up_goes_to_his_direct_messages(
    bot: Bot, fake: FakeDiscord, core: ScriptedCore
) -> None:
    await answer_with_two_private_notices(bot, fake, core)
    # Every follow-up is turned away until discord.py gives up on it.
    fake.throttle("POST", r"/webhooks/.*", retry_after=0.01, times=50)
    record = await bot.press_label(BOB, table_message(fake), "My tiles")
    await bot.adapter.drain()
    assert bot.reply_to(record)["content"] == "Your review"
    assert in_his_direct_messages(fake, "Its second part", BOB.id)


async def test_private_notices_after_a_reply_that_failed_go_to_his_direct_messages(
    bot: Bot, fake: FakeDiscord, core: ScriptedCore
) -> None:
    await answer_with_two_private_notices(bot, fake, core)
    # The interaction's response is turned away: no follow-up can come after it.
    fake.throttle("POST", r"/interactions/.*", retry_after=0.01, times=50)
    button = find_button(table_message(fake), lambda b: b.get("label") == "My tiles")
    assert button is not None
    bot.gateway.component(BOB, table_message(fake), button["custom_id"])
    while sum(r[3] == 429 for r in fake.requests) < 5:  # discord.py gives its response up
        await asyncio.sleep(0.005)
    await bot.adapter.drain()
    assert in_his_direct_messages(fake, "Its second part", BOB.id)

"""Delivery against the fake Bot API: slots edited in place, within Telegram's limits,
through flood waits, lost messages and users who blocked the bot."""

from __future__ import annotations

import redis.asyncio as aredis
from telegram import Bot

from adapters.delivery.deliver import Deliverer
from adapters.delivery.limiter import MemorySendLog
from adapters.delivery.slots import MemorySlotBook
from adapters.pings import PING_HOLD
from adapters.telegram.budget import GROUP_RULES
from adapters.telegram.carry import Carrier
from adapters.telegram.heldpings import TelegramPings
from adapters.telegram.render import Renderer
from adapters.telegram.sending import READ_SECONDS
from bot.model.contract import (
    Button,
    ChatRef,
    Deadline,
    Delete,
    Document,
    Notice,
    Response,
    Screen,
    Show,
    Slot,
    SlotKind,
    Unreachable,
)
from tests.adapters.delivery.test_limiter import assert_keeps
from tests.adapters.delivery.vclock import VirtualClock
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakewire import DELETE_REFUSED
from tests.adapters.telegram.mailroom import (
    ANN,
    GROUP,
    GROUP_ID,
    HAND,
    PING,
    TABLE,
    Core,
    deliver,
    let_run,
    screen,
    texts,
    writes,
)


async def test_a_slot_is_sent_once_and_then_edited_in_place(
    world: FakeBotApi, deliverer: Deliverer
) -> None:
    await deliver(deliverer, Show(TABLE, screen("move 1"), 1))
    await deliver(deliverer, Show(TABLE, screen("move 2"), 2))
    assert texts(world, GROUP_ID) == ["move 2"]
    assert [c.method for c in writes(world, GROUP_ID)] == ["sendMessage", "editMessageText"]


async def test_a_burst_of_100_moves_stays_within_the_group_limits_and_ends_on_the_last(
    world: FakeBotApi, deliverer: Deliverer, clock: VirtualClock
) -> None:
    for version in range(1, 101):
        deliverer.submit([Show(TABLE, screen(f"move {version}"), version)])
        clock.advance(0.2)  # a move every 200 ms
        await let_run()
    await deliverer.drain()
    sent = writes(world, GROUP_ID)
    assert_keeps([c.at for c in sent], GROUP_RULES)
    assert len(sent) < 100  # merged, not queued one by one
    assert texts(world, GROUP_ID) == ["move 100"]
    shown = [int(c.params["text"].split()[1]) for c in sent]
    assert shown == sorted(shown)  # never an older table after a newer one


async def test_an_older_version_never_replaces_a_newer_one(
    world: FakeBotApi, deliverer: Deliverer
) -> None:
    await deliver(deliverer, Show(TABLE, screen("v5"), 5))
    await deliver(deliverer, Show(TABLE, screen("v3"), 3))
    assert texts(world, GROUP_ID) == ["v5"]


async def test_an_older_screen_arriving_late_in_the_mailbox_is_dropped(
    world: FakeBotApi, deliverer: Deliverer
) -> None:
    deliverer.submit([Show(TABLE, screen("v1"), 1)])
    deliverer.submit([Show(TABLE, screen("v7"), 7), Show(TABLE, screen("v6"), 6)])
    await deliverer.drain()
    assert texts(world, GROUP_ID) == ["v7"]


async def test_a_flood_wait_is_waited_out_and_the_call_repeated(
    world: FakeBotApi, deliverer: Deliverer, clock: VirtualClock
) -> None:
    world.inject("sendMessage", 429, "Too Many Requests: retry after 7", retry_after=7)
    start = clock.now()
    await deliver(deliverer, Show(TABLE, screen("table"), 1))
    assert texts(world, GROUP_ID) == ["table"]
    attempts = world.calls_to("sendMessage")
    assert [c.status for c in attempts] == [429, 200]
    assert attempts[1].at - start >= 7


async def test_message_is_not_modified_counts_as_shown(
    world: FakeBotApi, deliverer: Deliverer
) -> None:
    await deliver(deliverer, Show(TABLE, screen("same"), 1))
    await deliver(deliverer, Show(TABLE, screen("same"), 2))
    edits = world.calls_to("editMessageText")
    assert [c.status for c in edits] == [400]
    assert len(world.calls_to("sendMessage")) == 1
    assert texts(world, GROUP_ID) == ["same"]


async def test_a_deleted_table_message_is_sent_again(
    world: FakeBotApi, deliverer: Deliverer
) -> None:
    await deliver(deliverer, Show(TABLE, screen("v1"), 1))
    (first,) = world.bot_messages(GROUP_ID)
    world.remove_message(GROUP_ID, first["message_id"])
    await deliver(deliverer, Show(TABLE, screen("v2"), 2))
    await deliver(deliverer, Show(TABLE, screen("v3"), 3))
    assert texts(world, GROUP_ID) == ["v3"]
    assert [c.method for c in writes(world, GROUP_ID)][-2:] == ["sendMessage", "editMessageText"]


async def test_a_blocked_player_is_reported_and_the_group_gets_the_deep_link(
    world: FakeBotApi, deliverer: Deliverer, core: Core
) -> None:
    world.blocked.add(42)
    await deliver(deliverer, Show(HAND, screen("[6|4] [5|5]"), 1))
    assert core.unreachable == [Unreachable(ANN, HAND)]
    (offer,) = world.bot_messages(GROUP_ID)
    link = offer["reply_markup"]["inline_keyboard"][0][0]["url"]
    assert link == "https://t.me/domino_test_bot?start=h_g1"


async def test_a_player_who_never_started_the_bot_is_reported_once_per_slot(
    world: FakeBotApi, deliverer: Deliverer, core: Core
) -> None:
    world.started.discard(42)
    deliverer.submit([Show(HAND, screen("hand v1"), 1), Show(PING, screen("your turn"), 1)])
    deliverer.submit([Show(HAND, screen("hand v2"), 2)])
    await deliverer.drain()
    assert sorted(u.slot.kind.value for u in core.unreachable) == ["hand", "ping"]


async def test_a_turn_ping_is_held_back_and_sent_once_its_player_has_not_moved_in_time(
    world: FakeBotApi, bot: Bot, clock: VirtualClock, core: Core, redis_client: aredis.Redis
) -> None:
    deliverer = _holding(bot, clock, core, redis_client)
    await deliver(deliverer, Show(PING, screen("your turn"), 1, notify=True))
    clock.advance(PING_HOLD - 1)
    await deliverer.release_pings()
    await deliverer.drain()
    assert texts(world, 42) == []
    clock.advance(1)
    await deliverer.release_pings()
    await deliverer.drain()
    assert texts(world, 42) == ["your turn"]
    assert world.calls_to("sendMessage")[0].params.get("disable_notification", False) is False


async def test_a_held_ping_whose_player_moved_is_never_sent_nor_deleted(
    world: FakeBotApi, bot: Bot, clock: VirtualClock, core: Core, redis_client: aredis.Redis
) -> None:
    deliverer = _holding(bot, clock, core, redis_client)
    await deliver(deliverer, Show(PING, screen("your turn"), 1, notify=True))
    await deliver(deliverer, Delete(PING))
    clock.advance(PING_HOLD * 2)
    await deliverer.release_pings()
    await deliverer.drain()
    assert [c.method for c in world.calls if c.chat_id == 42] == []


async def test_a_ping_is_held_half_the_time_its_turn_has_left_when_that_is_sooner(
    world: FakeBotApi, bot: Bot, clock: VirtualClock, core: Core, redis_client: aredis.Redis
) -> None:
    deliverer = _holding(bot, clock, core, redis_client)
    due = Screen((("your turn, time runs out ", Deadline(clock.now() + 10)),))
    await deliver(deliverer, Show(PING, due, 1, notify=True))
    clock.advance(4)
    await deliverer.release_pings()
    await deliverer.drain()
    assert texts(world, 42) == [], "the ping did not wait"
    clock.advance(1)
    await deliverer.release_pings()
    await deliverer.drain()
    assert len(texts(world, 42)) == 1


def _holding(bot: Bot, clock: VirtualClock, core: Core, redis: aredis.Redis) -> Deliverer:
    """A deliverer that holds turn pings back in Redis, as the bot's does."""
    carrier = Carrier(bot, Renderer("domino_test_bot", clock.wall), MemorySlotBook(), clock)
    pings = TelegramPings(redis)
    return Deliverer(carrier, MemorySendLog(), clock, core.report, pings=pings)


async def test_a_notifying_screen_replaces_its_old_message_with_a_new_one(
    world: FakeBotApi, deliverer: Deliverer
) -> None:
    await deliver(deliverer, Show(PING, screen("your turn"), 1, notify=True))
    await deliver(deliverer, Show(PING, screen("your turn again"), 2, notify=True))
    assert texts(world, 42) == ["your turn again"]
    sends = world.calls_to("sendMessage")
    assert [c.params.get("disable_notification", False) for c in sends] == [False, False]
    assert len(world.calls_to("deleteMessage")) == 1


async def test_a_quiet_screen_is_sent_without_notification(
    world: FakeBotApi, deliverer: Deliverer
) -> None:
    await deliver(deliverer, Show(HAND, screen("hand"), 1))
    assert world.calls_to("sendMessage")[0].params["disable_notification"] is True


async def test_delete_removes_the_slots_message(world: FakeBotApi, deliverer: Deliverer) -> None:
    await deliver(deliverer, Show(PING, screen("your turn"), 1, notify=True))
    await deliver(deliverer, Delete(PING))
    assert texts(world, 42) == []


async def test_a_slot_deleted_before_it_was_sent_is_never_sent(
    world: FakeBotApi, deliverer: Deliverer
) -> None:
    await deliver(deliverer, Show(TABLE, screen("busy"), 1))
    deliverer.submit([Show(PING, screen("your turn"), 1, notify=True), Delete(PING)])
    await deliverer.drain()
    assert world.bot_messages(42) == []
    assert world.calls_to("deleteMessage") == []


async def test_a_ping_claimed_before_its_player_moved_and_sent_after_is_not_shown(
    world: FakeBotApi, deliverer: Deliverer
) -> None:
    """Another worker's timer round took the ping as due, and the move that deletes it
    is carried out before that worker sends it."""
    await deliver(deliverer, Delete(PING, 2))
    await deliver(deliverer, Show(PING, screen("your turn"), 1, notify=True))
    assert world.bot_messages(42) == []
    await deliver(deliverer, Show(PING, screen("your turn again"), 3, notify=True))
    assert texts(world, 42) == ["your turn again"]


async def test_a_ping_deleted_as_of_an_older_version_than_it_stays(
    world: FakeBotApi, deliverer: Deliverer
) -> None:
    await deliver(deliverer, Show(PING, screen("your turn again"), 3, notify=True))
    await deliver(deliverer, Delete(PING, 2))
    assert texts(world, 42) == ["your turn again"]


async def test_notices_and_responses_are_each_a_message_of_their_own(
    world: FakeBotApi, deliverer: Deliverer
) -> None:
    await deliver(
        deliverer,
        Notice(GROUP, screen("one")),
        Notice(GROUP, screen("two")),
        Response(GROUP, screen("no such game"), topic="new"),
        Response(GROUP, screen("no such game"), topic="new"),
    )
    assert texts(world, GROUP_ID) == ["one", "two", "no such game", "no such game"]


async def test_a_response_is_a_new_message_replying_to_the_command(
    world: FakeBotApi, deliverer: Deliverer
) -> None:
    ann = world.users[42]
    typed = world.type_text(ann, GROUP_ID, "/scores")["message"]
    await deliver(deliverer, Response(GROUP, screen("Scoreboard"), str(typed["message_id"])))
    (call,) = world.calls_to("sendMessage")
    assert call.params["reply_parameters"] == {
        "message_id": typed["message_id"],
        "allow_sending_without_reply": True,
    }
    (sent,) = world.bot_messages(GROUP_ID)
    assert sent["reply_to_message"]["message_id"] == typed["message_id"]


async def test_a_response_to_a_deleted_command_is_still_sent(
    world: FakeBotApi, deliverer: Deliverer
) -> None:
    await deliver(deliverer, Response(GROUP, screen("Scoreboard"), "999"))
    assert texts(world, GROUP_ID) == ["Scoreboard"]


async def test_two_peoples_commands_in_one_budget_window_both_get_their_reply_in_order(
    world: FakeBotApi, deliverer: Deliverer, clock: VirtualClock
) -> None:
    await deliver(deliverer, Show(TABLE, screen("table"), 1))  # the budget's second is spent
    deliverer.submit([Response(GROUP, screen("scores for Alice"), "7", "scores")])
    clock.advance(4)
    deliverer.submit([Response(GROUP, screen("rules for Bob"), "8", "rules")])
    await deliverer.drain()
    assert texts(world, GROUP_ID) == ["table", "scores for Alice", "rules for Bob"]


async def test_an_older_response_on_the_same_topic_is_tidied_away_once_it_was_read(
    world: FakeBotApi, deliverer: Deliverer, clock: VirtualClock
) -> None:
    await deliver(deliverer, Response(GROUP, screen("scores 1"), topic="scores"))
    await deliver(deliverer, Response(GROUP, screen("rules"), topic="rules"))
    clock.advance(READ_SECONDS)
    await deliver(deliverer, Response(GROUP, screen("scores 2"), topic="scores"))
    assert texts(world, GROUP_ID) == ["rules", "scores 2"]
    clock.advance(READ_SECONDS / 2)
    await deliver(deliverer, Response(GROUP, screen("scores 3"), topic="scores"))
    assert texts(world, GROUP_ID) == ["rules", "scores 2", "scores 3"], "deleted unread"


async def test_a_renewed_table_is_posted_at_the_bottom_and_its_old_message_deleted(
    world: FakeBotApi, deliverer: Deliverer
) -> None:
    await deliver(deliverer, Show(TABLE, screen("deal 1"), 1))
    await deliver(deliverer, Response(GROUP, screen("chatter")))
    await deliver(deliverer, Show(TABLE, screen("deal 2"), 2, renew=True))
    assert texts(world, GROUP_ID) == ["chatter", "deal 2"]
    await deliver(deliverer, Show(TABLE, screen("deal 2, a move"), 3))
    assert texts(world, GROUP_ID) == ["chatter", "deal 2, a move"], "not edited in place"


async def test_a_renewed_table_merged_with_a_newer_move_is_still_posted_anew_and_pinned(
    world: FakeBotApi, deliverer: Deliverer
) -> None:
    world.may_pin.add(GROUP_ID)
    await deliver(deliverer, Show(TABLE, screen("deal 1"), 1))
    await deliver(deliverer, Response(GROUP, screen("chatter")))
    deliverer.submit([Show(TABLE, screen("deal 2"), 2, renew=True, pin=True)])
    deliverer.submit([Show(TABLE, screen("deal 2, a move"), 3)])
    await deliverer.drain()
    assert texts(world, GROUP_ID) == ["chatter", "deal 2, a move"]
    assert world.pinned[GROUP_ID] == [world.bot_messages(GROUP_ID)[-1]["message_id"]]


async def test_a_table_that_cannot_be_deleted_is_cut_to_its_heading(
    world: FakeBotApi, deliverer: Deliverer
) -> None:
    def table(deal: int) -> Screen:
        return Screen((("Tyaga · table g1",), (f"Deal {deal}",)), ((Button("My tiles", "1t"),),))

    await deliver(deliverer, Show(TABLE, table(1), 1))
    world.inject("deleteMessage", 400, DELETE_REFUSED)
    await deliver(deliverer, Show(TABLE, table(2), 2, renew=True))
    old, new = world.bot_messages(GROUP_ID)
    assert (old["text"], old.get("reply_markup")) == ("Tyaga · table g1", None)
    assert new["text"] == "Tyaga · table g1\nDeal 2"


async def test_items_for_one_chat_keep_their_order_and_a_newer_screen_goes_last(
    world: FakeBotApi, deliverer: Deliverer
) -> None:
    await deliver(deliverer, Show(TABLE, screen("v1"), 1))
    deliverer.submit([Show(TABLE, screen("v2"), 2), Notice(GROUP, screen("deal over"))])
    deliverer.submit([Show(TABLE, screen("v3"), 3)])
    await deliverer.drain()
    order = [c.params["text"] for c in writes(world, GROUP_ID)]
    assert order == ["v1", "deal over", "v3"]


async def test_a_forum_topic_gets_its_messages_in_its_thread(
    world: FakeBotApi, deliverer: Deliverer
) -> None:
    topic = Slot(SlotKind.TABLE, ChatRef("tg", str(GROUP_ID), "9"), "g1")
    await deliver(deliverer, Show(topic, screen("topic table"), 1))
    (message,) = world.bot_messages(GROUP_ID, thread=9)
    assert message["text"] == "topic table"


async def test_a_document_is_uploaded_with_its_name(
    world: FakeBotApi, deliverer: Deliverer
) -> None:
    await deliver(deliverer, Document(GROUP, "game.json", b'{"x": 1}', caption="the game"))
    (call,) = world.calls_to("sendDocument")
    assert call.files["document"] == ("game.json", 8)
    assert call.params["caption"] == "the game"


async def test_a_failed_item_does_not_stop_the_rest(
    world: FakeBotApi, deliverer: Deliverer
) -> None:
    world.inject("sendMessage", 400, "Bad Request: chat not found")
    await deliver(deliverer, Notice(GROUP, screen("lost")), Notice(GROUP, screen("kept")))
    assert texts(world, GROUP_ID) == ["kept"]

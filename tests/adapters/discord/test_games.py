"""Whole matches of every game through the real client and the real core: two people
(and a computer where the game needs a third seat) press only buttons the bot sent,
until the scoreboard shows the match."""

from __future__ import annotations

import re
from typing import Any

import pytest
import redis.asyncio as aredis

from bot.model import codec
from bot.model.gamedoc import from_json
from bot.storage.store import Store
from bot.views import catalog
from tests.adapters.discord.conftest import ALICE, BOB, CAROL
from tests.adapters.discord.fake_api import EPHEMERAL, FakeDiscord, InteractionRecord, Json
from tests.adapters.discord.harness import (
    CHANNEL_ID,
    OTHER_CHANNEL_ID,
    Bot,
    buttons_of,
    payloads_of,
)
from tests.adapters.discord.matches import (
    CHAT,
    MAX_STEPS,
    MOST_REQUESTS_PER_MOVE,
    QUICK,
    Referee,
    boot_bot,
    custom_id_for,
    decode,
    open_table,
    plain_text,
    play_one,
    play_to_the_end,
    table_message,
    tally_match,
)

GAMES = [
    pytest.param(v.name, max(0, v.min_players - 2), QUICK.get(v.name, {}), id=v.name)
    for v in catalog.variants()
]


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "computers", "options"), GAMES)
async def test_a_whole_match_is_played_with_buttons_to_the_scoreboard(
    bot: Bot, redis_client: aredis.Redis, variant: str, computers: int, options: dict[str, Any]
) -> None:
    referee = Referee(bot, Store(redis_client))
    await open_table(bot, variant, computers, **options)
    await play_to_the_end(bot, referee)
    await referee.check()

    summaries = [plain_text(e.message) for e in bot.fake.channel_events(CHANNEL_ID)]
    assert any("The match is over" in text for text in summaries)
    record = await bot.command(BOB, "scores", variant=variant)
    board = plain_text(bot.reply_to(record))
    assert re.search("Alice", board) and re.search("Bob", board)
    with_moves = [e.message for e in bot.fake.events if _moves_on(e.message)]
    assert with_moves, "no hand was ever shown"
    assert all(m["flags"] & EPHEMERAL for m in with_moves), "a hand reached the channel"
    on_hands = [
        r
        for r in bot.fake.interactions.values()
        if _moves_on(r.pressed) and r.pressed["flags"] & EPHEMERAL
    ]
    assert on_hands and all(_redrawn_by_its_press(bot, r) for r in on_hands)


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "computers", "options"), GAMES)
async def test_a_whole_match_costs_at_most_the_most_rest_requests_per_move_allowed(
    fake: FakeDiscord, redis_client: aredis.Redis, variant: str, computers: int, options: Any
) -> None:
    running = await boot_bot(fake, redis_client, seed=3)
    try:
        # Carol, not playing, presses the table's Picture button after every step.
        tally = await tally_match(
            running, Store(redis_client), variant, computers, options, spectator=CAROL
        )
    finally:
        await running.close()
    assert tally.moves > 0
    assert tally.per_move <= MOST_REQUESTS_PER_MOVE, tally


def _moves_on(message: Json) -> bool:
    return any(isinstance(decode(p), codec.MovePress) for p in payloads_of(message))


def _redrawn_by_its_press(bot: Bot, record: InteractionRecord) -> bool:
    """The press on a hand redrew that very hand, never a new message: at once (an
    UPDATE_MESSAGE response), or, when the core took longer than the adapter waits
    before deferring (a deal's end on a loaded machine), by a DEFERRED_UPDATE_MESSAGE
    and then an edit of the original message through the press's own token, made
    while the press itself was served."""
    if record.followup_ids or not record.callbacks:
        return False
    kind = record.callbacks[0]["type"]
    if kind == 7:
        return True
    requests = [r[1:] for r in bot.fake.requests]
    callback = ("POST", f"/interactions/{record.id}/{record.token}/callback", 200)
    start = requests.index(callback)
    edit = ("PATCH", f"/webhooks/{bot.fake.app_id}/{record.token}/messages/@original", 200)
    return kind == 6 and edit in requests[start + 1 : bot.served[record.id]]


@pytest.mark.slow
async def test_the_table_is_an_embed_with_the_line_the_players_and_one_my_tiles_button(
    bot: Bot, redis_client: aredis.Redis
) -> None:
    await open_table(bot, "tyaga", 0)
    referee = Referee(bot, Store(redis_client))
    found = await referee.state()
    assert found is not None and found[1] is not None
    doc, state = found
    for _ in range(3):  # a few moves, so the line has tiles
        await play_one(bot, referee)
    doc, state = (await referee.state()) or (doc, state)
    table = table_message(bot)
    (embed,) = table["embeds"]
    assert table["content"] == "" and embed["title"] == "Tyaga (Draw)"
    tiles = "".join(f"[{p.left}|{p.right}]" for p in state.line)
    line = re.search(r"```\n(.*)\n```", embed["description"])
    assert line is not None and line.group(1) == tiles != ""
    names = [f["name"] for f in embed["fields"]]
    assert [n[2:] for n in names] == ["\u2068Alice\u2069", "\u2068Bob\u2069"]
    assert [n[0] for n in names].count("▶") == 1
    assert all(re.fullmatch(r"\d+ tiles? · \d+ points?", f["value"]) for f in embed["fields"])
    assert "<t:" not in embed["description"] or ":R>" in embed["description"]
    assert doc.id not in plain_text(table)
    mine = [b for b in buttons_of(table) if b.get("label") == "My tiles"]
    assert len(mine) == 1 and not any(b["custom_id"].startswith("ds") for b in buttons_of(table))


@pytest.mark.slow
async def test_a_match_goes_on_after_a_restart_with_the_buttons_sent_before_it(
    fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    first = await boot_bot(fake, redis_client)
    await open_table(first, "kozel", 0, target=11)
    referee = Referee(first, Store(redis_client))
    found = await referee.state()
    assert found is not None and found[1] is not None
    doc, state = found
    mover = ALICE if doc.seats[state.turn].user.user_id == str(ALICE.id) else BOB
    record = await first.press(mover, table_message(first), _tiles_id(first))
    hand = first.reply_to(record)
    await first.close()

    second = await boot_bot(fake, redis_client)
    try:
        move = custom_id_for(hand, codec.MovePress, counter=state.counter)
        assert move is not None
        pressed = await second.press(mover, hand, move)
        assert pressed.callbacks[0]["type"] == 7
        referee.bot = second
        after = await referee.state()
        assert after is not None and after[1].counter > state.counter  # the move applied
        await play_to_the_end(second, referee)
        assert any("The match is over" in plain_text(e.message) for e in fake.channel_events())
    finally:
        await second.close()


def _tiles_id(bot: Bot) -> str:
    found = custom_id_for(table_message(bot), codec.TilesPress)
    assert found is not None
    return found


@pytest.mark.slow
async def test_tables_in_two_channels_are_played_at_once_each_in_its_own_channel(
    bot: Bot, redis_client: aredis.Redis
) -> None:
    await open_table(bot, "tyaga", 0, CHANNEL_ID, target=10)
    await open_table(bot, "kozel", 0, OTHER_CHANNEL_ID, target=11)
    store = Store(redis_client)
    here, there = Referee(bot, store, CHANNEL_ID), Referee(bot, store, OTHER_CHANNEL_ID)
    await play_to_the_end(bot, here, there)
    for channel, title in ((CHANNEL_ID, "Tyaga"), (OTHER_CHANNEL_ID, "Kozel")):
        texts = [plain_text(e.message) for e in bot.fake.channel_events(channel)]
        assert any("The match is over" in t for t in texts)
        titles = {
            e["title"]
            for event in bot.fake.channel_events(channel)
            for e in event.message["embeds"]
            if "title" in e
        }
        assert titles and all(t.startswith(title) for t in titles)


@pytest.mark.slow
async def test_two_processes_serve_one_match_answering_each_others_buttons(
    fake: FakeDiscord, redis_client: aredis.Redis
) -> None:
    first = await boot_bot(fake, redis_client)
    second = await boot_bot(fake, redis_client)
    try:
        await open_table(first, "tyaga", 0, target=10)
        referee = Referee(first, Store(redis_client))
        for step in range(MAX_STEPS):
            # Presses on what either process sent, and timer rounds, go to both in turn.
            if not await play_one((first, second)[step % 2], referee):
                break
        texts = [plain_text(e.message) for e in fake.channel_events(CHANNEL_ID)]
        assert any("The match is over" in t for t in texts)
        tables = [
            e
            for e in fake.channel_events(CHANNEL_ID)
            if e.action == "create" and any(m.get("title") for m in e.message["embeds"])
        ]
        finished = await Store(redis_client).last_game(CHAT)
        assert finished is not None
        # The lobby, then the table posted anew once at the start of each deal and
        # once more with the match's result.
        deals = len(from_json(finished).deals)
        assert len(tables) == 1 + deals + 1, (
            "a process sent a table of its own instead of editing it"
        )
        live = [
            m
            for m in fake.live_channel_messages(CHANNEL_ID)
            if any(embed.get("title") for embed in m["embeds"])
        ]
        assert len(live) == 1, "an older table was left behind"
    finally:
        await first.close()
        await second.close()

"""A player's own data: ``mydata`` tells him, privately, what is kept of him; ``forget``
deletes it everywhere once he alone confirms, and a computer takes his seat in a game
he is playing."""

from __future__ import annotations

import random

import pytest
import redis.asyncio as aredis

from bot.model import codec
from bot.model.contract import (
    ChatRef,
    Command,
    CommandRef,
    Notice,
    PrivateStart,
    Response,
    SlotKind,
)
from bot.storage import keys
from bot.storage.ratings import rating_queue_write
from bot.storage.store import MatchRow, Store
from bot.table.lookups import help_screen
from bot.views.i18n import available_languages, translator
from tests.bot.driver import (
    Table,
    answer,
    button,
    buttons,
    info_text,
    make_table,
    responses,
    user,
)

ANNA, BORIS, CHEN = user(1, "Anna"), user(2, "Boris"), user(3, "Chen")
GROUP, OTHER = ChatRef("tg", "-100"), ChatRef("tg", "-200")


async def finished_match(table: Table, seed: int = 4) -> None:
    """Anna and Boris, with a computer, play a short Kozel match to its end."""
    await table.start_match("kozel", [ANNA, BORIS], "target=11", computers=1)
    await table.play_out([ANNA, BORIS], random.Random(seed))


async def everything_said(table: Table, *commands: tuple[ChatRef, str, tuple[str, ...]]) -> str:
    """What the lookups anyone may ask for say, in the chats named, each asked by another
    reader, so that asking them all again stays within a person's lookups a minute."""
    said = []
    for n, (chat, name, args) in enumerate(commands):
        out = await table.send(Command(chat, user(90 + n, f"Reader {n}"), name, args))
        said.append(info_text(out))
    return "\n".join(said).replace(NOT_FOUND, "")


NOT_FOUND = "Nobody called \u2068Anna\u2069 has finished a match here."


LOOKUPS = (
    (GROUP, "top", ()),
    (GROUP, "top", ("global",)),
    (OTHER, "top", ("global",)),
    (GROUP, "scores", ()),
    (GROUP, "stats", ("Anna",)),
    (OTHER, "stats", ("Anna",)),
)


async def test_mydata_in_a_group_goes_to_the_private_chat_and_never_to_the_group(
    store: Store,
) -> None:
    table = make_table(store, GROUP)
    await finished_match(table)
    await table.command(ANNA, "lang", "pl")
    out = await table.command(ANNA, "mydata")
    assert responses(out) == []  # nothing of it in the group
    [notice] = out
    assert isinstance(notice, Notice) and notice.chat == ChatRef("tg", "1")
    text = notice.screen.plain_text()
    assert "tg:1" in text and "Anna" in text and "Koz" in text and "tg:-100" in text
    assert "pl" in text and "365" in text
    # Where the private chat cannot be written, the group is shown a way to open it.
    instead = notice.unreachable
    assert isinstance(instead, Response) and instead.chat == GROUP
    assert "Anna" not in instead.screen.plain_text() and "Kozel" not in instead.screen.plain_text()
    [link] = buttons(instead.screen)
    assert link.deep_link == codec.mydata_link()
    # Opened through that link, the private chat shows it.
    opened = await table.send(PrivateStart(ANNA, codec.mydata_link()))
    [shown] = opened
    assert isinstance(shown, Notice) and shown.chat == ChatRef("tg", "1")
    assert shown.screen.plain_text() == text


async def test_mydata_typed_in_the_private_chat_is_answered_there(store: Store) -> None:
    table = make_table(store, GROUP)
    await finished_match(table)
    private = ChatRef("tg", "1")
    out = await table.send(Command(private, ANNA, "mydata", private=True))
    [reply] = responses(out)
    assert reply.chat == private
    said = reply.screen.plain_text().splitlines()
    assert "Your results in every chat:" in said
    stats = responses(await table.send(Command(private, ANNA, "stats", private=True)))
    results = stats[0].screen.plain_text().splitlines()[-1]
    assert results.startswith("Kozel (the goat): won ") and f"• {results}" in said


async def test_mydata_of_someone_never_seen_says_nothing_is_kept(store: Store) -> None:
    table = make_table(store, GROUP)
    await finished_match(table)
    out = await table.command(CHEN, "mydata")
    [notice] = out
    assert isinstance(notice, Notice)
    assert notice.screen.plain_text().startswith("Nothing is kept about you (tg:3).")


async def test_forget_asks_first_and_only_the_asker_can_answer(store: Store) -> None:
    table = make_table(store, GROUP)
    await finished_match(table)
    before = await everything_said(table, *LOOKUPS)
    assert "Anna" in before
    [question] = responses(await table.command(ANNA, "forget"))
    assert question.chat == GROUP
    assert [b.label for b in buttons(question.screen)] == ["Forget", "Cancel"]
    forget = button(question.screen, "Forget").payload
    cancel = button(question.screen, "Cancel").payload

    refused = await table.press(BORIS, forget)
    assert answer(refused).text == "Only the person who asked can answer this."
    assert len(refused) == 1
    refused = await table.press(BORIS, cancel)
    assert answer(refused).text == "Only the person who asked can answer this."
    cancelled = await table.press(ANNA, cancel)
    assert answer(cancelled).text == "Nothing was deleted."
    assert await everything_said(table, *LOOKUPS) == before
    assert not (await store.kept_about(ANNA)).empty


async def test_after_forget_no_lookup_and_no_key_shows_anything_of_him(
    store: Store, redis_client: aredis.Redis
) -> None:
    table = make_table(store, GROUP)
    await finished_match(table)
    elsewhere = make_table(store, OTHER, seed=2)
    await finished_match(elsewhere, seed=5)
    rematch = button(table.table(), "Rematch").payload
    await table.command(ANNA, "lang", "pl")
    [question] = responses(await table.command(ANNA, "forget"))
    done = await table.press(ANNA, button(question.screen, "Zapomnij").payload)
    assert answer(done).text == "Wszystko, co o tobie przechowywano, zostało usunięte."

    said = await everything_said(table, *LOOKUPS)
    assert "Anna" not in said and "Boris" in said
    mine = await table.command(ANNA, "mydata")
    assert "Nothing is kept about you (tg:1)." in mine[0].screen.plain_text()  # type: ignore[union-attr]
    assert (await store.kept_about(ANNA)).empty and not (await store.kept_about(BORIS)).empty
    # Nothing in Redis names her but the markers that a match counted (no name, no result).
    async for key in redis_client.scan_iter(count=1000):
        if "tg:1}" in key or ":tg:1" in key:
            assert ":match:" in key, key
            continue
        assert "Anna" not in await _dump(redis_client, key), key
        assert "tg:1" not in (await _dump(redis_client, key)).replace("tg:1}", ""), key
    # A rematch of her last match seats a computer where she sat.
    await table.press(BORIS, rematch)
    lobby = await table.doc()
    assert lobby is not None and lobby.status == "lobby"
    assert [s.user.key if s.user else s.computer for s in lobby.seats].count(ANNA.key) == 0
    assert len(lobby.seats) == 3 and BORIS.key in [s.user.key for s in lobby.seats if s.user]


async def _dump(redis: aredis.Redis, key: str) -> str:
    kind = await redis.type(key)
    if kind == "string":
        raw = await redis.get(key)
        return str(raw or "")
    if kind == "hash":
        return repr(await redis.hgetall(key))
    if kind == "zset":
        return repr(await redis.zrange(key, 0, -1))
    if kind == "set":
        return repr(await redis.smembers(key))
    if kind == "list":
        return repr(await redis.lrange(key, 0, -1))
    return ""


async def test_forget_in_a_running_game_gives_his_seat_to_a_computer_and_it_goes_on(
    store: Store,
) -> None:
    table = make_table(store, GROUP)
    await finished_match(table)
    await table.start_match("kozel", [ANNA, BORIS], "target=11", computers=1)
    running = await table.doc()
    assert running is not None and running.status == "running"
    seat = running.seat_of(ANNA)
    assert seat is not None
    [question] = responses(await table.command(ANNA, "forget"))
    out = await table.press(ANNA, button(question.screen, "Forget").payload)
    notices = [o.screen.plain_text() for o in out if isinstance(o, Notice)]
    assert "A player left and had his data deleted: a computer plays that seat now." in notices
    doc = await table.doc()
    assert doc is not None and doc.status == "running" and doc.id == running.id
    held = doc.seats[seat]
    assert held.user is None and held.computer is not None
    assert doc.seat_of(ANNA) is None and doc.host == BORIS.key
    assert [s.slot.kind for s in out[1:] if hasattr(s, "slot")].count(SlotKind.TABLE) == 1
    assert "Anna" not in table.table().plain_text()
    # Boris plays on against the computers to the end; nothing of her comes back.
    await table.play_out([BORIS], random.Random(7))
    last = await table.last_doc()
    assert last is not None and last.status == "finished"
    assert (await store.kept_about(ANNA)).empty
    assert "Anna" not in await everything_said(table, *LOOKUPS)


async def test_forget_in_a_lobby_takes_his_seat_out(store: Store) -> None:
    table = make_table(store, GROUP)
    await table.command(ANNA, "new", "kozel")
    await table.command(BORIS, "join")
    [question] = responses(await table.command(ANNA, "forget"))
    await table.press(ANNA, button(question.screen, "Forget").payload)
    doc = await table.doc()
    assert doc is not None and doc.status == "lobby"
    assert [s.user for s in doc.seats] == [BORIS] and doc.host == BORIS.key


async def test_a_forget_button_of_another_chat_or_a_chat_speaking_as_itself_changes_nothing(
    store: Store,
) -> None:
    table = make_table(store, GROUP)
    await finished_match(table)
    out = await table.send(Command(GROUP, ANNA, "forget", as_chat=True))
    assert info_text(out) == "Send this as yourself."
    out = await table.press(ANNA, "1f_y_")
    assert answer(out).text == "That button is not one of mine, or it is too old."
    assert not (await store.kept_about(ANNA)).empty


async def test_forget_takes_him_out_of_a_match_waiting_to_move_the_global_ratings(
    store: Store, redis_client: aredis.Redis
) -> None:
    chat = ChatRef("tg", "-300")
    result = ((1, ((ANNA.key, True),)), (2, ((BORIS.key, False),)), (3, ((CHEN.key, False),)))
    names = {ANNA.key: "Anna", BORIS.key: "Boris", CHEN.key: "Chen"}
    # The match carries each person's own results too, counted in /stats when settled.
    rows = [MatchRow(ANNA, True, 12), MatchRow(BORIS, False, 3), MatchRow(CHEN, False, 0)]
    queued = rating_queue_write(chat, "m1", "kozel", names, result, rows)
    await redis_client.hset(queued.keys[0], str(queued.values[0]), str(queued.values[1]))
    await redis_client.zadd(keys.rating_queues(), {chat.key: 1.0})
    assert (await store.kept_about(ANNA)).queued == 1

    await store.forget_player(ANNA, "strong")
    waiting = await redis_client.hget(keys.rating_queue(chat), "m1")
    assert waiting is not None and "Anna" not in waiting and ANNA.key not in waiting
    assert await store.settle_global_ratings(chat, "m1")
    rated = await store.global_ratings("kozel", names)
    assert rated[ANNA.key].played == 0  # never rated: a newcomer's prior
    assert rated[BORIS.key].played == 1 and rated[CHEN.key].played == 1
    assert [row.played for row in await store.user_stats(BORIS)] == [1]
    assert (await store.kept_about(ANNA)).empty
    assert await store.user_stats(ANNA) == []


async def test_forget_deletes_the_list_of_tables_where_he_took_a_seat(
    store: Store, redis_client: aredis.Redis
) -> None:
    table = make_table(store, GROUP)
    await table.start_match("kozel", [ANNA, BORIS], computers=2)
    assert await store.seated_at(ANNA) == [GROUP]
    [question] = responses(await table.command(ANNA, "forget"))
    await table.press(ANNA, button(question.screen, "Forget").payload)
    assert await store.seated_at(ANNA) == []
    assert not await redis_client.exists(keys.user_tables(ANNA))
    assert await store.seated_at(BORIS) == [GROUP]


async def test_forget_by_the_only_person_at_a_running_table_stops_it_unrated(
    store: Store,
) -> None:
    table = make_table(store, GROUP)
    await table.start_match("kozel", [ANNA], "target=11", computers=2)
    [question] = responses(await table.command(ANNA, "forget"))
    await table.press(ANNA, button(question.screen, "Forget").payload)
    assert await table.doc() is None  # nobody left to play for: stopped, as after timeouts
    last = await table.last_doc()
    assert last is not None and last.status == "stopped" and last.seat_of(ANNA) is None
    assert (await store.kept_about(ANNA)).empty


@pytest.mark.parametrize("lang", available_languages())
def test_help_ends_with_a_privacy_note_in_every_language(lang: str) -> None:
    note = help_screen(translator(lang)).lines[-1]
    named = [s.name for s in note if isinstance(s, CommandRef)]
    assert named == ["mydata", "forget"]
    english = help_screen(translator("en")).lines[-1]
    assert (note == english) == (lang == "en")

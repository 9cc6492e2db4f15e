"""A chat keeps its finished matches: ``history`` lists them newest first, only the
chat's own, and a replay button sends the presser alone a picture of each deal's end
and a replay file that plays back to the match's own final scores."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import redis.asyncio as aredis

from bot.model import codec
from bot.model.contract import Answer, ChatRef, Document, Notice, Press, Response
from bot.model.game_state import build_state
from bot.storage import keys
from bot.storage.history import KEPT
from bot.storage.kept_match import KeptMatch
from bot.storage.store import Store
from bot.table.play import private_chat
from engine.replay import parse_replay, run
from tests.bot.driver import Table, buttons, make_table, user

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")
OTHER = ChatRef("tg", "-200")


async def play_match(table: Table, variant: str, seed: int) -> str:
    """A whole match of Anna and a computer; its id."""
    await table.start_match(variant, [ANNA], computers=1)
    doc = await table.doc()
    assert doc is not None
    await table.play_out([ANNA], random.Random(seed))
    table.clock.advance(60)
    return doc.id


def listing(out: Sequence[object]) -> Response:
    return next(o for o in out if isinstance(o, Response))


async def test_history_lists_the_chats_matches_newest_first(store: Store) -> None:
    table = make_table(store)
    first = await play_match(table, "tyaga", 1)
    second = await play_match(table, "baghdad", 2)
    elsewhere = make_table(store, OTHER, seed=5)
    other = await play_match(elsewhere, "tyaga", 3)
    shown = listing(await table.command(ANNA, "history")).screen
    payloads = [b.payload for b in buttons(shown)]
    assert payloads == [codec.replay_payload(second), codec.replay_payload(first)]
    assert codec.replay_payload(other) not in payloads
    text = shown.plain_text()
    assert text.index("Thief of Baghdad") < text.index("Tyaga")
    assert "Anna" in text and "won by" in text


async def test_a_chat_with_no_finished_match_says_so(store: Store) -> None:
    table = make_table(store)
    shown = listing(await table.command(ANNA, "history")).screen
    assert shown.plain_text() == "No finished matches are kept in this chat yet."
    assert not buttons(shown)


async def test_the_replay_goes_to_the_presser_alone_and_plays_back_to_the_match(
    store: Store,
) -> None:
    table = make_table(store)
    match_id = await play_match(table, "kozel", 4)
    doc = await table.last_doc()
    assert doc is not None and doc.id == match_id
    final = build_state(doc)
    payload = buttons(listing(await table.command(ANNA, "history")).screen)[0].payload
    assert payload is not None
    out = await table.send(Press(table.chat, BORIS, payload))
    boris = private_chat(BORIS)
    pictures = [o for o in out if isinstance(o, Notice)]
    files = [o for o in out if isinstance(o, Document)]
    assert len(pictures) == len(doc.deals) and all(p.screen.picture for p in pictures)
    assert [p.chat for p in pictures] == [boris] * len(pictures)
    assert len(files) == 1 and files[0].chat == boris
    replayed = run(parse_replay(json.loads(files[0].data)))
    assert replayed.failed_at is None and replayed.state.match_over
    assert replayed.state.match_scores == final.match_scores
    assert replayed.state.winners == final.winners


async def test_the_number_after_history_sends_that_matchs_replay(store: Store) -> None:
    table = make_table(store)
    await play_match(table, "tyaga", 6)
    out = await table.command(BORIS, "history", "1")
    assert [o.chat for o in out if isinstance(o, Document)] == [private_chat(BORIS)]
    refused = await table.command(BORIS, "history", "2")
    assert listing(refused).screen.plain_text() == "There is no match 2 in this chat's list."


async def test_a_replay_button_of_a_match_no_longer_kept_is_refused(store: Store) -> None:
    table = make_table(store)
    out = await table.press(ANNA, codec.replay_payload("zzzzzzzz"))
    assert [type(o).__name__ for o in out] == ["Answer"]


async def test_a_replay_or_review_button_of_a_match_kept_unreadably_is_refused(
    store: Store, redis_client: aredis.Redis
) -> None:
    table = make_table(store)
    match_id = await play_match(table, "tyaga", 6)
    await redis_client.hset(keys.history(table.chat), match_id, '{"id": "cut short')
    for payload in (codec.replay_payload(match_id), codec.replay_payload(match_id, review=True)):
        out = await table.press(ANNA, payload)
        assert out == [Answer("That match is no longer kept here.")]
    gone = await table.press(ANNA, codec.replay_payload("zzzzzzzz", review=True))
    assert gone == [Answer("That match is no longer kept here.")]


async def test_the_kept_keys_carry_the_history_time(
    new_store: object, redis_client: aredis.Redis
) -> None:
    assert callable(new_store)
    store = new_store(history_ttl=3 * 86400)
    table = make_table(store)
    await play_match(table, "tyaga", 7)
    for key in (keys.history(table.chat), keys.history_order(table.chat)):
        ttl = await redis_client.ttl(key)
        assert 3 * 86400 - 5 < ttl <= 3 * 86400


async def test_a_chat_keeps_its_newest_matches_and_none_past_the_history_time(
    store: Store,
) -> None:
    chat = ChatRef("tg", "-300")
    history = store.history
    raw = KeptMatch(
        id="x", ended=0, variant="tyaga", options=[], players=[], scores=[], winners=[], game=""
    )
    for number in range(KEPT + 3):
        kept = raw.model_copy(update={"id": f"m{number:03d}", "ended": 1000.0 + number})
        await history.keep(chat, kept.id, kept.ended, kept.model_dump_json())
    await store.history.add_field(chat, "m000", "review", "gone with its match")
    newest = [KeptMatch.model_validate_json(r).id for r in await history.newest(chat, 100, 2000)]
    assert newest == [f"m{n:03d}" for n in range(KEPT + 2, 2, -1)]
    assert await history.one(chat, "m000>review") is None
    late = 1000.0 + history.ttl + 60
    kept = raw.model_copy(update={"id": "late", "ended": late})
    await history.keep(chat, kept.id, kept.ended, kept.model_dump_json())
    assert [KeptMatch.model_validate_json(r).id for r in await history.newest(chat, 5, late)] == [
        "late"
    ]

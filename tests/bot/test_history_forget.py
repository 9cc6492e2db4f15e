"""``forget`` and a chat's kept matches: a computer, unnamed, takes the forgotten
person's seat in each of them, his reviews go, and the matches still list and replay as
they were; what others played and reviewed stays as it was."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import redis.asyncio as aredis

from bot.model.contract import ChatRef, Command, Document, Notice, Press, Response, UserRef
from bot.model.game_state import build_state
from bot.storage import keys
from bot.storage.kept_match import KeptMatch, KeptPlayer
from bot.storage.store import Store
from bot.table.play import private_chat
from engine.replay import parse_replay, run
from tests.bot.driver import Table, button, buttons, make_table, responses, user

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")
GROUP = ChatRef("tg", "-100")
DAY = 86400


async def play(table: Table, people: list[UserRef], seed: int) -> str:
    """A short Kozel match of ``people`` and a computer, to its end; its id."""
    await table.start_match("kozel", people, "target=11", computers=1)
    doc = await table.doc()
    assert doc is not None
    await table.play_out(people, random.Random(seed))
    table.clock.advance(60)
    return doc.id


async def forget(table: Table, who: UserRef) -> None:
    [question] = responses(await table.command(who, "forget"))
    await table.press(who, button(question.screen, "Forget").payload)


async def kept(store: Store, match_id: str) -> KeptMatch:
    raw = await store.history.one(GROUP, match_id)
    assert raw is not None
    return KeptMatch.model_validate_json(raw)


async def test_a_forgotten_players_kept_match_names_a_computer_and_replays_the_same(
    store: Store,
) -> None:
    table = make_table(store, GROUP)
    theirs = await play(table, [ANNA, BORIS], 4)
    done = await table.last_doc()
    assert done is not None and done.seats[0].user == ANNA
    final = build_state(done)
    before = await kept(store, theirs)
    assert [p.name for p in before.players] == ["Anna", "Boris", "Computer 1"]
    await store.history.add_field(GROUP, theirs, f"review:{ANNA.key}", '{"decisions":[]}')
    await store.history.add_field(GROUP, theirs, f"review:{BORIS.key}", '{"decisions":[]}')
    alone = await play(table, [BORIS], 6)
    untouched = await store.history.one(GROUP, alone)

    await forget(table, ANNA)

    after = await kept(store, theirs)
    assert [p.name for p in after.players] == ["Computer 1", "Boris", "Computer 2"]
    assert [p.user for p in after.players] == [None, BORIS.key, None]
    assert (after.scores, after.winners) == (before.scores, before.winners)
    game = after.doc()
    assert game.seats[0].user is None and game.seats[0].computer is not None
    assert game.seat_of(ANNA) is None and game.host == BORIS.key
    assert await store.history.one(GROUP, f"{theirs}>review:{ANNA.key}") is None
    assert await store.history.one(GROUP, f"{theirs}>review:{BORIS.key}") == '{"decisions":[]}'
    assert await store.history.one(GROUP, alone) == untouched
    # The list shows the seat as a computer, and its replay plays to the same end.
    listed = responses(await table.command(BORIS, "history"))[0].screen
    text = listed.plain_text()
    assert "Anna" not in text and "Computer 1" in text and "Boris" in text
    replay = buttons(listed)[1].payload
    assert replay is not None
    out = await table.send(Press(GROUP, BORIS, replay))
    pictures = [o for o in out if isinstance(o, Notice) and o.chat == private_chat(BORIS)]
    assert len(pictures) == len(done.deals) and all(p.screen.picture for p in pictures)
    [file] = [o for o in out if isinstance(o, Document)]
    assert b"Anna" not in file.data and ANNA.key.encode() not in file.data
    replayed = run(parse_replay(json.loads(file.data)))
    assert replayed.failed_at is None and replayed.state.match_over
    assert replayed.state.match_scores == final.match_scores
    assert replayed.state.winners == final.winners


async def test_a_kept_match_naming_him_that_cannot_be_read_goes_whole_on_forget(
    store: Store, redis_client: aredis.Redis
) -> None:
    table = make_table(store, GROUP)
    readable = await play(table, [BORIS], 6)
    broken = KeptMatch(
        id="old",
        ended=table.clock(),
        variant="kozel",
        options=[],
        players=[KeptPlayer(name="Anna", user=ANNA.key), KeptPlayer(name="Boris", user=BORIS.key)],
        scores=[11, 3],
        winners=[0],
        game="not a game this version reads",
    )
    await store.history.keep(GROUP, broken.id, broken.ended, broken.model_dump_json())
    await store.history.add_field(GROUP, "old", f"review:{BORIS.key}", '{"decisions":[]}')
    await store.note_players(GROUP, [ANNA, BORIS])

    await forget(table, ANNA)

    assert await redis_client.hkeys(keys.history(GROUP)) == [readable]
    assert await redis_client.zrange(keys.history_order(GROUP), 0, -1) == [readable]


async def test_mydata_counts_the_kept_matches_he_played_and_for_how_long_they_are_kept(
    new_store: Callable[..., Store],
) -> None:
    store = new_store(history_ttl=30 * DAY)
    table = make_table(store, GROUP)
    await play(table, [ANNA, BORIS], 4)
    await play(table, [BORIS], 6)
    said = "Finished matches you played that the chats keep for history: %d; each is kept"
    mine = await mydata(table, ANNA)
    assert f"{said % 1} up to 30 days after it ended." in mine
    assert f"{said % 2} up to 30 days after it ended." in await mydata(table, BORIS)

    await forget(table, ANNA)

    assert (await mydata(table, ANNA)).startswith("Nothing is kept about you (tg:1).")
    assert (await store.kept_about(ANNA)).matches == 0
    assert (await store.kept_about(BORIS)).matches == 2


async def mydata(table: Table, who: UserRef) -> str:
    [notice] = await table.send(Command(private_chat(who), who, "mydata", private=True))
    assert isinstance(notice, Response)
    return notice.screen.plain_text()

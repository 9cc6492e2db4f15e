"""The fakeredis store, which fast tests use, behaves as the real one does."""

from __future__ import annotations

import pytest

from bot.model.contract import ChatRef, UserRef
from bot.storage.store import MatchRow, Store, Stored, TimerClaim
from tests.bot.stored import end_game, write

CHAT = ChatRef("tg", "-100")
ANNA = UserRef("tg", "1", "Anna")
BORIS = UserRef("tg", "2", "Boris")


@pytest.fixture(params=[pytest.param("store", marks=pytest.mark.redis), "fake_store"])
def any_store(request: pytest.FixtureRequest) -> Store:
    store: Store = request.getfixturevalue(request.param)
    return store


async def test_games_are_written_by_compare_and_set(any_store: Store) -> None:
    assert await write(any_store, CHAT, {"id": "g1"})
    assert not await write(any_store, CHAT, {"id": "g1", "n": 9})
    assert await write(any_store, CHAT, {"id": "g1", "n": 1}, Stored({"id": "g1"}, 1))
    assert await any_store.load(CHAT) == Stored({"id": "g1", "n": 1}, 2)


async def test_the_write_that_ends_a_game_keeps_it_as_the_last_game(any_store: Store) -> None:
    game = {"id": "g1", "version_seen": 0}
    assert await write(any_store, CHAT, game)
    assert await end_game(any_store, CHAT, Stored(game, 1))
    assert await any_store.load(CHAT) is None
    assert await any_store.last_game(CHAT) == {"id": "g1", "version_seen": 0}


async def test_moves_and_deals_read_back_in_order(any_store: Store) -> None:
    deal = {"hands": [["6-6"], ["5-5"]], "boneyard": []}
    moves = [[0, "6-6"], [1, "draw"], [1, "6-5@R"]]
    first = {"id": "g1", "deals": [deal], "moves": moves[:1]}
    assert await write(any_store, CHAT, first)
    assert await write(
        any_store, CHAT, {"id": "g1", "deals": [deal], "moves": moves}, Stored(first, 1)
    )
    stored = await any_store.load(CHAT)
    assert stored == Stored({"id": "g1", "deals": [deal], "moves": moves}, 2)


async def test_matches_count_once_on_the_ranked_board(any_store: Store) -> None:
    rows = [MatchRow(BORIS, True, 5), MatchRow(ANNA, False, -5)]
    match = {"id": "m1", "status": "running"}
    assert await write(any_store, CHAT, match)
    assert await end_game(any_store, CHAT, Stored(match, 1), variant="kozel", rows=rows)
    assert not await end_game(any_store, CHAT, Stored(match, 1), variant="kozel", rows=rows)
    board = await any_store.scoreboard(CHAT, "kozel", me=ANNA)
    assert [(r.rank, r.name, r.played, r.won) for r in board.rows] == [
        (1, "Boris", 1, 1),
        (2, "Anna", 1, 0),
    ]
    assert board.me is not None and board.me.rank == 2
    assert [(s.variant, s.won) for s in await any_store.user_stats(BORIS)] == [("kozel", 1)]


async def test_deadlines_are_replaced_and_claimed_once(any_store: Store) -> None:
    await any_store.schedule(CHAT, "g1", 1, due=10.0)
    await any_store.schedule(CHAT, "g1", 2, due=20.0)
    await any_store.schedule(ChatRef("dc", "5"), "g2", 3, due=5.0)
    assert await any_store.claim_due(15.0) == [TimerClaim(ChatRef("dc", "5"), "g2", 3)]
    assert await any_store.claim_due(30.0, platform="tg") == [TimerClaim(CHAT, "g1", 2)]
    assert await any_store.claim_due(30.0) == []


async def test_settings_and_language_read_back(any_store: Store) -> None:
    await any_store.set_chat_setting(CHAT, "lang", "pl")
    await any_store.set_user_lang(ANNA, "uk")
    assert (await any_store.chat_settings(CHAT), await any_store.user_lang(ANNA)) == (
        {"lang": "pl"},
        "uk",
    )


async def test_a_chat_moves_to_a_new_id(any_store: Store) -> None:
    await write(any_store, CHAT, {"id": "g1"})
    await any_store.move_chat(CHAT, ChatRef("tg", "-1009"))
    assert await any_store.load(ChatRef("tg", "-1009")) == Stored({"id": "g1"}, 1)

"""Scoreboards per chat and game, ranked by matches won then win rate, and each user's
results across chats; every match counts exactly once."""

from __future__ import annotations

from typing import Any

import pytest
import redis.exceptions
from redis.asyncio.client import Pipeline

from bot.model.contract import ChatRef, UserRef
from bot.storage import keys
from bot.storage.store import MatchRow, Store, Stored, StoreUnavailable
from bot.storage.values import text
from tests.bot.stored import count_match, end_game, write

CHAT = ChatRef("tg", "-100")
ELSEWHERE = ChatRef("dc", "200")
ANNA = UserRef("tg", "1", "Anna")
BORIS = UserRef("tg", "2", "Boris")
CLARA = UserRef("tg", "3", "Clara")


def rows(winner: UserRef, *losers: UserRef, points: int = 10) -> list[MatchRow]:
    return [MatchRow(winner, True, points)] + [MatchRow(u, False, -points) for u in losers]


async def play(store: Store, chat: ChatRef, match_id: str, rows: list[MatchRow]) -> bool:
    return await count_match(store, chat, match_id, "kozel", rows)


async def opened(store: Store) -> Stored:
    """Match m1 in play in the chat, as read."""
    doc = {"id": "m1", "status": "running", "variant": "kozel"}
    assert await write(store, CHAT, doc)
    return Stored(doc, 1)


def table(board: Any) -> list[tuple[int, str, int, int, int]]:
    return [(r.rank, r.name, r.played, r.won, r.points) for r in board.rows]


async def test_a_recorded_match_appears_on_the_chat_s_board(store: Store) -> None:
    assert await play(store, CHAT, "m1", rows(ANNA, BORIS))
    board = await store.scoreboard(CHAT, "kozel")
    assert table(board) == [(1, "Anna", 1, 1, 10), (2, "Boris", 1, 0, -10)]
    assert board.players == 2


async def test_ending_the_same_match_again_counts_nothing(store: Store) -> None:
    match = await opened(store)
    await end_game(store, CHAT, match, variant="kozel", rows=rows(ANNA, BORIS))
    assert not await end_game(store, CHAT, match, variant="kozel", rows=rows(ANNA, BORIS))
    assert not await store.settle_global_ratings(CHAT, "m1")
    assert table(await store.scoreboard(CHAT, "kozel"))[0] == (1, "Anna", 1, 1, 10)
    assert (await store.user_stats(ANNA))[0].played == 1


async def test_the_board_ranks_by_matches_won(store: Store) -> None:
    await play(store, CHAT, "m1", rows(BORIS, ANNA))
    await play(store, CHAT, "m2", rows(BORIS, ANNA))
    await play(store, CHAT, "m3", rows(ANNA, BORIS))
    assert [r.name for r in (await store.scoreboard(CHAT, "kozel")).rows] == ["Boris", "Anna"]


async def test_equal_wins_rank_by_win_rate(store: Store) -> None:
    await play(store, CHAT, "m1", rows(ANNA, CLARA))
    await play(store, CHAT, "m2", rows(CLARA, ANNA))
    await play(store, CHAT, "m3", rows(CLARA, ANNA))  # Clara: 2 of 3
    await play(store, CHAT, "m4", rows(BORIS, ANNA))
    await play(store, CHAT, "m5", rows(BORIS, ANNA))  # Boris: 2 of 2
    board = await store.scoreboard(CHAT, "kozel")
    assert [(r.name, r.won, r.played) for r in board.rows] == [
        ("Boris", 2, 2),
        ("Clara", 2, 3),
        ("Anna", 1, 5),
    ]
    assert board.rows[1].win_rate == pytest.approx(2 / 3)


async def test_the_board_shows_the_top_rows_and_the_asker_s_row_beyond_them(
    store: Store,
) -> None:
    users = [UserRef("tg", str(n), f"P{n}") for n in range(12)]
    for n, user in enumerate(users):
        for m in range(12 - n):  # P0 wins 12 matches, P11 one
            await play(store, CHAT, f"m{n}-{m}", [MatchRow(user, True, 1)])
    board = await store.scoreboard(CHAT, "kozel", top=10, me=users[11])
    assert [r.name for r in board.rows] == [f"P{n}" for n in range(10)]
    assert board.me is not None
    assert (board.me.rank, board.me.name, board.me.won) == (12, "P11", 1)
    assert board.players == 12


async def test_the_asker_s_row_is_given_when_he_is_in_the_top_too(store: Store) -> None:
    await play(store, CHAT, "m1", rows(ANNA, BORIS))
    board = await store.scoreboard(CHAT, "kozel", me=BORIS)
    assert board.me is not None and (board.me.rank, board.me.name) == (2, "Boris")


async def test_an_asker_who_never_played_has_no_row(store: Store) -> None:
    await play(store, CHAT, "m1", rows(ANNA, BORIS))
    assert (await store.scoreboard(CHAT, "kozel", me=CLARA)).me is None


async def test_an_empty_board_has_no_rows(store: Store) -> None:
    board = await store.scoreboard(CHAT, "kozel", me=ANNA)
    assert (board.rows, board.me, board.players) == ((), None, 0)


async def test_each_game_has_its_own_board_and_none_adds_games_together(store: Store) -> None:
    await count_match(store, CHAT, "m1", "kozel", rows(ANNA, BORIS))
    await count_match(store, CHAT, "m2", "tyaga", rows(BORIS, ANNA))
    await count_match(store, CHAT, "m3", "tyaga", rows(BORIS, ANNA))
    assert [r.name for r in (await store.scoreboard(CHAT, "kozel")).rows] == ["Anna", "Boris"]
    assert [r.name for r in (await store.scoreboard(CHAT, "tyaga")).rows] == ["Boris", "Anna"]
    everything = await store._redis.keys(keys.chat_pattern(CHAT))
    boards = sorted(text(k) for k in everything if ":scores:" in text(k))
    assert boards == [keys.scores(CHAT, "kozel"), keys.scores(CHAT, "tyaga")]


async def test_each_chat_has_its_own_board(store: Store) -> None:
    await play(store, CHAT, "m1", rows(ANNA, BORIS))
    assert (await store.scoreboard(ELSEWHERE, "kozel")).rows == ()


async def test_the_board_shows_the_name_a_player_last_played_under(store: Store) -> None:
    await play(store, CHAT, "m1", rows(ANNA, BORIS))
    await play(store, CHAT, "m2", rows(UserRef("tg", "1", "Anya"), BORIS))
    assert (await store.scoreboard(CHAT, "kozel")).rows[0].name == "Anya"


async def test_user_stats_add_up_matches_from_every_chat_per_game(store: Store) -> None:
    await count_match(store, CHAT, "m1", "kozel", rows(ANNA, BORIS, points=7))
    await count_match(store, ELSEWHERE, "m2", "kozel", rows(BORIS, ANNA, points=3))
    await count_match(store, ELSEWHERE, "m3", "tyaga", rows(ANNA, BORIS, points=5))
    stats = await store.user_stats(ANNA)
    assert [(s.variant, s.played, s.won, s.points) for s in stats] == [
        ("kozel", 2, 1, 4),
        ("tyaga", 1, 1, 5),
    ]


async def test_a_user_who_never_played_has_no_stats(store: Store) -> None:
    assert await store.user_stats(CLARA) == []


async def test_settling_again_after_a_lost_connection_completes_the_user_stats_once(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The users' results go out in one pipeline: the connection is lost once the server
    # has run the first user's part of it.
    real = Pipeline.execute
    cut = False

    async def drops_after_the_first_user(pipe: Pipeline, raise_on_error: bool = True) -> Any:
        nonlocal cut
        if cut or len(pipe.command_stack) < 2:
            return await real(pipe, raise_on_error)
        cut = True
        del pipe.command_stack[1:]
        await real(pipe, raise_on_error)
        raise redis.exceptions.ConnectionError("connection lost")

    match = await opened(store)
    monkeypatch.setattr(Pipeline, "execute", drops_after_the_first_user)
    with pytest.raises(StoreUnavailable):
        await end_game(store, CHAT, match, variant="kozel", rows=rows(ANNA, BORIS))
    # The chat had counted it; the step after the write is tried again, as a later tick does.
    assert not await end_game(store, CHAT, match, variant="kozel", rows=rows(ANNA, BORIS))
    await store.settle_global_ratings(CHAT, "m1")
    assert [(s.played, s.won) for s in await store.user_stats(ANNA)] == [(1, 1)]
    assert [(s.played, s.won) for s in await store.user_stats(BORIS)] == [(1, 0)]
    assert table(await store.scoreboard(CHAT, "kozel"))[0] == (1, "Anna", 1, 1, 10)

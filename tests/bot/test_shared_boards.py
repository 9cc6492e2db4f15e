"""Chats an adapter makes one place (``Sessions.share_boards``): their boards merged, a
match of any of them replayed from any of them, and other chats left to their own."""

from __future__ import annotations

from bot.model import codec
from bot.model.contract import Answer, ChatRef, Document, UserRef
from bot.storage.store import Scoreboard, ScoreRow, Store
from bot.table.lookups import TOP, merged
from bot.table.play import private_chat
from tests.bot.driver import Table, buttons, make_table
from tests.bot.test_history import ANNA, OTHER, listing, play_match


def row(key: str, played: int, won: int, points: int = 0, name: str = "") -> ScoreRow:
    return ScoreRow(0, key, name or key, played, won, points)


def board(*rows: ScoreRow) -> Scoreboard:
    return Scoreboard("tyaga", rows, None, len(rows))


def test_merged_boards_sum_each_players_rows_and_rank_them_again() -> None:
    asker = UserRef("con", "c", "C")
    first = board(row("con:a", 2, 2, 30, "Anna"), row("con:b", 3, 1, 10))
    second = board(row("con:b", 2, 2, 5), row("con:c", 1, 0), row("con:a", 1, 0, 0, "Ann"))
    found = merged("tyaga", [first, second], asker)
    ranked = [(r.rank, r.user_key, r.name, r.played, r.won, r.points) for r in found.rows]
    assert ranked == [
        (1, "con:b", "con:b", 5, 3, 15),
        (2, "con:a", "Anna", 3, 2, 30),
        (3, "con:c", "con:c", 1, 0, 0),
    ]
    assert found.me == found.rows[2] and found.players == 3


def test_a_merged_board_keeps_its_top_rows_and_the_askers_wherever_he_ranks() -> None:
    rows = [row(f"con:{n:02}", 10, 10 - n) for n in range(TOP + 2)]
    asker = UserRef("con", f"{TOP + 1:02}", "Last")
    found = merged("tyaga", [board(*rows[:6]), board(*rows[6:])], asker)
    assert [r.user_key for r in found.rows] == [r.user_key for r in rows[:TOP]]
    assert found.me is not None and (found.me.rank, found.me.user_key) == (TOP + 2, asker.key)
    assert found.players == TOP + 2


async def test_a_shared_chat_lists_and_replays_the_matches_of_the_others(store: Store) -> None:
    here = make_table(store, ChatRef("con", "local", "2"), seed=3)
    elsewhere = make_table(store, OTHER, seed=5)
    other = await play_match(elsewhere, "tyaga", 3)
    press = codec.replay_payload(other)

    alone = await here.command(ANNA, "history")
    assert listing(alone).screen.plain_text() == "No finished matches are kept in this chat yet."
    refused = await here.press(ANNA, press)
    assert refused == [Answer("That match is no longer kept here.")]

    here.sessions.share_boards([OTHER, here.chat])
    shown = listing(await here.command(ANNA, "history")).screen
    assert [b.payload for b in buttons(shown)] == [press]
    out = await here.press(ANNA, press)
    assert [o.chat for o in out if isinstance(o, Document)] == [private_chat(ANNA)]
    # A chat outside the group, asking the same core, still reads its own boards alone.
    outside = Table(here.sessions, store, ChatRef("tg", "-300"), here.clock)
    assert not buttons(listing(await outside.command(ANNA, "history")).screen)
    assert await outside.press(ANNA, press) == refused

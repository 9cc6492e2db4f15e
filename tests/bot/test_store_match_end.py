"""The end of a match on a real Redis: counted on the chat's board and in its ratings by
the write that ends it, then in each player's results and the global ratings, in a few
round trips however many people played."""

from __future__ import annotations

import random

from bot.model.contract import ChatRef
from bot.storage.store import Store
from tests.bot.driver import make_table, user

PEOPLE = [user(1, "Anna"), user(2, "Boris"), user(3, "Chen")]


async def _ending_round_trips(
    store: Store, chat: ChatRef, seed: int, round_trips: list[int]
) -> int:
    """The round trips of the step that ended a Kozel match among three people."""
    table = make_table(store, chat, seed)
    await table.start_match("kozel", PEOPLE, "target=20")
    rng = random.Random(4)
    for _ in range(2000):
        round_trips.clear()
        await table.step(PEOPLE, rng)
        trips = len(round_trips)
        if await store.load(chat) is None:
            return trips
    raise AssertionError("the match did not end")


async def test_the_press_that_ends_a_match_takes_seven_round_trips(
    store: Store, round_trips: list[int]
) -> None:
    # A first match loads every script the end of a match runs; the second is measured.
    await _ending_round_trips(store, ChatRef("tg", "-1001"), 1, round_trips)
    trips = await _ending_round_trips(store, ChatRef("tg", "-1002"), 2, round_trips)
    # The ratings read with the rating queue noted, the write, every player's results, the
    # global ratings read and moved, the rating queue emptied, and its note dropped.
    assert trips == 7
    rated = await store.global_ratings("kozel", {p.key: p.name for p in PEOPLE})
    assert [r.played for r in rated.values()] == [2, 2, 2], rated

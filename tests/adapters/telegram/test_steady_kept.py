"""A steady hand stays as it is while nothing its player holds changes: Thief of
Baghdad's Draw and End turn stay on it for the whole deal and say why when they do not
apply, and a deal's end leaves the hand of the player who did not move as it was; a
match's end tells every hand, once, that the match is over."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.adapters.telegram.driver import Driver
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.players import buttons, labelled
from tests.adapters.telegram.tables import WRITES, started_table, turn_now

pytestmark = pytest.mark.slow

DRAW, END_TURN = "Draw", "End turn"
TURNS = 80  # moves a test plays at most to meet the moment it needs


def _writes_to(fake: FakeBotApi, first: int, chat_id: int) -> list[str]:
    return [c.method for c in fake.calls[first:] if c.method in WRITES and c.chat_id == chat_id]


async def _press_word(d: Driver, user: FakeUser, game_id: str, label: str) -> str | None:
    """``user`` presses the word ``label`` on his hand: the popup it answered with."""
    hand = await d.hand(user, game_id)
    assert hand is not None
    answer = await d.press(user, hand, labelled(hand, label)["callback_data"])
    text = answer.get("text")
    return str(text) if text else None


async def test_end_turn_pressed_with_nothing_to_end_says_so_and_changes_nothing(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    d = make_driver()
    game_id = await started_table(d, people["ann"], "/newgame baghdad", people["bob"])
    game, _, _, mover = await turn_now(d)
    first = len(fake.calls)
    said = await _press_word(d, mover, game_id, END_TURN)
    assert said == "There is nothing to end yet: play, draw or pass"
    assert len((await turn_now(d)).game.doc.moves) == len(game.doc.moves), "a move was made"
    assert _writes_to(fake, first, mover.id) == []


async def test_a_turn_ended_after_a_draw_leaves_the_hand_as_the_draw_drew_it(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    d = make_driver()
    game_id = await started_table(d, people["ann"], "/newgame baghdad", people["bob"])
    for _ in range(TURNS):
        game, state, seat, mover = await turn_now(d)
        assert state.boneyard, "the boneyard ran out before a drawn tile fit"
        assert await _press_word(d, mover, game_id, DRAW) is None
        if (await turn_now(d)).seat != seat:
            continue  # the drawn tile fit nowhere: the turn passed with the draw
        first = len(fake.calls)
        assert await _press_word(d, mover, game_id, END_TURN) is None
        ended = (await turn_now(d)).game.doc.moves
        assert ended[len(game.doc.moves) + 1] == (seat, "done")
        assert _writes_to(fake, first, mover.id) == [], "his hand was edited"
        return
    raise AssertionError("no drawn tile ever fit")


async def test_the_boneyard_emptied_leaves_the_other_hand_as_it_was_and_draw_says_so(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    ann, bob = people["ann"], people["bob"]
    d = make_driver()
    game_id = await started_table(d, ann, "/newgame baghdad", bob)
    for _ in range(TURNS):
        _, state, seat, mover = await turn_now(d)
        other = bob if mover is ann else ann
        if not state.boneyard:
            assert await _press_word(d, mover, game_id, DRAW) == "The boneyard is empty"
            return
        first = len(fake.calls)
        assert await _press_word(d, mover, game_id, DRAW) is None
        if len(state.boneyard) == 1:
            assert _writes_to(fake, first, other.id) == [], "the other hand was edited"
        if (await turn_now(d)).seat == seat:
            assert await _press_word(d, mover, game_id, END_TURN) is None
    raise AssertionError("the boneyard never ran out")


async def _until_the_end_of(
    d: Driver, fake: FakeBotApi, people: dict[str, FakeUser], *, match: bool
) -> None:
    """People play until a deal ends (``match``: the match, with "Next deal" between
    deals). At a deal's end the hand of the player who did not make the last move was
    not edited; at the match's end it was, once, and every hand says the match is over
    and offers nothing to press."""
    ann, bob = people["ann"], people["bob"]
    played, rng = await d.begin(), random.Random(5)
    for _ in range(TURNS * 3):
        before = await d.game()
        assert before is not None and before.state is not None
        if before.state.deal_over:
            await d.step(played, rng)  # "Next deal"
            continue
        mover = (await turn_now(d)).mover
        other = bob if mover is ann else ann
        first = len(fake.calls)
        await d.step(played, rng)
        await d.bot.drain()
        after = await d.game()
        state = None if after is None or after.doc.id != played.game_id else after.state
        if state is None or state.match_over or (state.deal_over and not match):
            assert match == (state is None or state.match_over), "the match ended too soon"
            if not match:
                assert _writes_to(fake, first, other.id) == [], "his hand was edited"
                return
            assert _writes_to(fake, first, other.id) == ["editMessageText"]
            for person in (ann, bob):
                hand = await d.hand(person, played.game_id)
                assert hand is not None and "The match is over." in hand["text"]
                # Only what follows a match: his review of it.
                assert [b["text"] for b in buttons(hand)] == ["Review my play"]
            return
    raise AssertionError("the end never came")


async def test_a_deals_end_leaves_the_hand_of_the_player_who_did_not_move_as_it_was(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    d = make_driver()
    await started_table(d, people["ann"], "/newgame baghdad match=deals:2", people["bob"])
    await _until_the_end_of(d, fake, people, match=False)


async def test_a_matchs_end_tells_every_hand_once_that_the_match_is_over(
    fake: FakeBotApi, make_driver: Any, people: dict[str, FakeUser]
) -> None:
    d = make_driver()
    command = "/newgame baghdad match=deals:2"
    await started_table(d, people["ann"], command, people["bob"])
    await _until_the_end_of(d, fake, people, match=True)

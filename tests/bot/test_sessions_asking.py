"""What one person can make the bot send: lookups are counted per person and per chat in
the store, past the limit a command is told once to wait and then goes unanswered, and a
button's answer says so every time."""

from __future__ import annotations

from bot.model.contract import Answer, ChatRef, Response
from bot.storage.store import Store
from bot.table import asking
from tests.bot.driver import answer, button, make_table, responses, user
from tests.bot.test_sessions_pictures import FIRST_MOVES, _started
from tests.bot.test_sessions_play import press_tile

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")
WAIT = "That is a lot of requests at once: wait a minute, please."


async def test_a_person_past_his_limit_is_told_once_then_not_answered(fake_store: Store) -> None:
    table = make_table(fake_store)
    for _ in range(asking.USER_ASKS):
        (reply,) = responses(await table.command(BORIS, "rules", "tyaga"))
        assert "Tyaga" in reply.screen.plain_text()
    (told,) = responses(await table.command(BORIS, "rules", "tyaga"))
    assert told.screen.plain_text() == WAIT
    assert await table.command(BORIS, "scores") == []
    (other,) = responses(await table.command(ANNA, "rules", "tyaga"))
    assert "Tyaga" in other.screen.plain_text()  # the limit is his, not the chat's


async def test_the_limit_holds_in_every_chat_and_for_the_chat(fake_store: Store) -> None:
    here, there = make_table(fake_store), make_table(fake_store, ChatRef("tg", "-200"))
    for _ in range(asking.USER_ASKS):
        assert responses(await here.command(BORIS, "help"))
    (told,) = responses(await there.command(BORIS, "help"))  # the same person elsewhere
    assert told.screen.plain_text() == WAIT
    askers = [user(10 + n, f"P{n}") for n in range(asking.CHAT_ASKS)]
    for asker in askers[: asking.CHAT_ASKS - asking.USER_ASKS]:
        assert "Commands:" in responses(await here.command(asker, "help"))[0].screen.plain_text()
    (full,) = responses(await here.command(askers[-1], "help"))
    assert full.screen.plain_text() == WAIT


async def test_a_button_past_the_limit_answers_that_he_must_wait(fake_store: Store) -> None:
    table = make_table(fake_store)
    await _started(table)
    await press_tile(table, *FIRST_MOVES[0])
    for _ in range(asking.USER_ASKS):
        await table.command(BORIS, "help")
    for _ in range(2):
        out = await table.press(BORIS, button(table.table(), "Picture").payload)
        assert answer(out) == Answer(WAIT)
        assert not [o for o in out if isinstance(o, Response)]

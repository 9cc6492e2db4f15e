"""A chat speaking as itself (an anonymous admin, a channel) runs tables but never
sits at one: its private chat would be the group, where every hand would show."""

from __future__ import annotations

from bot.model.contract import Command, Press, SlotKind
from bot.model.gamedoc import GameDoc, Seat
from bot.storage.store import Store
from tests.bot.driver import answer, button, info_text, make_table, shows, user
from tests.bot.stored import change_game

ANNA = user(1, "Anna")
GROUP = user(-100, "The group")  # how a chat speaking as itself arrives: the chat as a user
REFUSAL = "Post as yourself to take a seat."


async def test_a_chat_speaking_as_itself_cannot_open_a_table(fake_store: Store) -> None:
    table = make_table(fake_store)
    out = await table.send(
        Command(table.chat, GROUP, "new", ("tyaga",), is_admin=True, as_chat=True)
    )
    assert REFUSAL in info_text(out)
    assert await fake_store.load(table.chat) is None


async def test_a_chat_speaking_as_itself_cannot_join_by_command_or_button(
    fake_store: Store,
) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "tyaga")
    out = await table.send(Command(table.chat, GROUP, "join", is_admin=True, as_chat=True))
    assert REFUSAL in info_text(out)
    join = button(table.table(), "Join").payload
    assert join is not None
    pressed = await table.send(Press(table.chat, GROUP, join, is_admin=True, as_chat=True))
    assert answer(pressed).text == REFUSAL
    doc = await table.doc()
    assert doc is not None and [s.user for s in doc.seats] == [ANNA]


async def test_a_chat_speaking_as_itself_may_still_stop_a_table_as_an_admin(
    fake_store: Store,
) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "tyaga")
    out = await table.send(Command(table.chat, GROUP, "stop", is_admin=True, as_chat=True))
    assert "The game is stopped." in info_text(out)
    assert await fake_store.load(table.chat) is None


async def test_no_hand_or_ping_is_ever_sent_to_the_tables_own_chat(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "tyaga", "opening=any")
    stored = await fake_store.load(table.chat)
    assert stored is not None

    # A seat naming the group itself, as a store written before the refusal could hold.
    def with_the_group(doc: GameDoc) -> GameDoc:
        return doc.but(seats=(Seat(user=GROUP), *doc.seats))

    assert await change_game(fake_store, table.chat, with_the_group) is not None
    out = await table.command(ANNA, "start")
    private = shows(out, SlotKind.HAND) + shows(out, SlotKind.PING)
    assert [s.slot.user for s in shows(out, SlotKind.HAND)] == [ANNA]
    assert all(s.slot.chat.chat_id != table.chat.chat_id for s in private)

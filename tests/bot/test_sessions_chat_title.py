"""A hand in a private chat names the group and the game it belongs to."""

from __future__ import annotations

from bot.model.contract import Command, SlotKind
from bot.model.gamedoc import from_json, to_json
from bot.storage.store import Store
from tests.bot.driver import make_table, shows, user

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")


async def test_the_hand_and_the_ping_name_the_chat_the_table_is_in(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.send(Command(table.chat, ANNA, "new", ("tyaga",), chat_title="Friday domino"))
    await table.command(BORIS, "join")
    out = await table.command(ANNA, "start")
    heading = f"Tyaga (Draw) in Friday domino · table {table.game_id}"
    hands = shows(out, SlotKind.HAND)
    assert len(hands) == 2
    assert all(h.screen.lines[0] == (heading,) for h in hands)
    [ping] = shows(out, SlotKind.PING)
    assert ping.screen.lines[0] == (f"Your turn at {heading}.",)


async def test_without_a_chat_name_the_hand_names_the_game_alone(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "tyaga")
    await table.command(BORIS, "join")
    out = await table.command(ANNA, "start")
    [hand, *_] = shows(out, SlotKind.HAND)
    assert hand.screen.lines[0] == (f"Tyaga (Draw) · table {table.game_id}",)


async def test_the_chat_name_is_kept_in_the_game_document(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.send(Command(table.chat, ANNA, "new", ("tyaga",), chat_title="Friday domino"))
    doc = await table.doc()
    assert doc is not None and doc.chat_title == "Friday domino"
    assert from_json(to_json(doc)) == doc

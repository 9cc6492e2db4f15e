"""A chat that changes its id (a Telegram group become a supergroup) keeps its table."""

from __future__ import annotations

from bot.model.contract import ChatMoved, ChatRef, SlotKind
from bot.storage.store import Store
from tests.bot.driver import make_table, shows, user

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")
NEW = ChatRef("tg", "-100999")


async def test_a_moved_chat_keeps_its_game_and_its_table_goes_to_the_new_id(
    store: Store,
) -> None:
    table = make_table(store)
    await table.command(ANNA, "new", "tyaga")
    game_id = table.game_id
    out = await table.send(ChatMoved(table.chat, NEW))
    [posted] = shows(out, SlotKind.TABLE)  # the lobby, posted anew in the new chat
    assert posted.slot.chat == NEW and posted.renew
    assert await store.load(table.chat) is None
    stored = await store.load(NEW)
    assert stored is not None and stored.doc["id"] == game_id
    assert stored.doc["chat"] == NEW.key
    moved = make_table(store, NEW)
    await moved.command(BORIS, "join")
    out = await moved.command(ANNA, "start")
    [table_show] = shows(out, SlotKind.TABLE)
    assert table_show.slot.chat == NEW and table_show.slot.game_id == game_id


async def test_moving_a_chat_with_no_game_changes_nothing_else(store: Store) -> None:
    table = make_table(store)
    assert await table.send(ChatMoved(table.chat, NEW)) == []
    assert await store.load(NEW) is None

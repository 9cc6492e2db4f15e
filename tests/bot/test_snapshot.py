"""A chat's open game as screens, for a front end that starts again after a break."""

from __future__ import annotations

import random

from bot.model.contract import ChatRef, Command, SlotKind, UserRef
from bot.storage.store import Store
from bot.table.current_screens import open_game
from bot.table.sessions import Sessions
from tests.bot.driver import SETTINGS, Clock

CHAT = ChatRef("con", "local")
ANN = UserRef("con", "1", "Ann")


async def sessions_with_game(store: Store, *words: str) -> tuple[Sessions, Clock]:
    clock = Clock()
    sessions = Sessions(store, SETTINGS, clock=clock, rng=random.Random(3))
    for name, args in (
        ("new", ("tyaga", "timer=off")),
        ("add_computer", ()),
        *[(w, ()) for w in words],
    ):
        await sessions.handle(Command(CHAT, ANN, name, args, is_admin=True))
    return sessions, clock


async def test_a_chat_without_a_game_has_no_snapshot(fake_store: Store) -> None:
    assert await open_game(fake_store, CHAT) is None


async def test_a_lobby_shows_its_table_only(fake_store: Store) -> None:
    await sessions_with_game(fake_store)
    snapshot = await open_game(fake_store, CHAT)
    assert snapshot is not None and snapshot.status == "lobby"
    assert [s.slot.kind for s in snapshot.shows] == [SlotKind.TABLE]


async def test_a_running_game_shows_the_table_then_every_persons_hand(fake_store: Store) -> None:
    await sessions_with_game(fake_store, "start")
    snapshot = await open_game(fake_store, CHAT)
    assert snapshot is not None and snapshot.status == "running"
    table, *hands = snapshot.shows
    assert table.slot.kind is SlotKind.TABLE and table.slot.game_id == snapshot.game_id
    assert [(h.slot.kind, h.slot.user) for h in hands] == [(SlotKind.HAND, ANN)]
    assert "Your tiles, deal 1:" in hands[0].screen.plain_text()


async def test_a_stopped_game_is_not_open(fake_store: Store) -> None:
    sessions, _clock = await sessions_with_game(fake_store, "start")
    await sessions.handle(Command(CHAT, ANN, "stop", is_admin=True))
    assert await open_game(fake_store, CHAT) is None

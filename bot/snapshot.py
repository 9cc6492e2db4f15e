"""What a chat's open game looks like now, read without changing it.

The core sends screens only when they change. A front end that starts again
after a break (the terminal table resuming a saved match) has kept none of them,
so it asks for all of them once: the table and every person's hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.contract import ChatRef, Show
from bot.flow import Game
from bot.gamedoc import from_json
from bot.replay import build_state
from bot.store import Store
from bot.updates import hand_of, hand_slot, in_table_chat, table_of, table_slot


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The open game's status (``lobby`` or ``running``) and its current screens:
    the table first, then each seated person's hand."""

    status: str
    game_id: str
    shows: tuple[Show, ...]


async def open_game(store: Store, chat: ChatRef, now: float) -> Snapshot | None:
    """The chat's open game as screens; ``None`` when it has none."""
    stored = await store.load(chat)
    if stored is None:
        return None
    doc = from_json(stored.doc)
    if not doc.active:
        return None
    state = build_state(doc) if doc.deals else None
    shows = [Show(table_slot(doc), table_of(Game(doc, state, stored.version), now), stored.version)]
    if state is not None:
        shows += [
            Show(hand_slot(doc, seat), hand_of(doc, state, seat), stored.version)
            for seat, held in enumerate(doc.seats)
            if held.user is not None and not in_table_chat(doc, hand_slot(doc, seat))
        ]
    return Snapshot(doc.status, doc.id, tuple(shows))

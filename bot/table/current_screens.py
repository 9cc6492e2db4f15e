"""What a chat's open game looks like now, read without changing it.

The core sends screens only when they change. A front end that starts again
after a break (the terminal table resuming a saved match) has kept none of them,
so it asks for all of them once: the table and every person's hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.model.contract import ChatRef, Show, SlotKind
from bot.model.decision import Game
from bot.model.game_state import build_state
from bot.model.gamedoc import from_json
from bot.storage.store import Store
from bot.table.redraw import game_screens


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The open game's status (``lobby`` or ``running``) and its current screens:
    the table first, then each seated person's hand."""

    status: str
    game_id: str
    shows: tuple[Show, ...]


async def open_game(store: Store, chat: ChatRef, drawn: bool = False) -> Snapshot | None:
    """The chat's open game as screens; ``None`` when it has none (``drawn``: with the
    table's model and each hand's, see :func:`~bot.table.redraw.game_screens`)."""
    stored = await store.load(chat)
    if stored is None:
        return None
    doc = from_json(stored.doc)
    if not doc.active:
        return None
    state = build_state(doc) if doc.deals else None
    game = Game(doc, state, stored.version)
    shows = game_screens(game, lambda slot: slot.kind is SlotKind.HAND, (), drawn)
    return Snapshot(doc.status, doc.id, tuple(shows))

"""A chat that became another (a Telegram group upgraded to a supergroup): its keys move
to the new chat, its open game is pointed there, and its screens are drawn anew there."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.contract import ChatMoved, Outbound, SlotKind
from bot.redraw import game_screens
from bot.runner import Runner
from bot.store import Stored


async def chat_moved(runner: Runner, event: ChatMoved) -> list[Outbound]:
    """Move every key of the chat, then point its open game at the new id, and draw its
    table anew there and every hand again at once, their buttons naming the new chat."""
    store = runner.store
    await store.move_chat(event.old, event.new)

    async def repoint(stored: Stored | None) -> tuple[dict[str, Any] | None, None]:
        if stored is None or stored.doc.get("chat") != event.old.key:
            return None, None
        return {**stored.doc, "chat": event.new.key}, None

    await store.update(event.new, repoint)
    runner.games.forget(event.old.key)
    runner.games.forget(event.new.key)
    game = await runner.load(event.new)
    if game is None:
        return []
    screens = game_screens(game, runner.clock(), lambda slot: True, runner.steady)
    return [replace(s, renew=True) if s.slot.kind is SlotKind.TABLE else s for s in screens]

"""A chat that became another (a Telegram group upgraded to a supergroup): its keys move
to the new chat, its open game is pointed there, and its screens are drawn anew there."""

from __future__ import annotations

from dataclasses import replace

from bot.model.contract import ChatMoved, Outbound, SlotKind
from bot.model.decision import Decision, Game
from bot.table.redraw import game_screens
from bot.table.runner import Runner
from bot.views.i18n import Translator


async def chat_moved(runner: Runner, event: ChatMoved) -> list[Outbound]:
    """Move every key of the chat, then point its open game at the new id, and draw its
    table anew there and every hand again at once, their buttons naming the new chat."""
    await runner.store.move_chat(event.old, event.new)
    runner.games.forget(event.old.key)
    runner.games.forget(event.new.key)

    def repoint(game: Game | None, translator: Translator) -> Decision:
        if game is None or game.doc.chat.key != event.old.key:
            return Decision()
        return Decision(game.doc.but(chat=event.new), game.state)

    ran = await runner.run(event.new, None, repoint)
    game = ran.after or ran.before
    if game is None:
        return []
    screens = game_screens(game, lambda slot: True, runner.steady, web=runner.web_links())
    return [replace(s, renew=True) if s.slot.kind is SlotKind.TABLE else s for s in screens]

"""A chat's game screens drawn again from what the store holds, for an adapter that may
have lost some on their way (its process was killed, or the store was down).

The table is drawn from the stored game, as every write draws it, and a running game's
deadline is set again if it is missing from the timers; a game that has
ended is drawn from the chat's last game, at the version its ending write gave it. The
hands and the table's picture are drawn only when asked for by slot key: an adapter
knows which of them it had queued and not shown.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, replace

from bot.model.contract import ChatRef, Show, Slot
from bot.model.decision import Game
from bot.model.game_state import build_state
from bot.model.gamedoc import from_json
from bot.model.hand import hand_view
from bot.picture.screens import hand_picture_png, picture_screen, revealed_hands
from bot.table.models import table_model, with_hand_model, with_table_model
from bot.table.runner import Runner
from bot.table.updates import (
    hand_of,
    hand_slot,
    in_table_chat,
    linked_hand,
    picture_slot,
    table_of,
    table_slot,
)
from bot.views.i18n import translator
from bot.views.web_links import WebLinks


@dataclass(frozen=True, slots=True)
class Drawn:
    """The screens of the chat's game as stored: ``live`` while it is played (or waits
    in the lobby), false for a game that has ended."""

    game_id: str
    version: int
    live: bool
    screens: tuple[Show, ...]


async def redraw(runner: Runner, chat: ChatRef, slot_keys: Collection[str]) -> Drawn | None:
    """The table of the chat's game (or of its last game, if that ended), and of its hands
    and picture those named in ``slot_keys``; ``None`` when there is nothing to draw."""
    game = await runner.load(chat)
    live = game is not None
    if game is not None:
        # Looked at after a kill and then every minute: a deadline claimed by a process
        # that died before playing it is set again, or a computer's turn would never come.
        await runner.arm(chat, game.doc)
    if game is None:
        game = await last_ended_game(runner, chat)
        if game is None:
            return None
    wanted = lambda slot: slot.key in slot_keys  # noqa: E731
    screens = game_screens(game, wanted, runner.steady, web=runner.web_links())
    return Drawn(game.doc.id, game.version, live, tuple(screens))


def game_screens(
    game: Game,
    wanted: Callable[[Slot], bool],
    steady: Collection[str] = (),
    drawn: bool = False,
    web: WebLinks | None = None,
) -> list[Show]:
    """The table of ``game``, then, once it is dealt, the table's picture
    and the hands of seated people that ``wanted`` picks (a hand is never drawn apart
    when it is shown in the table's chat, nor for a player who cannot be written to),
    each with its picture for a player who asked for pictures (``steady``: the
    platforms whose hands are steady; ``drawn``: the shows carry the table's model and
    its events since the deal began, and each hand's; ``web``: the table and the hands
    offer the web table)."""
    doc, state, version = game.doc, game.state, game.version
    stays = doc.chat.platform in steady
    table = table_model(game)
    screens = [Show(table_slot(doc), table_of(game, table, web), version)]
    if drawn:
        screens = [with_table_model(screens[0], game, 0, table)]
    if state is None or table is None:
        return screens
    if wanted(picture_slot(doc)):
        _ = translator(doc.settings.lang)
        pictured = picture_screen(_, doc, table, revealed_hands(state))
        screens.append(Show(picture_slot(doc), pictured, version))
    for seat, held in enumerate(doc.seats):
        if held.user is None or held.unreachable:
            continue
        slot = hand_slot(doc, seat)
        if not wanted(slot) or in_table_chat(doc, slot):
            continue
        screen = linked_hand(doc, seat, hand_of(doc, state, seat, stays), web)
        if held.pictures:
            picture = hand_picture_png(doc, hand_view(doc, state, seat), stays)
            screen = replace(screen, picture=picture)
        show = Show(slot, screen, version)
        screens.append(with_hand_model(show, game, seat) if drawn else show)
    return screens


async def last_ended_game(runner: Runner, chat: ChatRef) -> Game | None:
    """The chat's last game at the version it ended at, if both are still kept."""
    ended = await runner.store.last_ended(chat)
    if ended is None:
        return None
    version, last = ended
    doc = from_json(last)
    state = build_state(doc) if doc.deals else None
    return Game(doc, state, version)

"""Reading what the bot showed in the fake Telegram, as people would: the tiles in a
message, its buttons, the table in the group and each player's hand in private."""

from __future__ import annotations

import re
from typing import Any

import engine
from adapters.delivery.slots import SlotBook
from bot.model import codec
from bot.model.contract import ChatRef, Slot, SlotKind, UserRef
from bot.model.decision import Game
from bot.storage import keys
from bot.table.steady_presses import distinct_moves
from bot.views.steady_hand import hand_version
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import button_rows

TILE = re.compile(r"\[(\d)\|(\d)\]")

Tile = tuple[int, int]  # higher half first


def tiles_in(text: str) -> set[Tile]:
    """Every tile written ``[a|b]`` in a text."""
    return {_tile(int(a), int(b)) for a, b in TILE.findall(text)}


def tile_of(text: str) -> Tile:
    """The engine's ``6-4`` notation as a tile."""
    a, b = text.split("-")
    return _tile(int(a), int(b))


def _tile(a: int, b: int) -> Tile:
    return (a, b) if a >= b else (b, a)


def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [button for row in button_rows(message) for button in row]


def data_with(message: dict[str, Any], prefix: str) -> list[str]:
    """The callback data on the message's buttons that start with ``prefix``."""
    return [
        b["callback_data"]
        for b in buttons(message)
        if b.get("callback_data", "").startswith(prefix)
    ]


def hand_presses(hand: dict[str, Any], game: Game) -> list[tuple[str, engine.Move | None]]:
    """What the player to move may press in his hand to get on, as he sees it drawn for
    the game as it is now: each button's callback data with the move it makes, or
    ``None`` for a tile that fits both ends differently (the bot then asks which). A tile
    that fits nowhere, or a word that does not apply now, is left out: the table shows
    him the ends it would not fit, and the boneyard."""
    state = game.state
    assert state is not None and state.turn is not None
    version = hand_version(state, state.turn)
    found: list[tuple[str, engine.Move | None]] = []
    for button in buttons(hand):
        data = button.get("callback_data", "")
        try:
            action = codec.decode(data)
        except codec.BadPayload:
            continue
        if isinstance(action, codec.MovePress) and action.counter == state.counter:
            found.append((data, action.move))
        elif isinstance(action, codec.HandPress) and action.hand == version:
            if action.tile is None:
                # A word the hand keeps may not apply now (the boneyard is empty).
                if action.move in engine.legal_moves(state):
                    found.append((data, action.move))
                continue
            moves = distinct_moves(state, action.tile)
            if moves:
                found.append((data, moves[0] if len(moves) == 1 else None))
    return found


def labelled(message: dict[str, Any], label: str) -> dict[str, Any]:
    """The message's button with this label."""
    found = [b for b in buttons(message) if b["text"] == label]
    assert found, f"no {label!r} button among {[b['text'] for b in buttons(message)]}"
    return found[0]


def every_button_sent(fake: FakeBotApi) -> list[dict[str, Any]]:
    """Every inline button the bot ever sent or edited in, anywhere."""
    sent = []
    for call in fake.calls:
        markup = call.params.get("reply_markup")
        if isinstance(markup, dict):
            sent += [b for row in markup.get("inline_keyboard", []) for b in row]
    return sent


def message_by_id(fake: FakeBotApi, chat_id: int, message_id: int) -> dict[str, Any]:
    return fake.messages[(chat_id, message_id)]


async def slot_message(fake: FakeBotApi, book: SlotBook, slot: Slot) -> dict[str, Any] | None:
    """The message the bot keeps for a slot, as it stands in the chat now."""
    message_id = await book.message_of(slot)
    if message_id is None:
        return None
    return fake.messages.get((int(slot.chat.chat_id), message_id))


async def shown_version(redis: Any, slot: Slot) -> int | None:
    """The version the bot last showed in a slot, as its slot book keeps it."""
    value = await redis.hget(keys.slot_messages(slot.chat), slot.key)
    return int(value.rpartition(":")[2]) if value else None


def hand_slot(user_id: int, game_id: str) -> Slot:
    user = UserRef("tg", str(user_id), "")
    return Slot(SlotKind.HAND, ChatRef("tg", str(user_id)), game_id, user)


def table_slot(chat: ChatRef, game_id: str) -> Slot:
    return Slot(SlotKind.TABLE, chat, game_id)

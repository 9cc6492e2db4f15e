"""The fields a button payload carries (:mod:`bot.model.codec` joins them): numbers in
base 36, a tile as the digit of its index, a game's id, a chat, and a move by what
it is. Each reader refuses, with :class:`BadPayload`, any text its writer would not
have written."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from bot.model.contract import ChatRef
from engine import DONE, DRAW, PASS, Kind, Move, Tile
from engine.tiles import BY_INDEX

DIGITS: Final = "0123456789abcdefghijklmnopqrstuvwxyz"
GAME_ID_LENGTH: Final = 8
_GAME_ID = re.compile(r"[0-9a-z]{8}")
_NUMBER = re.compile(r"[0-9a-z]{1,8}")
_CHAT = re.compile(r"([a-z]{1,4})([01])([0-9a-z]{1,13})(?:-([0-9a-z]{1,13}))?")


class BadPayload(ValueError):
    """A payload this codec did not make (or made by an unknown version)."""


# -- numbers and tiles -------------------------------------------------------------


@lru_cache(maxsize=4096)  # every button of a hand names the same turn, or hand version
def b36(number: int) -> str:
    if number < 0:
        raise ValueError(f"negative number {number}")
    digits = ""
    while True:
        number, rest = divmod(number, 36)
        digits = DIGITS[rest] + digits
        if number == 0:
            return digits


def number_field(text: str) -> int:
    """A base-36 number field."""
    if not _NUMBER.fullmatch(text):
        raise BadPayload(f"bad number {text!r}")
    return int(text, 36)


def tile_field(char: str) -> Tile:
    """A tile written as the digit of its index."""
    index = DIGITS.find(char)
    if not 0 <= index < len(BY_INDEX) or len(char) != 1:
        raise BadPayload(f"bad tile {char!r}")
    return BY_INDEX[index]


def game_id_field(text: str) -> str:
    """A game's id: eight base-36 digits."""
    if not _GAME_ID.fullmatch(text):
        raise BadPayload(f"bad game id {text!r}")
    return text


# -- chats -------------------------------------------------------------------------------


@lru_cache(maxsize=4096)  # every button of every hand drawn names its chat
def encode_chat(chat: ChatRef) -> str | None:
    """A chat as a payload field; ``None`` for one that has no such form (an id that is
    not a number: such chats never show a button outside themselves)."""
    ids = [chat.chat_id] if chat.thread is None else [chat.chat_id, chat.thread]
    if not re.fullmatch(r"[a-z]{1,4}", chat.platform) or not all(
        re.fullmatch(r"-?[0-9]{1,20}", i) for i in ids
    ):
        return None
    number = int(chat.chat_id)
    field = chat.platform + ("0" if number < 0 else "1") + b36(abs(number))
    if chat.thread is not None:
        if int(chat.thread) < 0:
            return None
        field += "-" + b36(int(chat.thread))
    return field


@lru_cache(maxsize=4096)  # every press of a button in a private chat names its game's chat
def decode_chat(field: str) -> ChatRef:
    found = _CHAT.fullmatch(field)
    if found is None:
        raise BadPayload(f"bad chat {field!r}")
    platform, sign, number, thread = found.groups()
    chat_id = ("-" if sign == "0" else "") + str(int(number, 36))
    if sign == "0" and chat_id == "-0":
        raise BadPayload(f"bad chat {field!r}")
    return ChatRef(platform, chat_id, None if thread is None else str(int(thread, 36)))


def chat_fields(chat: ChatRef | None) -> tuple[str, ...]:
    """The chat as a trailing field, or none (no chat, or one with no such form)."""
    field = encode_chat(chat) if chat is not None else None
    return () if field is None else (field,)


# -- moves -----------------------------------------------------------------------------

_WORD_CODES: Final = {Kind.DRAW: "w", Kind.PASS: "s", Kind.DONE: "n"}
_WORD_MOVES: Final = {"w": DRAW, "s": PASS, "n": DONE}


def encode_move(move: Move) -> str:
    """``p`` tile end [x] [f] · ``d`` tile tile · ``t`` tile · ``r`` tile tile · w/s/n."""
    kind = move.kind
    if kind in _WORD_CODES:
        return _WORD_CODES[kind]
    tile = move.tile
    assert tile is not None, move
    code = DIGITS[tile.index]
    if kind is Kind.PLAY:
        end = move.end or "N"
        return f"p{code}{end}{'x' if move.across else ''}{'f' if move.flip else ''}"
    if kind is Kind.STEAL:
        return f"t{code}"
    assert move.second is not None, move
    second = DIGITS[move.second.index]
    return f"{'d' if kind is Kind.DOUBLE else 'r'}{code}{second}"


def decode_move(code: str) -> Move:
    if code in _WORD_MOVES:
        return _WORD_MOVES[code]
    head, body = code[:1], code[1:]
    if head == "p":
        return _decode_play(body)
    if head == "t" and len(body) == 1:
        return Move.steal(tile_field(body))
    if head in ("d", "r") and len(body) == 2:
        first, second = tile_field(body[0]), tile_field(body[1])
        if first is second or not (first.is_double and second.is_double):
            raise BadPayload(f"bad move {code!r}")
        move = Move.double(first, second) if head == "d" else Move.recover(first, second)
        if encode_move(move) != code:  # a recover written lower double first
            raise BadPayload(f"bad move {code!r}")
        return move
    raise BadPayload(f"bad move {code!r}")


def _decode_play(body: str) -> Move:
    if len(body) < 2:
        raise BadPayload(f"bad play {body!r}")
    tile, end, flags = tile_field(body[0]), body[1], body[2:]
    if flags not in ("", "x", "f") or end not in ("L", "R", "N"):
        raise BadPayload(f"bad play {body!r}")
    if end == "N":
        if flags == "x":
            raise BadPayload("a leading tile is never across")
        if flags == "f" and tile.is_double:
            raise BadPayload("a double has no flipped side")
        return Move.lead(tile, flip=flags == "f")
    if flags == "f":
        raise BadPayload("only a leading tile is flipped")
    return Move.play(tile, "L" if end == "L" else "R", across=flags == "x")

"""Button payloads: one compact, versioned text format for every button.

A payload reads ``<version><action>_<field>_<field>…`` and uses only
``[0-9A-Za-z_-]``, so the same text fits Telegram callback data (64 bytes),
Telegram deep-link start parameters (64 characters of that alphabet) and
Discord custom ids (100 characters). Examples::

    1m_k3j9x2ab_1f_pkR   move: game k3j9x2ab, turn counter 0x1f in base 36,
                         play the tile with index k (20) on R
    1m_k3j9x2ab_1f_pkR_tg02n7m  the same move pressed in a private chat: the game is
                         in chat tg:-123394 (a chat field: platform, 0 for a negative
                         id or 1, the id in base 36, and ``-`` and a topic if any)
    1h_k3j9x2ab_tg02n7m  the deep link that opens a player's hand
    1t_k3j9x2ab          show my tiles
    1i_k3j9x2ab          show the table as a picture
    1j_k3j9x2ab          join the lobby
    1v_three-guns        open a table for Three Guns (no game yet: no game id)
    1u_k3j9x2ab_1f_k     why can the tile with index k (20) not be played now
    1p_k3j9x2ab_5x1q_k   a steady hand's tile with index k (20): play it, if it is the
                         presser's turn and it fits (hand version 5x1q in base 36: the
                         deal and the tiles held); ``w`` instead of a tile draws
    1y_k3j9x2ab          a steady hand shown again as it is (back from a choice of ends)
    1e_k3j9x2ab          a rematch of the finished game k3j9x2ab
    1k_three-guns        the chat's scoreboard for Three Guns
    1x_k3j9x2ab          the replay of the chat's kept match k3j9x2ab, for the presser
    1w_k3j9x2ab_tg02n7m  the presser's review of his play in match k3j9x2ab of chat tg:-123394

Each field (numbers, tiles, chats, moves) is written and read by
:mod:`bot.model.payload_fields`. A move is encoded by what it is (kind, tile index, end,
flags), never by its position in a list of legal moves, so a button keeps its
meaning however the hand changes. A button shown in the game's own chat names only the game: the
chat it is pressed in is the game's. A button shown in a player's private chat
(his hand, the link to it) names the game's chat as well, and the core looks for
the game there and nowhere else. :func:`decode` accepts any text and raises
:class:`BadPayload` for anything it did not make.
"""

from __future__ import annotations

import re
from typing import Final

from bot.model.actions import (
    Action as Action,
)
from bot.model.actions import (
    GameAction as GameAction,
)
from bot.model.actions import (
    HandAgain as HandAgain,
)
from bot.model.actions import (
    HandLink as HandLink,
)
from bot.model.actions import (
    HandPress as HandPress,
)
from bot.model.actions import (
    LobbyPress as LobbyPress,
)
from bot.model.actions import (  # decode's results, named here for its callers
    MovePress as MovePress,
)
from bot.model.actions import (
    NextDealPress as NextDealPress,
)
from bot.model.actions import (
    PicturePress as PicturePress,
)
from bot.model.actions import (
    RematchPress as RematchPress,
)
from bot.model.actions import (
    ReplayPick as ReplayPick,
)
from bot.model.actions import (
    ScoresPick as ScoresPick,
)
from bot.model.actions import (
    SettingPress as SettingPress,
)
from bot.model.actions import (
    TilePress as TilePress,
)
from bot.model.actions import (
    TilesPress as TilesPress,
)
from bot.model.actions import (
    VariantPick as VariantPick,
)
from bot.model.contract import ChatRef
from bot.model.payload_fields import (
    DIGITS,
    b36,
    chat_fields,
    decode_chat,
    decode_move,
    encode_move,
    game_id_field,
    number_field,
    tile_field,
)
from bot.model.payload_fields import BadPayload as BadPayload  # raised by decode, named here
from bot.model.payload_privacy import decode_privacy, forget_fields
from engine import DONE, DRAW, Move, Tile

VERSION: Final = "1"
SEP: Final = "_"
MAX_BYTES: Final = 64  # Telegram's limit; Discord allows 100 characters
_VARIANT = re.compile(r"[a-z][a-z0-9-]{0,39}")
_LEVEL = re.compile(r"[a-z]{1,12}")
_HOST = re.compile(r"[0-9]{1,20}")
HOST_MARK: Final = "h"  # opens the field naming a lobby's host (a level has no digits)
# A steady hand's words, written with digits past the last tile's (a set has 28 tiles).
_HAND_WORDS: Final = {"w": DRAW, "z": DONE}


# -- what a payload means --------------------------------------------------------


LOBBY_ACTIONS: Final = {
    "j": "join",
    "l": "leave",
    "a": "add_computer",
    "r": "remove_computer",
    "s": "start",
    "c": "cancel",
    "g": "settings",
    "b": "back",
}
_LOBBY_CODES: Final = {name: code for code, name in LOBBY_ACTIONS.items()}
#: Lobby actions only the host or a chat admin may take.
HOST_ACTIONS: Final = frozenset(
    {"add_computer", "remove_computer", "start", "cancel", "settings", "back"}
)
#: Table settings that are not game options: turn timer, auto-start, pings.
TABLE_SETTINGS: Final = ("T", "A", "P")


# -- payloads --------------------------------------------------------------------------


def _join(action: str, *fields: str) -> str:
    return _checked(SEP.join((VERSION + action, *fields)))


def _checked(payload: str) -> str:
    assert len(payload.encode()) <= MAX_BYTES, payload
    return payload


class HandPayloads:
    """The payloads of one hand's buttons, :func:`move_payload`'s and
    :func:`tile_payload`'s: they name the same game, turn and chat and differ in their
    move or tile alone, so that much is joined once for the hand, not once a button."""

    __slots__ = ("_chat", "_move", "_tile")

    def __init__(self, game_id: str, counter: int, chat: ChatRef | None = None) -> None:
        turn = SEP.join((game_id, b36(counter), ""))
        self._move = SEP.join((VERSION + "m", turn))
        self._tile = SEP.join((VERSION + "u", turn))
        self._chat = "".join(SEP + field for field in chat_fields(chat))

    def move(self, move: Move) -> str:
        return _checked(self._move + encode_move(move) + self._chat)

    def tile(self, tile: Tile) -> str:
        return _checked(self._tile + DIGITS[tile.index] + self._chat)


class SteadyPayloads:
    """The payloads of a steady hand's tile buttons (:func:`hand_payload`'s), which differ
    in their tile alone, joined as :class:`HandPayloads` joins a hand's."""

    __slots__ = ("_chat", "_hand")

    def __init__(self, game_id: str, hand: int, chat: ChatRef | None = None) -> None:
        self._hand = SEP.join((VERSION + "p", game_id, b36(hand), ""))
        self._chat = "".join(SEP + field for field in chat_fields(chat))

    def tile(self, tile: Tile) -> str:
        return _checked(self._hand + DIGITS[tile.index] + self._chat)


def move_payload(game_id: str, counter: int, move: Move, chat: ChatRef | None = None) -> str:
    """A move button; ``chat`` (the game's) for a button shown in a private chat."""
    return HandPayloads(game_id, counter, chat).move(move)


def tiles_payload(game_id: str) -> str:
    return _join("t", game_id)


def picture_payload(game_id: str) -> str:
    return _join("i", game_id)


def lobby_payload(
    game_id: str, action: str, level: str | None = None, host: str | None = None
) -> str:
    """A lobby button; ``level`` only for ``add_computer`` (a computer of that level).
    A host action's button names ``host`` (the host's user id) when it fits in a
    payload, so that the host's own press needs no question whether he is an admin."""
    fields = [game_id]
    if level is not None:
        if action != "add_computer" or not _LEVEL.fullmatch(level):
            raise ValueError(f"no lobby button {action} with level {level!r}")
        fields.append(level)
    if host is not None and action in HOST_ACTIONS and _HOST.fullmatch(host):
        fields.append(HOST_MARK + host)
    return _join(_LOBBY_CODES[action], *fields)


def setting_payload(game_id: str, key: str | int, value: int) -> str:
    field = b36(key) if isinstance(key, int) else key
    return _join("o", game_id, field, b36(value))


def next_deal_payload(game_id: str, deal: int) -> str:
    return _join("n", game_id, b36(deal))


def tile_payload(game_id: str, counter: int, tile: Tile, chat: ChatRef | None = None) -> str:
    """A tile with no move now; ``chat`` as for :func:`move_payload`."""
    return HandPayloads(game_id, counter, chat).tile(tile)


def hand_payload(game_id: str, hand: int, what: Tile | Move, chat: ChatRef | None = None) -> str:
    """A steady hand's button: a tile, or a draw or an end of the turn (written ``w``
    and ``z``, which are no tile's digit); ``chat`` as for :func:`move_payload`."""
    if isinstance(what, Move):
        words = {word: field for field, word in _HAND_WORDS.items()}
        if what not in words:
            raise ValueError(f"a steady hand's button draws, ends or names a tile, not {what}")
        return _join("p", game_id, b36(hand), words[what], *chat_fields(chat))
    return SteadyPayloads(game_id, hand, chat).tile(what)


def hand_again_payload(game_id: str, chat: ChatRef | None = None) -> str:
    return _join("y", game_id, *chat_fields(chat))


def rematch_payload(game_id: str) -> str:
    return _join("e", game_id)


def scores_payload(variant: str) -> str:
    return _join("k", variant.replace("_", "-"))


def replay_payload(game_id: str, chat: ChatRef | None = None, review: bool = False) -> str:
    return _join("w" if review else "x", game_id, *chat_fields(chat))


def hand_link(game_id: str, chat: ChatRef | None = None) -> str:
    """The deep link to a player's hand of the game in ``chat``."""
    return _join("h", game_id, *chat_fields(chat))


def variant_payload(variant: str) -> str:
    """A variant's name, with ``-`` for ``_`` (the separator)."""
    return _join("v", variant.replace("_", "-"))


def forget_payload(confirm: bool, user_id: str) -> str:
    """The Forget (``confirm``) or Cancel button of the user's ``forget``."""
    return _join("f", *forget_fields(confirm, user_id))


def mydata_link() -> str:
    return _join("d")


def decode(payload: str) -> Action:
    """What a payload asks for; :class:`BadPayload` for anything else."""
    if len(payload) > 100 or not payload.isascii():
        raise BadPayload("not a payload of this bot")
    head, *fields = payload.split(SEP)
    if len(head) != 2 or head[0] != VERSION:
        raise BadPayload(f"unknown payload version in {payload[:10]!r}")
    action = head[1]
    if action in ("v", "k") and len(fields) == 1 and _VARIANT.fullmatch(fields[0]):
        variant = fields[0].replace("-", "_")
        return VariantPick(variant) if action == "v" else ScoresPick(variant)
    if action in ("f", "d"):  # a person's own data (see bot.model.payload_privacy)
        return decode_privacy(action, fields)
    if not fields:
        raise BadPayload("no game id")
    game_id, rest = game_id_field(fields[0]), fields[1:]
    if action in ("x", "w") and len(rest) <= 1:
        return ReplayPick(game_id, decode_chat(rest[0]) if rest else None, action == "w")
    decoded = _decode_action(action, game_id, rest)
    if decoded is None:
        raise BadPayload(f"bad payload {payload[:20]!r}")
    return decoded


def _lobby_press(action: str, game_id: str, rest: list[str]) -> LobbyPress | None:
    host = None
    if rest and rest[-1].startswith(HOST_MARK) and action in HOST_ACTIONS:
        host = rest.pop()[len(HOST_MARK) :]
        if not _HOST.fullmatch(host):
            return None
    if not rest:
        return LobbyPress(game_id, action, host=host)
    if action == "add_computer" and len(rest) == 1 and _LEVEL.fullmatch(rest[0]):
        return LobbyPress(game_id, action, rest[0], host)
    return None


def _decode_action(action: str, game_id: str, rest: list[str]) -> GameAction | None:
    if action == "m" and len(rest) in (2, 3):
        chat = decode_chat(rest[2]) if len(rest) == 3 else None
        return MovePress(game_id, number_field(rest[0]), decode_move(rest[1]), chat)
    if action in LOBBY_ACTIONS:
        return _lobby_press(LOBBY_ACTIONS[action], game_id, rest)
    if action == "t" and not rest:
        return TilesPress(game_id)
    if action == "i" and not rest:
        return PicturePress(game_id)
    if action == "u" and len(rest) in (2, 3):
        chat = decode_chat(rest[2]) if len(rest) == 3 else None
        return TilePress(game_id, number_field(rest[0]), tile_field(rest[1]), chat)
    if action == "p" and len(rest) in (2, 3):
        chat = decode_chat(rest[2]) if len(rest) == 3 else None
        hand = number_field(rest[0])
        if rest[1] in _HAND_WORDS:
            return HandPress(game_id, hand, None, _HAND_WORDS[rest[1]], chat)
        return HandPress(game_id, hand, tile_field(rest[1]), None, chat)
    if action == "y" and len(rest) <= 1:
        return HandAgain(game_id, decode_chat(rest[0]) if rest else None)
    if action == "e" and not rest:
        return RematchPress(game_id)
    if action == "h" and len(rest) <= 1:
        return HandLink(game_id, decode_chat(rest[0]) if rest else None)
    if action == "n" and len(rest) == 1:
        return NextDealPress(game_id, number_field(rest[0]))
    if action == "o" and len(rest) == 2:
        key = rest[0] if rest[0] in TABLE_SETTINGS else str(number_field(rest[0]))
        return SettingPress(game_id, key, number_field(rest[1]))
    return None


def needs_admin(payload: str, presser_id: str) -> bool:
    """Whether a press with this payload by ``presser_id`` may turn on the presser being
    a chat admin: the host's lobby actions and the settings, unless the button names the
    presser as the lobby's host (the core still checks that he is). An adapter asks its
    platform only then, so moves, "my tiles" and the host's own Start are answered
    without a round trip. False for anything :func:`decode` refuses."""
    try:
        action = decode(payload)
    except BadPayload:
        return False
    if isinstance(action, SettingPress):
        return True
    if not isinstance(action, LobbyPress) or action.action not in HOST_ACTIONS:
        return False
    return action.host is None or action.host != presser_id

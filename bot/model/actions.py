"""What a button stands for once :func:`bot.model.codec.decode` has read it: one frozen
value per kind of press, and the unions a handler matches on."""

from __future__ import annotations

from dataclasses import dataclass

from bot.model.contract import ChatRef
from bot.model.payload_privacy import ForgetPress, MyDataLink
from engine import Move, Tile


@dataclass(frozen=True, slots=True)
class MovePress:
    game_id: str
    counter: int
    move: Move
    chat: ChatRef | None = None  # the game's chat, on a button in a private chat


@dataclass(frozen=True, slots=True)
class TilesPress:
    """Show the presser his own tiles (a popup, or an ephemeral reply)."""

    game_id: str


@dataclass(frozen=True, slots=True)
class PicturePress:
    """Show the table as a picture, in the table's chat, for everybody."""

    game_id: str


@dataclass(frozen=True, slots=True)
class LobbyPress:
    """A lobby button: ``action`` is one of :data:`LOBBY_ACTIONS`; ``level`` is the
    computer level an ``add_computer`` button names (``None``: the default level);
    ``host`` the user id of the lobby's host when the button was drawn, if it names one
    (see :func:`needs_admin`)."""

    game_id: str
    action: str
    level: str | None = None
    host: str | None = None


@dataclass(frozen=True, slots=True)
class SettingPress:
    """Set one setting of a lobby to a value. ``key`` is a game option's index
    in the variant's option list, or one of :data:`TABLE_SETTINGS`; ``value``
    is a choice's index or a number. Carrying the target value (not "next")
    makes a repeated press harmless."""

    game_id: str
    key: str
    value: int


@dataclass(frozen=True, slots=True)
class NextDealPress:
    game_id: str
    deal: int  # the deal that is over


@dataclass(frozen=True, slots=True)
class TilePress:
    """A tile of the hand that cannot be played now: the presser is told why."""

    game_id: str
    counter: int
    tile: Tile
    chat: ChatRef | None = None  # the game's chat, as for :class:`MovePress`


@dataclass(frozen=True, slots=True)
class HandPress:
    """A button of a steady hand (see :mod:`bot.views.steady_hand`): play ``tile``, or make
    ``move`` (a draw, or the end of the turn), if the hand is still at version ``hand``."""

    game_id: str
    hand: int
    tile: Tile | None
    move: Move | None = None
    chat: ChatRef | None = None  # the game's chat, as for :class:`MovePress`


@dataclass(frozen=True, slots=True)
class HandAgain:
    """Show the presser's steady hand again as it is (back from a choice of ends)."""

    game_id: str
    chat: ChatRef | None = None


@dataclass(frozen=True, slots=True)
class RematchPress:
    """A new lobby for the same players and options as the finished game."""

    game_id: str


@dataclass(frozen=True, slots=True)
class HandLink:
    """A deep link that opens the private chat and delivers the hand."""

    game_id: str
    chat: ChatRef | None = None  # the game's chat


@dataclass(frozen=True, slots=True)
class VariantPick:
    """Open a table for ``variant``: the answer to ``new`` without a game named."""

    variant: str


@dataclass(frozen=True, slots=True)
class ScoresPick:
    """Show the chat's scoreboard for ``variant``."""

    variant: str


@dataclass(frozen=True, slots=True)
class ReplayPick:
    """The replay of a kept match (``review``: the presser's review of his play in it),
    of ``chat`` when the button names it (in a private chat), else of the chat pressed in."""

    game_id: str
    chat: ChatRef | None = None
    review: bool = False


GameAction = (
    MovePress
    | TilesPress
    | PicturePress
    | TilePress
    | HandPress
    | HandAgain
    | LobbyPress
    | SettingPress
    | NextDealPress
    | RematchPress
    | HandLink
)
"""A press about one game, named by its id."""

Action = GameAction | VariantPick | ScoresPick | ForgetPress | MyDataLink | ReplayPick

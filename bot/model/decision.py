"""The shape every flow shares: a game as read, and a decision about it.

A flow is a pure function from the chat's current :class:`Game` (or ``None``)
to a :class:`Decision`: a refusal with a reason, or a new document to write
(with its engine state), plus what to tell the person who asked. The session
runs it inside a compare-and-set, so it may run more than once and must not
do anything else.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.model.contract import Outbound, Screen, TextLine, UserRef
from bot.model.gamedoc import GameDoc
from engine import State

Reply = str | TextLine
"""What a flow says to the one who asked: a sentence, or a line with segments in
it (a command to type, which each platform writes its own way)."""


def reply_line(reply: Reply) -> TextLine:
    """The reply as a line of a message."""
    return (reply,) if isinstance(reply, str) else reply


def reply_text(reply: Reply) -> str:
    """The reply as plain text, for a popup (which has no room for segments)."""
    return reply if isinstance(reply, str) else Screen((reply,)).plain_text()


@dataclass(frozen=True, slots=True)
class Game:
    """A stored game: its document, its engine state once dealt, its version."""

    doc: GameDoc
    state: State[Any] | None
    version: int


@dataclass(frozen=True, slots=True)
class Decision:
    """What a flow decided. ``doc`` is ``None`` when nothing is written.

    ``reply`` goes to the person who asked: the popup of a press, or the reply
    to a command. ``extra`` is sent after the game's own updates.
    """

    doc: GameDoc | None = None
    state: State[Any] | None = None
    reply: Reply = ""
    alert: bool = False
    screen: Screen | None = None  # with a press's reply: buttons for the presser alone
    extra: tuple[Outbound, ...] = ()
    chat_settings: tuple[tuple[str, str], ...] = ()  # remembered for the chat's next games
    hands_for: tuple[UserRef, ...] = field(default=())  # show these hands even if unchanged

    @property
    def writes(self) -> bool:
        return self.doc is not None


def refuse(reply: Reply, *, alert: bool = False) -> Decision:
    """Change nothing and say why."""
    return Decision(reply=reply, alert=alert)

"""What crosses the web table's WebSocket, both ways, as typed frames (JSON text frames).

The page says who it is once, in the address it opened the socket with (a signed pass
or Telegram's ``initData``); everything after is one of these frames. The server sends a
:class:`Welcome` first, then a :class:`State` for every version of the game the page has
not seen, and an :class:`Answer` to each of the page's own moves. The page sends
:class:`Hello` on every (re)connect with the last version it drew, and a :class:`Play`
or an :class:`Act` when its player does something.

A spectator's frames are built from the spectator-safe models alone: ``hand`` is then
``None`` and nothing else names a tile that is not public (see
:class:`bot.model.table.TableView`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from bot.model.events import TableEvent
from bot.model.hand import HandView
from bot.model.parts import Frozen
from bot.model.table import TableView

# -- server to page -----------------------------------------------------------------


class Welcome(Frozen):
    """Who the page speaks to, in which language, and the words it shows (the keys are
    the page's own names for them, the values already translated)."""

    type: Literal["welcome"] = "welcome"
    lang: str
    seat: int | None  # the viewer's seat; None for a spectator
    words: dict[str, str]


class Action(Frozen):
    """A button the page shows beside the hand (a rematch, the next deal): its label and
    what :class:`Act` sends back."""

    act: Literal["rematch", "next_deal"]
    label: str


class State(Frozen):
    """The game at ``version``: the table, the viewer's hand (his seat's, with why each
    tile he cannot play does not fit), the events since the version the page said it had
    (or since the deal began), what they say in the viewer's language, the seats' names
    as the table writes them, and the buttons beside the hand. ``table`` is None while
    the table is a lobby."""

    type: Literal["state"] = "state"
    version: int = Field(ge=0)
    # The game's id: versions count within one game, and a rematch (or a new game)
    # starts again from 1, so a page takes a state of another game whatever its version.
    game: str = ""
    # The game's step at this version, which events count in: the page says it back in
    # its hello, so that any worker, not only the one that sent it, tells what came after.
    step: int = Field(ge=0, default=0)
    now: float  # the server's clock (Unix seconds), so the page counts deadlines down on it
    table: TableView | None
    hand: HandView | None = None
    events: tuple[TableEvent, ...] = ()
    said: tuple[str, ...] = ()  # one sentence an event, in the viewer's language
    why: dict[str, str] = Field(default_factory=dict)  # tile "hi-lo" -> why it cannot go
    names: tuple[str, ...] = ()  # each seat's name as the table writes it
    actions: tuple[Action, ...] = ()


class Answer(Frozen):
    """The answer to the page's own move or act: ``ok`` when it was taken, else ``text``
    says why not (a stale hand, not his turn, a tile that does not fit)."""

    type: Literal["answer"] = "answer"
    ok: bool
    text: str = ""


class Gone(Frozen):
    """The table the page shows no longer exists (stopped and cleared); ``text`` says so."""

    type: Literal["gone"] = "gone"
    text: str


ToPage = Annotated[Welcome | State | Answer | Gone, Field(discriminator="type")]

# -- page to server -----------------------------------------------------------------


class Hello(Frozen):
    """Sent first on every (re)connect: who the page is, by a signed ``ticket`` (a
    :mod:`bot.model.web_pass` pass, from the link the page was opened with) or by
    Telegram's signed ``init_data`` (inside the Mini App, whose ``start_param`` names the
    table), and the last version the page drew (0: none) with its game and step. The
    server answers a hello it cannot check by closing the socket with code 4401 and the
    reason."""

    type: Literal["hello"] = "hello"
    version: int = Field(ge=0, default=0)
    game: str | None = Field(default=None, max_length=64)  # the game of that version
    step: int | None = Field(default=None, ge=0)  # that version's step, as the state said
    ticket: str | None = Field(default=None, max_length=1024)
    init_data: str | None = Field(default=None, max_length=4096)


class Play(Frozen):
    """A move of the viewer's hand: its ``notation`` (one of the hand's legal moves) and
    the hand's ``counter`` it was chosen from, so that a move from an older hand is
    refused rather than played on a table that has moved on."""

    type: Literal["play"] = "play"
    notation: str = Field(max_length=32)
    counter: int = Field(ge=0)


class Act(Frozen):
    """One of the :class:`Action` buttons pressed."""

    type: Literal["act"] = "act"
    act: Literal["rematch", "next_deal"]


FromPage = Annotated[Hello | Play | Act, Field(discriminator="type")]

TO_PAGE: TypeAdapter[ToPage] = TypeAdapter(ToPage)
FROM_PAGE: TypeAdapter[FromPage] = TypeAdapter(FromPage)

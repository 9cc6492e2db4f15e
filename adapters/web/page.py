"""One open page: its socket, who it shows the table to, in which language, and what it
has been sent, so it is never sent a version it has, nor one older.

A page remembers the game and version it drew and the game document's step at that
version: the events it is sent next are those after that step. A page that reconnects
says only the version it drew; the step is then taken from this worker's models when
it built that version, and else the page is told the current deal from its start.
"""

from __future__ import annotations

import asyncio

from aiohttp import web

from adapters.web import frames
from adapters.web.views import StateTexts
from adapters.web.who import Viewer
from bot.model.decision import Game
from bot.views.i18n import Translator, pick_language, translator


class Page:
    def __init__(self, socket: web.WebSocketResponse, viewer: Viewer, lang: str) -> None:
        self.socket = socket
        self.viewer = viewer
        self.lang = lang
        self._ = translator(lang)
        self.lock = asyncio.Lock()  # one state at a time, in the order they were built
        self.game_id: str | None = None
        self.version = 0
        self.step: int | None = None

    @property
    def translator(self) -> Translator:
        return self._

    def resume(self, version: int, game: Game | None, step: int | None) -> None:
        """The page says it drew ``version`` (of the table's current game, as far as
        anyone can tell: ``step`` is that version's, if this worker knows it)."""
        self.version = version
        if game is not None and step is not None:
            self.game_id, self.step = game.doc.id, step

    async def show(self, texts: StateTexts, *, again: bool = False) -> bool:
        """Send the state of ``texts``' version unless the page has that version of its
        game or a newer one (``again``: send it all the same, the page asked); whether
        it was sent."""
        async with self.lock:
            return await self.show_locked(texts, again=again)

    async def show_locked(self, texts: StateTexts, *, again: bool = False) -> bool:
        """:meth:`show` for a caller holding :attr:`lock`."""
        built = texts.built
        game = built.game
        same = game.doc.id == self.game_id
        if same and game.version <= self.version and not again:
            return False
        if self.socket.closed:
            return False
        seat = self.viewer.seat(game.doc)
        await self.socket.send_str(texts.text(seat, self._, self.step if same else None))
        self.game_id, self.version, self.step = game.doc.id, game.version, built.step
        return True

    async def send(self, frame: frames.ToPage) -> None:
        if not self.socket.closed:
            await self.socket.send_str(frame.model_dump_json())


def page_language(viewer: Viewer, game: Game | None, default: str) -> str:
    """The language a page speaks: its player's, as the table knows it; a spectator's
    platform's; else the table's."""
    if game is not None:
        seat = viewer.seat(game.doc)
        if seat is not None:
            return pick_language(game.doc.seats[seat].lang, default)
        return pick_language(viewer.lang, game.doc.settings.lang, default)
    return pick_language(viewer.lang, default)

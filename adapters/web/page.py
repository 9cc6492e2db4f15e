"""One open page: its socket, who it shows the table to, in which language, and what it
has been sent, so it is never sent a version it has, nor one older.

A page remembers the game and version it drew and the game document's step at that
version: the events it is sent next are those after that step. A page that reconnects
says only the version it drew; the step is then taken from this worker's models when
it built that version, and else the page is told the current deal from its start.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Final

from aiohttp import WSCloseCode, web

from adapters.web import frames
from adapters.web.views import StateTexts
from adapters.web.who import Viewer
from bot.model.decision import Game
from bot.model.parts import TileRef
from bot.views.i18n import Translator, pick_language, translator

log = logging.getLogger(__name__)

SEND_WAIT: Final = 10.0  # seconds a page has to take a frame before it is closed


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
        self.held: tuple[TileRef, ...] = ()  # the seat's tiles as last sent

    @property
    def translator(self) -> Translator:
        """The page's words, in its language."""
        return self._

    def speak(self, lang: str) -> None:
        """Speak ``lang`` from now on (known once the table is read)."""
        self.lang, self._ = lang, translator(lang)

    def resume(self, version: int, drawn: str | None, game: Game | None, step: int | None) -> None:
        """The page says it drew ``version`` of game ``drawn`` (``None``: it does not say
        which; taken to be the current ``game``); ``step`` is that version's, if this
        worker built it."""
        self.version = version
        same = game is not None and drawn in (None, game.doc.id)
        if game is not None and same and step is not None:
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
        since, held = (self.step, self.held) if same else (None, ())
        state, text = texts.state(seat, self._, since, held)
        await self._send(text)
        self.game_id, self.version, self.step = game.doc.id, game.version, built.step
        self.held = state.hand.tiles if state.hand is not None else ()
        return True

    async def send(self, frame: frames.ToPage) -> None:
        """Send ``frame``; a page that has not taken it within :data:`SEND_WAIT` (it stopped
        reading, its network went) is closed, so it holds up no other page of its chat."""
        await self._send(frame.model_dump_json())

    async def _send(self, text: str) -> None:
        if self.socket.closed:
            return
        try:
            # A timeout block, not wait_for: this is every page's every frame, and
            # wait_for runs the send as a task of its own.
            async with asyncio.timeout(SEND_WAIT):
                await self.socket.send_str(text)
        except TimeoutError:
            log.info("a page of %s stopped reading: closed", self.viewer.chat.key)
            await self.socket.close(code=WSCloseCode.TRY_AGAIN_LATER, message=b"too slow")


def page_language(viewer: Viewer, game: Game | None, default: str) -> str:
    """The language a page speaks: its player's, as the table knows it; a spectator's
    platform's; else the table's."""
    if game is not None:
        seat = viewer.seat(game.doc)
        if seat is not None:
            return pick_language(game.doc.seats[seat].lang, default)
        return pick_language(viewer.lang, game.doc.settings.lang, default)
    return pick_language(viewer.lang, default)

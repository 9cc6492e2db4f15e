"""Who a page is, from its first frame: a signed pass (:mod:`bot.model.web_pass`) names
the table's chat and a person's user key, or nobody (a spectator); Telegram's
``initData`` (checked in :mod:`adapters.web.init_data`) names the person, ``tg:<id>``,
and its ``start_param`` carries a pass that names the table (its person is ignored: the
Mini App's user is who he is).

A viewer is a person, not a seat: his seat is looked up in each game the table shows
(a rematch may seat him elsewhere), and one who holds no seat watches.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from adapters.web.frames import Hello
from adapters.web.init_data import BadInitData, check_init_data
from bot.model import web_pass
from bot.model.contract import ChatRef, UserRef
from bot.model.gamedoc import GameDoc

TELEGRAM: Final = "tg"


class Refused(ValueError):
    """The page's credentials were missing, forged, altered or expired; the message is
    the short reason the socket is closed with."""


@dataclass(frozen=True, slots=True)
class Viewer:
    """A checked page: the table's chat, the person (his user key; ``None``: a
    spectator's pass) and the language his platform gave, if any."""

    chat: ChatRef
    user_key: str | None
    lang: str | None = None

    def seat(self, doc: GameDoc) -> int | None:
        """His seat at ``doc``'s table, or ``None``: he watches."""
        if self.user_key is None:
            return None
        for number, held in enumerate(doc.seats):
            if held.user is not None and held.user.key == self.user_key:
                return number
        return None

    def user(self, doc: GameDoc) -> UserRef | None:
        """The person as ``doc`` seats him (his name and language as the table has them)."""
        seat = self.seat(doc)
        return None if seat is None else doc.seats[seat].user


@dataclass(frozen=True, slots=True)
class Gate:
    """Checks a page's :class:`Hello` with the secret that signs passes and the bot
    token that signs Telegram's initData (``None``: no Mini App)."""

    secret: str
    bot_token: str | None = None
    clock: Callable[[], float] = lambda: 0.0

    def admit(self, hello: Hello) -> Viewer:
        """The viewer ``hello`` proves; :class:`Refused` with the reason otherwise."""
        now = self.clock()
        if hello.ticket is not None:
            checked = self._pass(hello.ticket, now)
            return Viewer(checked.chat, checked.user_key)
        if hello.init_data is not None:
            try:
                person = check_init_data(self.bot_token or "", hello.init_data, now)
            except BadInitData as exc:
                raise Refused(str(exc)) from exc
            if not person.start_param:
                raise Refused("no table named")
            try:
                token = web_pass.from_start_param(person.start_param)
            except web_pass.BadPass as exc:
                raise Refused(str(exc)) from exc
            table = self._pass(token, now)
            return Viewer(table.chat, f"{TELEGRAM}:{person.user_id}", person.lang)
        raise Refused("who are you?")

    def _pass(self, token: str, now: float) -> web_pass.WebPass:
        try:
            return web_pass.check(self.secret, token, now)
        except web_pass.BadPass as exc:
            raise Refused(str(exc)) from exc

"""What one person can make the bot send on demand: lookups (a picture of the table, a
scoreboard, the rules, help) are counted per person and per chat in Redis, so the limits
hold across every process, and a picture of the table goes to the asker alone, once per
version of the game.

A group's table is edited within the group's small send budget; every message a lookup
puts in the group comes out of that budget too. So a picture asked for goes to the asker
privately (:attr:`bot.model.contract.Response.to`), asking again for the version he was sent
costs nothing, and past :data:`USER_ASKS` a minute for him, or :data:`CHAT_ASKS` for the
chat, a command is told once that it must wait and then goes unanswered (each answer
would cost the chat a message), while a button's answer, which costs none, says so
every time.
"""

from __future__ import annotations

from enum import Enum
from typing import Final

from bot.model.contract import ChatRef, NotReached, Response, UserRef
from bot.model.decision import Game
from bot.storage.store import Store
from bot.table.painter import Painter
from bot.views.i18n import Translator, translator

USER_ASKS: Final = 6
"""Lookups a person may ask for in a minute, in every chat together."""

CHAT_ASKS: Final = 20
"""Lookups a chat may be answered in a minute, whoever asks."""

PICTURE: Final = "picture"  # the topic and the remembered name of the table's picture


class Verdict(Enum):
    SEND = "send"  # within the limits
    REFUSE = "refuse"  # the first request over a limit: say it must wait
    QUIET = "quiet"  # over a limit and told already: no answer


async def ask(store: Store, chat: ChatRef, user: UserRef) -> Verdict:
    """Count a lookup ``user`` asks for in ``chat``, and whether to answer it."""
    mine, chats = await store.count_ask(chat, user)
    if mine <= USER_ASKS and chats <= CHAT_ASKS:
        return Verdict.SEND
    # Told once, when he passes his own limit, or when his request fills the chat's.
    told = mine == USER_ASKS + 1 if mine > USER_ASKS else chats == CHAT_ASKS + 1
    return Verdict.REFUSE if told else Verdict.QUIET


def wait_text(_: Translator) -> str:
    return _("That is a lot of requests at once: wait a minute, please.")


async def table_picture(
    store: Store,
    painter: Painter,
    chat: ChatRef,
    user: UserRef,
    game: Game,
    topic: str = PICTURE,
) -> Response | None:
    """The game's table as a picture for ``user`` alone, in the chat's language, drawn by
    ``painter`` off the event loop; ``None`` when he was sent this very version already."""
    version = f"{game.doc.id}:{game.version}"
    if game.state is None or not await store.first_ask(chat, user, PICTURE, version):
        return None
    _ = translator(game.doc.settings.lang)
    shown = await painter.table(_, game.doc, game.state)
    return Response(chat, shown, topic=topic, to=user)


async def not_reached(store: Store, event: NotReached) -> None:
    """A picture sent to one person alone (nothing else is) did not reach him: it is not
    his any more, so his next request for the same version sends it."""
    await store.forget_ask(event.chat, event.user, PICTURE)

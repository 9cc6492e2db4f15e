"""What a person is told when he opens the bot's private chat without a deep link (from
its profile): the tables where he has a seat, each with his hand, or how to open one."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.model import codec
from bot.model.contract import CommandRef, Notice, Outbound, PrivateStart, Screen, UserRef
from bot.table import play
from bot.table.runner import Runner
from bot.views.i18n import Translator, line, text_line
from bot.views.texts import variant_title

StartHand = Callable[[PrivateStart], Awaitable[list[Outbound]]]


def welcome_screen(_: Translator) -> Screen:
    welcome = line(
        _(
            "Hello! Add me to a group and send %(new)s there to open a table. "
            "Send %(help)s for the commands."
        ),
        new=CommandRef("new"),
        help=CommandRef("help"),
    )
    return Screen((welcome,))


async def tables_of(
    runner: Runner, user: UserRef, _: Translator, start_hand: StartHand
) -> list[Outbound]:
    """The tables where ``user`` has a seat, and his hand at each, as the deep link to it
    would give it (``start_hand``); the welcome when he has none."""
    here = play.private_chat(user)
    names: list[str] = []
    hands: list[Outbound] = []
    for chat in await runner.store.seated_at(user):
        game = await runner.load(chat)
        if game is None or not game.doc.active or game.doc.seat_of(user) is None:
            continue
        title = game.doc.chat_title or chat.chat_id
        names.append(f"{title} — {variant_title(_, game.doc.variant)}")
        link = PrivateStart(user, codec.hand_link(game.doc.id, chat))
        hands += [o for o in await start_hand(link) if not isinstance(o, Notice)]
    if not names:
        return [Notice(here, welcome_screen(_))]
    told = _("Your tables: %(tables)s. Your hands follow.", tables="; ".join(names))
    return [Notice(here, Screen((text_line(told),))), *hands]

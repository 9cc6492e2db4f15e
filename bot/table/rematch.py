"""A rematch: a new lobby for another match of a finished game, with its players seated
again. Pure, as the lobby's flows are (see :mod:`bot.table.lobby`)."""

from __future__ import annotations

from bot.model.contract import UserRef
from bot.model.decision import Decision, Game, refuse
from bot.model.gamedoc import LOBBY, GameDoc, Seat
from bot.views.i18n import Translator
from bot.views.texts import variant_title


def rematch(
    current: Game | None,
    finished: GameDoc,
    user: UserRef,
    admin: bool,
    *,
    translator: Translator,
    game_id: str,
    seed: int,
    now: float,
) -> Decision:
    """A lobby for another match of ``finished``: the same game and options, the same
    table settings, and every seat taken again by whoever held it (computers too).
    One of its players or a chat admin asks for it; its host starts it."""
    _ = translator
    if current is not None and current.doc.active:
        doc = current.doc
        return refuse(
            _(
                "A game is already open here: %(game)s, table %(id)s.",
                game=variant_title(_, doc.variant),
                id=doc.id,
            )
        )
    if finished.seat_of(user) is None and not admin:
        return refuse(_("Only the players of that match can ask for a rematch."))
    seats = tuple(Seat(user=s.user, computer=s.computer, lang=s.lang) for s in finished.seats)
    host = finished.host if finished.host_seat() is not None else user.key
    doc = GameDoc(
        id=game_id,
        chat=finished.chat,
        status=LOBBY,
        variant=finished.variant,
        options=finished.options,
        seed=seed,
        seats=seats,
        host=host,
        settings=finished.settings,
        created=now,
        chat_title=finished.chat_title,
    )
    return Decision(doc=doc, reply=_("A rematch: the same players are seated."))

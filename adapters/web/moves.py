"""A page's move or act, pressed through the core as a chat's button would be: the same
payload (:mod:`bot.model.codec`), the same refusals. The core's first instruction, its
:class:`~bot.model.contract.Answer`, becomes the page's :class:`~adapters.web.frames.Answer`;
everything else it says (the chat's table, hands, pings) goes to the host's ``deliver``:
the chat the table lives in shows it too. The page's new state comes as every page's
does, from the write's message on the chat's channel.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from adapters.web import frames
from adapters.web.views import Built
from adapters.web.who import Viewer
from bot.model import codec
from bot.model.contract import Answer, ChatRef, Inbound, Outbound, Press, Show
from bot.model.decision import Game
from bot.views.i18n import Translator
from bot.views.texts import error_text
from engine import DominoError, Move, parse_move

log = logging.getLogger(__name__)

Deliver = Callable[[Sequence[Outbound]], Awaitable[None]]
"""Carries out what the core says beyond a page's answer (a chat platform's delivery)."""


async def drop(outbound: Sequence[Outbound]) -> None:
    """The delivery of a table no chat shows (the local web table): nothing to carry."""


class Core(Protocol):
    """The part of :class:`bot.table.sessions.Sessions` the web table uses."""

    async def handle(self, inbound: Inbound) -> list[Outbound]: ...

    async def table_game(self, chat: ChatRef) -> Game | None: ...


async def play(
    core: Core,
    deliver: Deliver,
    viewer: Viewer,
    built: Built | None,
    frame: frames.Play,
    _: Translator,
) -> frames.Answer:
    """``frame``'s move pressed for ``viewer``: the legal move of his hand its notation
    names, or, for one his hand does not list, the move as written (the core then
    says why it cannot go, as it does to a chat)."""
    game = built.game if built is not None else None
    if game is None or game.state is None:
        return frames.Answer(ok=False, text=_("That game is over."))
    user = viewer.user(game.doc)
    seat = viewer.seat(game.doc)
    if user is None or seat is None:
        return frames.Answer(ok=False, text=_("You are watching"))
    hand = built.hand(seat) if built is not None else None
    listed = next((m for m in hand.moves if m.notation == frame.notation), None) if hand else None
    move: Move
    if listed is not None:
        move = listed.move()
    else:
        try:
            move = parse_move(frame.notation)
        except DominoError as exc:
            return frames.Answer(ok=False, text=error_text(_, exc))
    payload = codec.move_payload(game.doc.id, frame.counter, move)
    return await press(core, deliver, Press(game.doc.chat, user, payload))


async def act(
    core: Core,
    deliver: Deliver,
    viewer: Viewer,
    built: Built | None,
    frame: frames.Act,
    _: Translator,
) -> frames.Answer:
    """A rematch or the next deal, pressed for ``viewer`` (a player of the table)."""
    game = built.game if built is not None else None
    user = viewer.user(game.doc) if game is not None else None
    if game is None or built is None or user is None:
        return frames.Answer(ok=False, text=_("You are watching"))
    if frame.act == "rematch":
        payload = codec.rematch_payload(game.doc.id)
    else:
        deal = built.table.deal if built.table is not None else 1
        payload = codec.next_deal_payload(game.doc.id, deal)
    return await press(core, deliver, Press(game.doc.chat, user, payload))


async def press(core: Core, deliver: Deliver, pressed: Press) -> frames.Answer:
    """``pressed`` through the core: its answer for the page, the rest delivered. A
    press was taken when the core answered with no text (a move) or changed a screen
    (a rematch, which says so)."""
    out = await core.handle(pressed)
    answer = out[0] if out and isinstance(out[0], Answer) else Answer()
    rest = out[1:] if out and isinstance(out[0], Answer) else out
    if rest:
        try:
            await deliver(rest)
        except Exception:
            # The chat's copy is the host's to mend (its delivery retries, or redraws);
            # the page still gets its answer and, from the channel, its state.
            log.exception("could not deliver what a web press told the chat %s", pressed.chat.key)
    taken = not answer.text or any(isinstance(o, Show) for o in rest)
    return frames.Answer(ok=taken, text=answer.text)

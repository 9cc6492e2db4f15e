"""The first response to an interaction, chosen from what the core returned.

Discord wants every interaction answered once, within three seconds. The answer is
picked from the core's instructions, so that a press costs one request where it can:

- a press on a message that the core redraws is answered by updating that message
  (an ephemeral hand, or the lobby after Join), unless the core posts the screen
  anew at the bottom of the channel (a table at the start of a deal);
- a hand (the answer's screen, or the presser's hand slot) goes to the presser alone,
  as an ephemeral message, or by updating the ephemeral hand he pressed;
- the core's response to a command (a refusal, a confirmation) and a notice in reply
  to a command go to the asker alone, but a response for the whole chat (a
  scoreboard) is posted in the channel, and so is the table's picture that a press
  asks for, as the press's own response (no request of its own);
- a command's new message in its channel (a lobby) is the command's public reply,
  and so is the table a command posts anew (``table``; the start where the bot may
  not post in the channel, which then updates a pressed lobby into the table);
- anything else is acknowledged, and the answer's text shown to the presser alone.

What the reply does not use is carried out afterwards, as for any other update.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum

from adapters.discord.render import Rendered, render, render_text
from bot.model.contract import (
    Answer,
    ChatRef,
    Command,
    Inbound,
    Notice,
    Outbound,
    Response,
    Show,
    SlotKind,
    UserRef,
)

DONE_MARK = "\N{WHITE HEAVY CHECK MARK}"  # the reply to a command that changed something elsewhere
FIRST_RESPONSE_WINDOW = 3.0  # seconds Discord waits for an interaction's first response


class Mode(str, Enum):
    UPDATE = "update"  # redraw the pressed message (type 7)
    PRIVATE = "private"  # a new ephemeral message (type 4, flag 64)
    PUBLIC = "public"  # a new message in the channel (type 4)
    ACK = "ack"  # acknowledge only (type 6)


@dataclass(slots=True)
class Reply:
    mode: Mode
    rendered: Rendered | None = None
    used: Show | None = None  # the slot screen this reply shows, if any
    is_hand: bool = False  # a hand for the asker: its token is kept to refresh it later
    posted: Response | Notice | None = None  # what for the whole chat this reply shows


@dataclass(frozen=True, slots=True)
class Context:
    """What the choice needs to know about the interaction."""

    chat: ChatRef
    user: UserRef
    pressed_message: int | None = None  # the message of a pressed button
    pressed_ephemeral: bool = False
    placed: Mapping[str, int] = field(default_factory=dict)  # slot key -> its message id
    may_post: bool = True  # the bot may post new messages in the channel

    def is_pressed(self, show: Show) -> bool:
        """Whether ``show`` redraws the very message whose button was pressed."""
        placed = self.placed.get(show.slot.key)
        return placed is not None and placed == self.pressed_message


def too_late(created_at: datetime, now: datetime) -> bool:
    """Whether an interaction made at ``created_at`` can no longer be answered: the
    gateway delivered it after its window (replayed after a resume), and the person
    has been shown "This interaction failed" already."""
    return (now - created_at).total_seconds() > FIRST_RESPONSE_WINDOW


def choose_reply(
    inbound: Inbound, outbounds: list[Outbound], context: Context
) -> tuple[Reply, list[Outbound]]:
    """The reply to send first, and the instructions left to carry out after it."""
    answers = [o for o in outbounds if isinstance(o, Answer)]
    rest: list[Outbound] = [o for o in outbounds if not isinstance(o, Answer)]
    answer = answers[0] if answers else Answer()
    if isinstance(inbound, Command):
        return _command_reply(rest, context)
    return _press_reply(answer, rest, context)


def _press_reply(
    answer: Answer, rest: list[Outbound], context: Context
) -> tuple[Reply, list[Outbound]]:
    moved = _find(rest, lambda s: context.is_pressed(s) and s.renew)
    if moved is not None and not context.may_post:
        # The channel takes no new message from the bot: the screen meant for the bottom
        # of the channel (the table that follows the lobby) replaces the pressed one.
        rest.remove(moved)
        return Reply(Mode.UPDATE, render(moved.screen), moved), rest
    own_hand = _find(rest, lambda s: _is_own_hand(s, context))
    on_hand = Mode.UPDATE if context.pressed_ephemeral else Mode.PRIVATE
    if answer.screen is not None:
        if own_hand is not None:
            rest.remove(own_hand)  # the answer shows the newest hand already
        # The answer's text is the popup form of the same screen (other platforms).
        rendered = render(answer.screen)
        return Reply(on_hand, rendered, None, is_hand=True), rest
    if own_hand is not None:
        rest.remove(own_hand)
        rendered = render(own_hand.screen, header=answer.text)
        return Reply(on_hand, rendered, own_hand, is_hand=True), rest
    redrawn = _find(rest, lambda s: context.is_pressed(s) and not s.renew)
    if redrawn is not None and not answer.alert:
        rest.remove(redrawn)
        return Reply(Mode.UPDATE, render(redrawn.screen), redrawn), rest
    response = _response(rest)
    if response is not None:
        rest.remove(response)
        if response.public:
            return _public_response(response), rest
        return Reply(Mode.PRIVATE, render(response.screen, header=answer.text)), rest
    notice = _notice_for(rest, context, in_chat=False)
    if notice is not None:
        rest.remove(notice)
        return Reply(Mode.PRIVATE, render(notice.screen, header=answer.text)), rest
    picture = _picture_for(rest, context)
    if picture is not None and not answer.text:
        rest.remove(picture)
        return Reply(Mode.PUBLIC, render(picture.screen), posted=picture), rest
    if answer.text:
        return Reply(Mode.PRIVATE, render_text(answer.text)), rest
    return Reply(Mode.ACK), rest


def _command_reply(rest: list[Outbound], context: Context) -> tuple[Reply, list[Outbound]]:
    response = _response(rest)
    if response is not None:
        rest.remove(response)
        if response.public:
            return _public_response(response), rest
        return Reply(Mode.PRIVATE, render(response.screen)), rest
    moved = _find(rest, lambda s: s.slot.chat == context.chat and s.renew)
    if moved is not None and not context.may_post:
        # The channel takes no new message from the bot but this reply: the table
        # posted anew (the start's) is the reply, and the asker asks for his hand.
        rest.remove(moved)
        return Reply(Mode.PUBLIC, render(moved.screen), moved), rest
    private = _find(rest, lambda s: _is_own_hand(s, context))
    if private is not None:
        rest.remove(private)
        hand = private.slot.kind is SlotKind.HAND
        return Reply(Mode.PRIVATE, render(private.screen), private, is_hand=hand), rest
    public = _find(
        rest,
        lambda s: (
            s.slot.chat == context.chat
            and s.slot.kind in _PUBLIC_REPLIES
            and (s.slot.key not in context.placed or s.renew)
        ),
    )
    if public is not None:
        rest.remove(public)
        return Reply(Mode.PUBLIC, render(public.screen), public), rest
    notice = _notice_for(rest, context, in_chat=True)
    if notice is not None:
        rest.remove(notice)
        return Reply(Mode.PRIVATE, render(notice.screen)), rest
    return Reply(Mode.PRIVATE, render_text(DONE_MARK)), rest


# A command's new message of these kinds in its own channel is the command's reply.
_PUBLIC_REPLIES = frozenset({SlotKind.LOBBY, SlotKind.TABLE})


def _notice_for(rest: list[Outbound], context: Context, *, in_chat: bool) -> Notice | None:
    """A notice for the asker: one addressed to his private chat (which on Discord
    is the ephemeral reply), or, for a command, one in the chat he typed it in."""
    private = ChatRef(context.chat.platform, context.user.user_id)
    for outbound in rest:
        # The table's picture is for the whole channel: it goes there, not to the asker.
        shared = outbound.screen.picture is not None if isinstance(outbound, Notice) else False
        if isinstance(outbound, Notice) and (
            outbound.chat == private or (in_chat and outbound.chat == context.chat and not shared)
        ):
            return outbound
    return None


def _picture_for(rest: list[Outbound], context: Context) -> Notice | None:
    """The table's picture for the channel the press was made in, if the core sent one."""
    for outbound in rest:
        if (
            isinstance(outbound, Notice)
            and outbound.chat == context.chat
            and outbound.screen.picture is not None
        ):
            return outbound
    return None


def _public_response(response: Response) -> Reply:
    return Reply(Mode.PUBLIC, render(response.screen), posted=response)


def _response(rest: list[Outbound]) -> Response | None:
    """The core's reply to the command (or to a button asking for a lookup)."""
    return next((o for o in rest if isinstance(o, Response)), None)


def _is_own_hand(show: Show, context: Context) -> bool:
    user = show.slot.user
    return show.slot.kind is SlotKind.HAND and user is not None and user.key == context.user.key


def _find(outbounds: list[Outbound], wanted: Callable[[Show], bool]) -> Show | None:
    for outbound in outbounds:
        if isinstance(outbound, Show) and wanted(outbound):
            return outbound
    return None

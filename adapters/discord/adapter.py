"""The bridge between Discord interactions and the core.

An interaction becomes one inbound event; the core's answer becomes the interaction's
response (see :mod:`adapters.discord.respond`) and then REST calls. The core normally
answers in a millisecond; if it has not answered in :attr:`DiscordAdapter.defer_after`
seconds the interaction is deferred, so Discord's three-second limit always holds.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, Protocol

import discord

from adapters.discord.components import ButtonKind, ParsedId
from adapters.discord.deliver import Delivery
from adapters.discord.messages import HandToken
from adapters.discord.permissions import lacking, may_post, tell_missing, warning
from adapters.discord.privately import send_privately, sent_directly
from adapters.discord.render import PLATFORM, render, render_text
from adapters.discord.respond import DONE_MARK, Context, Mode, Reply, choose_reply, too_late
from adapters.discord.sending import Sent, send_reply
from bot.model import codec
from bot.model.contract import (
    Answer,
    ChatRef,
    Command,
    Inbound,
    Outbound,
    Press,
    PrivateStart,
    Screen,
    Show,
    SlotKind,
    UserRef,
)
from bot.table.redraw import Drawn
from bot.views.i18n import text_line

log = logging.getLogger(__name__)

FAILED_MARK = "\N{WARNING SIGN}"  # shown when the core could not be reached
# Seconds a reply waits for a channel slot another worker is showing before it goes
# out unheld: Discord waits three for an interaction's first response.
CLAIM_PATIENCE = 1.0


class Core(Protocol):
    """The part of the core's sessions the adapter uses."""

    async def handle(self, inbound: Inbound) -> list[Outbound]: ...

    async def tick(self, platform: str) -> list[Outbound]: ...

    def tables_on_demand(self, platform: str) -> None: ...

    async def redraw(self, chat: ChatRef, slot_keys: Collection[str] = ()) -> Drawn | None: ...


def chat_of(interaction: discord.Interaction[Any]) -> ChatRef:
    """A channel is a chat; a thread has its own channel id, so it is a chat of its own."""
    return ChatRef(PLATFORM, str(interaction.channel_id))


def user_of(interaction: discord.Interaction[Any]) -> UserRef:
    user = interaction.user
    return UserRef(PLATFORM, str(user.id), user.display_name, str(interaction.locale))


def title_of(interaction: discord.Interaction[Any]) -> str | None:
    """The channel's name as people see it (``#general``), for hands to say where
    their table is; ``None`` when Discord sent no name."""
    name = getattr(interaction.channel, "name", None)
    return f"#{name}" if isinstance(name, str) and name else None


def is_admin(interaction: discord.Interaction[Any]) -> bool:
    """Members who may manage the server (or administrators) run a table's admin commands."""
    permissions = interaction.permissions
    return bool(permissions.administrator or permissions.manage_guild)


def _asked_for(inbound: Inbound, reply: Reply) -> bool:
    """Opening one's hand shows it as it stands, and a command asking for the table
    posts it anew as it stands, at the version already shown elsewhere: the person
    asked for it, so it is answered all the same."""
    if isinstance(inbound, PrivateStart):
        return reply.is_hand
    return isinstance(inbound, Command) and reply.used is not None and reply.used.renew


def _is_bare_done(reply: Reply) -> bool:
    """Whether the reply only says that a command was done."""
    rendered = reply.rendered
    return reply.mode is Mode.PRIVATE and rendered is not None and rendered.content == DONE_MARK


def _decoded(payload: str) -> codec.Action | None:
    try:
        return codec.decode(payload)
    except codec.BadPayload:
        return None


class DiscordAdapter:
    """Turns interactions into inbound events and the core's answers into Discord calls."""

    # Seconds to wait for the core before deferring: Discord allows three for the first
    # response, and a busy machine needs the rest to get the deferral out in time.
    defer_after = 1.0
    # Seconds between timer rounds' new tries of what a missing permission held back.
    retry_refused_after = 60.0

    def __init__(self, core: Core, delivery: Delivery) -> None:
        self.core = core
        self.delivery = delivery
        self._busy: set[asyncio.Task[Any]] = set()
        self._refused_tried = 0.0

    # -- entry points ---------------------------------------------------------------

    async def on_command(
        self, interaction: discord.Interaction[Any], name: str, args: tuple[str, ...]
    ) -> None:
        command = Command(
            chat_of(interaction),
            user_of(interaction),
            name,
            args,
            is_admin=is_admin(interaction),
            private=interaction.guild_id is None,
            chat_title=title_of(interaction),
        )
        await self.serve(interaction, command)

    async def on_button(self, interaction: discord.Interaction[Any], parsed: ParsedId) -> None:
        inbound: Inbound
        if parsed.kind is ButtonKind.START:
            inbound = PrivateStart(user_of(interaction), parsed.payload)
        else:
            inbound = Press(
                chat_of(interaction),
                user_of(interaction),
                parsed.payload,
                is_admin=is_admin(interaction),
                chat_title=title_of(interaction),
            )
        await self.serve(interaction, inbound)

    async def tick(self) -> None:
        """Apply due deadlines and paced computer moves, show what they changed, and
        send the pings that fell due."""
        with self._tracked():
            await self.delivery.carry_out(await self.core.tick(PLATFORM))
            now = self.delivery.messages.clock()
            if self.delivery.refused and now - self._refused_tried >= self.retry_refused_after:
                self._refused_tried = now
                self.delivery.show_refused()
            try:
                await self.delivery.send_due_pings()
            except Exception:  # Redis away: the pings wait for the next round
                log.exception("could not send the pings that fell due")
            # Last: the first round's catch-up redraws every table, and no ping waits for it.
            try:
                await self.delivery.look_behind()
            except Exception:  # the tables are looked at again next round
                log.exception("could not catch up with the stored tables")

    async def message_deleted(self, chat: ChatRef, message_id: int) -> None:
        """A channel message was deleted: a slot's (the table someone removed) is posted
        again at once, drawn from the stored game, buttons and all, so a player who
        never opened his hand has My tiles back even with no timer to edit the table.
        The bot's own deletions are of messages no slot holds any more: nothing happens."""
        with self._tracked():
            slot_key = await self.delivery.book.slot_showing(chat, message_id)
            if slot_key is None:
                return
            drawn = await self.core.redraw(chat)
            for show in drawn.screens if drawn is not None else ():
                if show.slot.key == slot_key:
                    await self.delivery.show_again(show)

    async def drain(self, *, channels: bool = True) -> None:
        """Wait until every interaction being served is done and, with ``channels``,
        every channel's queued messages are sent (tests, shutdown)."""
        while self._busy or (channels and self.delivery.busy):
            await asyncio.gather(*list(self._busy), return_exceptions=True)
            if channels:
                await self.delivery.drain()

    # -- serving one interaction ----------------------------------------------------------

    async def serve(self, interaction: discord.Interaction[Any], inbound: Inbound) -> None:
        if too_late(interaction.created_at, discord.utils.utcnow()):
            # Its person saw it fail: applying it now would do what he thinks undone.
            log.info("skipped a %s delivered after its window", type(inbound).__name__)
            return
        with self._tracked():
            try:
                outbounds = await self._ask(interaction, inbound)
                outbounds = await self._redraw_refused_hand(interaction, inbound, outbounds)
            except Exception:
                log.exception("the core failed on %s", type(inbound).__name__)
                await send_reply(interaction, Reply(Mode.PRIVATE, render_text(FAILED_MARK)))
                return
            context = await self._context(interaction, outbounds)
            reply, rest = choose_reply(inbound, outbounds, context)
            missing = lacking(interaction)
            told = bool(missing) and _is_bare_done(reply)
            if told:  # a command's "done" would be untrue: what is missing is said instead
                reply = Reply(
                    Mode.PRIVATE, render_text(warning(missing, user_of(interaction).lang))
                )
            current, held = await self._claim(reply.used)
            if not current and not _asked_for(inbound, reply):
                reply = self._stale_reply(inbound)
            elif not current and reply.used is not None and not reply.is_hand:
                newest = self.delivery.newest_shown(reply.used)
                reply = replace(reply, rendered=render(newest.screen), used=newest)
            try:
                sent = await send_reply(interaction, reply)
                await self._place(reply, sent)
            finally:
                if held and reply.used is not None:
                    await self._release(reply.used)
            try:
                await self._remember(interaction, context, reply, sent)
            except Exception:
                log.exception("could not remember where a reply went")
            if reply.used is not None and not sent.failed and reply.mode is not Mode.PRIVATE:
                self.delivery.note_shown(reply.used)
            if reply.mode is Mode.PUBLIC and sent.message_id is None and reply.used is not None:
                # Deferred privately: the public message goes to the channel the usual way.
                rest.insert(0, reply.used)
            if (
                reply.posted is not None
                and not sent.failed
                and (sent.followup or not sent.message_id)
            ):
                rest.append(reply.posted)  # deferred privately: posted in the channel instead
            if sent.failed:
                rest = sent_directly(rest, context.user)
            else:
                rest = await send_privately(interaction, context, rest)
            await self.delivery.carry_out(rest)
            if missing and not told:
                await tell_missing(interaction, missing)
            elif not missing:
                self.delivery.show_refused(chat_of(interaction))

    async def _ask(self, interaction: discord.Interaction[Any], inbound: Inbound) -> list[Outbound]:
        """The core's answer; the interaction is deferred if it takes too long."""
        task = asyncio.ensure_future(self.core.handle(inbound))
        try:
            return await asyncio.wait_for(asyncio.shield(task), self.defer_after)
        except TimeoutError:
            if interaction.type is discord.InteractionType.component:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
            return await task

    async def _claim(self, show: Show | None) -> tuple[bool, bool]:
        """Claim the version a reply shows in the slot book: whether it is current (no
        newer one was shown), and whether its channel slot is held until the reply is out
        (:meth:`_release`), so that an older edit queued meanwhile is not shown after it.
        A slot another worker keeps showing, or a store that does not answer, lets the
        reply go out unheld, showing what the core sent: the interaction must be answered."""
        if show is None or show.version <= 0:
            return True, False
        try:
            if show.slot.kind is SlotKind.HAND:
                return await self.delivery.is_current(show), False
            claim = await self.delivery.shower.claim(show.slot, show.version, CLAIM_PATIENCE)
        except Exception:
            log.exception("could not check the version of %s", show.slot.key)
            return True, False
        if claim.busy:
            log.info("%s is being shown elsewhere; replying unheld", show.slot.key)
            return True, False
        return claim.fresh, claim.fresh

    async def _place(self, reply: Reply, sent: Sent) -> None:
        """A channel slot's screen posted as the reply is the slot's message now."""
        used = reply.used
        if (
            used is not None
            and not reply.is_hand
            and reply.mode is Mode.PUBLIC
            and sent.message_id is not None
            and not sent.failed
        ):
            try:
                await self.delivery.book.place(used.slot, sent.message_id, used.version)
            except Exception:  # the next edit of the slot sends it anew
                log.exception("could not record where %s was posted", used.slot.key)

    async def _release(self, show: Show) -> None:
        try:
            await self.delivery.book.release(show.slot)
        except Exception:  # its hold runs out by itself
            log.exception("could not release %s", show.slot.key)

    async def _redraw_refused_hand(
        self, interaction: discord.Interaction[Any], inbound: Inbound, outbounds: list[Outbound]
    ) -> list[Outbound]:
        """A refused move from an older copy of a hand (out of date, not his turn)
        redraws that copy as the hand is now, the refusal on top, instead of leaving
        its dead buttons: the answer is asked of the core as a "My tiles" press."""
        message = interaction.message
        if not isinstance(inbound, Press) or message is None or not message.flags.ephemeral:
            return outbounds
        if any(isinstance(o, Show) and o.slot.kind is SlotKind.HAND for o in outbounds):
            return outbounds
        answer = next((o for o in outbounds if isinstance(o, Answer)), Answer())
        action = _decoded(inbound.payload)
        if answer.screen is not None or not isinstance(action, codec.MovePress):
            return outbounds
        asked = replace(inbound, payload=codec.tiles_payload(action.game_id))
        redrawn = next((o for o in await self.core.handle(asked) if isinstance(o, Answer)), None)
        refusal = text_line(answer.text) if answer.text else None
        if redrawn is None or redrawn.screen is None:
            lines = tuple(text_line(t) for t in (answer.text, redrawn.text if redrawn else "") if t)
            screen = Screen(lines)
        else:
            lines = ((refusal,) if refusal else ()) + redrawn.screen.lines
            screen = Screen(lines, redrawn.screen.buttons)
        rest = [o for o in outbounds if not isinstance(o, Answer)]
        return [Answer(answer.text, answer.alert, screen), *rest]

    async def _context(
        self, interaction: discord.Interaction[Any], outbounds: list[Outbound]
    ) -> Context:
        placed: dict[str, int] = {}
        try:
            for outbound in outbounds:
                if isinstance(outbound, Show) and outbound.slot.kind is not SlotKind.HAND:
                    found = await self.delivery.book.message_of(outbound.slot)
                    if found is not None:
                        placed[outbound.slot.key] = found
        except Exception:  # the answer must still go out: treat the slots as new
            log.exception("could not look up where the slots' messages are")
        message = interaction.message
        return Context(
            chat=chat_of(interaction),
            user=user_of(interaction),
            pressed_message=message.id if message is not None else None,
            pressed_ephemeral=bool(message is not None and message.flags.ephemeral),
            placed=placed,
            may_post=may_post(interaction),
        )

    @staticmethod
    def _stale_reply(inbound: Inbound) -> Reply:
        if isinstance(inbound, Command):
            return Reply(Mode.PRIVATE, render_text(DONE_MARK))
        return Reply(Mode.ACK)

    async def _remember(
        self,
        interaction: discord.Interaction[Any],
        context: Context,
        reply: Reply,
        sent: Sent,
    ) -> None:
        if sent.failed:
            return
        if reply.is_hand:
            pressed = interaction.message.id if interaction.message is not None else None
            token = HandToken(
                interaction.application_id,
                interaction.token,
                self.delivery.messages.clock(),
                sent.message_id if sent.followup else None,  # None: the original response
                sent.message_id or (pressed if reply.mode is Mode.UPDATE else None),
            )
            await self.delivery.remember_hand(context.chat, context.user, token)
        elif reply.mode is Mode.PUBLIC and sent.message_id is not None and reply.used is not None:
            older = context.placed.get(reply.used.slot.key)
            if reply.used.renew and older is not None and older != sent.message_id:
                await self.delivery.retire(reply.used, older)

    @contextmanager
    def _tracked(self) -> Iterator[None]:
        task = asyncio.current_task()
        if task is not None:
            self._busy.add(task)
        try:
            yield
        finally:
            if task is not None:
                self._busy.discard(task)

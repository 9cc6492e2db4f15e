"""Carrying out the core's instructions over Discord's REST API, outside any
interaction: what goes to a channel through the delivery layer's deliverer, hands and
pings by their own routes.

A channel's slots (the table, the lobby, the summaries) and its one-off messages (notices,
responses, files) go through the shared :class:`adapters.delivery.deliver.Deliverer`
over Discord's transport (:class:`adapters.discord.carry.DiscordCarrier`): one mailbox
per channel, paced by Discord's send budget, a burst of versions of a slot merged into
the newest, a 429 or a server error tried again, the screens and messages queued noted
in Redis so that another process shows and sends them should this one die (caught up by
:attr:`Delivery.catch_up`, run on the timer rounds). A screen Discord refused for a
missing permission is kept (:class:`adapters.discord.permissions.Refused`) and shown
once the permission is back.

A player's hand is pushed at once through a still-valid interaction token, outside any
channel's budget, so it never waits behind a channel's edits; a ping is held back (see
:mod:`adapters.discord.pings`). A hand and a ping claim their versions in the same slot
book as the channel's slots. A failed call is logged and the next instruction still runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import replace

import discord
from discord.http import handle_message_parameters

from adapters.delivery.catchup import STORE_DOWN, CatchUp
from adapters.delivery.deliver import Deliverer
from adapters.delivery.limiter import UNPACED
from adapters.delivery.mailbox import Mail
from adapters.delivery.wiring import Wiring
from adapters.discord.carry import DiscordCarrier
from adapters.discord.messages import (
    HandToken,
    HandTokens,
    PlacedMessage,
    hand_message_id,
    hand_signature_of,
    hand_webhook,
)
from adapters.discord.permissions import Refused
from adapters.discord.pings import Pings, addressed
from adapters.discord.render import escape, render
from adapters.discord.transport import channel_of
from adapters.pings import HeldPing
from bot.model.contract import (
    Answer,
    ChatRef,
    Delete,
    Document,
    Notice,
    Outbound,
    Response,
    Show,
    Slot,
    SlotKind,
    Unreachable,
    UserRef,
)
from bot.views.hand import replaced_hand_screen
from bot.views.i18n import DEFAULT_LANG, N_, pick_language, translator

log = logging.getLogger(__name__)

# Added to a player's ping when his last hand can no longer be edited.
STALE_HAND = N_(
    "Your tiles shown earlier can no longer be updated: press \u201cMy tiles\u201d on the table."
)


# Slots addressed to one player: on Discord, his hand and ping, never channel messages.
PERSONAL = frozenset({SlotKind.HAND, SlotKind.PING})


def channel_bound(outbound: Outbound) -> bool:
    """Whether ``outbound`` goes to a channel (or a person's direct messages) by the
    channel's own routes, in the channel's budget: all but hands, pings and answers."""
    if isinstance(outbound, Show | Delete):
        return outbound.slot.kind not in PERSONAL
    return isinstance(outbound, Notice | Response | Document)


class Delivery:
    """Carries out the core's instructions: a channel's through the deliverer, hands and
    pings at once; ``book`` records which message shows each slot at which version."""

    def __init__(
        self, client: discord.Client, messages: HandTokens, wiring: Wiring, pings: Pings
    ) -> None:
        self.client = client
        self.messages = messages
        self.book = wiring.book
        self.pings = pings
        self.liveness = wiring.liveness  # started and stopped by the process's runner
        self.carrier = DiscordCarrier(
            client, wiring.book, wiring.clock, self.note_shown, self._deleted
        )
        self.shower = self.carrier.shower
        self.deliverer = Deliverer(
            self.carrier,
            wiring.send_log,
            wiring.clock,
            _nobody_unreachable,
            pending=wiring.pending,
            outbox=wiring.outbox,
            keep_refused=self._keep_refused,
        )
        # Set once the core is known (see :func:`adapters.discord.client.build_client`).
        self.catch_up: CatchUp | None = None
        self._caught_up = False  # every table has been looked at once
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._pushing: set[asyncio.Task[None]] = set()  # hands and pings submitted, not awaited
        self.refused = Refused()
        self._last_shown: dict[str, Show] = {}  # slot key -> the newest screen shown in it

    def lock(self, slot: Slot) -> asyncio.Lock:
        """One lock per slot key, so a hand is edited by one task at a time."""
        lock = self._locks.get(slot.key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[slot.key] = lock
        return lock

    async def is_current(self, show: Show) -> bool:
        """Claim a hand's or a ping's version in the slot book; ``False`` if a newer one
        was shown. Screens without a version (0) are always current."""
        if show.version <= 0:
            return True
        claim = await self.shower.claim(show.slot, show.version)
        if claim.fresh:
            await self.book.release(show.slot)
        return claim.fresh

    async def game_chat(self, slot: Slot) -> ChatRef | None:
        """The chat a slot's message goes to. Hands and pings are addressed to a
        player's private chat; on Discord they belong in the game's channel, which
        the slot names."""
        if slot.kind not in PERSONAL:
            return slot.chat
        return slot.table

    async def carry_out(self, outbounds: Iterable[Outbound]) -> None:
        """Queue what goes to a channel in its mailbox, then push hands and hold pings
        now, so no hand waits for a channel's edits."""
        outbounds = list(outbounds)
        self.deliverer.submit([o for o in outbounds if channel_bound(o)])
        for outbound in outbounds:
            if channel_bound(outbound):
                continue
            try:
                await self._one(outbound)
            except discord.HTTPException as exc:
                log.warning("Discord refused %s: %s", type(outbound).__name__, exc)
            except Exception:  # one failure (Redis, a bad screen) must not stop the rest
                log.exception("could not carry out %s", type(outbound).__name__)

    def submit(self, outbounds: Sequence[Outbound]) -> None:
        """:meth:`carry_out` without waiting for the hands (catch-up's redraws)."""
        task = asyncio.create_task(self.carry_out(outbounds))
        self._pushing.add(task)
        task.add_done_callback(self._pushing.discard)

    @property
    def busy(self) -> bool:
        return bool(self._pushing) or not self.deliverer.idle

    async def drain(self) -> None:
        """Wait until every mailbox is empty and every hand submitted is pushed."""
        while self.busy:
            await asyncio.gather(*list(self._pushing), return_exceptions=True)
            await self.deliverer.drain()

    async def close(self) -> None:
        """Stop, whatever is still queued (noted, for another process to show)."""
        for task in list(self._pushing):
            task.cancel()
        await asyncio.gather(*list(self._pushing), return_exceptions=True)
        await self.deliverer.close()

    async def look_behind(self) -> None:
        """Bring the tables due for a look up to what the store says (every table, the
        first time): what a process that died had queued is shown and sent."""
        if self.catch_up is None:
            return
        try:
            if self._caught_up:
                await self.catch_up.poll()
            else:
                behind = await self.catch_up.on_start()
                log.info("on start, %d tables were behind the store", behind)
                self._caught_up = True
        except STORE_DOWN as err:
            log.warning("cannot bring tables up to date while the store is down (%s)", err)

    def _keep_refused(self, item: Mail) -> None:
        if isinstance(item, Show):
            self.refused.keep(item)  # a missing permission: shown once it is back

    def show_refused(self, chat: ChatRef | None = None) -> None:
        """Queue again what Discord refused for a missing permission (in ``chat``)."""
        self.deliverer.submit(self.refused.take(chat))

    async def _one(self, outbound: Outbound) -> None:
        if isinstance(outbound, Show):
            await self.show(outbound)
        elif isinstance(outbound, Delete):
            await self.delete(outbound)
        elif isinstance(outbound, Answer):
            log.debug("an answer with no interaction to answer is dropped")

    # -- slots ------------------------------------------------------------------

    async def show(self, show: Show) -> None:
        """Show a screen in its slot now, unless a newer version of it is shown: a hand
        pushed, a ping held, a channel's slot shown outside its mailbox and budget (what
        goes to a channel is otherwise :meth:`carry_out`'s, through the deliverer)."""
        if show.slot.kind is SlotKind.HAND:
            await self.push_hand(show)
            return
        if show.slot.kind is SlotKind.PING:
            await self.hold_ping(show)
            return
        await self.carrier.show(show)

    def newest_shown(self, show: Show) -> Show:
        """``show``, or the newer screen of its slot this process has shown since it was
        drawn (a move made meanwhile), posted the same way."""
        last = self._last_shown.get(show.slot.key)
        if last is not None and last.version > show.version:
            return replace(last, renew=show.renew)
        return show

    def note_shown(self, show: Show) -> None:
        """``show`` reached its channel slot, by delivery or as an interaction's reply
        (or a newer version had: the newer is kept)."""
        self.refused.shown(show)
        last = self._last_shown.get(show.slot.key)
        if last is None or show.version >= last.version or show.version <= 0:
            self._last_shown[show.slot.key] = show

    async def show_again(self, show: Show) -> None:
        """Post ``show`` again in a slot whose message someone deleted: as a new message,
        whatever version the slot was last said to show."""
        await self.book.forget(show.slot)
        self.deliverer.submit([replace(show, renew=False)])

    async def retire(self, show: Show, older: int) -> None:
        """Delete the message ``show``'s slot had before it was posted anew, or cut it to
        a stub without buttons if Discord will not delete it."""
        await self.shower.retire(show.slot.chat, older, show.screen, UNPACED)

    async def delete(self, delete: Delete) -> None:
        slot, version = delete.slot, delete.version
        if slot.kind is SlotKind.HAND:
            await self._delete_hand(slot)
            return
        if slot.kind is SlotKind.PING:  # its player moved: held, it is dropped; sent, deleted
            chat = await self.game_chat(slot)
            if chat is not None:
                if await self.pings.drop(chat, slot):
                    return
                sent = await self.pings.moved(chat, slot, version)
                if sent is not None:
                    await self._delete_message(sent)
            return
        await self.carrier.delete(delete)

    def _deleted(self, delete: Delete) -> None:
        self._last_shown.pop(delete.slot.key, None)

    async def _delete_message(self, placed: PlacedMessage) -> None:
        with contextlib.suppress(discord.NotFound):
            await self._partial(placed).delete()

    def _partial(self, placed: PlacedMessage) -> discord.PartialMessage:
        channel = self.client.get_partial_messageable(placed.channel_id)
        return channel.get_partial_message(placed.message_id)

    # -- pings --------------------------------------------------------------------

    async def hold_ping(self, show: Show) -> None:
        """Hold a ping back until it falls due (see :mod:`adapters.discord.pings`)."""
        chat = await self.game_chat(show.slot)
        if chat is None or show.slot.user is None:
            return
        if not await self.is_current(show):
            return
        content = render(addressed(show), notify=True).content
        # His hand can no longer be edited, and says to wait: he is told at once.
        stale = await self.messages.hand_is_stale(chat, show.slot.user)
        if stale:
            _ = translator(pick_language(show.slot.user.lang, DEFAULT_LANG))
            content += "\n" + escape(_(STALE_HAND))
        await self.pings.hold(show, chat, content, at_once=stale)

    async def send_due_pings(self) -> None:
        """Send the held pings that fell due, each naming only its player."""
        for held in await self.pings.claim_due():
            try:
                await self._send_ping(held)
            except discord.HTTPException as exc:
                log.warning("Discord refused a ping: %s", exc)

    async def _send_ping(self, held: HeldPing) -> None:
        channel = self.client.get_partial_messageable(channel_of(held.chat))
        only_him = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(int(held.user_id))]
        )
        sent = await channel.send(content=held.content, allowed_mentions=only_him)
        placed = PlacedMessage(channel_of(held.chat), sent.id)
        if not await self.pings.sent(held, placed):  # its player moved while it was sent
            await self._delete_message(placed)

    # -- hands --------------------------------------------------------------------

    async def push_hand(self, show: Show) -> None:
        """Edit the owner's last ephemeral hand while its token is valid; otherwise the
        hand waits until he asks for it (an ephemeral message has no other way in)."""
        user = show.slot.user
        chat = await self.game_chat(show.slot)
        if user is None or chat is None:
            return
        token = await self.messages.hand_token(chat, user)
        if token is None:
            return
        async with self.lock(show.slot):
            if not await self.is_current(show):
                return
            rendered = render(show.screen)
            params = handle_message_parameters(**rendered.edit_kwargs())
            # A hand that would look the same (only its unpressable tiles' payloads
            # changed) is not edited again: that would be a request for nothing.
            signature = hand_signature_of(token, params.payload, show.screen.picture)
            if signature == await self.messages.hand_signature(chat, user):
                return
            webhook = hand_webhook(self.client, token)
            try:
                await webhook.edit_message(hand_message_id(token), **rendered.edit_kwargs())
            except (discord.NotFound, discord.Forbidden, discord.HTTPException) as exc:
                log.info("could not refresh a hand (%s); the player asks again", exc)
                await self.messages.forget_hand(chat, user)
                return
            await self.messages.remember_hand_signature(chat, user, signature)

    async def _delete_hand(self, slot: Slot) -> None:
        chat = await self.game_chat(slot)
        if slot.user is None or chat is None:
            return
        token = await self.messages.hand_token(chat, slot.user)
        await self.messages.forget_hand(chat, slot.user)
        if token is not None:
            try:
                await hand_webhook(self.client, token).delete_message(hand_message_id(token))
            except discord.HTTPException as exc:
                log.info("could not remove a hand: %s", exc)

    async def remember_hand(self, chat: ChatRef, user: UserRef, token: HandToken) -> None:
        """Keep ``token`` as the user's newest hand; the hand it replaces, if it is
        another message and can still be edited, loses its buttons."""
        old = await self.messages.hand_token(chat, user)
        await self.messages.remember_hand(chat, user, token)
        if old is None or old.shown is None or old.shown == token.shown:
            return
        _ = translator(pick_language(user.lang, DEFAULT_LANG))
        rendered = render(replaced_hand_screen(_))
        try:
            await hand_webhook(self.client, old).edit_message(
                hand_message_id(old), **rendered.edit_kwargs()
            )
        except discord.HTTPException as exc:
            log.info("could not retire an older hand: %s", exc)


async def _nobody_unreachable(event: Unreachable) -> list[Outbound]:
    """Discord never says a person cannot be reached: a hand has no chat of its own."""
    return []

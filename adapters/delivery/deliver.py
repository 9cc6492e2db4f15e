"""Delivering the core's outbound instructions within a platform's limits.

Each chat has a mailbox and one worker that empties it in order, waiting for the
chat's send budget (see :mod:`adapters.delivery.limiter`) before every message or
edit, and hands each instruction to the platform's transport
(:class:`.transport.Transport`), which makes the calls. While it waits, a newer screen
for a slot replaces the one still in the mailbox, so a burst of moves becomes one edit
carrying the latest state: nothing is lost (the newest version wins) and nothing goes
out of order (a replaced screen moves behind what was queued before it). Only
successive versions of one screen are merged: one-off messages — responses to
commands, notices, files — each go out, in the order the core produced them.

A turn ping is held back as the one ping policy says (:func:`adapters.pings.falls_due`,
reached through :mod:`.holding`), in Redis, and sent by whichever worker runs the timer
round only if its player has not moved meanwhile: deleting one still held drops it.
Holding and dropping go through a mailbox of their own, never behind a send budget. A
write refused for want of a right is kept to be shown again once the right is back
(``keep_refused``, Discord), or, refused again, is the bot's removal from the group
(``on_removed``, Telegram). The game screens a mailbox holds are noted in a
:class:`PendingBook` and struck off once shown, so that if this process dies with them,
another draws them again (see :mod:`adapters.delivery.catchup`); the one-off messages
are noted in the chat's :class:`RedisOutbox` alike, for another process to send.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import replace

from adapters.delivery.carried import CarriedWatch, Watches
from adapters.delivery.clock import Clock
from adapters.delivery.holding import Drop, Hold, PingHolder
from adapters.delivery.limiter import Pacer, SendLog, SendTurns
from adapters.delivery.mailbox import ONCE, Mail, describe, is_ping, mailbox_of, next_key, put_back
from adapters.delivery.outbox import Entry, Once, RedisOutbox
from adapters.delivery.pending import PendingBook
from adapters.delivery.transport import (
    STORE_DOWN,
    ChatUnreachable,
    NoPermission,
    Refused,
    Sent,
    Transport,
)
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
    Unreachable,
    UserRef,
)

log = logging.getLogger(__name__)

OUTAGE_WAIT = 0.5  # seconds between tries while the store is down
FAILED_WAIT = 0.5  # seconds before a step that failed otherwise is tried again, doubled
FAILED_WAIT_MOST = 30.0  # each time it fails again, up to this
AFTER = "after "  # the tasks that hold a press's other screens until his own hand is shown
ReportUnreachable = Callable[[Unreachable], Awaitable[Sequence[Outbound]]]
ReportRemoved = Callable[[ChatRef], Awaitable[None]]
REMOVED_AFTER = 2  # refusals in a row for want of a right that count as the bot's removal


class Deliverer:
    """Queues outbound instructions per chat and carries them out, paced and merged."""

    def __init__(
        self,
        transport: Transport,
        send_log: SendLog,
        clock: Clock,
        on_unreachable: ReportUnreachable,
        pending: PendingBook | None = None,
        outbox: RedisOutbox | None = None,
        pings: PingHolder | None = None,
        on_removed: ReportRemoved | None = None,
        keep_refused: Callable[[Mail], None] | None = None,
    ) -> None:
        self.transport = transport
        transport.newer_queued = self._newer_queued
        self._pings = pings  # without them, a ping is sent at once
        self._clock = clock
        self._pending = pending
        self._unnoted: dict[str, list[Show]] = {}
        self._outbox = outbox
        self._unnoted_once: dict[str, list[tuple[str, Once]]] = {}
        self._names: dict[str, str] = {}  # a one-off message's mailbox key -> its outbox name
        self._unstruck: list[tuple[str, str]] = []  # sent, not yet struck off: chat, name
        self._pacer = Pacer(send_log, clock, transport.budget)
        self._on_unreachable = on_unreachable
        self._on_removed = on_removed
        self._keep_refused = keep_refused
        self._refused: dict[str, int] = {}  # group -> refusals in a row for want of a right
        self._boxes: dict[str, dict[str, Mail]] = {}
        self._workers: dict[str, asyncio.Task[None]] = {}
        self._carried = CarriedWatch()
        self._once = itertools.count()

    async def answer(self, query_id: str, answer: Answer) -> None:
        """Answered at once: a press's answer is due within seconds and costs no budget."""
        await self.transport.answer(query_id, answer)

    def _newer_queued(self, show: Show) -> bool:
        """Whether a newer version of ``show``'s screen waits in its mailbox."""
        queued = self._boxes.get(mailbox_of(show), {}).get("show " + show.slot.key)
        return isinstance(queued, Show) and queued.version > show.version

    def submit(self, outbounds: Iterable[Outbound]) -> None:
        for item in outbounds:
            if isinstance(item, Answer):
                continue  # an answer with no press to answer: nothing to do
            if isinstance(item, Response) and item.to is not None:
                # For one person alone: a chat shows a message in a group to everybody,
                # so it goes to his private chat, out of the group's budget.
                item = replace(item, chat=self.transport.private_chat(item.to), reply_to=None)
            self._post(item)

    def privately(self, response: Response, to: UserRef) -> asyncio.Future[bool]:
        """``response`` for ``to`` alone, privately: ends True if the platform refused him."""
        item = replace(response, chat=self.transport.private_chat(to), reply_to=None)
        self._post(item)
        chat = mailbox_of(item)
        return self._carried.watch(chat, next(reversed(self._boxes[chat])))

    def resend(self, entries: Sequence[Entry]) -> None:
        """Send one-off messages a process that is gone had queued (noted already)."""
        for entry in entries:
            self._post(entry.message, noted=entry.name)

    async def _note(self, chat: str) -> None:
        """Note what was posted to the mailbox since its worker last looked; the same
        worker strikes each off once it went out, so never before it is noted."""
        shows = self._unnoted.pop(chat, [])
        once = self._unnoted_once.pop(chat, [])
        try:
            if shows and self._pending is not None:
                await self._pending.note(shows)
            if once and self._outbox is not None:
                await self._outbox.note(ChatRef.from_key(chat), once)
        except STORE_DOWN as err:
            # Still queued here; should this process die too, the stored game is drawn.
            log.warning("could not note what is queued for %s (%s)", chat, err)

    async def _strike_off_sent(self, chat: str, key: str) -> None:
        """A one-off message went out (or was given up on): off the outbox, with any a
        store that was down kept there. The list is taken whole before any wait, as the
        workers of other chats strike theirs off meanwhile."""
        name = self._names.pop(key, None)
        if self._outbox is None or name is None:
            return
        waiting, self._unstruck = [*self._unstruck, (chat, name)], []
        for done, (at, entry) in enumerate(waiting):
            try:
                await self._outbox.strike_off(ChatRef.from_key(at), entry)
            except STORE_DOWN as err:
                self._unstruck += waiting[done:]
                log.warning("could not strike a sent message off the outbox (%s)", err)
                return

    async def _strike_off_shown(self, item: Mail) -> None:
        if self._pending is None or not isinstance(item, Show):
            return
        try:
            await self._pending.strike_off(item)
        except STORE_DOWN as err:
            log.warning("could not strike off a shown screen (%s)", err)

    async def release_pings(self) -> None:
        """Send the held pings due whose player has not moved (the timer loop asks)."""
        if self._pings is not None:
            for ping in await self._pings.release(self._clock.now()):
                self._post(ping, held=False)

    def _post(self, item: Mail, noted: str | None = None, *, held: bool = True) -> None:
        if self._pings is not None and held and isinstance(item, Show) and is_ping(item):
            self._post(self._pings.hold_of(item, self._clock.now()))
            return
        if self._pings is not None and isinstance(item, Delete) and is_ping(item):
            self._post(Drop(item.slot))  # its player moved: a ping still held is never sent
        chat = mailbox_of(item)
        box = self._boxes.setdefault(chat, {})
        if isinstance(item, Show) and self._pending is not None:
            self._unnoted.setdefault(chat, []).append(item)
        if isinstance(item, Show):
            key = "show " + item.slot.key
            queued = box.pop(key, None)
            if isinstance(queued, Show) and queued.version > item.version:
                item = queued  # an older screen arrived late; the newer one stays
            if isinstance(queued, Show) and queued.notify and not item.notify:
                item = replace(item, notify=True)  # the merged screen still notifies
            if isinstance(queued, Show) and queued.renew and not item.renew:
                # A deal's first table merged with the first move: still posted anew.
                item = replace(item, renew=True, pin=queued.pin or item.pin)
            box[key] = item
        elif isinstance(item, Delete):
            box.pop("show " + item.slot.key, None)  # never shown, so nothing to show
            box.pop("delete " + item.slot.key, None)
            box["delete " + item.slot.key] = item
        elif isinstance(item, Hold):
            box.pop("hold " + item.ping.slot.key, None)  # a newer ping starts its wait again
            box["hold " + item.ping.slot.key] = item
        elif isinstance(item, Drop):
            box.pop("hold " + item.slot.key, None)  # never held, but one held before may be
            box.pop("drop " + item.slot.key, None)
            box["drop " + item.slot.key] = item
        else:
            number = next(self._once)
            box[f"{ONCE}{number}"] = item
            if self._outbox is not None:
                name = noted or self._outbox.name(number)
                self._names[f"{ONCE}{number}"] = name
                if noted is None:
                    self._unnoted_once.setdefault(chat, []).append((name, item))
        if chat not in self._workers:
            self._workers[chat] = asyncio.create_task(self._work(chat), name=f"deliver {chat}")

    def first(self, items: Sequence[Show], then: Sequence[Outbound]) -> None:
        """Carry ``items`` out before ``then`` (a presser's own hand, redrawn before the
        table and the other hands his press changed, and his ping in another chat).
        The caller does not wait: while the bot's send budget is spent, a press handler
        held here would stop the bot taking further updates, their answers included.
        ``then`` waits for ``items`` alone, not for their mailboxes to empty (:mod:`.carried`)."""
        for item in items:
            self._post(item)
        keys = [(mailbox_of(item), "show " + item.slot.key) for item in items]
        watches = [self._carried.watch(*at) for at in keys if at[1] in self._boxes.get(at[0], {})]
        if not watches:
            self.submit(then)
            return
        key = f"{AFTER}{next(self._once)}"
        self._workers[key] = asyncio.create_task(self._after(key, watches, then), name=key)

    async def _after(self, key: str, watches: Watches, then: Sequence[Outbound]) -> None:
        try:
            await asyncio.wait(watches)
            self.submit(then)
        finally:
            self._workers.pop(key, None)

    async def drain(self) -> None:
        """Wait until every mailbox is empty (including what undeliverable hands caused)."""
        while self._workers:
            await asyncio.gather(*list(self._workers.values()), return_exceptions=True)

    async def close(self) -> None:
        """Stop; what was posted and not yet noted is noted, for another process to send."""
        for task in list(self._workers.values()):
            task.cancel()
        await asyncio.gather(*list(self._workers.values()), return_exceptions=True)
        for chat in {*self._unnoted, *self._unnoted_once}:
            await self._note(chat)
        self._workers.clear()
        self._boxes.clear()
        self._carried.end_all()

    @property
    def idle(self) -> bool:
        """Nothing queued and nothing being sent."""
        return not self._workers

    async def _work(self, chat: str) -> None:
        """Empty the chat's mailbox. No error ends this loop while screens wait in it: a
        step that failed is logged and tried again, later each time, with what it held."""
        box = self._boxes[chat]
        store_down = False
        failures = 0
        try:
            while box:
                try:
                    await self._note(chat)
                    await self._deliver_next(chat, box, store_down)
                    store_down = False
                    failures = 0
                except STORE_DOWN as err:
                    # A screen needs the store (its message and version are kept there):
                    # it stays queued until the store is back, while the messages that
                    # need none (the answer that the table is unavailable) go out.
                    store_down = True
                    if next_key(box, store_down).startswith(ONCE):
                        continue
                    log.warning("cannot reach the store for %s (%s); waiting", chat, err)
                    await asyncio.sleep(OUTAGE_WAIT)
                except Exception:
                    failures += 1
                    wait = min(FAILED_WAIT * 2 ** (failures - 1), FAILED_WAIT_MOST)
                    log.exception("delivering to %s failed; trying again in %.1f s", chat, wait)
                    await asyncio.sleep(wait)
        finally:
            self._workers.pop(chat, None)
            if not box:
                self._carried.end_chat(chat)
                self._boxes.pop(chat, None)
                self._unnoted.pop(chat, None)
                self._unnoted_once.pop(chat, None)

    async def _deliver_next(self, chat: str, box: dict[str, Mail], store_down: bool) -> None:
        first = None
        if not isinstance(box[next_key(box, store_down)], Delete | Hold | Drop):
            first = await self._pacer.turn(chat)
            if not box:
                await self._pacer.done(first)
                return
        key = next_key(box, store_down)  # what waited may have been replaced meanwhile
        item = box.pop(key)
        watches = self._carried.take(chat, key)
        turns = SendTurns(self._pacer, chat, first)
        try:
            await self._carry(item, turns, lambda: self._strike_off_sent(chat, key))
        except ChatUnreachable as err:
            self._carried.end(watches, refused=True)
            await self._report_unreachable(item, box, err)
        except NoPermission as err:
            log.warning("could not deliver %s: %s", describe(item), err)
            await self._forbidden(chat, box, item)
        except Refused as err:
            # Refused, or failed every attempt: drawing it again would fail alike. The
            # platform said why, and that is all there is to log.
            log.warning("could not deliver %s: %s", describe(item), err)
        except Exception:
            put_back(box, key, item)  # the store down, or this process at fault: again later
            self._carried.put_back(chat, key, watches)
            watches = []
            raise
        else:
            self._refused.pop(chat, None)
        finally:
            await turns.close()
            self._carried.end(watches)
        # Shown, or given up on (drawing it again would fail alike).
        await self._strike_off_shown(item)
        await self._strike_off_sent(chat, key)

    async def _forbidden(self, chat: str, box: dict[str, Mail], item: Mail) -> None:
        """A write to a group was refused for want of a right: ``item`` kept for when it is
        back, or, refused again, the bot is out of it (the update may never come): its
        game stops, and what waits for it is dropped (refused alike)."""
        if self._keep_refused is not None:
            return self._keep_refused(item)
        count = self._refused[chat] = self._refused.get(chat, 0) + 1
        if count < REMOVED_AFTER or self._on_removed is None:
            return
        self._refused.pop(chat, None)
        for key in [key for key in box if key.startswith(ONCE)]:
            await self._strike_off_sent(chat, key)
        box.clear()
        self._carried.end_chat(chat)
        try:
            await self._on_removed(ChatRef.from_key(chat))
        except Exception:
            log.exception("could not stop the game of %s", chat)

    async def _carry(self, item: Mail, turns: SendTurns, sent: Sent) -> None:
        """Carry ``item`` out; a one-off message is struck off (``sent``) as soon as
        the platform has taken it, before its tidying, so a process that dies after sending
        it leaves nothing for another to send again."""
        if isinstance(item, Show):
            await self.transport.show(item, turns)
        elif isinstance(item, Delete):
            await self.transport.delete(item, turns)
        elif isinstance(item, Notice | Response | Document):
            await self.transport.send_once(item, turns, sent)
        elif self._pings is not None:
            await self._pings.carry(item)

    async def _report_unreachable(
        self, item: Mail, box: dict[str, Mail], err: ChatUnreachable
    ) -> None:
        """Tell the core once per slot; what else waits for this chat would fail alike."""
        slots: dict[str, Slot] = {}
        for mail in [item, *box.values()]:
            if isinstance(mail, Show) and mail.slot.user is not None:
                slots.setdefault(mail.slot.key, mail.slot)
            elif isinstance(mail, Notice) and mail.unreachable is not None:
                self._post(mail.unreachable)  # what to show instead, where it was asked for
        for key in [key for key in box if key.startswith(ONCE)]:
            await self._strike_off_sent(mailbox_of(item), key)
        box.clear()
        self._carried.end_chat(mailbox_of(item), refused=True)
        log.info("cannot write to %s (%s)", mailbox_of(item), err)
        for slot in slots.values():
            assert slot.user is not None
            try:
                self.submit(await self._on_unreachable(Unreachable(slot.user, slot)))
            except Exception:
                log.exception("the core failed on an unreachable %s", slot.key)

"""How often the bot may write to one chat: the send budget, shared by every worker.

A platform limits how often a bot writes to one chat and to all its chats together; its
:class:`Budget` says how (Telegram's, about one message a second in a chat, twenty a
minute in a group and thirty a second over all chats, is in
:mod:`adapters.telegram.budget`), and every send also reserves a turn in the bot-wide
rules, under the budget's pseudo-chat. Each limit is a :class:`Rule` ("at most ``count``
sends in any ``period`` seconds"), and a send log per chat remembers when the
last sends happened. Before a send, the sender *reserves* the earliest moment
every rule allows; after it, it *marks* the reservation *done* at the moment the send
finished, so the next one is spaced from when the platform actually saw it. A turn taken
while another worker's write to the chat was still on its way is confirmed when it
comes, once that write is done.

A turn is a plan: the request may leave later than its turn (the slot book is read
first, the event loop is busy, the connection pool is full, a flood wait is waited
out), and it reaches the platform at some moment between leaving and its answer. So the
bot-wide limit is also *claimed* at the moment the request leaves: it may leave only
while fewer writes than the bot-wide rule's count (thirty on Telegram) are on their way
or were answered within its period. Any one write more that the platform saw within
that period would then have left while all the others counted, which cannot be.

The log lives in memory for one process, or in Redis so that several webhook
workers serving one bot share each chat's budget (:mod:`adapters.delivery.sharedlog`).

Written by hand, not as python-telegram-bot's ``BaseRateLimiter``: that hook wraps a
request already made, with its text and buttons, while here a turn is waited for before
the mailbox's head is chosen, so that a newer screen of the slot queued meanwhile is
what goes out in it (a burst of moves becomes one edit); the hook sees an endpoint and
its data, not the slot, the version, or whether a newer one replaced it. A write's place
in the bot-wide limit is claimed as its request leaves (:meth:`SendTurns.within`), which
the hook could do alone; the chat's turn it could not.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol, TypeVar

from adapters.delivery.clock import Clock
from bot.model.contract import ChatRef

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Rule:
    count: int
    period: float


@dataclass(frozen=True, slots=True)
class Budget:
    """A platform's send rules: each chat's (``for_chat``), and the bot's over all its
    chats together (``bot_wide``), kept in the send log under the pseudo-chat
    ``everyone``, which every worker of the bot shares."""

    for_chat: Callable[[ChatRef], Sequence[Rule]]
    everyone: str
    bot_wide: tuple[Rule, ...]


def earliest(sent: Sequence[float], rules: Sequence[Rule], now: float) -> float:
    """The first moment from ``now`` on at which one more send keeps every rule.

    ``sent`` holds the moments of earlier sends in ascending order. A rule allows a
    send at ``t`` when its ``count``-th latest send is at least ``period`` before ``t``.
    """
    moment = now
    for rule in rules:
        if len(sent) >= rule.count:
            moment = max(moment, sent[-rule.count] + rule.period)
    return moment


class SendLog(Protocol):
    async def reserve(
        self, chat: str, rules: Sequence[Rule], now: float, not_before: float | None = None
    ) -> Reservation:
        """A turn at ``now`` or later (not before ``not_before``) that keeps ``rules``."""
        ...

    async def confirm(
        self, reservation: Reservation, rules: Sequence[Rule], now: float
    ) -> float | None:
        """At a reservation's turn: ``None`` if it still keeps every rule, else the moment
        to ask again (an earlier write is still on its way, or landed later than its turn)."""
        ...

    async def claim(
        self, reservation: Reservation, rules: Sequence[Rule], now: float
    ) -> Reservation | float:
        """The request of a reservation leaves now: the reservation as a write on its
        way, if ``rules`` allow one more counting every write on its way and those
        answered within each rule's period; else the moment to ask again."""
        ...

    async def mark_done(self, reservation: Reservation, done: float) -> None: ...

    async def release(self, reservation: Reservation) -> None:
        """A turn no write was made in: forgotten, as if it had never been reserved."""
        ...


@dataclass(frozen=True, slots=True)
class Reservation:
    chat: str
    at: float
    token: str
    bot_wide: Reservation | None = None  # the same send's turn in the bot's whole budget
    behind: bool = False  # reserved behind another worker's write not yet done
    left: bool = False  # its request has left (its place in the bot-wide limit claimed)


class MemorySendLog:
    """The send log of one process. A chat's entries are (moment, token, state): "r"
    reserved for its turn, "s" on its way since the moment, "d" done at the moment."""

    def __init__(self) -> None:
        self._sent: dict[str, list[tuple[float, str, str]]] = {}

    async def reserve(
        self, chat: str, rules: Sequence[Rule], now: float, not_before: float | None = None
    ) -> Reservation:
        entries = self._sent.setdefault(chat, [])
        longest = max(rule.period for rule in rules)
        entries[:] = [e for e in entries if e[0] > now - longest or e[2] == "s"]
        moments = sorted(max(now, m) if state == "s" else m for m, _, state in entries)
        at = earliest(moments, rules, max(now, not_before or now))
        reservation = Reservation(chat, at, uuid.uuid4().hex)
        entries.append((at, reservation.token, "r"))
        entries.sort()
        return reservation

    async def confirm(
        self, reservation: Reservation, rules: Sequence[Rule], now: float
    ) -> float | None:
        return None  # one process writes to a chat one instruction at a time

    async def claim(
        self, reservation: Reservation, rules: Sequence[Rule], now: float
    ) -> Reservation | float:
        entries = self._sent.setdefault(reservation.chat, [])
        on_way = sum(
            1 for _, token, state in entries if state == "s" and token != reservation.token
        )
        answered = [m for m, _, state in entries if state == "d"]
        again = busy_until(on_way, answered, rules, now)
        if again is not None:
            return again
        entries[:] = [e for e in entries if e[1] != reservation.token]
        entries.append((now, reservation.token, "s"))
        entries.sort()
        return reservation

    async def mark_done(self, reservation: Reservation, done: float) -> None:
        entries = self._sent.get(reservation.chat, [])
        entries[:] = sorted(
            (max(moment, done), token, "d")
            if token == reservation.token
            else (moment, token, state)
            for moment, token, state in entries
        )

    async def release(self, reservation: Reservation) -> None:
        entries = self._sent.get(reservation.chat, [])
        entries[:] = [e for e in entries if e[1] != reservation.token]


def busy_until(
    on_way: int, answered: Sequence[float], rules: Sequence[Rule], now: float
) -> float | None:
    """``None`` when one more write may leave at ``now`` (every write on its way and
    every one answered within a rule's period counts against it), else when to ask again:
    the soonest a write that holds a spent rule leaves its period, which for one still
    on its way is a period from now at the earliest."""
    again: float | None = None
    for rule in rules:
        recent = sorted(m for m in answered if m > now - rule.period)
        if on_way + len(recent) < rule.count:
            continue
        moment = min(recent[0], now) + rule.period if recent else now + rule.period
        again = moment if again is None else max(again, moment)
    return again


CLAIMING = 4  # writes of one process asking for their place in the bot-wide limit at once


class Pacer:
    """Waits for a chat's turn to write, and records when the write was done."""

    def __init__(
        self,
        send_log: SendLog,
        clock: Clock,
        budget: Budget,
    ) -> None:
        self._log = send_log
        self._clock = clock
        self._budget = budget
        self._claims = asyncio.Semaphore(CLAIMING)

    async def turn(self, chat: str) -> Reservation:
        """Wait for a turn that keeps the chat's rules and the bot-wide one."""
        budget = self._budget
        limits = budget.for_chat(ChatRef.from_key(chat))
        mine = await self._log.reserve(chat, limits, self._clock.now())
        everyone = await self._log.reserve(
            budget.everyone, budget.bot_wide, self._clock.now(), mine.at
        )
        reservation = replace(mine, at=max(mine.at, everyone.at), bot_wide=everyone)
        await self._clock.sleep_until(reservation.at)
        # Taken behind another worker's write: spaced from when that one reaches the platform,
        # which was not known when this turn was taken.
        while mine.behind:
            again = await self._log.confirm(mine, limits, self._clock.now())
            if again is None:
                return replace(reservation, at=max(reservation.at, self._clock.now()))
            await self._clock.sleep_until(again)
        return reservation

    async def turn_bot_wide(self) -> Reservation:
        """Wait for a turn in the bot-wide budget alone (a deletion: no message in the
        chat, but a write all the same)."""
        budget = self._budget
        everyone = await self._log.reserve(budget.everyone, budget.bot_wide, self._clock.now())
        await self._clock.sleep_until(everyone.at)
        return everyone

    async def go(self, reservation: Reservation) -> Reservation:
        """Wait until the write may leave as the bot-wide limit stands now, and count it
        as on its way; the reservation to mark done once it is answered."""
        wide = reservation.bot_wide or reservation
        if wide.chat != self._budget.everyone:
            return replace(reservation, left=True)
        # A few writes of this process ask at a time, the others queue here in order:
        # while the budget was spent, every write asking Redis again and again filled
        # the connections, and the answers that free the budget waited behind them.
        async with self._claims:
            while True:
                claimed = await self._log.claim(wide, self._budget.bot_wide, self._clock.now())
                if isinstance(claimed, Reservation):
                    break
                await self._clock.sleep_until(claimed)
        if wide is reservation:
            return replace(claimed, left=True)
        return replace(reservation, bot_wide=claimed, left=True)

    async def done(self, reservation: Reservation) -> None:
        """The write of a turn was answered, or none was made in it (its screen was shown
        by another worker meanwhile, or it was not needed): a turn no request left in
        counts as no write, in the chat and bot-wide, or the bot-wide budget would be
        spent on writes never made."""
        now = self._clock.now()
        if not reservation.left:
            if reservation.bot_wide is not None:
                await self._log.release(reservation.bot_wide)
            await self._log.release(reservation)
            return
        if reservation.bot_wide is not None:  # first: other writes wait for it
            await self._log.mark_done(reservation.bot_wide, now)
        await self._log.mark_done(reservation, now)


class SendTurns:
    """The writes one instruction makes to a chat: for each, :meth:`spend` waits for its
    turn, :meth:`go` claims its place in the bot-wide limit just before the request
    leaves, and :meth:`answered` marks it done. The first one's turn was waited for while
    the instruction sat in its mailbox; any further write (a retry after a flood wait, a
    message sent again) waits for a turn of its own. A deletion posts nothing in the
    chat: it takes a bot-wide turn alone."""

    def __init__(self, pacer: Pacer | None, chat: str, first: Reservation | None) -> None:
        self._pacer = pacer
        self._chat = chat
        self._unspent = first
        self._held: Reservation | None = None

    async def spend(self, in_chat: bool = True) -> None:
        if self._pacer is None:
            return
        await self.answered()
        if not in_chat:
            self._held = await self._pacer.turn_bot_wide()
        elif self._unspent is not None:
            self._held, self._unspent = self._unspent, None
        else:
            self._held = await self._pacer.turn(self._chat)

    async def within(self, call: Callable[[], Awaitable[T]]) -> T:
        """Make the call once the bot-wide limit lets it leave, and mark its place done as
        soon as it is answered (or fails): the limit counts it from leaving till then."""
        if self._pacer is not None and self._held is not None:
            self._held = await self._pacer.go(self._held)
        try:
            return await call()
        finally:
            await self.answered()

    async def answered(self) -> None:
        if self._pacer is not None and self._held is not None:
            held, self._held = self._held, None
            await self._pacer.done(held)

    async def close(self) -> None:
        if self._pacer is None:
            return
        for reservation in (self._held, self._unspent):
            if reservation is not None:
                await self._pacer.done(reservation)
        self._held = self._unspent = None


UNPACED = SendTurns(None, "", None)
"""For writes that cost no budget."""

"""The deliverer against a transport of no platform: what the shared layer does itself
(merging a burst of screens into the newest, keeping the send budget, holding pings
back) and what it does with the refusals a transport reports in its words."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest

from adapters.delivery.deliver import REMOVED_AFTER, Deliverer
from adapters.delivery.holding import Drop, Hold
from adapters.delivery.limiter import Budget, MemorySendLog, Rule, SendTurns
from adapters.delivery.outbox import Once
from adapters.delivery.transport import ChatUnreachable, NoPermission, Refused, Sent
from bot.model.contract import (
    Answer,
    ChatRef,
    Delete,
    Document,
    Notice,
    Outbound,
    Screen,
    Show,
    Slot,
    SlotKind,
    Unreachable,
    UserRef,
)
from tests.adapters.delivery.test_limiter import assert_keeps
from tests.adapters.delivery.vclock import VirtualClock

CHAT_RULES = (Rule(1, 2.0),)
BUDGET = Budget(lambda chat: CHAT_RULES, "xx:bot", (Rule(10, 1.0),))
GROUP = ChatRef("xx", "g1")
ANN = UserRef("xx", "ann", "Ann")
TABLE = Slot(SlotKind.TABLE, GROUP, "game")
HAND = Slot(SlotKind.HAND, ChatRef("xx", "ann"), "game", ANN, GROUP)
PING = Slot(SlotKind.PING, ChatRef("xx", "ann"), "game", ANN, GROUP)


def screen(text: str) -> Screen:
    return Screen(((text,),))


@dataclass
class Transport:
    """Records what it was asked to do, when, and refuses what it is told to."""

    clock: VirtualClock
    budget: Budget = BUDGET
    done: list[tuple[float, str]] = field(default_factory=list)
    refuse: dict[str, Exception] = field(default_factory=dict)  # chat key -> the refusal

    def __post_init__(self) -> None:
        self.newer_queued = lambda show: False

    def private_chat(self, user: UserRef) -> ChatRef:
        return ChatRef(user.platform, user.user_id)

    async def answer(self, query_id: str, answer: Answer) -> None:
        self.done.append((self.clock.now(), f"answer {answer.text}"))

    async def _write(self, chat: ChatRef, what: str, turns: SendTurns) -> None:
        await turns.spend()
        await turns.within(self._refuse_or_note(chat, what))

    def _refuse_or_note(self, chat: ChatRef, what: str):  # type: ignore[no-untyped-def]
        async def call() -> None:
            refusal = self.refuse.get(chat.key)
            if refusal is not None:
                raise refusal
            self.done.append((self.clock.now(), what))

        return call

    async def show(self, show: Show, turns: SendTurns) -> None:
        await self._write(show.slot.chat, f"show {show.slot.kind.value} {show.version}", turns)

    async def delete(self, delete: Delete, turns: SendTurns) -> None:
        await self._write(delete.slot.chat, f"delete {delete.slot.kind.value}", turns)

    async def send_once(self, item: Once, turns: SendTurns, sent: Sent) -> None:
        text = item.filename if isinstance(item, Document) else item.screen.plain_text()
        await self._write(item.chat, f"once {text}", turns)
        if sent is not None:
            await sent()


@dataclass
class Core:
    told: list[Unreachable] = field(default_factory=list)
    removed: list[ChatRef] = field(default_factory=list)

    async def report(self, event: Unreachable) -> Sequence[Outbound]:
        self.told.append(event)
        return []

    async def remove(self, chat: ChatRef) -> None:
        self.removed.append(chat)


@dataclass
class Pings:
    """Holds every ping for ten seconds; what was held and dropped is kept in a list."""

    carried: list[Hold | Drop] = field(default_factory=list)

    def hold_of(self, ping: Show, now: float) -> Hold:
        return Hold(ping, now + 10)

    async def carry(self, item: Hold | Drop) -> None:
        self.carried.append(item)

    async def release(self, now: float) -> list[Show]:
        return [item.ping for item in self.carried if isinstance(item, Hold) and item.due <= now]


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock()


def deliverer(transport: Transport, core: Core, pings: Pings | None = None) -> Deliverer:
    return Deliverer(
        transport,
        MemorySendLog(),
        transport.clock,
        core.report,
        pings=pings,
        on_removed=core.remove,
    )


async def test_a_burst_of_screens_becomes_the_newest_within_the_platforms_budget(
    clock: VirtualClock,
) -> None:
    transport, core = Transport(clock), Core()
    delivery = deliverer(transport, core)
    for version in range(1, 6):
        delivery.submit([Show(TABLE, screen(f"v{version}"), version)])
    delivery.submit([Notice(GROUP, screen("hello")), Show(TABLE, screen("v6"), 6)])
    await delivery.drain()
    # Queued before the chat's first turn: the six versions became the newest one, which
    # moved behind the notice queued before it.
    assert [what for _, what in transport.done] == ["once hello", "show table 6"]
    delivery.submit([Show(TABLE, screen("v7"), 7), Show(TABLE, screen("v6"), 6)])
    await delivery.drain()  # an older version arriving late never replaces a newer one
    assert [what for _, what in transport.done][2:] == ["show table 7"]
    assert_keeps([at for at, _ in transport.done], CHAT_RULES)


async def test_a_refusal_for_want_of_a_right_twice_stops_the_group_and_drops_the_rest(
    clock: VirtualClock,
) -> None:
    transport, core = Transport(clock, refuse={GROUP.key: NoPermission("no right")}), Core()
    delivery = deliverer(transport, core)
    for version in range(1, REMOVED_AFTER + 3):
        delivery.submit([Show(TABLE, screen("t"), version)])
        await delivery.drain()
    assert core.removed == [GROUP, GROUP]
    assert transport.done == []


async def test_a_platform_that_keeps_what_a_right_refused_never_stops_the_group(
    clock: VirtualClock,
) -> None:
    transport, core = Transport(clock, refuse={GROUP.key: NoPermission("no right")}), Core()
    kept: list[object] = []
    delivery = Deliverer(
        transport, MemorySendLog(), clock, core.report, on_removed=core.remove,
        keep_refused=kept.append,
    )  # fmt: skip
    shows = [Show(TABLE, screen("t"), version) for version in range(1, REMOVED_AFTER + 3)]
    for show in shows:
        delivery.submit([show])
        await delivery.drain()
    assert kept == shows
    assert core.removed == []
    assert transport.done == []


async def test_an_unreachable_person_is_reported_once_per_slot(clock: VirtualClock) -> None:
    private = HAND.chat
    transport, core = Transport(clock, refuse={private.key: ChatUnreachable("blocked")}), Core()
    delivery = deliverer(transport, core)
    delivery.submit([Show(HAND, screen("hand"), 1), Notice(private, screen("psst"))])
    await delivery.drain()
    assert core.told == [Unreachable(ANN, HAND)]
    assert transport.done == []


async def test_a_refused_instruction_is_given_up_and_the_next_goes_out(clock: VirtualClock) -> None:
    transport, core = Transport(clock), Core()
    delivery = deliverer(transport, core)
    transport.refuse[GROUP.key] = Refused("bad request")
    delivery.submit([Notice(GROUP, screen("refused"))])
    await delivery.drain()
    del transport.refuse[GROUP.key]
    delivery.submit([Notice(GROUP, screen("fine"))])
    await delivery.drain()
    assert [what for _, what in transport.done] == ["once fine"]
    assert core.removed == [] and core.told == []


async def test_a_ping_is_held_and_dropped_by_the_platforms_policy_not_sent(
    clock: VirtualClock,
) -> None:
    transport, core, pings = Transport(clock), Core(), Pings()
    delivery = deliverer(transport, core, pings)
    ping = Show(PING, screen("your turn"), 3, notify=True)
    delivery.submit([ping])
    await delivery.drain()
    delivery.submit([Delete(PING, 4)])
    await delivery.drain()
    assert pings.carried == [Hold(ping, clock.now() + 10), Drop(PING)]
    # Never shown; the deletion still reaches the transport, whose slot book then finds
    # no message of the slot to delete.
    assert [what for _, what in transport.done] == ["delete ping"]


async def test_a_held_ping_that_falls_due_is_sent(clock: VirtualClock) -> None:
    transport, core, pings = Transport(clock), Core(), Pings()
    delivery = deliverer(transport, core, pings)
    delivery.submit([Show(PING, screen("your turn"), 3, notify=True)])
    await delivery.drain()
    clock.advance(10)
    await delivery.release_pings()
    await delivery.drain()
    assert [what for _, what in transport.done] == ["show ping 3"]

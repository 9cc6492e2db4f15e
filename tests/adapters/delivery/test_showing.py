"""Showing slots through a platform's messages, with no platform: what the slot book lets
through, and what each answer of an edit or a deletion comes to."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import pytest

from adapters.delivery.limiter import UNPACED, SendTurns
from adapters.delivery.showing import SlotShower
from adapters.delivery.slots import MemorySlotBook
from adapters.delivery.transport import Edited, NewMessage, Refused
from bot.model.contract import ChatRef, Delete, Screen, Show, Slot, SlotKind
from tests.adapters.delivery.vclock import VirtualClock

GROUP = ChatRef("xx", "g1")
TABLE = Slot(SlotKind.TABLE, GROUP, "game")


def table(text: str, version: int, *, renew: bool = False) -> Show:
    return Show(TABLE, Screen(((text,),)), version, renew=renew)


async def _no_hold() -> None:
    return None


@dataclass
class Messages:
    """A chat's messages by id; ``edits`` answers each edit (DONE unless told), and a
    message listed in ``undeletable`` is refused deletion."""

    shown: dict[int, str] = field(default_factory=dict)
    edits: list[Edited] = field(default_factory=list)
    undeletable: set[int] = field(default_factory=set)
    refuse_edits: bool = False
    pinned: list[int] = field(default_factory=list)
    _next: int = 100

    def __post_init__(self) -> None:
        self.hold_on: Callable[[], Awaitable[None]] = _no_hold

    async def send(self, message: NewMessage, turns: SendTurns) -> int:
        await self.hold_on()
        self._next += 1
        self.shown[self._next] = message.screen.plain_text()
        return self._next

    async def edit(
        self, chat: ChatRef, message_id: int, screen: Screen, turns: SendTurns
    ) -> Edited:
        await self.hold_on()
        if self.refuse_edits:
            raise Refused("no")
        edited = self.edits.pop(0) if self.edits else Edited.DONE
        if edited is Edited.DONE:
            self.shown[message_id] = screen.plain_text()
        return edited

    async def delete_message(self, chat: ChatRef, message_id: int, turns: SendTurns) -> bool:
        if message_id in self.undeletable:
            return False
        self.shown.pop(message_id, None)
        return True

    async def pin(
        self, chat: ChatRef, message_id: int, turns: SendTurns, gone: int | None = None
    ) -> None:
        self.pinned.append(message_id)


@pytest.fixture
def messages() -> Messages:
    return Messages()


@pytest.fixture
def book() -> MemorySlotBook:
    return MemorySlotBook()


@pytest.fixture
def shower(messages: Messages, book: MemorySlotBook) -> SlotShower:
    return SlotShower(messages, book, VirtualClock(), lambda show: False)


async def test_a_slot_is_sent_once_then_edited_and_an_older_version_never_shown(
    shower: SlotShower, messages: Messages, book: MemorySlotBook
) -> None:
    await shower.show(table("v1", 1), UNPACED)
    await shower.show(table("v3", 3), UNPACED)
    await shower.show(table("v2", 2), UNPACED)
    assert messages.shown == {101: "v3"}
    assert await book.message_of(TABLE) == 101


async def test_a_message_gone_is_sent_anew_and_recorded(
    shower: SlotShower, messages: Messages, book: MemorySlotBook
) -> None:
    await shower.show(table("v1", 1), UNPACED)
    messages.edits = [Edited.GONE]
    await shower.show(table("v2", 2), UNPACED)
    assert messages.shown == {101: "v1", 102: "v2"}  # the platform says 101 is gone
    assert await book.message_of(TABLE) == 102


async def test_a_message_of_the_other_kind_is_deleted_and_sent_anew(
    shower: SlotShower, messages: Messages
) -> None:
    await shower.show(table("v1", 1), UNPACED)
    messages.edits = [Edited.OTHER_KIND]
    await shower.show(table("v2", 2), UNPACED)
    assert messages.shown == {102: "v2"}


async def test_a_table_posted_anew_whose_old_message_may_not_be_deleted_is_cut_to_a_stub(
    shower: SlotShower, messages: Messages
) -> None:
    await shower.show(table("deal 1", 1), UNPACED)
    messages.undeletable.add(101)
    deal = Screen((("deal 2",), ("tiles",)))
    await shower.show(Show(TABLE, deal, 2, renew=True, pin=True), UNPACED)
    # The old message keeps the new screen's first line alone, with nothing to press.
    assert messages.shown == {101: "deal 2", 102: deal.plain_text()}
    assert messages.pinned == [102]


async def test_a_stub_the_platform_refuses_leaves_the_new_table_standing(
    shower: SlotShower, messages: Messages, book: MemorySlotBook
) -> None:
    await shower.show(table("v1", 1), UNPACED)
    messages.undeletable.add(101)
    messages.refuse_edits = True
    await shower.show(table("v2", 2, renew=True), UNPACED)
    assert messages.shown == {101: "v1", 102: "v2"}
    assert await book.message_of(TABLE) == 102


async def test_a_deletion_as_of_a_version_keeps_an_older_screen_from_coming_back(
    shower: SlotShower, messages: Messages
) -> None:
    await shower.show(table("v1", 1), UNPACED)
    await shower.delete(Delete(TABLE, 2), UNPACED)
    await shower.show(table("v1 again", 1), UNPACED)
    assert messages.shown == {}
    await shower.show(table("v3", 3), UNPACED)
    assert messages.shown == {102: "v3"}

"""What a chat's mailbox holds and in which order it is emptied: the keys of its screens
and one-off messages, its head (the table before answers to commands queued ahead of
it), and how an item is named in the logs."""

from __future__ import annotations

from adapters.delivery.holding import Drop, Hold
from bot.model.contract import ChatRef, Delete, Document, Notice, Response, Show, SlotKind

Mail = Show | Delete | Notice | Response | Document | Hold | Drop
ONCE = "once "  # the mailbox keys of one-off messages (responses, notices, files)
HELD = "held pings"  # the mailbox that holds and drops pings in Redis


def mailbox_of(item: Mail) -> str:
    """Forum topics share their group's budget, so a mailbox is per chat, not per topic;
    holding and dropping pings has a mailbox of its own."""
    if isinstance(item, Hold | Drop):
        return HELD
    chat = item.slot.chat if isinstance(item, Show | Delete) else item.chat
    return ChatRef(chat.platform, chat.chat_id).key


def next_key(box: dict[str, Mail], store_down: bool) -> str:
    """The mailbox's head; while the store is down, its first message that needs none.
    The chat's table goes before the answers to commands queued ahead of it: whatever
    people ask for, the live table is never kept waiting behind it."""
    if store_down:
        for key in box:
            if key.startswith(ONCE):
                return key
    head = next(iter(box))
    if isinstance(box[head], Response):
        for key, item in box.items():
            if isinstance(item, Show) and item.slot.kind is SlotKind.TABLE:
                return key
            if not isinstance(item, Response):
                break
    return head


def put_back(box: dict[str, Mail], key: str, item: Mail) -> None:
    """Queue ``item`` first again, unless a newer screen for its slot came meanwhile."""
    if key in box:
        return
    waiting = list(box.items())
    box.clear()
    box[key] = item
    box.update(waiting)


def is_ping(item: Mail) -> bool:
    """A turn ping for one player, or its deletion."""
    return (
        isinstance(item, Show | Delete)
        and item.slot.kind is SlotKind.PING
        and item.slot.user is not None
    )


def describe(item: Mail) -> str:
    if isinstance(item, Hold):
        return f"Hold {item.ping.slot.key}"
    if isinstance(item, Show | Delete | Drop):
        return f"{type(item).__name__} {item.slot.key}"
    return f"{type(item).__name__} to {item.chat.key}"

"""Why a group's table is behind the store once the people have stopped pressing.

At the stop the scale run notes every group's stored version; while it waits for the
tables it says each minute how many are behind and how many of those hold a state that
moved since the stop (the turn timer playing for people who stopped, or a computer after
it) rather than one the bot has not shown yet. A table still behind at the end is
described: its stored version at the stop and now, the version it shows, how long ago
the group's table was last written to, and what is queued for the chat (screens noted
as pending, one-off messages in its outbox, the table's hold in the slot book) and
whether the mover is still in the middle of his turn, so a stalled mailbox can be told
from a long queue."""

from __future__ import annotations

import time

from bench.soak.group import STORE_ERRORS, Group, mid_turn
from bot.storage import keys
from tests.adapters.telegram.players import shown_version, table_slot

TABLE_WRITES = ("sendMessage", "editMessageText", "editMessageCaption", "editMessageReplyMarkup")


Stored = tuple[str, int] | None
"""A group's game and its stored version at one moment (see :meth:`Group.stored`)."""


async def at_stop(groups: list[Group]) -> dict[int, Stored]:
    """Every group's stored state when the people stopped pressing."""
    noted: dict[int, Stored] = {}
    for group in groups:
        try:
            noted[group.chat_id] = await group.stored()
        except STORE_ERRORS:  # the store is slow to answer under load: unknown then
            noted[group.chat_id] = None
    return noted


async def moved_since(groups: list[Group], stop: dict[int, Stored]) -> int:
    """How many of ``groups`` hold a state other than the one they held at the stop."""
    moved = 0
    for group in groups:
        try:
            now = await group.stored()
        except STORE_ERRORS:
            continue
        moved += now != stop.get(group.chat_id)
    return moved


def last_table_write(group: Group) -> float | None:
    """The moment (the fake's clock) the group's chat last got a table write."""
    calls = group.fake.calls
    for call in reversed(calls):
        if call.chat_id == group.chat_id and call.method in TABLE_WRITES:
            return call.at
    return None


async def describe(group: Group, stop: dict[int, Stored]) -> str:
    """One line on a group whose table is behind."""
    then = stop.get(group.chat_id)
    try:
        now = await group.stored()
        game = await group.truth.load(group.chat)
        pending = await group.redis.hgetall(keys.pending_screens(group.chat))
        outbox = await group.redis.hlen(keys.outbox(group.chat))
        table_key = table_slot(group.chat, now[0]).key if now is not None else ""
        hold = await group.redis.hget(keys.slot_messages(group.chat), "lock|" + table_key)
        shown = None
        if now is not None:
            shown = await shown_version(group.redis, table_slot(group.chat, now[0]))
    except STORE_ERRORS as err:
        return f"chat {group.chat_id}: could not be read ({err!r})"
    last = last_table_write(group)
    ago = f"{time.monotonic() - last:.0f} s ago" if last is not None else "never"
    held = "none" if hold is None else f"{hold} (until|process)"
    return (
        f"chat {group.chat_id}: stored v{_version(then)} at the stop, v{_version(now)} now"
        f"{' (another game)' if _game(now) != _game(then) else ''}, shown v{shown}"
        f"{' (its mover still acting)' if game is not None and mid_turn(game) else ''}; "
        f"table last written {ago}; pending {len(pending)} screens "
        f"(the table's: v{pending.get(table_key)}), outbox {outbox}, table's hold {held}"
    )


def _game(stored: Stored) -> str | None:
    return None if stored is None else stored[0]


def _version(stored: Stored) -> int | None:
    return None if stored is None else stored[1]

"""The table's model beside its screens: a platform whose adapter draws from it says so
once, and from then on its table's shows carry the model and what happened since the
table was last shown, and its hands' shows their model; other platforms get none."""

from __future__ import annotations

import random

from bot.model.contract import ChatRef, Show, SlotKind
from bot.model.events import DealStarted, Played
from bot.storage.store import Store
from tests.bot.driver import Table, make_table, user

TABLE_KINDS = (SlotKind.TABLE, SlotKind.LOBBY)


def sent(table: Table, kind: SlotKind) -> list[Show]:
    return [o for out in table.log for o in out if isinstance(o, Show) and o.slot.kind is kind]


async def play(table: Table, platform: str, steps: int = 12) -> None:
    people = [user(1, "Anna", platform), user(2, "Boris", platform)]
    await table.start_match("tyaga", people)
    rng = random.Random(3)
    for _ in range(steps):
        await table.step(people, rng)


async def test_a_table_drawn_from_its_model_gets_the_model_and_what_happened(
    store: Store,
) -> None:
    table = make_table(store, ChatRef("con", "table"))
    table.sessions.draws_tables("con")
    await play(table, "con")
    doc = await table.doc()
    assert doc is not None
    shows = [s for s in sent(table, SlotKind.TABLE) if s.table is not None]
    assert len(shows) > 3
    last = shows[-1]
    assert last.table is not None and last.table.version == doc.step
    # What happened since the deal began: the tiles it played are those on the line.
    begun = max(n for n, e in enumerate(last.events) if isinstance(e, DealStarted))
    played = {e.tile for e in last.events[begun:] if isinstance(e, Played)}
    assert played and played == {p.tile for p in last.table.line}
    assert all(e.version <= doc.step for e in last.events)
    hands = sent(table, SlotKind.HAND)
    assert hands and all(s.hand is not None for s in hands)
    newest = max(hands, key=lambda s: s.version)
    assert newest.hand is not None and newest.hand.version == doc.step


async def test_other_platforms_get_the_screens_alone(store: Store) -> None:
    table = make_table(store, ChatRef("tg", "-100"))
    table.sessions.draws_tables("con")  # another platform's adapter draws
    await play(table, "tg")
    shows = [s for out in table.log for s in out if isinstance(s, Show)]
    assert len(shows) > 5
    assert all(s.table is None and s.events == () and s.hand is None for s in shows)

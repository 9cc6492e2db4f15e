"""The ``pin`` table setting: off by default, switched by the host at any time, and
asking the adapter to pin the table each time it is posted anew."""

from __future__ import annotations

from bot.model.contract import SlotKind
from bot.storage.store import Store
from engine import DOUBLE_SIX
from tests.bot.driver import button, deal, make_table, responses, scripted, shows, user

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")
# A short deal Anna wins: [6|6], [6|4] (Boris), [6|5], [4|4] (Boris), [5|5].
SHORT = deal(DOUBLE_SIX, "6-6 6-5 5-5", "6-4 4-4 4-3", leader=0)
MOVES = [(ANNA, "[6|6]"), (BORIS, "◀ [6|4]"), (ANNA, "[6|5] ▶"), (BORIS, "◀ [4|4]")]


async def test_the_table_is_pinned_at_each_new_deal_once_the_host_turns_pin_on(
    fake_store: Store,
) -> None:
    table = make_table(fake_store)
    doc = await scripted(table, "tyaga", [ANNA, BORIS], SHORT, options={"hand_size": 3})
    assert not doc.settings.pin, "pinning is on by default"
    await table.open_hands(ANNA, BORIS)
    out = await table.command(BORIS, "settings", "pin=on")
    assert "the table pinned" not in responses(out)[0].screen.plain_text()
    out = await table.command(ANNA, "settings", "pin=on", admin=True)
    assert "the table pinned" in responses(out)[0].screen.plain_text()
    for who, label in MOVES:
        out = await table.press(who, button(table.hand(who), label).payload)
        assert not any(s.pin for s in shows(out, SlotKind.TABLE)), "pinned while played"
    await table.press(ANNA, button(table.hand(ANNA), "[5|5]").payload)
    out = await table.press(BORIS, button(table.table(), "Next deal").payload)
    [dealt] = shows(out, SlotKind.TABLE)
    assert dealt.renew and dealt.pin
    await table.command(ANNA, "settings", "pin=off", admin=True)
    after = await table.doc()
    assert after is not None and not after.settings.pin


async def test_a_chat_remembers_pin_for_its_next_tables(fake_store: Store) -> None:
    table = make_table(fake_store)
    out = await table.command(ANNA, "settings", "pin=on", admin=True)
    assert "the table pinned" in responses(out)[0].screen.plain_text()
    out = await table.command(ANNA, "settings", "pin=maybe", admin=True)
    assert "pin must be on or off" in responses(out)[0].screen.plain_text()
    await table.command(ANNA, "new", "tyaga")
    doc = await table.doc()
    assert doc is not None and doc.settings.pin

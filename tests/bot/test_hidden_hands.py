"""Hidden hands: over whole random games, no screen in the chat shows a tile
from anyone's hand, and no private screen shows another player's tiles. Only
the deal summary (which shows hands by rule) and the presser's own popup may."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.model.contract import (
    Answer,
    Notice,
    Outbound,
    Press,
    Response,
    Screen,
    Show,
    SlotKind,
    UserRef,
)
from bot.storage.store import Store
from engine import State, Tile
from tests.bot.driver import Table, button, buttons, make_table, tiles_in, user

PEOPLE = [user(1, "Anna"), user(2, "Boris"), user(3, "Chen")]
GAMES = [
    ("tyaga", ("target=30",), 3, 1),
    ("kozel", ("target=25",), 2, 2),
    ("baghdad", ("match=deals:2",), 2, 0),
    ("three_guns", (), 2, 1),
]
PUBLIC = {SlotKind.TABLE, SlotKind.LOBBY}


def seen(screen: Screen) -> str:
    """Everything a screen shows: its text and its button labels (a hand's tiles)."""
    return "\n".join([screen.plain_text(), *(b.label for row in screen.buttons for b in row)])


def held(state: State[Any]) -> list[set[Tile]]:
    return [set(hand) for hand in state.hands]


def check(
    out: list[Outbound], state: State[Any], seats: dict[str, int], presser: UserRef | None
) -> int:
    """Assert the rule for one event's updates; returns how many screens were checked."""
    hands = held(state)
    everyone = set().union(*hands)
    checked = 0
    for item in out:
        if isinstance(item, Show) and item.slot.kind in PUBLIC:
            assert not tiles_in(seen(item.screen)) & everyone, seen(item.screen)
        elif isinstance(item, Notice | Response):
            assert not tiles_in(seen(item.screen)) & everyone
        elif isinstance(item, Show) and item.slot.kind in (SlotKind.HAND, SlotKind.PING):
            assert item.slot.user is not None
            mine = seats[item.slot.user.key]
            others = set().union(*(h for s, h in enumerate(hands) if s != mine))
            assert not tiles_in(seen(item.screen)) & others, seen(item.screen)
        elif isinstance(item, Answer) and presser is not None and presser.key in seats:
            others = set().union(*(h for s, h in enumerate(hands) if s != seats[presser.key]))
            text = item.text + (seen(item.screen) if item.screen else "")
            assert not tiles_in(text) & others
        else:
            continue
        checked += 1
    return checked


async def play_and_check(table: Table, people: list[UserRef], rng: random.Random) -> int:
    checked = 0
    seats: dict[str, int] = {}
    for _ in range(5000):
        doc = await table.doc()
        if doc is None:
            return checked
        seats = {s.user.key: n for n, s in enumerate(doc.seats) if s.user is not None}
        presser: UserRef | None = None
        # Between deals the table offers "Next deal" only.
        tiles_offered = any("My tiles" in b.label for b in buttons(table.table()))
        if rng.random() < 0.1 and doc.status == "running" and tiles_offered:
            presser = rng.choice(people)
            out = await table.send(
                Press(table.chat, presser, button(table.table(), "My tiles").payload or "")
            )
        else:
            out = await table.step(people, rng)
        state = await table.state()
        if state is not None:
            checked += check(out, state, seats, presser)
    raise AssertionError("the match did not end")


@pytest.mark.parametrize(("variant", "options", "humans", "computers"), GAMES)
@pytest.mark.parametrize("seed", [1, 2])
async def test_no_screen_shows_a_hand_it_should_not(
    fake_store: Store,
    variant: str,
    options: tuple[str, ...],
    humans: int,
    computers: int,
    seed: int,
) -> None:
    table = make_table(fake_store, seed=seed)
    people = PEOPLE[:humans]
    await table.start_match(variant, people, *options, computers=computers)
    checked = await play_and_check(table, people, random.Random(seed))
    assert checked > 20


def test_a_tile_in_a_public_screen_would_be_caught() -> None:
    """The check itself: a table line naming a tile in a hand fails it."""
    from bot.model.contract import ChatRef, Slot
    from engine import new_match

    state = new_match("tyaga", 2, seed=1)
    tile = state.hands[0][0]
    leak = Show(
        Slot(SlotKind.TABLE, ChatRef("tg", "1"), "g"), Screen(((f"[{tile.hi}|{tile.lo}]",),))
    )
    with pytest.raises(AssertionError):
        check([leak], state, {}, None)

"""Bad input gets a clear message and changes nothing."""

from __future__ import annotations

import random
from collections.abc import Awaitable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.model import codec
from bot.model.contract import (
    Answer,
    ChatRef,
    Command,
    Notice,
    Outbound,
    Press,
    PrivateStart,
    Response,
    Show,
    UserRef,
)
from bot.storage.store import Store, StoreUnavailable
from bot.table.sessions import Sessions
from engine import Move, Tile
from tests.bot.driver import (
    SETTINGS,
    Table,
    answer,
    buttons,
    info_text,
    make_table,
    move_buttons,
    user,
)

ANNA, BORIS, CHEN, DANA = user(1, "Anna"), user(2, "Boris"), user(3, "Chen"), user(4, "Dana")


async def running(table: Table) -> None:
    await table.start_match("tyaga", [ANNA, BORIS])


async def version(table: Table) -> int:
    stored = await table.store.load(table.chat)
    return stored.version if stored else 0


async def unchanged(table: Table, doing: Awaitable[list[Outbound]]) -> list[Outbound]:
    """What ``doing`` brought back, once it is checked that the stored game is as it was."""
    before = await version(table)
    out = await doing
    assert await version(table) == before
    return out


async def to_move(table: Table) -> tuple[UserRef, UserRef]:
    state = await table.state()
    assert state is not None and state.turn is not None
    return (ANNA, BORIS)[state.turn], (ANNA, BORIS)[1 - state.turn]


# -- opening a table --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("chess",), "There is no game called chess"),
        (("tyaga", "colour=red"), "There is no option colour"),
        (("tyaga", "target=5"), "target must be from 10 to 1000"),
        (("tyaga", "target=lots"), "target must be a whole number"),
        (("tyaga", "target=²"), "target must be a whole number"),
        (("tyaga", "target=-5"), "target must be from 10 to 1000"),
        (("tyaga", "opening=sideways"), "opening must be one of"),
        (("tyaga", "target"), "Write settings as key=value"),
        (("tyaga", "timer=2"), "timer must be off or from"),
        (("tyaga", "timer=²"), "timer must be off or from 10 to 3600 seconds"),
        (("tyaga", "timer=-5"), "timer must be off or from 10 to 3600 seconds"),
        (("tyaga", "pings=maybe"), "pings must be on or off"),
        ((), "Which game? Press one to open a table."),
    ],
)
async def test_a_bad_new_command_says_why_and_opens_nothing(
    fake_store: Store, args: tuple[str, ...], says: str
) -> None:
    table = make_table(fake_store)
    out = await table.command(ANNA, "new", *args)
    assert says in info_text(out)
    assert await table.doc() is None


async def test_a_second_new_points_at_the_open_table(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "kozel")
    doc = await table.doc()
    assert doc is not None
    out = await table.command(BORIS, "new", "tyaga")
    assert f"already open here: Kozel (the goat), table {doc.id}" in info_text(out)
    assert (await table.doc()) == doc


# -- seats ------------------------------------------------------------------------------


async def test_joining_twice_is_refused(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "tyaga")
    out = await unchanged(table, table.command(ANNA, "join"))
    assert "already joined" in info_text(out)


async def test_joining_a_full_table_is_refused(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "baghdad")
    await table.command(BORIS, "join")
    out = await table.command(CHEN, "join")
    assert "The table is full" in info_text(out)
    doc = await table.doc()
    assert doc is not None and len(doc.seats) == 2


async def test_joining_a_started_table_is_refused(fake_store: Store) -> None:
    table = make_table(fake_store)
    await running(table)
    out = await unchanged(table, table.command(CHEN, "join"))
    assert "already started" in info_text(out)


async def test_starting_with_too_few_players_is_refused(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "three_guns")
    await table.command(BORIS, "join")
    out = await table.command(ANNA, "start")
    assert "Three Guns needs at least 3 players" in info_text(out)
    doc = await table.doc()
    assert doc is not None and doc.status == "lobby"


async def test_options_that_need_another_table_size_are_refused_at_the_start(
    fake_store: Store,
) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "kozel", "teams=on")
    await table.command(BORIS, "join")
    out = await table.command(ANNA, "start")
    assert "teams=on does not work with 2 players" in info_text(out)


@pytest.mark.parametrize("name", ["start", "cancel", "add_computer", "remove_computer", "settings"])
async def test_host_commands_from_someone_else_are_refused(fake_store: Store, name: str) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "tyaga")
    await table.command(BORIS, "join")
    args = ["target=50"] if name == "settings" else []
    out = await unchanged(table, table.command(BORIS, name, *args))
    assert "Only the host, \u2068Anna\u2069" in info_text(out)


async def test_leaving_a_table_one_does_not_sit_at_is_refused(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "tyaga")
    out = await table.command(BORIS, "leave")
    assert "not at this table" in info_text(out)


async def test_stop_from_someone_who_is_neither_host_nor_admin_is_refused(
    fake_store: Store,
) -> None:
    table = make_table(fake_store)
    await running(table)
    out = await table.command(CHEN, "stop")
    assert "Only the host, \u2068Anna\u2069, or a chat admin" in info_text(out)
    doc = await table.doc()
    assert doc is not None and doc.status == "running"


async def test_commands_without_a_table_say_how_to_open_one(fake_store: Store) -> None:
    table = make_table(fake_store)
    for name in ("join", "leave", "start"):
        out = await table.command(ANNA, name)
        assert "There is no open table here" in info_text(out)


async def test_an_unknown_command_is_named(fake_store: Store) -> None:
    table = make_table(fake_store)
    out = await table.command(ANNA, "dance")
    assert "There is no command dance" in info_text(out)


# -- presses ----------------------------------------------------------------------------


async def test_a_press_by_someone_not_seated_is_refused(fake_store: Store) -> None:
    table = make_table(fake_store)
    await running(table)
    mover, _other = await to_move(table)
    payload = move_buttons(table.hand(mover))[0].payload
    out = await unchanged(table, table.press(CHEN, payload))
    assert answer(out).text == "You are not playing in this game."


async def test_a_press_out_of_turn_names_who_is_to_move(fake_store: Store) -> None:
    table = make_table(fake_store)
    await running(table)
    mover, other = await to_move(table)
    payload = move_buttons(table.hand(mover))[0].payload
    out = await unchanged(table, table.press(other, payload))
    assert answer(out).text == f"Not your turn — waiting for \u2068{mover.name}\u2069"


async def test_a_stale_button_is_refused(fake_store: Store) -> None:
    table = make_table(fake_store)
    await running(table)
    mover, _other = await to_move(table)
    old = move_buttons(table.hand(mover))
    await table.press(mover, old[0].payload)
    out = await unchanged(table, table.press(mover, old[-1].payload))
    text = answer(out).text
    assert text == "That button is out of date: use the new ones." or text.startswith("Not your")


async def test_a_tile_that_does_not_fit_is_refused_with_the_tile_named(fake_store: Store) -> None:
    table = make_table(fake_store)
    await running(table)
    mover, _other = await to_move(table)
    await table.press(mover, move_buttons(table.hand(mover))[0].payload)
    state = await table.state()
    assert state is not None and state.turn is not None and state.ends is not None
    doc = await table.doc()
    assert doc is not None
    seat = state.turn
    misfit = next(t for t in state.hands[seat] if not t.has(state.ends[1]))
    payload = codec.move_payload(doc.id, state.counter, Move.play(misfit, "R"))
    out = await unchanged(table, table.press((ANNA, BORIS)[seat], payload))
    assert answer(out).text == f"[{misfit.hi}|{misfit.lo}] doesn't fit"


async def test_a_button_of_a_finished_game_says_so(fake_store: Store) -> None:
    table = make_table(fake_store)
    await running(table)
    mover, _other = await to_move(table)
    payload = move_buttons(table.hand(mover))[0].payload
    await table.command(ANNA, "stop")
    out = await table.press(mover, payload)
    assert answer(out).text == "That button is from a finished game."


async def test_a_button_of_a_game_nobody_knows_says_it_is_finished(fake_store: Store) -> None:
    table = make_table(fake_store)
    out = await table.press(ANNA, codec.move_payload("zzzzzzzz", 3, Move.lead(Tile(6, 6))))
    assert answer(out).text == "That button is from a finished game."


@pytest.mark.parametrize("payload", ["", "hello", "1m_", "2j_abcdefgh", "\x00\xff", "1h_k3j9x2ab"])
async def test_a_garbage_payload_is_refused_and_changes_nothing(
    fake_store: Store, payload: str
) -> None:
    table = make_table(fake_store)
    await running(table)
    out = await unchanged(table, table.press(ANNA, payload))
    assert len(out) == 1
    assert answer(out).text == "That button is not one of mine, or it is too old."


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=64))
async def test_random_bytes_in_a_payload_change_nothing(fake_store: Store, raw: bytes) -> None:
    sessions = Sessions(fake_store, SETTINGS, rng=random.Random(1))
    chat = ChatRef("tg", "-7")
    out = await sessions.handle(Press(chat, ANNA, raw.decode("latin-1")))
    assert len(out) == 1 and isinstance(out[0], Answer) and out[0].text
    assert await fake_store.load(chat) is None


# -- the store is down ------------------------------------------------------------------


async def test_a_command_while_the_store_is_down_says_so(unavailable_store: Store) -> None:
    sessions = Sessions(unavailable_store, SETTINGS)
    command = Command(ChatRef("tg", "-1"), ANNA, "new", ("tyaga",), message_id="7")
    out = await sessions.handle(command)
    assert len(out) == 1 and isinstance(out[0], Response) and out[0].reply_to == "7"
    assert out[0].screen.plain_text() == "The table is unavailable, try again in a moment"


async def test_a_press_while_the_store_is_down_says_so(unavailable_store: Store) -> None:
    sessions = Sessions(unavailable_store, SETTINGS)
    out = await sessions.handle(Press(ChatRef("tg", "-1"), ANNA, codec.tiles_payload("abcdefgh")))
    assert out == [Answer("The table is unavailable, try again in a moment", alert=True)]


async def test_a_store_that_fails_at_the_write_leaves_the_game_as_it_was(
    fake_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = make_table(fake_store)
    await running(table)
    mover, _other = await to_move(table)
    before = await fake_store.load(table.chat)

    async def broken_save(*args: object, **kwargs: object) -> bool:
        raise StoreUnavailable("connection lost")

    monkeypatch.setattr(fake_store, "write_game", broken_save)
    out = await table.press(mover, move_buttons(table.hand(mover))[0].payload)
    assert out == [Answer("The table is unavailable, try again in a moment", alert=True)]
    monkeypatch.undo()
    assert await fake_store.load(table.chat) == before


async def test_the_timer_tick_survives_a_store_that_is_down(unavailable_store: Store) -> None:
    sessions = Sessions(unavailable_store, SETTINGS)
    assert await sessions.tick() == []


async def test_a_private_start_with_no_game_link_gets_a_welcome(fake_store: Store) -> None:
    table = make_table(fake_store)
    out = await table.send(PrivateStart(DANA, "whatever"))
    assert len(out) == 1 and isinstance(out[0], Notice)
    assert out[0].chat == ChatRef("tg", "4")


@pytest.mark.parametrize("variant", ["tyaga", "kozel", "baghdad", "three_guns"])
async def test_pressing_old_and_foreign_buttons_at_random_never_breaks_the_core(
    fake_store: Store, variant: str, caplog: pytest.LogCaptureFixture
) -> None:
    table = make_table(fake_store)
    people = [ANNA, BORIS, CHEN]
    await table.command(ANNA, "new", variant, "timer=off")
    await table.command(BORIS, "join")
    if variant != "baghdad":
        await table.command(CHEN, "join")
    await table.command(ANNA, "start")
    rng = random.Random(variant)
    seen: list[str] = []
    for _ in range(400):
        if await table.doc() is None:
            break
        for out in table.log[-1:]:
            seen += [
                b.payload
                for o in out
                if isinstance(o, Show)
                for b in buttons(o.screen)
                if b.payload
            ]
        if seen and rng.random() < 0.3:
            await table.press(rng.choice(people + [DANA]), rng.choice(seen))
        else:
            await table.step(people, rng)
    sorry = [o for out in table.log for o in out if isinstance(o, Answer) and "Sorry" in o.text]
    assert not sorry
    assert not [r for r in caplog.records if r.levelname == "ERROR"]

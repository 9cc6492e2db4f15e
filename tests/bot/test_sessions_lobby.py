"""The lobby: seats, computers, settings, the host, and the start."""

from __future__ import annotations

from bot.model import codec
from bot.model.contract import ChatRef, Screen, SlotKind
from bot.storage.store import Store
from tests.bot.driver import answer, button, buttons, info_text, make_table, shows, user

ANNA, BORIS, CHEN = user(1, "Anna"), user(2, "Boris"), user(3, "Chen")


async def test_new_opens_a_lobby_in_the_table_slot_with_the_creator_seated(
    fake_store: Store,
) -> None:
    table = make_table(fake_store)
    out = await table.command(ANNA, "new", "kozel", "target=51")
    [lobby] = shows(out, SlotKind.TABLE)
    text = lobby.screen.plain_text()
    assert "Host: \u2068Anna\u2069" in text and "1. \u2068Anna\u2069" in text
    assert "• Points that end the match: 51" in text
    assert lobby.version == 1


async def test_the_lobby_becomes_the_table_in_the_same_slot(fake_store: Store) -> None:
    table = make_table(fake_store)
    [lobby] = shows(await table.command(ANNA, "new", "tyaga"), SlotKind.TABLE)
    await table.command(BORIS, "join")
    out = await table.command(ANNA, "start")
    [started] = shows(out, SlotKind.TABLE)
    assert started.slot == lobby.slot and started.version > lobby.version
    assert "Deal 1" in started.screen.plain_text()
    assert {s.slot.user for s in shows(out, SlotKind.HAND)} == {ANNA, BORIS}


async def test_joining_by_the_button_takes_a_seat(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "tyaga")
    out = await table.press(BORIS, button(table.table(), "Join").payload)
    assert answer(out).text == ""
    assert "2. \u2068Boris\u2069" in table.table().plain_text()


async def test_the_hosts_buttons_name_him_so_his_own_press_needs_no_admin_check(
    fake_store: Store,
) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "tyaga")
    start = _payload(table.table(), "Start")
    assert not codec.needs_admin(start, ANNA.user_id)
    assert codec.needs_admin(start, BORIS.user_id)
    assert not codec.needs_admin(_payload(table.table(), "Join"), BORIS.user_id)
    await table.press(ANNA, button(table.table(), "Settings").payload)
    assert not codec.needs_admin(_payload(table.table(), "+ Computer: strong"), "1")
    await table.command(BORIS, "join")
    await table.command(ANNA, "leave")  # Boris hosts now: the buttons say so
    await table.press(BORIS, button(table.table(), "Back").payload)
    start = _payload(table.table(), "Start")
    assert not codec.needs_admin(start, BORIS.user_id) and codec.needs_admin(start, "1")


async def test_computers_sit_down_and_get_up(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "tyaga")
    await table.command(ANNA, "add_computer", "random")
    await table.press(ANNA, button(table.table(), "+ Computer").payload)
    await table.press(ANNA, button(table.table(), "Settings").payload)
    await table.press(ANNA, button(table.table(), "+ Computer: greedy").payload)
    text = table.table().plain_text()
    assert "2. Computer 1, random" in text and "3. Computer 2, strong" in text
    assert "4. Computer 3, greedy" in text
    await table.command(ANNA, "remove_computer")
    assert "Computer 3" not in table.table().plain_text()


async def test_an_unknown_computer_level_is_refused_with_the_levels(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "tyaga")
    out = await table.command(ANNA, "add_computer", "genius")
    assert "There is no computer level genius. Levels: random, greedy, strong" in info_text(out)


async def test_removing_a_computer_from_a_table_without_one_is_refused(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "tyaga")
    out = await table.command(ANNA, "remove_computer")
    assert "There is no computer at this table." in info_text(out)


async def test_the_settings_buttons_change_an_option_and_the_timer(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "tyaga")
    await table.press(ANNA, button(table.table(), "Settings").payload)
    await table.press(
        ANNA, button(table.table(), "First tile: any tile ▸ the highest double").payload
    )
    await table.press(ANNA, button(table.table(), "Turn timer: 60 s ▸ 120 s").payload)
    doc = await table.doc()
    assert doc is not None
    assert doc.options["opening"] == "highest_double" and doc.settings.timer == 120
    await table.press(ANNA, button(table.table(), "Back").payload)
    assert "Start" in [b.label for b in buttons(table.table())]


async def test_a_settings_button_pressed_twice_sets_the_same_value(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "tyaga")
    await table.press(ANNA, button(table.table(), "Settings").payload)
    target = button(table.table(), "Points that end the match: 100 ▸ 200").payload
    await table.press(ANNA, target)
    await table.press(ANNA, target)
    doc = await table.doc()
    assert doc is not None and doc.options["target"] == 200


async def test_settings_by_command_and_remembered_for_the_chat(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "tyaga")
    await table.command(ANNA, "settings", "target=50", "timer=30", "auto_start=on")
    doc = await table.doc()
    assert doc is not None and doc.options["target"] == 50 and doc.settings.timer == 30
    await table.command(ANNA, "cancel")
    await table.command(ANNA, "new", "kozel")
    doc = await table.doc()
    assert doc is not None and doc.settings.timer == 30 and doc.settings.auto_start


async def test_chat_settings_without_a_table_need_an_admin(fake_store: Store) -> None:
    table = make_table(fake_store)
    out = await table.command(ANNA, "settings", "timer=off")
    assert "Only a chat admin" in info_text(out)
    out = await table.command(ANNA, "settings", "timer=off", admin=True)
    assert "Turn timer: off" in info_text(out)
    await table.command(ANNA, "new", "tyaga")
    doc = await table.doc()
    assert doc is not None and doc.settings.timer == 0


async def test_a_full_table_starts_by_itself_when_auto_start_is_on(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "baghdad", "auto_start=on")
    await table.command(BORIS, "join")
    doc = await table.doc()
    assert doc is not None and doc.status == "running"


async def test_when_the_host_leaves_the_lobby_the_next_person_hosts_it(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "tyaga")
    await table.command(BORIS, "join")
    await table.command(CHEN, "join")
    await table.command(ANNA, "leave")
    assert "Host: \u2068Boris\u2069" in table.table().plain_text()
    out = await table.command(BORIS, "start")
    assert shows(out, SlotKind.HAND)


async def test_the_last_person_leaving_closes_the_lobby(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "tyaga")
    await table.command(ANNA, "leave")
    assert await table.doc() is None
    assert "This table was closed." in table.table().plain_text()


async def test_cancel_closes_the_lobby_and_frees_the_chat(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "tyaga")
    await table.command(ANNA, "cancel")
    assert await table.doc() is None
    assert not buttons(table.table())
    await table.command(BORIS, "new", "kozel")
    doc = await table.doc()
    assert doc is not None and doc.variant == "kozel"


async def test_a_chat_admin_may_stop_a_game_he_does_not_host(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "tyaga")
    await table.command(BORIS, "join")
    await table.command(ANNA, "start")
    out = await table.command(CHEN, "stop", admin=True)
    assert "The game is stopped." in info_text(out)
    assert await table.doc() is None
    assert "The game was stopped." in table.table().plain_text()
    hand = table.hand(BORIS)
    assert hand is not None and "The game was stopped." in hand.plain_text()


async def test_a_stopped_game_is_not_counted_on_the_scoreboard(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "tyaga")
    await table.command(BORIS, "join")
    await table.command(ANNA, "start")
    await table.command(ANNA, "stop")
    board = await fake_store.scoreboard(table.chat, "tyaga")
    assert board.rows == ()


async def test_a_thread_is_a_chat_of_its_own(fake_store: Store) -> None:
    main = make_table(fake_store, ChatRef("tg", "-5"))
    topic = make_table(fake_store, ChatRef("tg", "-5", "77"), seed=2)
    await main.command(ANNA, "new", "tyaga")
    out = await topic.command(ANNA, "new", "kozel")
    assert shows(out, SlotKind.TABLE)


def _payload(screen: Screen | None, label: str) -> str:
    payload = button(screen, label).payload
    assert payload is not None, f"{label!r} is a link, not a button"
    return payload

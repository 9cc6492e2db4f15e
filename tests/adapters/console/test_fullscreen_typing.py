"""What is typed at the full-screen table is what is done: a move written out plays
that move, a word is that word, and no key of it presses the move that had the
keyboard, whether it is typed key by key, as Textual's pilot types, or as one
burst that reaches the table before it has served the first key."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Collection
from pathlib import Path
from typing import Final, Literal

import pytest
from textual.events import Key, Paste
from textual.pilot import Pilot
from textual.widgets import Input

import engine
from adapters.console import TableRequest, look_around, table_chat
from adapters.console.fullscreen import TableApp
from adapters.console.shades import MoveButton
from adapters.console.words import saved_farewell
from bot.app.config import Settings
from bot.model.contract import ChatRef, Inbound, Outbound
from bot.model.gamedoc import GameDoc, from_json
from bot.storage.store import Store
from bot.table.sessions import Sessions
from bot.table.typed_moves import offered_moves
from tests.adapters.console.test_fullscreen import (
    QUICK,
    QUICK_CORE,
    SIZE,
    enter_to_the_end,
    table_app,
    text_of,
    until,
)

Style = Literal["key by key", "pilot", "burst"]
STYLES: Final[tuple[Style, ...]] = ("key by key", "pilot", "burst")
NAMES: Final = {"-": "minus", "@": "at", " ": "space"}


async def type_in(pilot: Pilot[int], app: TableApp, text: str, style: Style) -> None:
    """Type ``text`` and Enter: a key at a time with a pause after each, as the pilot
    presses keys, or every key posted at once, before the table serves any."""
    keys = [NAMES.get(c, c) for c in text] + ["enter"]
    if style == "key by key":
        for key in keys:
            await pilot.press(key)
            await pilot.pause(0.02)
    elif style == "pilot":
        await pilot.press(*keys)
    else:
        for key, character in zip(keys, [*text, "\r"], strict=True):
            app.post_message(Key(key, character))
        for _ in range(3):
            await pilot.pause()  # the screen has served every key
    await until(lambda: app.query_one("#prompt", Input).value == "")


async def settled(pilot: Pilot[int], app: TableApp) -> None:
    """Wait until the person is to move again (the computers have moved) or the match
    is over, and the table does nothing."""
    await until(
        lambda: (
            not app._busy.locked()
            and (app.table.screens.to_move() is not None or app.table.screens.over())
        ),
    )


async def doc(store: Store) -> GameDoc:
    stored = await store.load(table_chat(1))
    assert stored is not None
    return from_json(stored.doc)


def persons_moves(game: GameDoc) -> list[engine.Move]:
    people = {n for n, seat in enumerate(game.seats) if seat.user is not None}
    return [engine.parse_move(move) for seat, move in game.moves if seat in people]


async def at_first_move(pilot: Pilot[int], app: TableApp) -> list[engine.Move]:
    """The table once a move has the keyboard; the moves offered, in their order."""
    await until(lambda: isinstance(app.focused, MoveButton))
    hand = app.table.screens.to_move()
    assert hand is not None
    return [offered.press.move for offered in offered_moves(hand.buttons)]


@pytest.mark.parametrize("style", STYLES)
async def test_a_move_written_out_plays_that_move_and_not_the_choice_of_its_first_digit(
    store: Store, tmp_path: Path, style: Style
) -> None:
    app = await table_app(store, QUICK, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        offered = await at_first_move(pilot, app)
        # Best of all a move whose first digit is the number of another move.
        written = [(str(move), move) for move in offered if move.tile is not None]
        misread = [
            (text, move)
            for text, move in written
            if text[0].isdigit() and 1 <= int(text[0]) <= len(offered)
            if offered[int(text[0]) - 1] != move
        ]
        text, move = (misread or written)[0]
        before = persons_moves(await doc(store))
        await type_in(pilot, app, text, style)
        await settled(pilot, app)
        after = persons_moves(await doc(store))
        await pilot.press("ctrl+q")
    assert after == [*before, move], f"typed {text}"


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("text", ["4-3", "5-0@L"])
async def test_a_move_written_out_is_played_whole_or_refused_whole(
    store: Store, tmp_path: Path, style: Style, text: str
) -> None:
    app = await table_app(store, QUICK, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        offered = await at_first_move(pilot, app)
        before = persons_moves(await doc(store))
        await type_in(pilot, app, text, style)
        await settled(pilot, app)
        status = text_of(app, "#status")
        prompt = app.query_one("#prompt", Input).value
        after = persons_moves(await doc(store))
        await pilot.press("ctrl+q")
    typed = engine.parse_move(text)
    assert prompt == ""  # nothing of it is left over
    assert "There is no choice" not in status
    if any(move.tile == typed.tile for move in offered):
        assert len(after) == len(before) + 1 and after[-1].tile == typed.tile
    else:
        assert after == before, f"{text} played {after[len(before) :]}"
        assert typed.tile is not None
        assert f"[{typed.tile.hi}|{typed.tile.lo}]" in status, status  # the typed tile


@pytest.mark.parametrize("style", STYLES)
async def test_hint_typed_on_a_move_answers_and_presses_nothing(
    store: Store, tmp_path: Path, style: Style
) -> None:
    app = await table_app(store, QUICK, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await at_first_move(pilot, app)
        before = (await doc(store)).moves
        await type_in(pilot, app, "hint", style)
        status = text_of(app, "#status")
        after = (await doc(store)).moves
        await pilot.press("ctrl+q")
    assert status.startswith("Your moves: ")
    assert after == before


async def test_a_move_is_pressed_by_its_number_and_enter(store: Store, tmp_path: Path) -> None:
    app = await table_app(store, QUICK, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        offered = await at_first_move(pilot, app)
        choice = min(2, len(offered))
        await pilot.press(str(choice))
        assert app.query_one("#prompt", Input).value == str(choice)  # typed, not pressed
        assert persons_moves(await doc(store)) == []
        await pilot.press("enter")
        await until(lambda: app.query_one("#prompt", Input).value == "")
        await settled(pilot, app)
        played = persons_moves(await doc(store))
        await pilot.press("ctrl+q")
    assert played == [offered[choice - 1]]


async def test_a_pasted_word_goes_to_the_prompt_and_its_line_break_sends_it(
    store: Store, tmp_path: Path
) -> None:
    app = await table_app(store, QUICK, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await at_first_move(pilot, app)
        before = (await doc(store)).moves
        assert isinstance(app.focused, MoveButton)
        app.focused.post_message(Paste("hint\n"))
        await until(lambda: text_of(app, "#status").startswith("Your moves: "))
        after = (await doc(store)).moves
        await pilot.press("ctrl+q")
    assert after == before


async def test_enter_on_a_move_the_player_went_back_to_presses_it(
    store: Store, tmp_path: Path
) -> None:
    app = await table_app(store, QUICK, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        offered = await at_first_move(pilot, app)
        await pilot.press("x")  # typed, and the prompt has the keyboard
        await until(lambda: app.query_one("#prompt", Input).has_focus)
        for _ in range(10):
            if isinstance(app.focused, MoveButton):
                break
            await pilot.press("shift+tab")
        chosen = app.focused
        assert isinstance(chosen, MoveButton)
        await pilot.press("enter")
        await until(lambda: chosen.gone or not chosen.is_attached)
        await settled(pilot, app)
        played = persons_moves(await doc(store))
        await pilot.press("ctrl+q")
    assert played == [offered[chosen.number - 1]]


@pytest.mark.parametrize("style", STYLES)
async def test_stats_typed_after_the_match_answers_and_does_not_leave(
    store: Store, tmp_path: Path, style: Style
) -> None:
    app = await table_app(store, QUICK, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await enter_to_the_end(pilot, app)
        await until(lambda: isinstance(app.focused, MoveButton))  # Leave
        await type_in(pilot, app, "stats", style)
        await until(lambda: "Your results" in text_of(app, "#panel-text"))
        running = app.is_running
        await pilot.press("ctrl+q")
    assert running


@pytest.mark.parametrize("style", STYLES)
async def test_quit_typed_while_the_computers_move_leaves_and_keeps_the_match(
    store: Store, tmp_path: Path, style: Style
) -> None:
    # Three computers, each pausing five seconds: after the person's move they play a while.
    slow = TableRequest("tyaga", players=4, options=("target=10",))
    core = Settings(_env_file=None, computer_delay=5, next_deal_delay=0)
    app = await table_app(store, slow, tmp_path, core)
    async with app.run_test(size=SIZE) as pilot:
        await at_first_move(pilot, app)
        await pilot.press("enter")
        await until(lambda: app.table.screens.to_move() is None)
        assert not isinstance(app.focused, MoveButton | Input)  # nothing took the keyboard
        keys = [*"quit", "enter"]
        if style == "burst":
            for key, character in zip(keys, "quit\r", strict=True):
                app.post_message(Key(key, character))
        else:
            for key in keys:
                await pilot.press(key)
                if style == "key by key":
                    await pilot.pause(0.02)
        # Left before the person's next turn, and not by the match ending.
        await until(lambda: not app.is_running or app.table.screens.to_move() is not None)
        running = app.is_running
        if running:
            await pilot.press("ctrl+q")
    assert not running
    assert app.farewell == saved_farewell(app._)
    assert (await doc(store)).status == "running"  # kept, to continue


class HeldCore:
    """The core, its computers' moves held back once made until the test lets them go."""

    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions
        self.held = asyncio.Event()  # a computer has moved and is held
        self.go = asyncio.Event()
        self.finished = 0  # moves that came back to the table

    async def handle(self, inbound: Inbound) -> list[Outbound]:
        return await self.sessions.handle(inbound)

    def share_boards(self, chats: Collection[ChatRef]) -> None:
        self.sessions.share_boards(chats)

    def draws_tables(self, platform: str) -> None:
        self.sessions.draws_tables(platform)

    def no_deal_pictures(self, platform: str) -> None:
        self.sessions.no_deal_pictures(platform)

    async def tick(self, platform: str | None = None) -> list[Outbound]:
        replies = await self.sessions.tick(platform)
        if replies:
            self.held.set()
            await self.go.wait()
            self.finished += 1
        return replies


async def test_leaving_while_a_computer_moves_waits_for_the_move_to_come_back(
    store: Store, tmp_path: Path
) -> None:
    # A leave that cut the core off in the middle of its work could leave the table's
    # timer running for ever (the store's client may take the cancel for its own).
    core = HeldCore(Sessions(store, QUICK_CORE, rng=random.Random(7)))
    tables = await look_around(store)
    app = TableApp(core, QUICK, tables, poll=0.01, export_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await at_first_move(pilot, app)
        await pilot.press("enter")
        await until(core.held.is_set)
        await pilot.press(*"quit", "enter")
        await pilot.pause(0.1)
        waited = app.is_running
        core.go.set()
        await until(lambda: not app.is_running)
    assert waited
    assert core.finished == 1
    assert app.farewell == saved_farewell(app._)

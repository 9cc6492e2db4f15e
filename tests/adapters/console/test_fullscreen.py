"""The full-screen table, driven through Textual's own test harness: keys and clicks
in, the widgets and the store checked."""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.command import CommandPalette
from textual.content import Content
from textual.pilot import Pilot
from textual.style import Style
from textual.widgets import Footer, Input, RichLog, Static

from adapters.console import TableRequest, look_around, table_chat
from adapters.console.choosing import Choose
from adapters.console.fullscreen import TableApp
from adapters.console.shades import HandOver, MoveButton
from adapters.console.words import help_text, saved_farewell
from bot.app.config import Settings
from bot.model.gamedoc import from_json
from bot.storage.store import Store
from bot.table.sessions import Sessions
from bot.views.i18n import translator
from tests.adapters.console.terminal import Terminal

QUICK = TableRequest("tyaga", options=("target=10",))
SIZE = (120, 40)
# Computers move and deals follow at once, on the real clock.
QUICK_CORE = Settings(_env_file=None, computer_delay=0, next_deal_delay=0)


async def table_app(
    store: Store, request: TableRequest, folder: Path, settings: Settings = QUICK_CORE
) -> TableApp:
    # A seeded core deals the same tiles every run: with a random deal, a player who must
    # draw before his first move holds eight tiles, not seven, when the hand first shows.
    sessions = Sessions(store, settings, rng=random.Random(7))
    tables = await look_around(store)
    return TableApp(sessions, request, tables, poll=0.01, export_dir=folder)


async def until(done: Callable[[], bool], seconds: float = 60) -> None:
    # A plain sleep, not pilot.pause: the pilot waits for the screen to empty its queue,
    # and waits 30 s in vain when the app leaves meanwhile (a typed "quit", Leave, ctrl+q).
    end = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < end, "the table never got there"
        await asyncio.sleep(0.02)


def text_of(app: TableApp, selector: str) -> str:
    return str(app.query_one(selector, Static).render())


def moves(app: TableApp) -> list[MoveButton]:
    return [b for b in app.query(MoveButton) if not (b.disabled or b.gone)]


async def enter_to_the_end(pilot: Pilot[int], app: TableApp) -> None:
    """Press Enter on the focused move until the match is over and only Leave is left."""
    while not app.table.screens.over():
        await until(lambda: isinstance(app.focused, MoveButton) or app.table.screens.over())
        if not app.table.screens.over():
            await pilot.press("enter")
    await until(lambda: [b.payload for b in moves(app)] == [""])


def _left_or_over(app: TableApp, target: MoveButton) -> Callable[[], bool]:
    """The clicked button went, or the match is over."""
    return lambda: target.gone or not target.is_attached or not app.is_running


async def finished(store: Store) -> str:
    last = await store.last_game(table_chat(1))
    assert last is not None
    return str(from_json(last).status)


async def test_a_whole_match_is_played_by_keyboard(store: Store, tmp_path: Path) -> None:
    app = await table_app(store, QUICK, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: isinstance(app.focused, MoveButton))
        assert "\u2068You\u2069: 7 tiles" in text_of(app, "#board")
        first = moves(app)
        if len(first) > 1:  # the arrows walk along the moves
            assert app.focused is first[0]
            await pilot.press("right")
            assert app.focused is first[1]
            await pilot.press("left")
            assert app.focused is first[0]
        presses = 0
        while app.is_running:
            await until(lambda: isinstance(app.focused, MoveButton) or not app.is_running)
            if app.is_running:
                await pilot.press("enter")
                presses += 1
        assert presses > 3
    assert app.return_value == 0
    assert app.farewell == ""  # nothing is left to continue
    assert await finished(store) == "finished"
    assert await store.load(table_chat(1)) is None


async def test_a_whole_match_is_played_by_mouse_clicks(store: Store, tmp_path: Path) -> None:
    app = await table_app(store, QUICK, tmp_path)
    clicks = 0
    async with app.run_test(size=SIZE) as pilot:
        while True:
            await until(lambda: bool(moves(app)) or not app.is_running)
            if not app.is_running:
                break
            target = moves(app)[-1]
            await pilot.pause()  # laid out before it is clicked
            if not await pilot.click(target):
                continue  # replaced meanwhile: click the new one
            clicks += 1
            await until(_left_or_over(app, target))
        log = app.query_one("#log", RichLog)
        said = [str(line.text) for line in log.lines]
        assert any(re.search(r"(Won by Computer 1|You won)\.", line) for line in said)
        assert not any("Won by You" in line for line in said)
    assert clicks > 3
    assert app.return_value == 0
    assert await finished(store) == "finished"


async def test_the_last_move_is_marked_on_the_line_and_logged(store: Store, tmp_path: Path) -> None:
    app = await table_app(store, QUICK, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: isinstance(app.focused, MoveButton))
        first = app.table.screens.to_move()
        await pilot.press("1", "enter")

        def again() -> bool:
            hand = app.table.screens.to_move()
            return hand is not None and first is not None and hand.version > first.version

        await until(again)
        board = app.query_one("#board", Static).render()
        assert isinstance(board, Content)
        marked = [
            board.plain[s.start : s.end]
            for s in board.spans
            if isinstance(s.style, Style) and s.style.reverse
        ]
        assert marked and all(piece.startswith("[") for piece in marked)
        log = "\n".join(str(line.text) for line in app.query_one("#log", RichLog).lines)
        you = "\u2068You\u2069"
        assert f"{you} played" in log or f"{you} led with" in log or "You drew" in log
        await pilot.press("ctrl+q")
    assert app.farewell == "The match is saved: domino-bot play --resume continues it."
    stored = await store.load(table_chat(1))
    assert stored is not None and stored.doc["status"] == "running"


async def test_the_prompt_takes_typed_moves_and_explains_bad_ones(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = await table_app(store, QUICK, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: isinstance(app.focused, MoveButton))
        before = await store.load(table_chat(1))
        await pilot.press("z", "y")  # a letter on a move goes to the prompt, and those after it
        assert app.query_one("#prompt", Input).value == "zy"
        await pilot.press("enter")
        assert "That is not a move." in text_of(app, "#status")
        await pilot.press("4", "2")  # digits press moves only while a move is focused
        assert app.query_one("#prompt", Input).has_focus
        await pilot.press("enter")
        assert "There is no choice 42" in text_of(app, "#status")
        after = await store.load(table_chat(1))
        assert before is not None and after is not None and after.doc == before.doc
        await pilot.press(*"export", "space", *"mine", "enter")  # the deal in play stays hidden
        shown = text_of(app, "#status") + text_of(app, "#panel-text")
        assert "Nothing to export until the first deal is over." in shown
        assert not (tmp_path / "mine").exists()
        await pilot.press("f2")
        assert text_of(app, "#panel-text").startswith("Tyaga (Draw)\nPlayers: ")
        await pilot.press(*"scores kozel", "enter")
        assert "Scoreboard: Kozel" in text_of(app, "#panel-text")
        await pilot.press(*"top", "space", *"global", "space", *"kozel", "enter")
        assert "Ratings in Kozel (the goat), all chats:" in text_of(app, "#panel-text")
        await pilot.press(*"table", "space", *"--png", "space", *"shots/now.png", "enter")
        # Drawn off the event loop: the status tells once the file is written.
        saved = "The table as a picture: shots/now.png"
        await until(lambda: text_of(app, "#status") == saved)
        assert (tmp_path / "shots" / "now.png").read_bytes().startswith(b"\x89PNG")
        await pilot.press(*"table", "space", *"now.png", "enter")
        assert text_of(app, "#status") == "Write table --png FILE to save the table as a picture."


async def test_hint_writes_the_moves_out_and_discard_ends_the_match_for_good(
    store: Store, tmp_path: Path
) -> None:
    app = await table_app(store, QUICK, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: isinstance(app.focused, MoveButton))
        await pilot.press(*"hint", "enter")
        assert text_of(app, "#status").startswith("Your moves: ")
        await pilot.press(*"discard", "enter")
        assert text_of(app, "#status").endswith("type discard yes to do it.")
        assert app.is_running and await store.load(table_chat(1)) is not None
        await pilot.press(*"discard", "space", *"yes", "enter")
        await until(lambda: not app.is_running)
    assert app.return_value == 0
    assert app.farewell == "The match is discarded."
    assert await store.load(table_chat(1)) is None


@pytest.mark.parametrize("choice", [1, 2])
async def test_each_of_two_saved_matches_can_be_continued(
    store: Store, terminal: Terminal, tmp_path: Path, choice: int
) -> None:
    await terminal.play(["1", "quit"], QUICK)
    await terminal.play(["quit"], TableRequest("kozel", players=3))
    tables = await look_around(store)
    chosen = tables.saved[choice - 1]
    app = await table_app(store, TableRequest(resume=True), tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: isinstance(app.screen, Choose))
        await pilot.click(f"#saved-{choice}")
        await until(lambda: bool(moves(app)))
        assert app.table.chat == chosen.chat
        assert chosen.snapshot.game_id in text_of(app, "#title")
        first = str(app.query_one("#log", RichLog).lines[0].text)
        assert first.startswith("Continuing the saved match: ")  # before its moves
        await pilot.press("ctrl+q")
    for saved in tables.saved:  # both are still there
        assert await store.load(saved.chat) is not None


async def test_escape_at_the_choice_leaves_and_keeps_the_saved_match(
    store: Store, terminal: Terminal, tmp_path: Path
) -> None:
    await terminal.play(["1", "quit"], QUICK)
    before = await store.load(table_chat(1))
    app = await table_app(store, QUICK, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: isinstance(app.screen, Choose))
        await pilot.press("escape")
    assert app.return_value == 0
    assert await store.load(table_chat(1)) == before
    assert await store.load(table_chat(2)) is None


async def test_down_at_the_choice_moves_to_a_new_match_and_enter_starts_it(
    store: Store, terminal: Terminal, tmp_path: Path
) -> None:
    await terminal.play(["1", "quit"], QUICK)
    before = await store.load(table_chat(1))
    app = await table_app(store, QUICK, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: isinstance(app.screen, Choose))
        await pilot.pause()
        await pilot.press("down", "enter")
        await until(lambda: bool(moves(app)))
        chat = app.table.chat
        await pilot.press("ctrl+q")
    assert chat == table_chat(2)  # a new match, at a table of its own
    assert await store.load(table_chat(1)) == before


async def test_the_hand_over_screen_hides_every_hand(store: Store, tmp_path: Path) -> None:
    request = TableRequest("tyaga", players=3, humans=2, options=("target=15",))
    app = await table_app(store, request, tmp_path)
    seen: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        while len(seen) < 3:
            await until(
                lambda: isinstance(app.screen, HandOver) or isinstance(app.focused, MoveButton),
            )
            if not isinstance(app.screen, HandOver):
                await pilot.press("enter")  # a move; the same person may go on (a draw)
                continue
            name = app.screen.player
            main = app.screen_stack[0]
            assert str(main.query_one("#hand", Static).render()) == ""
            assert not list(main.query(MoveButton))
            await pilot.press("enter")
            await until(lambda: bool(moves(app)))
            assert app.keyboard is not None and app.keyboard.name == name
            assert "Your tiles" in text_of(app, "#hand")
            seen.append(name)
        await pilot.press("ctrl+q")
    assert set(seen) == {"Player 1", "Player 2"}


async def test_the_full_screen_speaks_the_tables_language(store: Store, tmp_path: Path) -> None:
    polish = translator("pl")
    request = TableRequest("tyaga", lang="pl", options=("target=10",))
    app = await table_app(store, request, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: isinstance(app.focused, MoveButton))
        assert app.query_one("#prompt", Input).placeholder.startswith("numer ruchu")
        assert app.active_bindings["f1"].binding.description == "Pomoc"
        await pilot.press("ctrl+p")  # no command palette of Textual's own, in English
        assert not isinstance(app.screen, CommandPalette)
        assert "palette" not in str(app.screen.query_one(Footer).render()).lower()
        await pilot.press("f1")
        assert text_of(app, "#panel-text") == help_text(polish) != help_text(translator("en"))
        await pilot.press("ctrl+q")
    assert app.farewell == saved_farewell(polish) != saved_farewell(translator("en"))


async def test_f2_after_the_match_shows_the_rules_of_its_game(store: Store, tmp_path: Path) -> None:
    app = await table_app(store, QUICK, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await enter_to_the_end(pilot, app)
        await pilot.press("f2")
        await until(lambda: text_of(app, "#panel-text") != "")
        rules = text_of(app, "#panel-text")
        await pilot.press("ctrl+q")
    assert rules.startswith("Tyaga (Draw)")
    assert "Which game?" not in rules


async def test_a_finished_deal_and_match_are_told_once_by_the_table(
    store: Store, tmp_path: Path
) -> None:
    waits = Settings(_env_file=None, computer_delay=0, next_deal_delay=None)
    request = TableRequest("tyaga", options=("target=60",))
    app = await table_app(store, request, tmp_path, waits)
    between: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        while not app.table.screens.over():
            await until(lambda: isinstance(app.focused, MoveButton) or app.table.screens.over())
            if app.table.screens.next_deal() is not None:
                between.append(text_of(app, "#hand"))
            if not app.table.screens.over():
                await pilot.press("enter")
        await until(lambda: [b.payload for b in moves(app)] == [""])
        hand, status, board = (text_of(app, f"#{name}") for name in ("hand", "status", "board"))
        await pilot.press("ctrl+q")
    assert between, "no deal ended before the match"
    for shown in between:  # the tiles left, not what the hand said of a turn now past
        assert shown.splitlines()[-1].startswith("["), shown
    assert "The match is over." in board
    assert "The match is over." not in hand + status


async def test_a_match_continued_in_another_language_goes_on_in_its_own(
    store: Store, terminal: Terminal, tmp_path: Path
) -> None:
    await terminal.play(["quit"], TableRequest("tyaga", lang="pl", options=("target=10",)))
    app = await table_app(store, TableRequest(resume=True, lang="en"), tmp_path)
    _ = translator("pl")
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: isinstance(app.focused, MoveButton))
        await pilot.press(*"hint", "enter")
        await until(lambda: text_of(app, "#status") != "")
        status = text_of(app, "#status")
        placeholder = app.query_one("#prompt", Input).placeholder
        f1 = app.active_bindings["f1"].binding.description
        await pilot.press("ctrl+q")
    assert status.startswith(_("Your moves: %(moves)s", moves=""))
    assert placeholder.startswith("numer ruchu") and f1 == "Pomoc"
    assert app.farewell == saved_farewell(_)

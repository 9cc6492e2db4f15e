"""What the full-screen table tells in its log of moves and lays out as its move
list, driven through Textual's own test harness."""

from __future__ import annotations

import re
from pathlib import Path

from textual.widgets import RichLog, Static

from adapters.console import TableRequest
from adapters.console.shades import MOVE_ROWS, MoveButton, move_list
from bot.storage.store import Store
from tests.adapters.console.test_fullscreen import SIZE, moves, table_app, until

DEALS = TableRequest("tyaga", options=("target=30",))  # several deals, with draws
TILE = re.compile(r"\[\d\|\d\]")


def log_lines(app: object) -> list[str]:
    log = app.query_one("#log", RichLog)  # type: ignore[attr-defined]
    return [str(line.text) for line in log.lines]


async def test_the_log_names_the_players_draws_and_holds_no_picture_caption(
    store: Store, tmp_path: Path
) -> None:
    app = await table_app(store, DEALS, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        while app.is_running:
            await until(lambda: isinstance(app.focused, MoveButton) or not app.is_running)
            if app.is_running:
                said = log_lines(app)
                await pilot.press("enter")
    drawn = [line for line in said if line.startswith("You drew")]
    assert drawn, "the player never drew in this match"
    assert all(TILE.search(line) for line in drawn), drawn
    assert "\u2068You\u2069 drew a tile" not in said and "You drew a tile" not in said
    theirs = [line for line in said if line.startswith("Computer 1 drew")]
    assert theirs, "the computer never drew in this match"
    assert not any(TILE.search(line) for line in theirs), theirs  # another's draw stays hidden
    assert any(line.startswith("Deal 1 is over.") for line in said)
    # A deal's picture goes out with its caption; the terminal shows no picture.
    assert not [line for line in said if re.search(r"· table \w+ · Deal \d", line)]


async def test_a_long_log_entry_wraps_between_tiles_indented_under_its_first_line(
    store: Store, tmp_path: Path
) -> None:
    app = await table_app(store, DEALS, tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        while app.is_running and not any(line.startswith("Line:") for line in log_lines(app)):
            await until(lambda: isinstance(app.focused, MoveButton) or not app.is_running)
            if app.is_running:
                await pilot.press("enter")
        said = log_lines(app)
        await pilot.press("ctrl+q")
    at = next(n for n, line in enumerate(said) if line.startswith("Line:"))
    assert said[at + 1].startswith("  ["), "the line of play did not wrap under itself"
    assert all(line.count("[") == line.count("]") for line in said), "a tile was cut"


async def test_the_moves_read_down_a_column_numbered_in_order(store: Store, tmp_path: Path) -> None:
    app = await table_app(store, DEALS, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: isinstance(app.focused, MoveButton))
        await pilot.pause()
        shown = list(app.query(MoveButton))
        assert shown == moves(app), "a tile that cannot go is shown among the moves"
        numbers = [button.number for button in shown]
        reading = sorted(shown, key=lambda b: (b.region.x, b.region.y))
        await pilot.press("ctrl+q")
    assert sorted(numbers) == list(range(1, len(shown) + 1))
    assert [b.number for b in reading] == sorted(numbers)


def test_a_long_move_list_fills_its_columns_top_down() -> None:
    count = MOVE_ROWS + 3
    columns, cells = move_list([MoveButton(n, f"m{n}", f"p{n}") for n in range(1, count + 1)])
    assert columns == 2
    rows = len(cells) // columns
    first_column = [cell for n, cell in enumerate(cells) if n % columns == 0]
    assert [c.number for c in first_column if isinstance(c, MoveButton)] == list(range(1, rows + 1))


async def test_the_tables_line_of_play_wraps_between_tiles_under_itself(
    store: Store, tmp_path: Path
) -> None:
    app = await table_app(store, DEALS, tmp_path)

    def board() -> list[str]:
        return str(app.query_one("#board", Static).render()).splitlines()

    async with app.run_test(size=(100, 40)) as pilot:
        while app.is_running and not any(line.startswith("  [") for line in board()):
            await until(lambda: isinstance(app.focused, MoveButton) or not app.is_running)
            if app.is_running:
                await pilot.press("enter")
        shown = board()
        await pilot.press("ctrl+q")
    wrapped = [n for n, line in enumerate(shown) if line.startswith("  [")]
    assert wrapped, f"the line of play never wrapped under itself: {shown}"
    at = wrapped[0]
    assert shown[at - 1].startswith("Line: [")
    assert all(line.count("[") == line.count("]") for line in shown), "a tile was cut"

"""The chat's table, the table's picture and the terminal's board are drawn from the
table's model: for one real position of each game, mid-deal and at a deal's end, each
shows what the model holds, and every fact asked of it here is read from the model, so
a renderer that drops or miscounts one fails."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

import pytest
from PIL import Image, ImageChops

import engine
from adapters.console.marks import NEW, board_text, line_mark
from bot.model.gamedoc import GameDoc
from bot.model.parts import BaghdadParts, GunsParts, KozelParts, LineTile, TileRef
from bot.model.table import SeatView, TableView, table_view
from bot.picture import png
from bot.picture.frame import INNER, LEFT
from bot.picture.screens import revealed_hands
from bot.picture.seats import SCORE_WIDTH
from bot.picture.status import status_lines
from bot.picture.table import table_picture
from bot.views.i18n import translator
from bot.views.table_screen import table_screen
from engine import State
from tests.bot.model.games import GAMES, TABLES, positions

_ = translator("en")

# The table of each game the fixtures are played at (an index of TABLES): Kozel with teams.
AT: dict[str, int] = {"tyaga": 1, "kozel": 4, "three_guns": 5, "baghdad": 6}


@dataclass(frozen=True)
class Position:
    """A stored game at one moment, and its table's model."""

    doc: GameDoc
    state: State[Any]
    table: TableView


def _caravans(table: TableView, status: str) -> int:
    parts = table.parts
    return sum(c.status == status for c in parts.caravans) if isinstance(parts, BaghdadParts) else 0


def _shows_the_most(table: TableView) -> bool:
    """Mid-deal, a line of a few tiles; in Thief of Baghdad, a caravan won back mid-deal
    and a stolen one at a deal's end (random play holds no deal with both)."""
    if table.game == "baghdad":
        return _caravans(table, "stolen" if table.deal_result else "recovered") > 0
    return table.deal_result is not None or len(table.line) >= 3


def _position(game: str, ended: bool) -> Position:
    """The first position of seeded random matches of ``game``, mid-deal or at a deal's
    end, that :func:`_shows_the_most`."""
    for seed in range(50):
        for doc, state in positions(random.Random(seed), AT[game]):
            if state.deal_over != ended:
                continue
            table = table_view(doc, engine.public_view(state))
            if _shows_the_most(table):
                return Position(doc, state, table)
    raise LookupError(f"no such position of {game}")


MOMENTS = [(game, ended) for game in GAMES for ended in (False, True)]


@pytest.fixture(scope="module", params=MOMENTS, ids=lambda m: f"{m[0]}-{'end' if m[1] else 'mid'}")
def position(request: pytest.FixtureRequest) -> Position:
    game, ended = request.param
    return _position(game, ended)


# -- what the model says, in the words the table uses ----------------------------------


def label(seat: SeatView) -> str:
    """A seat as the table's text names it."""
    if seat.name is None:
        return f"Computer {seat.computer}"
    name = f"\u2068{seat.name}\u2069"
    return f"{name} (computer)" if seat.away else name


def plain_name(seat: SeatView) -> str:
    """A seat as a picture names it."""
    return seat.name if seat.name is not None else f"Computer {seat.computer}"


def counted(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def score(table: TableView, n: int) -> str:
    return counted(n, "token" if table.unit == "tokens" else "point")


def tile(ref: TileRef) -> str:
    return f"[{ref.hi}|{ref.lo}]"


def on_line(tiles: tuple[LineTile, ...], across: bool = True) -> str:
    return "".join(f"[{t.left}|{t.right}]{'×' if across and t.across else ''}" for t in tiles)


def public_tiles(table: TableView) -> set[frozenset[int]]:
    """Every tile the model shows, as the pair of its halves."""
    shown = [t.tile for t in table.line]
    parts = table.parts
    if isinstance(parts, GunsParts):
        shown.append(parts.aside)
    if isinstance(parts, BaghdadParts):
        for caravan in parts.caravans:
            shown += [t.tile for t in caravan.camels]
            shown += [] if caravan.thief is None else [caravan.thief]
            shown += [] if caravan.handcuffs is None else list(caravan.handcuffs)
    return {frozenset((t.hi, t.lo)) for t in shown}


# -- the chat's table ----------------------------------------------------------------


def test_the_fixtures_are_real_positions_of_the_four_games(position: Position) -> None:
    table = position.table
    assert table.game == position.doc.variant and table.game in GAMES
    assert (table.deal_result is not None) == position.state.deal_over
    assert sum(s.tiles for s in table.seats) == sum(len(h) for h in position.state.hands)
    assert TABLES[AT[table.game]][0] == table.game


def test_the_chat_table_shows_every_seat_and_the_line_from_the_model(position: Position) -> None:
    table = position.table
    screen = table_screen(_, position.doc, table)
    lines = screen.plain_text().splitlines()
    assert f"Deal {table.deal}" in lines
    if table.line:
        assert f"Line: {on_line(table.line)}" in lines
    if table.deal_result is None:
        turn = table.turn.seat if table.turn is not None else None
        for seat in table.seats:
            mark = "▶ " if seat.seat == turn else "• "
            said = f"{mark}{label(seat)}: {counted(seat.tiles, 'tile')}, {score(table, seat.total)}"
            assert said in lines
        assert turn is not None and f"{label(table.seats[turn])} to move" in lines
        return
    # At a deal's end, each seat's tiles left, what the deal wrote and the total.
    out = table.deal_result.went_out
    assert (
        f"{label(table.seats[out])} went out." if out is not None else "Blocked: nobody can move."
    ) in lines
    assert f"Deal {table.deal} is over." in lines
    for seat in table.seats:
        row = next(r for r in lines if r.startswith(f"• {label(seat)}: "))
        assert counted(seat.tiles, "tile") in row
        if not table.teams and not table.deal_result.unwritten[seat.seat]:
            assert seat.deal_points is not None
            assert f"{score(table, seat.deal_points)} this deal" in row
            assert f"{score(table, seat.total)} in all" in row
    for first, second in table.teams:
        seat = table.seats[first]
        names = f"{label(seat)} and {label(table.seats[second])}"
        row = next(r for r in lines if r.startswith(f"• {names}: "))
        assert f"{score(table, seat.total)} in all" in row


def test_the_chat_table_shows_the_games_own_parts_from_the_model(position: Position) -> None:
    table = position.table
    lines = table_screen(_, position.doc, table).plain_text().splitlines()
    parts = table.parts
    seats = table.seats
    boneyard = counted(table.boneyard, "tile")
    if isinstance(parts, GunsParts):
        cardinal = label(seats[parts.cardinal])
        assert f"Cardinal: {cardinal} ({tile(parts.aside)} is set aside)" in lines
        assert f"Tokens in the pool: {parts.pool}" in lines
        assert not any(r.startswith("Boneyard") for r in lines)
    elif table.boneyard:
        assert f"Boneyard: {boneyard}" in lines
    if isinstance(parts, BaghdadParts):
        closed = [c for c in parts.caravans if c.status != "open"]
        assert closed
        for caravan in closed:
            assert caravan.owner is not None
            who, camels = label(seats[caravan.owner]), on_line(caravan.camels, across=False)
            if caravan.status == "recovered":
                assert f"Recovered by {who}: {camels}" in lines
            else:
                assert caravan.thief is not None
                assert f"Stolen by {who} with {tile(caravan.thief)}: {camels}" in lines
    if isinstance(parts, KozelParts):
        (a, b), (c, d) = table.teams
        teams = f"Teams: {label(seats[a])} and {label(seats[b])} against "
        assert f"{teams}{label(seats[c])} and {label(seats[d])}." in lines


def test_the_chat_table_names_no_tile_the_model_does_not_show(position: Position) -> None:
    table = position.table
    text = table_screen(_, position.doc, table).plain_text()
    named = {frozenset((int(a), int(b))) for a, b in re.findall(r"\[(\d)\|(\d)\]", text)}
    assert named and named <= public_tiles(table)
    hidden = {frozenset((t.hi, t.lo)) for hand in position.state.hands for t in hand}
    assert not named & (hidden - public_tiles(table))


# -- the table's picture --------------------------------------------------------------


def _picture(position: Position, table: TableView) -> bytes:
    return png(_drawn(position, table))


def _drawn(position: Position, table: TableView) -> Image.Image:
    names = [plain_name(seat) for seat in table.seats]
    status = status_lines(_, table, names.__getitem__)
    return table_picture(_, table, names, status, revealed_hands(position.state))


def _words_changed(one: Image.Image, other: Image.Image) -> bool:
    """The two pictures differ in the seats' right-hand column, where each seat's words
    (tiles and score) are written, apart from the tiles drawn left of it."""
    right = LEFT + INNER - 8
    column = (right - SCORE_WIDTH, 0, right, one.height)
    assert one.size == other.size
    return ImageChops.difference(one.crop(column), other.crop(column)).getbbox() is not None


def _seat_changed(table: TableView, seat: SeatView, **change: Any) -> TableView:
    seats = tuple(s.model_copy(update=change) if s is seat else s for s in table.seats)
    return table.model_copy(update={"seats": seats})


def test_the_picture_says_whose_turn_or_how_the_deal_ended_from_the_model(
    position: Position,
) -> None:
    table = position.table
    names = [plain_name(seat) for seat in table.seats]
    said = status_lines(_, table, names.__getitem__)
    if table.turn is not None:
        assert said == [f"{names[table.turn.seat]} to move"]
    else:
        assert table.deal_result is not None and said[0] == f"Deal {table.deal} is over."
        winner = table.deal_result.winner
        assert winner is None or names[winner] in " ".join(said)


def test_the_picture_draws_each_seats_count_and_total_from_the_model(position: Position) -> None:
    table = position.table
    drawn = _picture(position, table)
    assert drawn == _picture(position, table)
    for seat in table.seats:
        assert _picture(position, _seat_changed(table, seat, total=seat.total + 1)) != drawn
        if table.deal_result is None:  # at a deal's end the hands themselves are drawn
            more = _seat_changed(table, seat, tiles=seat.tiles + 1)
            assert _words_changed(_drawn(position, table), _drawn(position, more))
        else:
            assert seat.deal_points is not None
            more = _seat_changed(table, seat, deal_points=seat.deal_points + 1)
            assert _picture(position, more) != drawn
    if table.turn is not None:
        other = (table.turn.seat + 1) % len(table.seats)
        moved = table.model_copy(update={"turn": table.turn.model_copy(update={"seat": other})})
        assert _picture(position, moved) != drawn


def test_the_picture_draws_the_line_and_the_games_parts_from_the_model(
    position: Position,
) -> None:
    table = position.table
    drawn = _picture(position, table)
    parts = table.parts
    if isinstance(parts, BaghdadParts):
        # The line is drawn as the caravans: one closed fewer is another picture.
        closed = next((c for c in parts.caravans if c.status != "open"), None)
        if closed is not None:
            fewer = tuple(c for c in parts.caravans if c is not closed)
            changed = table.model_copy(
                update={"parts": parts.model_copy(update={"caravans": fewer})}
            )
            assert _picture(position, changed) != drawn
        return
    if table.line:
        shorter = table.model_copy(update={"line": table.line[:-1]})
        assert _picture(position, shorter) != drawn
    if isinstance(parts, GunsParts):
        pool = table.model_copy(update={"parts": parts.model_copy(update={"pool": parts.pool + 1})})
        assert _picture(position, pool) != drawn
        others = (TileRef(hi=h, lo=low) for h in range(7) for low in range(h + 1))
        other = next(t for t in others if t != parts.aside)
        aside = table.model_copy(update={"parts": parts.model_copy(update={"aside": other})})
        assert _picture(position, aside) != drawn
    else:
        fuller = table.model_copy(update={"boneyard": table.boneyard + 1})
        assert _picture(position, fuller) != drawn


# -- the terminal's board -------------------------------------------------------------


def test_the_terminal_board_writes_the_models_line_as_the_chat_table_does(
    position: Position,
) -> None:
    """The terminal writes the model's line as the chat's table does, and marks the
    last tile of it where it lies."""
    table = position.table
    if not table.line:
        return
    last = table.line[-1]
    written, spans = line_mark(table.line, (last.tile,))
    assert written == on_line(table.line)
    lines = table_screen(_, position.doc, table).plain_text().splitlines()
    board = board_text(lines, (written, spans))
    assert [board.plain[s.start : s.end] for s in board.spans if str(s.style) == NEW] == [
        on_line((last,), across=False)
    ]

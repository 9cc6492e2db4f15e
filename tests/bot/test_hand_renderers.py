"""The three drawings of a hand read one model: for a seeded position of each game, the
listing hand, the steady hand and the hand's picture are drawn from the same
:class:`~bot.model.hand.HandView`, and what they show is checked against that model
(each tile shown, a button per legal move naming it, the other tiles disabled, only
the playable tiles ringed), not against the engine."""

from __future__ import annotations

import io
import itertools
import random
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

import pytest
from PIL import Image, ImageChops

import engine
from bot.model import codec
from bot.model.contract import Button, ChatRef, Screen
from bot.model.gamedoc import GameDoc
from bot.model.hand import HandView, LegalMove, hand_view
from bot.model.table import TableView, table_view
from bot.picture import hand_png
from bot.views.hand import hand_screen
from bot.views.i18n import translator
from bot.views.steady_hand import kept_words, steady_screen
from bot.views.texts import tile_text
from engine import Move, Tile
from tests.bot.model.games import TABLES, positions

_ = translator("en")

# Each game at one table size of tests.bot.model.games.TABLES, and the seed of its match.
SEEDED = {"tyaga": (0, 3), "kozel": (3, 4), "three_guns": (5, 5), "baghdad": (6, 6)}


@dataclass(frozen=True)
class Position:
    """A game at the turn of a person, with his hand's model and the table's."""

    doc: GameDoc
    hand: HandView
    table: TableView


@cache
def position(game: str) -> Position:
    """The first position of the seeded match of ``game`` where a person (not away) is
    to move on a line already begun, with a tile he can play and one he cannot."""
    number, seed = SEEDED[game]
    assert TABLES[number][0] == game
    for doc, state in positions(random.Random(seed), number):
        seat = state.turn
        if state.deal_over or seat is None or not state.line:
            continue
        if doc.seats[seat].user is None or doc.seats[seat].away is not None:
            continue
        # An id and a chat as a stored game in a group has: a private hand's buttons name both.
        doc = doc.but(id="k3j9x2ab", chat=ChatRef("tg", "-1001234"))
        hand = hand_view(doc, state, seat)
        if playable(hand) and len(playable(hand)) < len(hand.tiles):
            return Position(doc, hand, table_view(doc, engine.public_view(state)))
    raise AssertionError(f"no position of {game} has a person with a tile to play and one not")


def tiles(hand: HandView) -> list[Tile]:
    return [ref.tile() for ref in hand.tiles]


def named(moves: Iterable[LegalMove]) -> set[Tile]:
    """The tiles ``moves`` name."""
    return {ref.tile() for m in moves for ref in (m.tile, m.second) if ref is not None}


def playable(hand: HandView) -> set[Tile]:
    return named(hand.moves)


def buttons(screen: Screen) -> list[Button]:
    return [button for row in screen.buttons for button in row]


def notation_of(button: Button) -> str:
    pressed = codec.decode(button.payload or "")
    assert isinstance(pressed, codec.MovePress), button
    return engine.format_move(pressed.move)


@pytest.mark.parametrize("game", SEEDED)
def test_the_listing_hand_offers_each_legal_move_and_disables_the_other_tiles(game: str) -> None:
    doc, hand, table = position(game).doc, position(game).hand, position(game).table
    screen = hand_screen(_, doc, hand, table, None)
    text = screen.plain_text()
    highest_first = sorted(tiles(hand), key=lambda t: -t.index)
    assert f"Your tiles, deal {hand.deal}:" in text
    assert table.ends is not None
    left, right = table.ends
    if game == "three_guns":  # an end takes the values adding up to six with what it shows
        takes = (" / ".join(map(str, end.accepts)) or "—" for end in table.ends)
        assert "Your turn. The left end takes {}, the right end {}.".format(*takes) in text
    else:
        assert f"Your turn. Open ends: {left.shows[0]} and {right.shows[0]}." in text
    assert " ".join(tile_text(t) for t in highest_first) in text.splitlines()
    enabled = [b for b in buttons(screen) if b.enabled]
    assert sorted(notation_of(b) for b in enabled) == sorted(m.notation for m in hand.moves)
    for button in enabled:
        pressed = codec.decode(button.payload or "")
        assert isinstance(pressed, codec.MovePress)
        assert pressed.game_id == hand.table and pressed.chat == doc.chat
        assert pressed.counter == hand.counter
    disabled = [b for b in buttons(screen) if not b.enabled]
    others = [t for t in highest_first if t not in playable(hand)]
    assert [b.label for b in disabled] == [tile_text(t) for t in others]
    for button, tile in zip(disabled, others, strict=True):
        pressed = codec.decode(button.payload or "")
        assert pressed == codec.TilePress(hand.table, hand.counter, tile, doc.chat)


@pytest.mark.parametrize("game", SEEDED)
def test_the_steady_hand_is_a_button_per_tile_and_the_words_it_keeps(game: str) -> None:
    doc, hand, table = position(game).doc, position(game).hand, position(game).table
    screen = steady_screen(_, doc, hand, table, doc.chat)
    highest_first = sorted(tiles(hand), key=lambda t: -t.index)
    assert " ".join(tile_text(t) for t in highest_first) in screen.plain_text().splitlines()
    pressed = [codec.decode(b.payload or "") for b in buttons(screen)]
    presses = [p for p in pressed if isinstance(p, codec.HandPress)]
    assert all(p.game_id == hand.table and p.chat == doc.chat for p in presses)
    assert len({p.hand for p in presses}) == 1
    assert [p.tile for p in presses if p.tile is not None] == highest_first
    assert [b.label for b in buttons(screen)[: len(highest_first)]] == [
        tile_text(t) for t in highest_first
    ]
    assert tuple(p.move for p in presses if p.tile is None) == kept_words(doc.variant)
    legal = {m.notation for m in hand.moves}
    for word in [p for p in pressed if isinstance(p, codec.MovePress)]:
        assert engine.format_move(word.move) in legal
        assert word.counter == hand.counter


def picture(hand: HandView, *, ringed: bool = True) -> Image.Image:
    image = Image.open(io.BytesIO(hand_png(_, hand, "Table", "", ringed=ringed)))
    return image.convert("RGB")


def changed(one: Image.Image, other: Image.Image) -> tuple[int, int, int, int] | None:
    """Where two pictures of the same size differ, or ``None``."""
    assert one.size == other.size
    return ImageChops.difference(one, other).getbbox()


def ring_box(hand: HandView, tile: Tile) -> tuple[int, int, int, int]:
    """Where the picture of ``hand`` rings ``tile`` when it is the one tile it can play."""
    alone = hand.model_copy(update={"moves": (LegalMove.of(Move.play(tile, "L")),)})
    box = changed(picture(alone), picture(hand, ringed=False))
    assert box is not None, f"{tile} is not ringed when it is the one tile to play"
    return box


@pytest.mark.parametrize("game", SEEDED)
def test_the_hand_picture_shows_every_tile_and_rings_only_the_playable_ones(game: str) -> None:
    hand = position(game).hand
    whole, plain = picture(hand), picture(hand, ringed=False)
    for ref in hand.tiles:
        fewer = hand.model_copy(update={"tiles": tuple(r for r in hand.tiles if r != ref)})
        without = picture(fewer, ringed=False)
        assert without.size != plain.size or changed(without, plain) is not None, ref
    boxes = {tile: ring_box(hand, tile) for tile in tiles(hand)}
    for tile, box in boxes.items():
        ringed = changed(whole.crop(box), plain.crop(box)) is not None
        assert ringed == (tile in playable(hand)), tile
    for one, other in itertools.combinations(boxes.values(), 2):  # each ring its own tile's
        apart = one[2] <= other[0] or other[2] <= one[0] or one[3] <= other[1]
        assert apart or other[3] <= one[1], (one, other)

"""A steady hand: a player's private hand as one button per tile he holds, the same
whoever's turn it is and whatever the line's ends show, so that the turn passing to
him does not make his hand a new screen (on a platform where every edit counts
against a send budget, that edit was a third of a move's cost).

Its tile buttons carry the hand's version (:func:`hand_version`: the deal and the
tiles held) instead of the turn counter, so a press from a hand he no longer holds
is still refused. What a press of a tile does is decided when it comes
(:mod:`bot.table.steady_presses`): out of turn it says whose turn it is, a tile that fits
nowhere says why, and a tile that fits both ends with different results asks which.

Besides the tiles, the hand offers the moves a player may need that no tile names.
Where drawing, or ending a turn by word, is the player's choice (Thief of Baghdad),
Draw and End turn stay on the hand for the whole deal, naming the hand and not the
turn: pressed when they do not apply (the boneyard is empty, there is nothing to end
yet), they say why, and the hand stays as it was when the boneyard empties or a turn
ends. The other moves (a camel's extra, a pass) are offered within a turn he began
himself, or when no tile of his has a move, and are redrawn by his own press.

When a deal ends, the hand stays as it was: the table says so, and a press then says
so as well; the next deal's tiles redraw it. When the match ends, the hand is drawn
once more, as every platform's hand is then: the tiles left, "The match is over.", and
no button.

:func:`hand_screen_of` draws a hand either way: steady where the platform asked for
steady hands, else the listing hand of :mod:`bot.views.hand`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import cache
from typing import Any, Final

import engine
from bot.model import codec
from bot.model.contract import Button, Card, ChatRef, Screen, Style, TextLine
from bot.model.gamedoc import RUNNING, GameDoc
from bot.model.hand import HandView
from bot.model.table import TableView
from bot.views.hand import ROW, hand_screen, held_tiles, move_button
from bot.views.i18n import Translator, text_line
from bot.views.table_screen import private_heading
from bot.views.texts import tile_text, tiles_text, variant_title
from bot.views.web_links import WebLinks, with_hand_link
from engine import DONE, DRAW, Kind, Move, State, Tile
from engine.tiles import BY_INDEX

#: Moves a tile button makes: the rest (draw, pass, done, steal, recover) are actions.
TILE_KINDS: Final = frozenset({Kind.PLAY, Kind.DOUBLE})


def hand_version(state: State[Any], seat: int) -> int:
    """What changes only when ``seat``'s tiles do: the deal and the set of tiles held."""
    return _version(state.deal_number, state.hands[seat])


def _version(deal: int, tiles: Iterable[Tile]) -> int:
    mask = sum(1 << tile.index for tile in tiles)
    return deal << len(BY_INDEX) | mask


def acting(doc: GameDoc, seat: int) -> bool:
    """On ``seat``'s turn, he is to move again within a turn that his own last move
    began (a camel's extra, the tile he drew, a draw made for him): the hand he sees
    was drawn for it."""
    start = doc.deal_starts[-1] if doc.deal_starts else 0
    return len(doc.moves) > start and doc.moves[-1][0] == seat


@cache  # a game's rules say it: asked of every seat on every write
def kept_words(variant: str) -> tuple[Move, ...]:
    """The words a game's steady hand keeps for the whole deal: a draw where drawing is
    a choice, and the end of a turn where ending it is. Where a draw is made for a
    player only when nothing fits, a Draw button would only ever be refused."""
    rules = engine.get_variant(variant)
    return (DRAW,) * rules.draws_at_will + (DONE,) * rules.ends_at_will


def turn_words(doc: GameDoc, seat: int, legal: Sequence[Move]) -> tuple[Move, ...]:
    """The words the hand offers for this turn alone, besides those it keeps: within his
    own turn, or when no tile of his has a move, the words are his only way on.
    ``legal`` is ``seat``'s legal moves now: none out of his turn or once the deal is
    over."""
    if legal and (acting(doc, seat) or not any(m.kind in TILE_KINDS for m in legal)):
        kept = kept_words(doc.variant)
        return tuple(m for m in legal if m.kind not in TILE_KINDS and m not in kept)
    return ()


def kept_key(doc: GameDoc, state: State[Any], seat: int) -> tuple[object, ...]:
    """Everything of the game state a running game's steady hand shows (the
    document's part is compared apart): equal keys, equal screens."""
    words = turn_words(doc, seat, engine.legal_moves(state) if state.turn == seat else ())
    return (
        state.hands[seat],
        state.deal_number,
        (*words, *kept_words(doc.variant)),  # the moves it offers besides the tiles
        state.counter if words else None,  # the words of a turn name the turn
    )


def steady_screen(
    translator: Translator, doc: GameDoc, hand: HandView, table: TableView, chat: ChatRef | None
) -> Screen:
    """The steady hand ``hand`` models: his tiles as lines and as buttons, and his
    actions."""
    away = doc.seats[hand.seat].away is not None
    if away or doc.status != RUNNING or table.match_result is not None:
        # Nothing on it depends on the turn; a match over says so, with no tile to press.
        return hand_screen(translator, doc, hand, table, None)
    tiles = held_tiles(hand)
    lines = _lines(translator, doc, hand.deal, tiles)
    version = _version(hand.deal, tiles)
    rows = _tile_rows(doc.id, version, tiles, chat)
    words = turn_words(doc, hand.seat, [m.move() for m in hand.moves])
    if words:
        payloads = codec.HandPayloads(doc.id, hand.counter, chat)
        rows.append(tuple(move_button(translator, payloads, move) for move in words))
    kept = kept_words(doc.variant)
    if kept:
        rows.append(tuple(_kept_button(translator, doc.id, version, move, chat) for move in kept))
    return Screen(lines, tuple(rows), card=Card(variant_title(translator, doc.variant), lines[1:]))


def choice_screen(
    _: Translator,
    doc: GameDoc,
    hand: HandView,
    tile: Tile,
    moves: tuple[Move, ...],
    chat: ChatRef | None,
) -> Screen:
    """The hand asking where ``tile`` goes: one button per different result, and back."""
    asked = text_line(_("Where does %(tile)s go?", tile=tile_text(tile)))
    lines = (*_lines(_, doc, hand.deal, held_tiles(hand)), asked)
    payloads = codec.HandPayloads(doc.id, hand.counter, chat)
    choices = tuple(move_button(_, payloads, move) for move in moves)
    back = Button(_("Back"), codec.hand_again_payload(doc.id, chat))
    return Screen(lines, (choices, (back,)), card=Card(variant_title(_, doc.variant), lines[1:]))


def _lines(_: Translator, doc: GameDoc, deal: int, tiles: list[Tile]) -> tuple[TextLine, ...]:
    return (
        text_line(private_heading(_, doc)),
        text_line(_("Your tiles, deal %(n)d:", n=deal)),
        text_line(tiles_text(tiles) if tiles else _("No tiles left")),
        text_line(_("Press a tile to play it on your turn.")),
    )


def _tile_rows(
    game_id: str, version: int, tiles: list[Tile], chat: ChatRef | None
) -> list[tuple[Button, ...]]:
    payloads = codec.SteadyPayloads(game_id, version, chat)
    buttons = [Button(tile_text(tile), payloads.tile(tile), style=Style.PLAIN) for tile in tiles]
    return [tuple(buttons[i : i + ROW]) for i in range(0, len(buttons), ROW)]


def _kept_button(
    translator: Translator, game_id: str, version: int, move: Move, chat: ChatRef | None
) -> Button:
    """A word the hand keeps names the hand, so it stays the same while the turn passes
    and within it."""
    payload = codec.hand_payload(game_id, version, move, chat)
    return replace(
        move_button(translator, codec.HandPayloads(game_id, 0, chat), move), payload=payload
    )


def hand_screen_of(
    translator: Translator,
    doc: GameDoc,
    state: State[Any],
    hand: HandView,
    table: TableView,
    steady: bool,
    web: WebLinks | None = None,
) -> Screen:
    """The hand ``hand`` models, beside the table ``table`` models (both as of
    ``state``): a steady one, or one that lists his moves on his turn; with ``web``, a
    button that opens the web table as him."""
    if steady:
        screen = steady_screen(translator, doc, hand, table, doc.chat)
    else:
        screen = hand_screen(translator, doc, hand, table, _turn_due(doc, state, hand.seat))
    return with_hand_link(translator, screen, doc, hand.seat, web)


def _turn_due(doc: GameDoc, state: State[Any], seat: int) -> float | None:
    """When ``seat``'s turn runs out, if it is his turn and the timer is on."""
    due = doc.due
    return due.at if due is not None and due.kind == "turn" and state.turn == seat else None

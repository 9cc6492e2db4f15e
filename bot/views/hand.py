"""A player's private screens: his hand with its buttons, and the turn ping.

A hand is drawn from that seat's own model, :class:`~bot.model.hand.HandView`, so it
holds his tiles and his legal moves, and from the table's,
:class:`~bot.model.table.TableView`, for the open ends and whether the match is over;
the game document gives the ids, the chat, the game's status and whether the seat is
away. Each button names a whole move, and every tile he cannot play stays in view as
a disabled button.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from operator import attrgetter
from typing import Final

from bot.model import codec
from bot.model.contract import Button, Card, ChatRef, CommandRef, Deadline, Screen, Style, TextLine
from bot.model.gamedoc import FINISHED, RESIGNED, RUNNING, STOPPED, GameDoc
from bot.model.hand import HandView
from bot.model.table import TableView
from bot.views.i18n import Translator, line, text_line
from bot.views.table_screen import private_heading
from bot.views.texts import move_label, tile_text, tiles_text, variant_title
from engine import Kind, Move, Tile

ROW: Final = 3  # tile buttons per row
_WORD_KINDS: Final = frozenset({Kind.DRAW, Kind.PASS, Kind.DONE})  # moves with no tile

# -- a hand ----------------------------------------------------------------------------


def hand_screen(
    translator: Translator, doc: GameDoc, hand: HandView, table: TableView, due_at: float | None
) -> Screen:
    """A player's private screen: his tiles, and his choices when it is his turn; as
    a card, the same under the game's name alone."""
    lines, buttons = _hand_parts(translator, doc, hand, table, due_at)
    return Screen(lines, buttons, card=Card(variant_title(translator, doc.variant), lines[1:]))


def held_tiles(hand: HandView) -> list[Tile]:
    """The tiles of ``hand``, highest first, as every hand screen lists them."""
    return _highest_first(ref.tile() for ref in hand.tiles)


def _highest_first(tiles: Iterable[Tile]) -> list[Tile]:
    """``tiles`` sorted highest first (by their index, read in C: every hand drawn sorts
    its tiles, twice)."""
    return sorted(tiles, key=_INDEX, reverse=True)


_INDEX: Final = attrgetter("index")


def _hand_parts(
    _: Translator, doc: GameDoc, hand: HandView, table: TableView, due_at: float | None
) -> tuple[tuple[TextLine, ...], tuple[tuple[Button, ...], ...]]:
    """The hand's lines and its rows of buttons."""
    seat = doc.seats[hand.seat]
    if seat.away is not None:
        # No tiles here: they change with every computer move, and nobody reads them.
        if seat.away == RESIGNED:
            away = line(
                _("A computer plays your seat. Send %(join)s to take it back."),
                join=CommandRef("join"),
            )
        else:
            away = line(
                _(
                    "You ran out of time too often: a computer plays your seat. "
                    "Send %(join)s to take it back."
                ),
                join=CommandRef("join"),
            )
        return (text_line(private_heading(_, doc)), away), ()
    tiles = held_tiles(hand)
    lines: list[TextLine] = [
        text_line(private_heading(_, doc)),
        text_line(_("Your tiles, deal %(n)d:", n=hand.deal)),
        text_line(tiles_text(tiles) if tiles else _("No tiles left")),
    ]
    if doc.status == STOPPED:
        lines.append(text_line(_("The game was stopped.")))  # as the table says
        return tuple(lines), ()
    if doc.status != RUNNING or table.match_result is not None:
        lines.append(text_line(_("The match is over.")))
        if doc.status != FINISHED:
            return tuple(lines), ()
        asked = codec.replay_payload(doc.id, doc.chat, review=True)
        return tuple(lines), ((Button(_("Review my play"), payload=asked),),)
    if not hand.moves:
        lines.append(text_line(_("Wait for your turn.")))
        return tuple(lines), hand_buttons(_, doc.id, hand, doc.chat, tiles)
    lines.append(text_line(_your_turn(_, table)))
    if due_at is not None:
        lines.append(line(_("Time runs out %(time)s"), time=Deadline(due_at)))
    return tuple(lines), hand_buttons(_, doc.id, hand, doc.chat)


def _your_turn(_: Translator, table: TableView) -> str:
    if table.ends is None:
        return _("Your turn: lead a tile.")
    left, right = table.ends
    if table.game == "three_guns":
        # An end takes the values that add up to six with what it shows.
        return _(
            "Your turn. The left end takes %(left)s, the right end %(right)s.",
            left=" / ".join(str(v) for v in left.accepts) or "—",
            right=" / ".join(str(v) for v in right.accepts) or "—",
        )
    return _(
        "Your turn. Open ends: %(left)d and %(right)d.", left=left.shows[0], right=right.shows[0]
    )


def hand_buttons(
    translator: Translator,
    game_id: str,
    hand: HandView,
    chat: ChatRef | None = None,
    held: list[Tile] | None = None,
) -> tuple[tuple[Button, ...], ...]:
    """The hand as buttons, highest tile first, then draw, pass or end turn (``held``:
    the hand's tiles as :func:`held_tiles` sorts them, when the caller has them).

    A tile that can be played gets a button per legal move with it; one that fits
    both ends gets two, ``◀ [6|4]`` and ``[6|4] ▶``, so a press always names a whole
    move and needs no second step. Every other tile is a disabled button, so the
    buttons read as the hand itself; where a platform lets it be pressed, the press
    asks why it cannot be played.
    """
    payloads = codec.HandPayloads(game_id, hand.counter, chat)
    if not hand.moves:  # not his turn (half the hands drawn): his tiles, none to play
        held = held_tiles(hand) if held is None else held
        return _rows([Button(tile_text(t), payloads.tile(t), enabled=False) for t in held])
    legal = [m.move() for m in hand.moves]
    words = [m for m in legal if m.kind in _WORD_KINDS]
    by_tile: dict[Tile, list[Move]] = {}
    for move in legal:
        if move.kind not in _WORD_KINDS and move.tile is not None:
            by_tile.setdefault(move.tile, []).append(move)
    shown = _highest_first({ref.tile() for ref in hand.tiles}.union(by_tile))
    tiles: list[Button] = []
    for tile in shown:
        moves = by_tile.get(tile)
        if moves:
            moves.sort(key=_by_end)
            tiles += [move_button(translator, payloads, m) for m in moves]
        else:
            tiles.append(Button(tile_text(tile), payloads.tile(tile), enabled=False))
    rows = list(_rows(tiles))
    if words:
        rows.append(tuple(move_button(translator, payloads, m) for m in words))
    return tuple(rows)


def _rows(buttons: list[Button]) -> tuple[tuple[Button, ...], ...]:
    """``buttons`` laid out :data:`ROW` to a row."""
    return tuple(tuple(buttons[i : i + ROW]) for i in range(0, len(buttons), ROW))


def _by_end(move: Move) -> tuple[str, bool]:
    """A tile's moves in the order its buttons show them: the left end's first."""
    return move.end or "", move.across


def move_button(translator: Translator, payloads: codec.HandPayloads, move: Move) -> Button:
    """``move``'s button, its payload one of a hand's ``payloads``."""
    style = (
        Style.PRIMARY if move.kind is not Kind.PASS and move.kind is not Kind.DONE else Style.PLAIN
    )
    return Button(move_label(translator, move), payloads.move(move), style=style)


def replaced_hand_screen(_: Translator) -> Screen:
    """What an older copy of a hand becomes once a newer one is shown: one line and
    no buttons, so only the newest copy can be played from."""
    return Screen((text_line(_("Your tiles are in a newer message now.")),))


def hand_popup(_: Translator, hand: HandView) -> str:
    """The text of the "My tiles" popup: the tiles in the order he holds them."""
    tiles = tiles_text([ref.tile() for ref in hand.tiles]) if hand.tiles else _("No tiles left")
    if hand.moves:
        return _("Your tiles: %(tiles)s. Your turn!", tiles=tiles)
    return _("Your tiles: %(tiles)s", tiles=tiles)


# -- the turn ping ---------------------------------------------------------------------


def ping_screen(_: Translator, doc: GameDoc, due_at: float | None) -> Screen:
    return _ping(_, private_heading(_, doc), due_at)


@lru_cache(maxsize=1024)
def _ping(_: Translator, heading: str, due_at: float | None) -> Screen:
    """The turn ping under ``heading``, made once for each: a game pings on nearly
    every move, and with no timer its ping is the same every time."""
    lines: list[TextLine] = [text_line(_("Your turn at %(game)s.", game=heading))]
    if due_at is not None:
        lines.append(line(_("Time runs out %(time)s"), time=Deadline(due_at)))
    return Screen(tuple(lines))

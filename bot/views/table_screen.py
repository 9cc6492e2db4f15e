"""The table of a running game as the chat sees it, and how seats are named.

The table is drawn from its model (:class:`~bot.model.table.TableView`), which has no
field that could hold a hand's tile, so no change here can show one; a player's own
screens are in :mod:`bot.views.hand`. Between deals the table shows the
deal's result (how it ended, each seat's points, never the tiles left), and at
the end of the match who won, with the buttons for what comes next.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, partial
from typing import Final, Literal

import engine
from bot.model import codec
from bot.model.contract import (
    Button,
    Card,
    CardField,
    ChatRef,
    Deadline,
    Mention,
    Screen,
    Segment,
    Style,
    TextLine,
    isolated,
)
from bot.model.gamedoc import GameDoc
from bot.model.parts import BaghdadParts, GunsParts
from bot.model.table import TableView
from bot.views import outcome
from bot.views.i18n import Translator, line, text_line
from bot.views.texts import (
    move_sentence,
    placed_text,
    tile_text,
    unit_words,
    variant_title,
)
from engine import Kind

HISTORY: Final = 4  # moves of the current deal the table keeps

# The table reads every move of the deal on every move; a game has a few hundred
# different moves at most, and a move read once is the same move ever after.
_parsed = lru_cache(maxsize=1024)(engine.parse_move)


# -- names ---------------------------------------------------------------------------


def seat_label(translator: Translator, doc: GameDoc, seat: int) -> str:
    """How the table's text names a seat, a person's name isolated (:func:`isolated`)."""
    return _seat_words(translator, doc, seat, isolated)


def seat_name(translator: Translator, doc: GameDoc, seat: int) -> str:
    """How a seat is named as data: drawn in a picture, kept in a match's record (whose
    text isolates the names it shows)."""
    return _seat_words(translator, doc, seat, str)


def _seat_words(_: Translator, doc: GameDoc, seat: int, person: Callable[[str], str]) -> str:
    held = doc.seats[seat]
    if held.user is None:
        number = sum(1 for s in doc.seats[: seat + 1] if s.user is None)
        return _("Computer %(n)d", n=number)
    if held.away is not None:
        return _("%(name)s (computer)", name=person(held.user.name))
    return person(held.user.name)


def seat_segment(translator: Translator, doc: GameDoc, seat: int) -> Segment:
    """A present player as a mention, anyone else by name."""
    held = doc.seats[seat]
    return (
        Mention(held.user)
        if held.user is not None and held.present
        else seat_label(translator, doc, seat)
    )


def game_heading(_: Translator, doc: GameDoc) -> str:
    return _heading(_, doc.variant, doc.id, None)


def private_heading(_: Translator, doc: GameDoc) -> str:
    """The heading of a private screen: the game, and the chat it is played in."""
    return _heading(_, doc.variant, doc.id, doc.chat_title)


@lru_cache(maxsize=4096)
def _heading(_: Translator, variant: str, table: str, chat_title: str | None) -> str:
    """A screen's heading, made once for a table and a language: every table, hand and
    turn ping drawn has one, and each translated and filled in its template anew."""
    if not chat_title:
        return _("%(game)s · table %(id)s", game=variant_title(_, variant), id=table)
    return _(
        "%(game)s in %(chat)s · table %(id)s",
        game=variant_title(_, variant),
        chat=chat_title,
        id=table,
    )


# -- the table ------------------------------------------------------------------------


def table_screen(_: Translator, doc: GameDoc, table: TableView) -> Screen:
    """The table message of a running or ended game, drawn from its model ``table``
    (the game's document gives the chat, the seats' names and the last moves), as
    lines and as a card; between deals it shows how the deal ended and what it
    wrote for each seat."""
    deal = text_line(_("Deal %(n)d", n=table.deal))
    tiles = "".join(placed_text(p) for p in table.line)
    facts = _line_facts(_, table) + _details(_, doc, table)
    teams = outcome.teams_line(_, table, partial(seat_label, _, doc))
    body = [deal, *facts] + ([text_line(teams)] if teams is not None else [])
    seats = _seat_rows(_, doc, table)
    # The story in the order it happened: the last moves, then how the deal ended.
    history = _history(_, doc, table.deal)
    ended = _deal_end(_, doc, table)
    points = _deal_points(_, doc, table) if ended else []
    closing = ended + points + _status(_, doc, table)
    lines: list[TextLine] = [text_line(game_heading(_, doc)), deal]
    if tiles:
        lines.append(line(_("Line: %(tiles)s"), tiles=tiles))
    lines += body[1:]
    if not ended:  # at a deal's end, the points lines say it all
        lines += [row for row, _field in seats]
    lines += history + closing
    # Nor does a card then give each seat a field of tiles and points said above it.
    fields = [field for _row, field in seats]
    card = Card(
        variant_title(_, doc.variant),
        tuple(body),
        tiles,
        () if ended else tuple(fields),
        tuple(closing),
        tuple(history),
    )
    return Screen(tuple(lines), _table_buttons(_, doc, table), card=card)


def _deal_end(translator: Translator, doc: GameDoc, table: TableView) -> list[TextLine]:
    """How the deal ended (who went out, or the block, and who takes it), once it has."""
    if table.deal_result is None:
        return []
    name = partial(seat_label, translator, doc)
    return [text_line(text) for text in outcome.deal_end_lines(translator, table.deal_result, name)]


def _deal_points(translator: Translator, doc: GameDoc, table: TableView) -> list[TextLine]:
    """For each seat, the tiles left, the points the deal wrote and the total. The
    tiles left in the hands are not shown: the table never shows a hand's tiles."""
    seats = table.seats
    said = outcome.points_lines(
        translator,
        table,
        partial(seat_label, translator, doc),
        lambda seat: translator.ngettext("%(n)d tile", "%(n)d tiles", seats[seat].tiles),
    )
    return [text_line("• " + text) for text in said]


def _line_facts(_: Translator, table: TableView) -> list[TextLine]:
    """What the table says about the line besides its tiles: that it is empty, and
    the boneyard."""
    rows: list[TextLine] = []
    parts = table.parts
    if not table.line and not isinstance(parts, BaghdadParts):
        rows.append(text_line(_("The line is empty")))
    if table.boneyard and not isinstance(parts, GunsParts):  # only the [6|6] set aside
        rows.append(
            text_line(_.ngettext("Boneyard: %(n)d tile", "Boneyard: %(n)d tiles", table.boneyard))
        )
    return rows


def _details(_: Translator, doc: GameDoc, table: TableView) -> list[TextLine]:
    """The game's own public parts the table shows: closed caravans, the cardinal and
    the token pool."""
    parts = table.parts
    rows: list[TextLine] = []
    caravans = parts.caravans if isinstance(parts, BaghdadParts) else ()
    for caravan in caravans:
        if caravan.status == "open":
            continue
        owner = caravan.owner
        who = seat_label(_, doc, owner) if owner is not None else "?"
        tiles = "".join(f"[{p.left}|{p.right}]" for p in caravan.camels)
        if caravan.status == "recovered":
            text = _("Recovered by %(name)s: %(tiles)s", name=who, tiles=tiles)
        else:
            text = _(
                "Stolen by %(name)s with %(thief)s: %(tiles)s",
                name=who,
                thief=tile_text(caravan.thief.tile()) if caravan.thief is not None else "?",
                tiles=tiles,
            )
        rows.append(text_line(text))
    if isinstance(parts, GunsParts):
        rows.append(
            text_line(
                _(
                    "Cardinal: %(name)s (%(tile)s is set aside)",
                    name=seat_label(_, doc, parts.cardinal),
                    tile=tile_text(parts.aside.tile()),
                )
            )
        )
        rows.append(
            text_line(
                _.ngettext("Tokens in the pool: %(n)d", "Tokens in the pool: %(n)d", parts.pool)
            )
        )
    return rows


def _seat_rows(
    translator: Translator, doc: GameDoc, table: TableView
) -> list[tuple[TextLine, CardField]]:
    """Each seat's line and card field (whose turn, name, tiles in hand and score), in
    seat order."""
    moving = None if table.turn is None else table.turn.seat
    return [
        _seat_row(
            translator,
            "▶ " if moving == held.seat else "• ",
            seat_label(translator, doc, held.seat),
            held.tiles,
            table.unit,
            held.total,
        )
        for held in table.seats
    ]


@lru_cache(maxsize=4096)
def _seat_row(
    _: Translator, mark: str, name: str, tiles: int, unit: Literal["points", "tokens"], total: int
) -> tuple[TextLine, CardField]:
    """A seat's line and card field, made once for each: the table is drawn on every
    move, and a move changes one seat's row at most."""
    count, score = _.ngettext("%(n)d tile", "%(n)d tiles", tiles), unit_words(_, unit, total)
    said = mark + _("%(name)s: %(tiles)s, %(score)s", name=name, tiles=count, score=score)
    return text_line(said), CardField(mark + name, (f"{count} · {score}",))


def _history(_: Translator, doc: GameDoc, deal: int) -> list[TextLine]:
    """The last few moves of this deal (never an earlier deal's: its tiles are
    back in the new hands), a player's draws in a row told as one.

    The moves are read from the last one back, and only until the oldest move told is
    whole: the table is drawn on every move, and a deal may be long."""
    start = doc.deal_starts[deal - 1]
    told: list[tuple[int, str, int]] = []  # (seat, move, how many times in a row), newest first
    for index in range(len(doc.moves) - 1, start - 1, -1):
        seat, text = doc.moves[index]
        if index in doc.timed_out:
            said = (seat, text, -1)  # said apart, with why it was made
        elif told and told[-1][:2] == (seat, text) and told[-1][2] > 0 and _is_draw(text):
            told[-1] = (seat, text, told[-1][2] + 1)  # an earlier draw of the same run
            continue
        else:
            said = (seat, text, 1)
        if len(told) == HISTORY:
            break  # the oldest move told is whole: this one begins an older one
        told.append(said)
    return [
        text_line(_move_told(_, seat_label(_, doc, seat), text, times))
        for seat, text, times in reversed(told)
    ]


def _is_draw(text: str) -> bool:
    return _parsed(text).kind is Kind.DRAW


@lru_cache(maxsize=4096)
def _move_told(_: Translator, name: str, text: str, times: int) -> str:
    """The history's sentence of a move (``text``, its notation) made ``times`` in a
    row (-1: once, for a player whose time ran out), made once for each: a move stays
    in the history for the next few moves, and every one draws the table."""
    move = _parsed(text)
    if times > 1:
        return _.ngettext("%(name)s drew %(n)d tile", "%(name)s drew %(n)d tiles", times, name=name)
    sentence = move_sentence(_, name, move)
    if times < 0:
        sentence = _("%(sentence)s (time ran out)", sentence=sentence)
    return sentence


def _status(_: Translator, doc: GameDoc, table: TableView) -> list[TextLine]:
    if table.status == "stopped":
        return [text_line(_("The game was stopped."))]
    if table.match_result is not None:
        said = outcome.match_end_lines(_, table.match_result, partial(seat_label, _, doc))
        last = text_line(_("Deal %(n)d is over.", n=table.deal))
        return [last, *(text_line(text) for text in said)]
    if table.deal_result is not None:
        rows = [text_line(_("Deal %(n)d is over.", n=table.deal))]
        if table.next_deal_at is not None:
            rows.append(
                line(_("The next deal starts %(time)s."), time=Deadline(table.next_deal_at))
            )
        return rows
    if table.turn is None:
        return []
    rows = [line(_("%(name)s to move"), name=seat_segment(_, doc, table.turn.seat))]
    if table.turn.deadline is not None:
        rows.append(line(_("Time runs out %(time)s"), time=Deadline(table.turn.deadline)))
    return rows


def _table_buttons(_: Translator, doc: GameDoc, table: TableView) -> tuple[tuple[Button, ...], ...]:
    if table.status == "finished":
        return (
            (
                Button(_("Rematch"), codec.rematch_payload(doc.id), style=Style.PRIMARY),
                Button(_("Scores"), codec.scores_payload(doc.variant)),
            ),
        )
    if table.status != "running" or table.match_result is not None:
        return ()
    if table.deal_result is not None:
        return (
            (
                Button(
                    _("Next deal"),
                    codec.next_deal_payload(doc.id, table.deal),
                    style=Style.PRIMARY,
                ),
            ),
        )
    return _play_buttons(_, doc.id, doc.chat)


@lru_cache(maxsize=1024)
def _play_buttons(_: Translator, game_id: str, chat: ChatRef) -> tuple[tuple[Button, ...], ...]:
    """The table's buttons while a deal is played: the same on every move of a game."""
    return (
        (
            Button(_("My tiles"), codec.tiles_payload(game_id)),
            Button(_("Open my hand"), deep_link=codec.hand_link(game_id, chat)),
            Button(_("Picture"), codec.picture_payload(game_id)),
        ),
    )

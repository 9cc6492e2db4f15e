"""What the table says besides its line, its seats and its moves, read from the table's
model (:class:`TableView`): the boneyard, the closed caravans, Three Guns' cardinal and
pool, the teams; and once a deal is over, how it ended and who takes it, each seat's (or
team's) points, that the deal is over, who won the match. The sentences are those the
table writes (the same msgids), said to the one person at the keyboard where they are
about him (see :mod:`.event_words`).
"""

from __future__ import annotations

from bot.model.contract import Deadline, TextLine
from bot.model.parts import BaghdadParts, GunsParts
from bot.model.table import TableView
from bot.views import outcome
from bot.views.event_words import EventWords, tile_words
from bot.views.i18n import line, text_line


def table_facts(words: EventWords, table: TableView) -> list[str]:
    """What the table says under its line: that it is empty, the boneyard, the closed
    caravans, Three Guns' cardinal and token pool, the teams."""
    _, parts = words._, table.parts
    rows: list[str] = []
    if not table.line and not isinstance(parts, BaghdadParts):
        rows.append(_("The line is empty"))
    if table.boneyard and not isinstance(parts, GunsParts):  # only the [6|6] set aside
        rows.append(_.ngettext("Boneyard: %(n)d tile", "Boneyard: %(n)d tiles", table.boneyard))
    if isinstance(parts, BaghdadParts):
        rows += [words.caravan(caravan) for caravan in parts.caravans if caravan.status != "open"]
    if isinstance(parts, GunsParts):
        cardinal, aside = words.name(parts.cardinal), tile_words(parts.aside)
        rows.append(_("Cardinal: %(name)s (%(tile)s is set aside)", name=cardinal, tile=aside))
        rows.append(
            _.ngettext("Tokens in the pool: %(n)d", "Tokens in the pool: %(n)d", parts.pool)
        )
    teams = outcome.teams_line(_, table, words.name)
    return rows if teams is None else [*rows, teams]


def deal_result(words: EventWords, table: TableView) -> list[TextLine]:
    """What the table says once its deal is over: how it ended, the points, whether the
    match is over and who won it (nothing while the deal is played)."""
    _ = words._
    result = table.deal_result
    said: list[TextLine] = []
    if result is not None:
        said += [text_line(text) for text in words.deal_end(result.went_out, result.winner)]
        said += [text_line("• " + text) for text in points_lines(words, table)]
    if table.status == "stopped":
        return [*said, text_line(_("The game was stopped."))]
    if result is None:
        return []
    said.append(text_line(_("Deal %(n)d is over.", n=result.deal)))
    match = table.match_result
    if match is not None:
        said += [text_line(text) for text in words.match_end(match.winners, match.goats)]
    elif table.next_deal_at is not None:
        said.append(line(_("The next deal starts %(time)s."), time=Deadline(table.next_deal_at)))
    return said


def points_lines(words: EventWords, table: TableView) -> list[str]:
    """Each seat's tiles left and what the deal wrote for it, as the table says them
    (:func:`bot.views.outcome.points_lines`), with the seats named as ``words`` names them."""
    _ = words._
    seats = table.seats
    return outcome.points_lines(
        _,
        table,
        words.name,
        lambda seat: _.ngettext("%(n)d tile", "%(n)d tiles", seats[seat].tiles),
    )

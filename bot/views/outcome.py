"""How a deal and a match ended, in words: who went out, who takes the deal, the
goat, the teams, each seat's points and those a score sheet did not take.

The table, its picture and the replay story all say these things, each naming
seats its own way: they pass ``name``, which turns a seat into a name. What is said
comes from the table's model (:mod:`bot.model.table`): its deal's and match's
outcomes, its teams and each seat's total.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.model.table import DealOutcome, MatchOutcome, TableView
from bot.views.i18n import Translator
from bot.views.texts import unit_words

SeatName = Callable[[int], str]


def deal_end_lines(_: Translator, deal: DealOutcome, name: SeatName) -> list[str]:
    """``Anna went out.`` or ``Blocked: nobody can move.``, then who takes the deal
    unless it is the one who went out."""
    out = deal.went_out
    lines = [
        _("Blocked: nobody can move.") if out is None else _("%(name)s went out.", name=name(out))
    ]
    if deal.winner is None:
        lines.append(_("Nobody takes the deal."))
    elif deal.winner != out:
        lines.append(_("The deal goes to %(name)s.", name=name(deal.winner)))
    return lines


def teams_line(_: Translator, table: TableView, name: SeatName) -> str | None:
    """``Teams: Anna and Boris against Computer 1 and Computer 2.``"""
    if len(table.teams) != 2:
        return None
    first, second = (team_name(_, team, name) for team in table.teams)
    return _("Teams: %(first)s against %(second)s.", first=first, second=second)


def team_name(_: Translator, team: tuple[int, ...], name: SeatName) -> str:
    """Partners named together: ``Anna and Boris``."""
    first, second = team
    return _("%(a)s and %(b)s", a=name(first), b=name(second))


def goat_line(translator: Translator, match: MatchOutcome, name: SeatName) -> str | None:
    """Kozel: who reached the target and is the goat."""
    if not match.goats:
        return None
    names = ", ".join(name(seat) for seat in match.goats)
    return translator.ngettext(
        "The goat: %(names)s.", "The goats: %(names)s.", len(match.goats), names=names
    )


def match_end_lines(_: Translator, match: MatchOutcome, name: SeatName) -> list[str]:
    """Who won the match, and in Kozel who is the goat."""
    names = ", ".join(name(s) for s in match.winners)
    said = [_("The match is over. Won by %(names)s.", names=names)]
    goat = goat_line(_, match, name)
    if goat is not None:
        said.append(goat)
    return said


def points_lines(_: Translator, table: TableView, name: SeatName, tiles: SeatName) -> list[str]:
    """Each seat's tiles left (as ``tiles`` says them) and what the deal wrote for
    it; with teams, the points once for each team, under both partners' names, and
    points the 13 rule left unwritten said so, with the rule."""
    deal = table.deal_result
    assert deal is not None
    dropped = deal.unwritten
    rows = [
        _("%(name)s: %(tiles)s", name=name(seat), tiles=tiles(seat))
        if table.teams
        else _seat_points(_, table, seat, name(seat), tiles(seat), dropped[seat])
        for seat in range(len(table.seats))
    ]
    for team in table.teams:
        partners = team_name(_, team, name)
        rows.append(_seat_points(_, table, team[0], partners, None, 0))
        if dropped[team[0]]:
            rows.append(
                _(
                    "%(name)s: %(points)s not written: a score sheet opens with a deal of 13 "
                    "or more.",
                    name=partners,
                    points=unit_words(_, table.unit, dropped[team[0]]),
                )
            )
    return rows


def _seat_points(
    _: Translator, table: TableView, seat: int, who: str, tiles: str | None, dropped: int
) -> str:
    """One seat's (or team's) line; ``tiles`` None for a team, whose hands are each
    on a line of their own."""
    held = table.seats[seat]
    total = unit_words(_, table.unit, held.total)
    if dropped:
        return _(
            "%(name)s: %(tiles)s · %(points)s not written (a score sheet opens with a deal "
            "of 13 or more), %(total)s in all",
            name=who,
            tiles=tiles,
            points=unit_words(_, table.unit, dropped),
            total=total,
        )
    assert held.deal_points is not None
    deal = unit_words(_, table.unit, held.deal_points)
    if tiles is None:
        return _("%(name)s: %(deal)s this deal, %(total)s in all", name=who, deal=deal, total=total)
    return _(
        "%(name)s: %(tiles)s · %(deal)s this deal, %(total)s in all",
        name=who,
        tiles=tiles,
        deal=deal,
        total=total,
    )

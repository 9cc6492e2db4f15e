"""How a deal and a match ended, in words: who went out, who takes the deal, the
goat, the teams, each seat's points and those a score sheet did not take.

The table, its picture and the replay story all say these things, each naming
seats its own way: they pass ``name``, which turns a seat into a name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.views.i18n import Translator
from bot.views.texts import score_words
from engine import State, View, get_variant, public_view, went_out

SeatName = Callable[[int], str]
# What the whole table sees is enough for the teams, the goat and the winners: the
# group table passes the view for no seat.
Seen = State[Any] | View


def deal_end_lines(_: Translator, state: Seen, name: SeatName) -> list[str]:
    """``Anna went out.`` or ``Blocked: nobody can move.``, then who takes the deal
    unless it is the one who went out."""
    result = state.result
    assert result is not None
    out = went_out(state)
    lines = [
        _("Blocked: nobody can move.") if out is None else _("%(name)s went out.", name=name(out))
    ]
    if result.winner is None:
        lines.append(_("Nobody takes the deal."))
    elif result.winner != out:
        lines.append(_("The deal goes to %(name)s.", name=name(result.winner)))
    return lines


def teams(state: Seen) -> list[tuple[int, ...]]:
    """Partners who share a score sheet (Kozel with teams), else nothing."""
    return list(get_variant(state.variant).teams(state.options))


def teams_line(_: Translator, state: Seen, name: SeatName) -> str | None:
    """``Teams: Anna and Boris against Computer 1 and Computer 2.``"""
    found = teams(state)
    if len(found) != 2:
        return None
    first, second = (_pair(_, team, name) for team in found)
    return _("Teams: %(first)s against %(second)s.", first=first, second=second)


def team_name(translator: Translator, team: tuple[int, ...], name: SeatName) -> str:
    """Partners named together: ``Anna and Boris``."""
    return _pair(translator, team, name)


def _pair(_: Translator, team: tuple[int, ...], name: SeatName) -> str:
    first, second = team
    return _("%(a)s and %(b)s", a=name(first), b=name(second))


def goat_line(translator: Translator, state: Seen, name: SeatName) -> str | None:
    """Kozel: who reached the target and is the goat, once the match is over."""
    if not state.match_over:
        return None
    goats = get_variant(state.variant).goats(_seen(state))
    if not goats:
        return None
    names = ", ".join(name(seat) for seat in goats)
    return translator.ngettext(
        "The goat: %(names)s.", "The goats: %(names)s.", len(goats), names=names
    )


def match_end_lines(_: Translator, state: Seen, name: SeatName) -> list[str]:
    """Who won the match, and in Kozel who is the goat."""
    names = ", ".join(name(s) for s in state.winners)
    said = [_("The match is over. Won by %(names)s.", names=names)]
    goat = goat_line(_, state, name)
    if goat is not None:
        said.append(goat)
    return said


def unwritten(state: Seen) -> tuple[int, ...]:
    """Kozel: the points each seat's sheet did not take this deal because it is
    not opened yet (a sheet opens with a deal of 13 or more); zeros elsewhere."""
    return get_variant(state.variant).unwritten(_seen(state))


def points_lines(_: Translator, state: Seen, name: SeatName, tiles: SeatName) -> list[str]:
    """Each seat's tiles left (as ``tiles`` says them) and what the deal wrote for
    it; with teams, the points once for each team, under both partners' names, and
    points the 13 rule left unwritten said so, with the rule."""
    dropped = unwritten(state)
    found = teams(state)
    rows = [
        _("%(name)s: %(tiles)s", name=name(seat), tiles=tiles(seat))
        if found
        else _seat_points(_, state, seat, name(seat), tiles(seat), dropped[seat])
        for seat in range(state.players)
    ]
    for team in found:
        partners = team_name(_, team, name)
        rows.append(_seat_points(_, state, team[0], partners, None, 0))
        if dropped[team[0]]:
            rows.append(
                _(
                    "%(name)s: %(points)s not written: a score sheet opens with a deal of 13 "
                    "or more.",
                    name=partners,
                    points=score_words(_, state.variant, dropped[team[0]]),
                )
            )
    return rows


def _seat_points(
    _: Translator, state: Seen, seat: int, who: str, tiles: str | None, dropped: int
) -> str:
    """One seat's (or team's) line; ``tiles`` None for a team, whose hands are each
    on a line of their own."""
    result = state.result
    assert result is not None
    total = score_words(_, state.variant, state.match_scores[seat])
    points = score_words(_, state.variant, dropped)
    if dropped:
        return _(
            "%(name)s: %(tiles)s · %(points)s not written (a score sheet opens with a deal "
            "of 13 or more), %(total)s in all",
            name=who,
            tiles=tiles,
            points=points,
            total=total,
        )
    deal = score_words(_, state.variant, result.scores[seat])
    if tiles is None:
        return _("%(name)s: %(deal)s this deal, %(total)s in all", name=who, deal=deal, total=total)
    return _(
        "%(name)s: %(tiles)s · %(deal)s this deal, %(total)s in all",
        name=who,
        tiles=tiles,
        deal=deal,
        total=total,
    )


def _seen(state: Seen) -> View:
    """What the whole table sees of ``state``."""
    return state if isinstance(state, View) else public_view(state)

"""The end of a deal as its own screen: how it ended, every hand (the rules show
them once a deal is over), the points by rule, and at the end of the match who
won and, in Kozel, the goat."""

from __future__ import annotations

from functools import partial
from typing import Any

from bot import outcome
from bot.contract import Screen, TextLine
from bot.gamedoc import GameDoc
from bot.i18n import Translator, text_line
from bot.render import game_heading, seat_label
from bot.texts import score_words, tiles_text
from engine import State


def summary_screen(_: Translator, doc: GameDoc, state: State[Any]) -> Screen:
    """The end of a deal: how it ended, every hand, the points by rule; and at the
    end of the match, who won (and in Kozel, the goat)."""
    result = state.result
    assert result is not None and state.deal_over
    name = partial(seat_label, _, doc)
    lines: list[TextLine] = [
        text_line(game_heading(_, doc)),
        text_line(_("Deal %(n)d is over.", n=state.deal_number)),
    ]
    lines += [text_line(said) for said in outcome.deal_end_lines(_, state, name)]
    lines += [text_line(said) for said in _points(_, doc, state)]
    if state.match_over:
        lines += [text_line(said) for said in outcome.match_end_lines(_, state, name)]
    return Screen(tuple(lines))


def _points(_: Translator, doc: GameDoc, state: State[Any]) -> list[str]:
    """Each hand and what the deal wrote; partners' points under their team."""
    result = state.result
    assert result is not None
    name = partial(seat_label, _, doc)
    dropped = outcome.unwritten(state)
    teams = outcome.teams(state)
    rows: list[str] = []
    for seat, hand in enumerate(state.hands):
        tiles = tiles_text(hand) if hand else "—"
        if teams:
            rows.append(_("%(name)s: %(tiles)s", name=name(seat), tiles=tiles))
        else:
            rows.append(_seat_points(_, doc, state, name(seat), seat, tiles, dropped[seat]))
    for team in teams:
        rows.append(_seat_points(_, doc, state, outcome.team_name(_, team, name), team[0], "", 0))
        if dropped[team[0]]:
            rows.append(_not_written(_, doc, outcome.team_name(_, team, name), dropped[team[0]]))
    return rows


def _seat_points(
    _: Translator, doc: GameDoc, state: State[Any], who: str, seat: int, tiles: str, dropped: int
) -> str:
    result = state.result
    assert result is not None
    total = score_words(_, doc.variant, state.match_scores[seat])
    if dropped:
        return _(
            "%(name)s: %(tiles)s · %(points)s not written (a score sheet opens with a deal "
            "of 13 or more), %(total)s in all",
            name=who,
            tiles=tiles,
            points=score_words(_, doc.variant, dropped),
            total=total,
        )
    deal = score_words(_, doc.variant, result.scores[seat])
    if not tiles:
        return _("%(name)s: %(deal)s this deal, %(total)s in all", name=who, deal=deal, total=total)
    return _(
        "%(name)s: %(tiles)s · %(deal)s this deal, %(total)s in all",
        name=who,
        tiles=tiles,
        deal=deal,
        total=total,
    )


def _not_written(_: Translator, doc: GameDoc, who: str, points: int) -> str:
    return _(
        "%(name)s: %(points)s not written: a score sheet opens with a deal of 13 or more.",
        name=who,
        points=score_words(_, doc.variant, points),
    )

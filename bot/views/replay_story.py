"""A replay file told move by move, for ``domino-bot replay``.

The file is played through the engine exactly as ``python -m engine replay``
plays it (same deals, same checks), but instead of the final state as JSON it
prints each deal's hands, every move with the line after it, and how each deal
and the match ended, in the words the tables use.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any, Final

import engine
from bot.model.table import deal_outcome, match_outcome
from bot.views import outcome
from bot.views.i18n import Translator
from bot.views.texts import (
    error_text,
    move_sentence,
    placed_text,
    score_words,
    tiles_text,
    variant_title,
)
from engine import BadFixture, DominoError, Move, State
from engine.replay import BadReplay, Replay, start

INDENT: Final = "  "  # a deal's hands and scores, under its heading
MOVE_INDENT: Final = "      "  # the line at a deal's end, under the moves
MOVE_COLUMN: Final = 52  # where the open ends are written beside a move


class ReplayStopped(Exception):
    """A move in the file is not legal; the message says which and why."""


def story(
    _: Translator, replay: Replay, deal_ended: Callable[[State[Any]], None] | None = None
) -> Iterator[str]:
    """The lines of the story of ``replay``. Raises :class:`BadReplay` (or another
    :class:`~engine.DominoError`) for a file that is not a valid replay, and
    :class:`ReplayStopped`, after the lines up to it, at the first illegal move.
    ``deal_ended`` is called with the state at each deal's end (to draw it)."""
    state = start(replay)
    yield _heading(_, replay, state)
    yield from _deal_opening(_, state)
    for index, (seat, text) in enumerate(replay.moves):
        if state.deal_over and not state.match_over:
            state = _next_deal(replay, state)
            yield from _deal_opening(_, state)
        try:
            state, events = engine.apply(state, text, seat)
        except DominoError as exc:
            stopped = _(
                "move %(n)d (%(name)s: %(move)s): %(reason)s",
                n=index + 1,
                name=seat_name(_, seat),
                move=text,
                reason=error_text(_, exc),
            )
            raise ReplayStopped(stopped) from None
        # The applied move has its end filled in, where the file may have left it out.
        move = next((e.move for e in events if e.kind == "move" and e.move is not None), None)
        yield _move_line(_, state, index, seat, move or engine.parse_move(text))
        if state.deal_over:
            yield from _deal_end(_, state)
            if deal_ended is not None:
                deal_ended(state)
    if not state.deal_over and state.turn is not None:
        yield _("(the file stops here: %(name)s to move)", name=seat_name(_, state.turn))
    elif not state.deal_over:
        yield _("(the file stops here)")


def seat_name(_: Translator, seat: int) -> str:
    """A seat by its number, from 1: a replay file has no names."""
    return _("Seat %(n)d", n=seat + 1)


def _heading(_: Translator, replay: Replay, state: State[Any]) -> str:
    game = variant_title(_, replay.variant)  # not inside the call: extraction would stop at `_`
    heading = _.ngettext(
        "%(game)s: %(n)d player, seed %(seed)s",
        "%(game)s: %(n)d players, seed %(seed)s",
        replay.players,
        game=game,
        seed=replay.seed if replay.seed is not None else "-",  # a match still played
    )
    options = " ".join(f"{k}={v}" for k, v in state.options.items())
    if not options:
        return heading
    return _("%(heading)s, options: %(options)s", heading=heading, options=options)


def _next_deal(replay: Replay, state: State[Any]) -> State[Any]:
    number = state.deal_number
    fixture = replay.fixture(number + 1)
    try:
        return engine.next_deal(state, fixture)
    except BadFixture as exc:
        raise BadReplay(f"deal {number}: {exc}") from None


def _deal_opening(_: Translator, state: State[Any]) -> Iterator[str]:
    yield ""
    yield _("Deal %(n)d", n=state.deal_number)
    for seat, hand in enumerate(state.hands):
        yield INDENT + _("%(name)s: %(tiles)s", name=seat_name(_, seat), tiles=tiles_text(hand))
    if state.boneyard:
        count = len(state.boneyard)
        yield INDENT + _.ngettext("Boneyard: %(n)d tile", "Boneyard: %(n)d tiles", count)


def _move_line(_: Translator, state: State[Any], index: int, seat: int, move: Move) -> str:
    told = f"{index + 1:4}. {move_sentence(_, seat_name(_, seat), move)}"
    if state.ends is None or state.deal_over:
        return told
    ends = _("ends %(left)d · %(right)d", left=state.ends[0], right=state.ends[1])
    return f"{told:<{MOVE_COLUMN}} {ends}"


def _deal_end(_: Translator, state: State[Any]) -> Iterator[str]:
    result = state.result
    assert result is not None
    n = state.deal_number
    if state.line:
        line = "".join(placed_text(p) for p in state.line)
        yield MOVE_INDENT + _("Line: %(tiles)s", tiles=line)
    seen = engine.public_view(state)
    deal = deal_outcome(seen)
    assert deal is not None
    said = outcome.deal_end_lines(_, deal, partial(seat_name, _))
    yield _("Deal %(n)d is over. %(how)s", n=n, how=" ".join(said))
    for seat in range(state.players):
        yield INDENT + _(
            "%(name)s: %(deal)s this deal, %(total)s in all",
            name=seat_name(_, seat),
            deal=score_words(_, state.variant, result.scores[seat]),
            total=score_words(_, state.variant, state.match_scores[seat]),
        )
    match = match_outcome(seen)
    if match is not None:
        yield from outcome.match_end_lines(_, match, partial(seat_name, _))


__all__ = ["BadReplay", "ReplayStopped", "seat_name", "story"]

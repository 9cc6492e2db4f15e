"""A replay file told move by move, for ``domino-bot replay``.

The file is played through the engine exactly as ``python -m engine replay``
plays it (same deals, same checks), but instead of the final state as JSON it
prints each deal's hands, every move with the line after it, and how each deal
and the match ended, in the words the tables use.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import engine
from bot.i18n import Translator
from bot.texts import move_story, placed_text, score_words, tiles_text, variant_title
from engine import BadFixture, DominoError, Move, State
from engine.replay import BadReplay, Replay, parse_replay, start


class ReplayStopped(Exception):
    """A move in the file is not legal; the message says which and why."""


def story(_: Translator, data: object) -> Iterator[str]:
    """The lines of the story of the replay document ``data``. Raises :class:`BadReplay`
    (or another :class:`~engine.DominoError`) for a file that is not a valid replay, and
    :class:`ReplayStopped`, after the lines up to it, at the first illegal move."""
    replay = parse_replay(data)
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
            raise ReplayStopped(f"move {index + 1} ({seat_name(seat)}: {text}): {exc}") from None
        # The applied move has its end filled in, where the file may have left it out.
        move = next((e.move for e in events if e.kind == "move" and e.move is not None), None)
        yield _move_line(_, state, index, seat, move or engine.parse_move(text))
        if state.deal_over:
            yield from _deal_end(_, state)
    if not state.deal_over:
        yield f"(the file stops here: {seat_name(state.turn)} to move)"


def seat_name(seat: int | None) -> str:
    return "nobody" if seat is None else f"Seat {seat + 1}"


def _heading(_: Translator, replay: Replay, state: State[Any]) -> str:
    options = " ".join(f"{k}={v}" for k, v in state.options.items())
    return f"{variant_title(_, replay.variant)}: {replay.players} players, seed {replay.seed}" + (
        f", {options}" if options else ""
    )


def _next_deal(replay: Replay, state: State[Any]) -> State[Any]:
    number = state.deal_number
    fixture = replay.deals[number] if number < len(replay.deals) else None
    try:
        return engine.next_deal(state, fixture)
    except BadFixture as exc:
        raise BadReplay(f"deal {number}: {exc}") from None


def _deal_opening(_: Translator, state: State[Any]) -> Iterator[str]:
    yield ""
    yield f"Deal {state.deal_number}"
    for seat, hand in enumerate(state.hands):
        yield f"  {seat_name(seat)}: {tiles_text(hand)}"
    if state.boneyard:
        yield f"  Boneyard: {len(state.boneyard)} tiles"


def _move_line(_: Translator, state: State[Any], index: int, seat: int, move: Move) -> str:
    told = f"{index + 1:4}. {seat_name(seat)} {move_story(_, move)}"
    if state.ends is None or state.deal_over:
        return told
    return f"{told:<52} ends {state.ends[0]} · {state.ends[1]}"


def _deal_end(_: Translator, state: State[Any]) -> Iterator[str]:
    result = state.result
    assert result is not None
    if state.line:
        yield "      Line: " + "".join(placed_text(p) for p in state.line)
    if result.winner is None:
        yield f"Deal {state.deal_number} is blocked, with no winner."
    elif result.end is engine.DealEnd.DOMINO:
        yield f"Deal {state.deal_number}: {seat_name(result.winner)} went out."
    else:
        yield f"Deal {state.deal_number} is blocked; {seat_name(result.winner)} wins it."
    for seat in range(state.players):
        deal = score_words(_, state.variant, result.scores[seat])
        total = score_words(_, state.variant, state.match_scores[seat])
        yield f"  {seat_name(seat)}: {deal} this deal, {total} in all"
    if state.match_over:
        winners = ", ".join(seat_name(s) for s in state.winners)
        yield f"The match is over. Won by {winners}."


__all__ = ["BadReplay", "ReplayStopped", "seat_name", "story"]

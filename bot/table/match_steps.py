"""A running match as pure steps on a (document, engine state) pair.

Nothing here touches the store or draws a screen: each step returns the new document
and the new state. The flows in :mod:`bot.table.play` and
:mod:`bot.table.lobby` decide *whether* a step may happen; this module only does it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Final

import engine
from bot import ai
from bot.ai.clues import clues
from bot.ai.thinker import Question, answer
from bot.model.gamedoc import FINISHED, RUNNING, STOPPED, TIMED_OUT, Due, GameDoc
from engine import Kind, Move, State

#: A forced move is one with no choice in it: the only legal move is one of these.
FORCED_KINDS: Final = frozenset({Kind.DRAW, Kind.PASS, Kind.DONE})
_MAX_CHAIN: Final = 500  # more forced moves in a row than any deal can have


UNREACHABLE_TIMER: Final = 15.0
"""Seconds a turn waits at most for a player the bot cannot write to privately."""


@dataclass(frozen=True, slots=True)
class Tempo:
    """How fast a table moves on its own."""

    computer_delay: float  # between a move and a computer's reply
    next_deal_delay: float | None  # between a deal's end and the next deal; None: on a press
    takeover_after: int  # turn timeouts in a row before a computer takes the seat
    allowance: ai.Allowance = field(default_factory=ai.Allowance)  # for each computer decision
    # The turn timer of a player the bot cannot write to privately, if shorter.
    unreachable_timer: float = UNREACHABLE_TIMER


@dataclass(frozen=True, slots=True)
class Step:
    """A document and its engine state after one or more steps."""

    doc: GameDoc
    state: State[Any]


def autopilot(doc: GameDoc, seat: int) -> str | None:
    """The computer level that moves for ``seat``, or ``None`` if a person does."""
    held = doc.seats[seat]
    if held.computer is not None:
        return held.computer
    return ai.DEFAULT_LEVEL if held.away is not None else None


def deal_first(doc: GameDoc) -> Step:
    """Start the match: the engine checks the options and deals."""
    state = engine.new_match(doc.variant, len(doc.seats), doc.options, doc.seed)
    started = doc.but(status=RUNNING, deals=(state.dealt,), deal_starts=(0,), panel="main")
    return Step(started, state)


def deal_next(doc: GameDoc, state: State[Any]) -> Step:
    dealt = engine.next_deal(state)
    moved = doc.but(
        deals=doc.deals + (dealt.dealt,), deal_starts=doc.deal_starts + (len(doc.moves),)
    )
    return Step(moved, dealt)


def play(
    doc: GameDoc, state: State[Any], seat: int, move: Move, *, timed_out: bool = False
) -> Step:
    """Apply ``move`` for ``seat`` (raises :class:`engine.DominoError` if illegal),
    then every forced move that follows."""
    if seat != state.turn:
        raise engine.NotYourTurn(seat, state.turn)
    resolved = engine.resolve(state, move)
    after, _events = engine.apply(state, resolved, seat)
    index, text = len(doc.moves), engine.format_move(resolved)
    moved = doc.but(
        moves=doc.moves + ((seat, text),),
        timed_out=doc.timed_out + ((index,) if timed_out else ()),
    )
    step = Step(moved, after)
    return play_forced(step.doc, step.state)


def play_forced(doc: GameDoc, state: State[Any]) -> Step:
    """Make every forced move (a lone draw, pass or end of turn) at once."""
    step = Step(doc, state)
    for _ in range(_MAX_CHAIN):
        if step.state.deal_over or step.state.turn is None:
            break
        legal = engine.legal_moves(step.state)
        if len(legal) != 1 or legal[0].kind not in FORCED_KINDS:
            break
        seat = step.state.turn
        after, _events = engine.apply(step.state, legal[0], seat)
        moved = step.doc.but(moves=step.doc.moves + ((seat, engine.format_move(legal[0])),))
        step = Step(moved, after)
    return step


def question(doc: GameDoc, state: State[Any], level: str, allowance: ai.Allowance) -> Question:
    """What a computer of ``level`` must decide for the seat to move: its view and
    what this deal's moves showed every seat, nothing hidden."""
    seat = state.turn
    assert seat is not None
    view = engine.view(state, seat)
    lacks = clues(doc.variant, len(doc.seats), doc.moves[doc.deal_starts[-1] :])
    return Question(view, level, ai.dice_for(doc.seed, state.counter, seat), lacks, allowance)


def computer_move(
    doc: GameDoc, state: State[Any], level: str, allowance: ai.Allowance, chosen: Move | None = None
) -> Move:
    """``chosen`` if a thinker already chose it for this position, else the
    computer's move worked out here."""
    if chosen is not None and chosen in engine.legal_moves(state):
        return chosen
    return answer(question(doc, state, level, allowance))


def timeout_move(doc: GameDoc, state: State[Any], tempo: Tempo, chosen: Move | None = None) -> Step:
    """The timer ran out on a person: a computer moves for him; after too many
    timeouts in a row it keeps his seat for the rest of the match. A turn counts one
    timeout however many of its moves the computer makes for him."""
    seat = state.turn
    assert seat is not None
    if not finishing_a_timed_out_turn(doc, seat):
        held = doc.seats[seat]
        timeouts = held.timeouts + 1
        away = TIMED_OUT if timeouts >= tempo.takeover_after else held.away
        doc = doc.with_seat(seat, replace(held, timeouts=timeouts, away=away))
    move = computer_move(doc, state, ai.DEFAULT_LEVEL, tempo.allowance, chosen)
    return play(doc, state, seat, move, timed_out=True)


def finishing_a_timed_out_turn(doc: GameDoc, seat: int) -> bool:
    """The last move was made for ``seat`` because his timer ran out, and left him to
    move again in the same turn (Thief of Baghdad: a draw whose tile he may play, a
    camel a thief or handcuffs may follow): the timer was for his whole turn, so the
    computer finishes it at a computer's pace instead of giving him a fresh timer."""
    last = len(doc.moves) - 1
    return last >= 0 and doc.moves[last][0] == seat and last in doc.timed_out


def finish_if_over(step: Step) -> Step:
    if step.state.match_over and step.doc.status == RUNNING:
        return Step(step.doc.but(status=FINISHED), step.state)
    return step


def stop(doc: GameDoc, by: str | None) -> GameDoc:
    return doc.but(status=STOPPED, ended_by=by, due=None, pinged=None)


def clock(doc: GameDoc, state: State[Any] | None, now: float, tempo: Tempo) -> GameDoc:
    """Set the game's next deadline and whose turn ping shows, for its new state.

    A deadline already set for this same decision point is kept, so a write that
    does not move the game (a flag, a setting) does not extend anybody's turn.
    """
    due, pinged = _next_deadline(doc, state, now, tempo)
    if (
        due is not None
        and doc.due is not None
        and (doc.due.kind, doc.due.step) == (due.kind, due.step)
    ):
        due = doc.due
    return doc.but(due=due, pinged=pinged)


def _next_deadline(
    doc: GameDoc, state: State[Any] | None, now: float, tempo: Tempo
) -> tuple[Due | None, int | None]:
    if doc.status != RUNNING or state is None or state.match_over:
        return None, None
    if state.deal_over:
        if tempo.next_deal_delay is None:
            return None, None
        return Due("deal", now + tempo.next_deal_delay, doc.step), None
    seat = state.turn
    assert seat is not None
    if autopilot(doc, seat) is not None:
        return Due("computer", now + tempo.computer_delay, doc.step), None
    held = doc.seats[seat]
    pinged = seat if doc.settings.pings and not held.unreachable else None
    if doc.settings.timer <= 0:
        return None, pinged
    if finishing_a_timed_out_turn(doc, seat):
        return Due("turn", now + tempo.computer_delay, doc.step), pinged
    timer: float = doc.settings.timer
    if held.unreachable:  # he sees no hand: the table waits for him no longer than this
        timer = min(timer, tempo.unreachable_timer)
    return Due("turn", now + timer, doc.step), pinged

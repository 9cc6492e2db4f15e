"""Flows of a running game: move presses, "My tiles", the next deal, deadlines,
and reaching a player's private chat.

A move press applies only if its game is the chat's running game, its turn
counter is the current one and the presser holds the seat to move; anything
else changes nothing and says why.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import engine
from bot import ai
from bot.ai.thinker import Question
from bot.model import codec
from bot.model.contract import Button, ChatRef, Notice, Screen, UserRef, isolated
from bot.model.decision import Decision, Game, refuse
from bot.model.gamedoc import LOBBY, RUNNING, TIMED_OUT, GameDoc, Seat
from bot.model.hand import hand_view, refusal
from bot.model.table import table_view
from bot.table import match_steps
from bot.table.lobby import host_passed, take_it_back, unseated
from bot.table.match_steps import Step, Tempo
from bot.views.hand import hand_popup
from bot.views.i18n import Translator, line, text_line, translator
from bot.views.steady_hand import hand_screen_of
from bot.views.table_screen import seat_label
from bot.views.texts import error_text, tile_text
from bot.views.web_links import WebLinks
from engine import DominoError, IllegalMove, Move, State, Tile


def finished_button(_: Translator) -> Decision:
    return refuse(_("That button is from a finished game."))


def out_of_date(_: Translator) -> Decision:
    return refuse(_("That button is out of date: use the new ones."))


def seated(
    game: Game | None, game_id: str, user: UserRef, _: Translator
) -> tuple[GameDoc, State[Any], int] | Decision:
    """The game a button belongs to, if it is running, and the presser's seat in it;
    else the refusal."""
    if game is None or game.doc.id != game_id or not game.doc.active:
        return finished_button(_)
    if game.doc.status == LOBBY or game.state is None:
        return refuse(_("The game has not started yet."))
    seat = game.doc.seat_of(user)
    if seat is None:
        return refuse(_("You are not playing in this game."))
    return game.doc, game.state, seat


def to_move(
    game: Game | None, game_id: str, user: UserRef, translator: Translator
) -> tuple[GameDoc, State[Any], int] | Decision:
    """The presser's seat, if the press may move now: the game runs, the presser
    sits at it, is not away, and it is his turn in a deal still going; else the
    refusal."""
    found = seated(game, game_id, user, translator)
    if isinstance(found, Decision):
        return found
    doc, state, seat = found
    if doc.seats[seat].away is not None:
        return refuse(take_it_back(translator))
    refused = not_now(translator, doc, state, seat)
    if refused is not None:
        return refused
    return found


def press_move(
    game: Game | None,
    game_id: str,
    user: UserRef,
    counter: int,
    move: Move,
    *,
    translator: Translator,
    now: float,
    tempo: Tempo,
) -> Decision:
    _ = translator
    found = to_move(game, game_id, user, _)
    if isinstance(found, Decision):
        return found
    doc, state, seat = found
    if counter != state.counter:
        return out_of_date(_)
    return play_checked(doc, state, seat, move, translator=_, now=now, tempo=tempo)


def play_checked(
    doc: GameDoc,
    state: State[Any],
    seat: int,
    move: Move,
    *,
    translator: Translator,
    now: float,
    tempo: Tempo,
) -> Decision:
    """``move`` played by ``seat``, whom :func:`to_move` let through."""
    if doc.seats[seat].timeouts:  # a move of his own ends his run of timeouts
        doc = doc.with_seat(seat, replace(doc.seats[seat], timeouts=0))
    try:
        step = match_steps.play(doc, state, seat, move)
    except DominoError as exc:
        return refuse(error_text(translator, exc))
    return _decided(step, now, tempo)


def why_not(
    game: Game | None,
    game_id: str,
    user: UserRef,
    counter: int,
    tile: Tile,
    *,
    translator: Translator,
) -> Decision:
    """A tile of the presser's hand that has no move now: say why, change nothing."""
    _ = translator
    found = seated(game, game_id, user, _)
    if isinstance(found, Decision):
        return found
    doc, state, seat = found
    # Asked before the counter: a waiting hand is not redrawn when only its
    # unpressable tiles' counters changed, so its tiles name an older turn.
    refused = not_now(_, doc, state, seat)
    if refused is not None:
        return refused
    if counter != state.counter or tile not in state.hands[seat]:
        return out_of_date(_)
    return tile_refused(_, state, seat, tile)


def tile_refused(_: Translator, state: State[Any], seat: int, tile: Tile) -> Decision:
    """The answer to ``seat``, to move, pressing a tile he holds that has no move: why it
    cannot be played now; if it can, the button was drawn before it could."""
    refused = refusal(state, seat, tile)
    return out_of_date(_) if refused is None else refuse(unplayable(_, refused))


def not_now(_: Translator, doc: GameDoc, state: State[Any], seat: int) -> Decision | None:
    """The refusal of a press made after the deal ended or out of turn, if it is one."""
    if state.deal_over:
        return refuse(_("This deal is over."))
    if state.turn != seat:
        assert state.turn is not None
        return refuse(
            _("Not your turn — waiting for %(name)s", name=seat_label(_, doc, state.turn))
        )
    return None


def unplayable(_: Translator, error: IllegalMove) -> str:
    """Why a tile cannot be played: against which ends, when it fits neither."""
    params = error.params
    if error.reason == "does_not_fit" and "left" in params and "right" in params:
        return _(
            "%(tile)s fits neither %(left)s nor %(right)s",
            tile=tile_text(str(params["tile"])),
            left=params["left"],
            right=params["right"],
        )
    return error_text(_, error)


def _decided(step: Step, now: float, tempo: Tempo, *, extra: tuple[Notice, ...] = ()) -> Decision:
    step = match_steps.finish_if_over(step)
    doc = match_steps.clock(step.doc, step.state, now, tempo)
    return Decision(doc=doc, state=step.state, extra=extra)


def press_tiles(
    game: Game | None,
    game_id: str,
    user: UserRef,
    *,
    translator: Translator,
    steady: bool = False,
    web: WebLinks | None = None,
) -> Decision:
    """The presser's own hand as a popup, and as buttons for an ephemeral reply (a
    steady hand's, with ``steady``; offering the web table, with ``web``)."""
    found = seated(game, game_id, user, translator)
    if isinstance(found, Decision):
        return found
    doc, state, seat = found
    hand, table = hand_view(doc, state, seat), table_view(doc, engine.public_view(state))
    screen = hand_screen_of(translator, doc, state, hand, table, steady, web)
    return Decision(reply=hand_popup(translator, hand), alert=True, screen=screen)


def press_next_deal(
    game: Game | None,
    game_id: str,
    user: UserRef,
    deal: int,
    *,
    translator: Translator,
    now: float,
    tempo: Tempo,
) -> Decision:
    _ = translator
    found = seated(game, game_id, user, _)
    if isinstance(found, Decision):
        return found
    doc, state, _seat = found
    if state.match_over or not state.deal_over or state.deal_number != deal:
        return refuse(_("That deal has already been followed by the next."))
    return _next(doc, state, now, tempo)


def _next(doc: GameDoc, state: State[Any], now: float, tempo: Tempo) -> Decision:
    step = match_steps.deal_next(doc, state)
    return _decided(match_steps.play_forced(step.doc, step.state), now, tempo)


def thinking_due(
    game: Game | None, game_id: str, step_number: int, tempo: Tempo
) -> Question | None:
    """The computer decision a deadline calls for, if any, so that it can be
    worked out before :func:`on_deadline` runs (off the event loop)."""
    if game is None or game.doc.id != game_id or game.doc.status != RUNNING or game.state is None:
        return None
    doc, state = game.doc, game.state
    due, seat = doc.due, state.turn
    if due is None or due.step != step_number or due.kind == "deal" or seat is None:
        return None
    level = match_steps.autopilot(doc, seat)
    if level is None and due.kind == "turn":
        level = ai.DEFAULT_LEVEL
    return None if level is None else match_steps.question(doc, state, level, tempo.allowance)


def on_deadline(
    game: Game | None,
    game_id: str,
    step_number: int,
    *,
    now: float,
    tempo: Tempo,
    chosen: Move | None = None,
) -> Decision:
    """A deadline fell due: deal the next deal, make a computer's move, or move for
    a person whose time ran out. A deadline of a point the game has left does nothing.
    ``chosen`` is the computer's move if it was worked out beforehand."""
    if game is None or game.doc.id != game_id or game.doc.status != RUNNING or game.state is None:
        return Decision()
    doc, state = game.doc, game.state
    due = doc.due
    if due is None or due.step != step_number:
        return Decision()
    if due.kind == "deal":
        if not state.deal_over or state.match_over:
            return Decision()
        return _next(doc, state, now, tempo)
    seat = state.turn
    if seat is None:
        return Decision()
    level = match_steps.autopilot(doc, seat)
    if level is not None:
        move = match_steps.computer_move(doc, state, level, tempo.allowance, chosen)
        return _decided(match_steps.play(doc, state, seat, move), now, tempo)
    if due.kind != "turn":
        return Decision()
    step = match_steps.timeout_move(doc, state, tempo, chosen)
    if step.doc.seats[seat].away != TIMED_OUT:
        return _decided(step, now, tempo)
    return _taken_over(step, seat, now, tempo)


def _taken_over(step: Step, seat: int, now: float, tempo: Tempo) -> Decision:
    _ = translator(step.doc.settings.lang)
    name = step.doc.seats[seat].user
    said = _(
        "%(name)s ran out of time %(n)d times in a row: a computer plays that seat "
        "for the rest of the match.",
        name=isolated(name.name) if name is not None else "?",
        n=tempo.takeover_after,
    )
    return _computer_keeps(step, said, now, tempo)


def _computer_keeps(step: Step, said: str, now: float, tempo: Tempo) -> Decision:
    """A computer now keeps a seat for the rest of the match (``step`` has it so): the
    chat is told ``said``, and a match left with nobody playing his own seat stops."""
    notice = Notice(step.doc.chat, Screen((text_line(said),)))
    if not any(s.present for s in step.doc.seats):
        return Decision(doc=match_steps.stop(step.doc, None), state=step.state, extra=(notice,))
    return _decided(step, now, tempo, extra=(notice,))


def forgotten(game: Game | None, user: UserRef, *, now: float, tempo: Tempo) -> Decision:
    """``user`` had everything kept of him deleted: in a lobby his seat goes; in a
    running match a computer takes it for good, as after too many timeouts, and the seat
    keeps nothing of him (no name, no place among the players to rate)."""
    if game is None or not game.doc.active:
        return Decision()
    seat = game.doc.seat_of(user)
    if seat is None:
        return Decision()
    doc = host_passed(game.doc, user)
    if doc.status != RUNNING or game.state is None:
        return Decision(doc=unseated(doc, seat, None))
    doc = doc.with_seat(seat, Seat(computer=ai.DEFAULT_LEVEL, lang=doc.seats[seat].lang))
    _ = translator(doc.settings.lang)
    said = _("A player left and had his data deleted: a computer plays that seat now.")
    return _computer_keeps(Step(doc, game.state), said, now, tempo)


def on_unreachable(
    game: Game | None, game_id: str, user: UserRef, *, now: float, tempo: Tempo
) -> Decision:
    """A player's private chat could not be reached: offer him a deep link in the
    game's chat, once (until he opens the private chat)."""
    if game is None or game.doc.id != game_id or not game.doc.active:
        return Decision()
    doc = game.doc
    seat = doc.seat_of(user)
    if seat is None or doc.seats[seat].unreachable:
        return Decision()
    doc = doc.with_seat(seat, replace(doc.seats[seat], unreachable=True))
    if game.state is not None:
        if game.state.turn == seat and doc.due is not None and doc.due.kind == "turn":
            doc = doc.but(due=None)  # his turn now waits no longer than his short timer
        doc = match_steps.clock(doc, game.state, now, tempo)
    _ = translator(doc.settings.lang)
    notice = Notice(
        doc.chat,
        Screen(
            (
                line(
                    _(
                        "%(name)s, I cannot write to you privately. "
                        "Press the button to get your tiles."
                    ),
                    name=isolated(user.name),
                ),
            ),
            ((Button(_("Open my hand"), deep_link=codec.hand_link(doc.id, doc.chat)),),),
        ),
    )
    return Decision(doc=doc, state=game.state, extra=(notice,))


def private_start(
    game: Game | None,
    game_id: str,
    user: UserRef,
    *,
    translator: Translator,
    now: float,
    tempo: Tempo,
    steady: bool = False,
    web: WebLinks | None = None,
) -> Decision:
    """The player opened the private chat through the deep link: deliver his hand.

    Only a seat marked unreachable changes (it is reachable now, and gets its pings
    again); anyone else is shown his hand as it is, in ``screen``, and nothing is
    written."""
    _ = translator
    if game is None or game.doc.id != game_id or not game.doc.active:
        return refuse(_("That game is over."))
    doc, state = game.doc, game.state
    seat = doc.seat_of(user)
    if seat is None:
        return refuse(_("You are not playing in this game."))
    if state is None:
        return refuse(_("You will get your tiles here when the game starts."))
    if not doc.seats[seat].unreachable:
        hand, table = hand_view(doc, state, seat), table_view(doc, engine.public_view(state))
        return Decision(screen=hand_screen_of(_, doc, state, hand, table, steady, web))
    doc = doc.with_seat(seat, replace(doc.seats[seat], unreachable=False))
    doc = match_steps.clock(doc, state, now, tempo)
    return Decision(doc=doc, state=state, hands_for=(user,))


def private_chat(user: UserRef) -> ChatRef:
    """Where a player's hand and pings go: his private chat with the bot."""
    return ChatRef(user.platform, user.user_id)

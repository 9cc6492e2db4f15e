"""What to send after a game was written: at most one table update, one hand
update per player whose screen changed, and the turn ping.

The table shows a deal's result itself, between deals; at the start of each deal
it is posted anew (``renew``), so it stays at the bottom of the chat. The write that
ends the match posts it anew after the last deal's summary, so the result is the
chat's last message, not an edit above that summary.

Screens are compared before and after, so a player whose hand and choices
did not change gets nothing: adapters rely on this to stay within their
platforms' rate limits.

A hand or a ping never goes to the table's own chat, whoever holds the seat: a
chat speaking as itself cannot take a seat, and this keeps a hand private even
if a seat should ever name the group.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from dataclasses import replace
from typing import Any

import engine
from bot.model.contract import (
    Button,
    Delete,
    Notice,
    Outbound,
    Screen,
    Show,
    Slot,
    SlotKind,
    UserRef,
)
from bot.model.decision import Decision, Game
from bot.model.gamedoc import GameDoc
from bot.model.hand import hand_view
from bot.model.table import TableView, table_view
from bot.picture.screens import hand_picture_png, picture_screen, revealed_hands
from bot.table.models import with_hand_model, with_table_model
from bot.table.play import private_chat
from bot.table.shown_screens import ShownScreens as ShownScreens  # also named here, as before
from bot.views.hand import ping_screen
from bot.views.i18n import translator
from bot.views.lobby import lobby_screen
from bot.views.steady_hand import hand_screen_of, kept_key
from bot.views.table_screen import table_screen
from bot.views.web_links import WebLinks, with_hand_link, with_table_link
from engine import State

log = logging.getLogger(__name__)


def table_slot(doc: GameDoc) -> Slot:
    """The game's one message in its chat: the lobby, which becomes the table."""
    return Slot(SlotKind.TABLE, doc.chat, doc.id)


def picture_slot(doc: GameDoc) -> Slot:
    """The table's picture in its chat, when the chat has it follow every move."""
    return Slot(SlotKind.PICTURE, doc.chat, doc.id)


def hand_slot(doc: GameDoc, seat: int) -> Slot:
    user = doc.seats[seat].user
    assert user is not None
    return Slot(SlotKind.HAND, private_chat(user), doc.id, user, doc.chat)


def ping_slot(doc: GameDoc, seat: int) -> Slot:
    user = doc.seats[seat].user
    assert user is not None
    return Slot(SlotKind.PING, private_chat(user), doc.id, user, doc.chat)


def in_table_chat(doc: GameDoc, slot: Slot) -> bool:
    """``slot`` (a hand or a ping) would land in the group the table is in."""
    chat = slot.chat
    if (chat.platform, chat.chat_id) != (doc.chat.platform, doc.chat.chat_id):
        return False
    log.warning("game %s: not sending a %s to the table's own chat", doc.id, slot.kind.value)
    return True


def hand_as_it_is(game: Game, user: UserRef, screen: Screen) -> list[Outbound]:
    """A player's hand shown again in his slot, at the game's current version."""
    seat = game.doc.seat_of(user)
    if seat is None:
        return []
    slot = hand_slot(game.doc, seat)
    return [] if in_table_chat(game.doc, slot) else [Show(slot, screen, game.version)]


def table_of(game: Game, table: TableView | None = None, web: WebLinks | None = None) -> Screen:
    """The message of ``game`` in its chat: its lobby, or its table, drawn from ``table``,
    its model, when the caller has built it already; with ``web``, a button that opens
    the table on the web while it is played."""
    _ = translator(game.doc.settings.lang)
    if game.state is None:
        return lobby_screen(_, game.doc)
    if table is None:
        table = table_view(game.doc, engine.public_view(game.state))
    return with_table_link(_, table_screen(_, game.doc, table), game.doc, web)


def hand_of(
    doc: GameDoc,
    state: State[Any],
    seat: int,
    steady: bool = False,
    table: TableView | None = None,
) -> Screen:
    """``seat``'s hand: a steady one (see :mod:`bot.views.steady_hand`), or one that lists his
    moves on his turn. ``table``: the table's model as of ``state``, when the caller has
    built it for the other hands of the same write already."""
    _ = translator(doc.seats[seat].lang)
    if table is None:
        table = table_view(doc, engine.public_view(state))
    return hand_screen_of(_, doc, state, hand_view(doc, state, seat), table, steady)


def linked_hand(doc: GameDoc, seat: int, screen: Screen, web: WebLinks | None) -> Screen:
    """``seat``'s hand ``screen`` offering the web table as him, where ``web`` signs its
    passes (``None``: the bot offers none)."""
    if web is None:
        return screen
    return with_hand_link(translator(doc.seats[seat].lang), screen, doc, seat, web)


def game_updates(
    before: Game | None,
    after: Game,
    decision: Decision,
    shown: ShownScreens | None = None,
    deal_end: Screen | None = None,
    steady: Collection[str] = (),
    drawn: Collection[str] = (),
    unpictured: Collection[str] = (),
    web: WebLinks | None = None,
) -> list[Outbound]:
    """The updates for a written game, in the order an adapter should send them
    (``shown``: the screens drawn for earlier versions, kept by the caller;
    ``deal_end``: the picture of the table as this write left it, when the caller has
    drawn it (see :func:`pictured`); ``steady``: the platforms whose hands are steady; ``drawn``:
    those whose adapters draw from the table's model, which their shows carry;
    ``unpictured``: the platforms that send no picture of a deal's end; ``web``: the
    table and the hands offer the web table, with passes it signs)."""
    if before is not None and before.doc.id != after.doc.id:
        before = None
    shown = shown or ShownScreens(1)  # none kept beyond this write's own version
    doc, state, version = after.doc, after.state, after.version
    out: list[Outbound] = []
    was = None if before is None else shown.get(before, None) or table_of(before, web=web)
    if was is not None and before is not None and _still_acting(before, after):
        # Nobody else decides anything on the table while its mover is still acting:
        # it is edited when his turn passes, against the table last sent.
        table = was
    else:
        table = table_of(after, shown.model(after), web)
    shown.put(after, None, table)
    table_changed = was is None or table != was
    match_ended = state is not None and state.match_over and deal_ended(before, after)
    table_show: Show | None = None
    if table_changed:
        # The match's result is posted anew too, below the last deal's summary.
        renew = _deal_began(before, state) or match_ended
        pin = renew and doc.settings.pin
        table_show = Show(table_slot(doc), table, version, renew=renew, pin=pin)
        if doc.chat.platform in drawn:
            since = before.doc.step if before is not None and before.state is not None else 0
            table_show = with_table_model(table_show, after, since, shown.model(after))
        if not match_ended:
            out.append(table_show)
    if state is None:
        return out
    _ = translator(doc.settings.lang)
    turned_on = before is not None and not before.doc.settings.pictures
    if doc.settings.pictures and (table_changed or turned_on):
        model = shown.model(after)
        assert model is not None
        pictured = deal_end or picture_screen(_, doc, model, revealed_hands(state))
        out.append(Show(picture_slot(doc), pictured, version))
    if deal_ended(before, after) and doc.chat.platform not in unpictured:
        # The final line and every hand left, once, as its own message: the table
        # message itself shows only counts, and is posted anew when the next deal begins.
        drawn_end = deal_end or deal_end_picture(after, shown.model(after))
        out.append(Notice(table_slot(doc).chat, drawn_end))
    if match_ended and table_show is not None:
        out.append(table_show)
    hands = _hands(before, after, decision, shown, doc.chat.platform in steady, web)
    if doc.chat.platform in drawn:
        hands = [with_hand_model(show, after, _seat(doc, show)) for show in hands]
    out += hands
    out += _pings(before, after)
    return out


def _seat(doc: GameDoc, show: Show) -> int:
    """The seat whose hand ``show`` shows."""
    seats = enumerate(doc.seats)
    return next(n for n, held in seats if held.user is not None and hand_slot(doc, n) == show.slot)


def _still_acting(before: Game, after: Game) -> bool:
    """The write of ``after`` is a move by the seat to move that leaves him to act again
    in the same turn (a Thief of Baghdad camel before its extra or ``done``, a draw
    before the drawn tile or ``done``)."""
    was, state = before.state, after.state
    moves, earlier = after.doc.moves, before.doc.moves
    return (
        was is not None
        and state is not None
        and before.doc.status == after.doc.status
        and not state.deal_over
        and was.deal_number == state.deal_number
        and was.turn is not None
        and was.turn == state.turn
        and len(moves) > len(earlier)
        and all(seat == was.turn for seat, _move in moves[len(earlier) :])
    )


def deal_ended(before: Game | None, after: Game) -> bool:
    """The write of ``after`` over ``before`` ended a deal (the match's last one included)."""
    state, was = after.state, before.state if before is not None else None
    return (
        state is not None
        and before is not None
        and was is not None
        and before.doc.id == after.doc.id
        and was.deal_number == state.deal_number
        and not was.deal_over
        and state.deal_over
    )


def pictured(before: Game | None, after: Game, unpictured: Collection[str]) -> bool:
    """Whether the updates of ``after`` show a picture of the table: the chat asked for
    one after every move, or a deal ended where a picture of its end is sent."""
    ended = deal_ended(before, after) and after.doc.chat.platform not in unpictured
    return after.doc.settings.pictures or ended


def deal_end_picture(game: Game, table: TableView | None = None) -> Screen:
    """The deal ``game`` has just ended, drawn (from ``table``, its model, when the
    caller has built it): its final line and every hand left."""
    assert game.state is not None
    if table is None:
        table = table_view(game.doc, engine.public_view(game.state))
    _ = translator(game.doc.settings.lang)
    return picture_screen(_, game.doc, table, revealed_hands(game.state))


def _deal_began(before: Game | None, state: State[Any] | None) -> bool:
    """A deal was dealt by this write (the first one at the start included)."""
    if state is None:
        return False
    return before is None or before.state is None or before.state.deal_number != state.deal_number


def _hands(
    before: Game | None,
    after: Game,
    decision: Decision,
    shown: ShownScreens,
    steady: bool,
    web: WebLinks | None,
) -> list[Show]:
    doc, state = after.doc, after.state
    assert state is not None
    asked = {user.key for user in decision.hands_for}
    out: list[Show] = []
    table: TableView | None = None  # the table's model, shared with the table's screen
    for seat, held in enumerate(doc.seats):
        if held.user is None or held.unreachable:
            continue
        same = before is not None and _hand_kept(before, after, seat, steady)
        if held.user.key not in asked and before is not None and same:
            kept = shown.get(before, seat)
            if kept is not None:
                shown.put(after, seat, kept)
            continue
        if table is None:
            table = shown.model(after)
        screen = linked_hand(doc, seat, hand_of(doc, state, seat, steady, table), web)
        shown.put(after, seat, screen)
        unchanged = (
            held.user.key not in asked
            and before is not None
            and before.state is not None
            and _looks_the_same(screen, _shown_hand(shown, before, seat, steady, web))
        )
        slot = hand_slot(doc, seat)
        if unchanged or in_table_chat(doc, slot):
            continue
        if held.pictures:  # drawn only for a hand that is sent
            picture = hand_picture_png(doc, hand_view(doc, state, seat), steady)
            screen = replace(screen, picture=picture)
        out.append(Show(slot, screen, after.version))
    return out


def _shown_hand(
    shown: ShownScreens, game: Game, seat: int, steady: bool, web: WebLinks | None
) -> Screen:
    """``seat``'s hand as ``game`` showed it: kept from its drawing, or drawn again."""
    kept = shown.get(game, seat)
    if kept is not None:
        return kept
    assert game.state is not None
    return linked_hand(game.doc, seat, hand_of(game.doc, game.state, seat, steady), web)


def _hand_kept(before: Game, after: Game, seat: int, steady: bool = False) -> bool:
    """Nothing a hand shows changed for ``seat`` with this write, so its screen is the
    one drawn for the version before and is not drawn again (drawing every seat's hand
    on every move was most of a press's work). A hand shows the game, its chat and
    status, the seat itself, the deal and the seat's tiles, and on the seat's own turn
    its choices and deadline; a steady hand shows what :func:`bot.views.steady_hand.kept_key`
    names, whoever's turn it is."""
    was, now, old, new = before.state, after.state, before.doc, after.doc
    if was is None or now is None:
        return False
    if steady:
        same_state = kept_key(old, was, seat) == kept_key(new, now, seat)
    else:
        same_state = (
            was.turn != seat
            and now.turn != seat
            and was.hands[seat] == now.hands[seat]
            and was.deal_number == now.deal_number
            and was.deal_over == now.deal_over
            and was.match_over == now.match_over
        )
    return (
        same_state
        and old.seats[seat] == new.seats[seat]
        and old.status == new.status
        and old.id == new.id
        and old.chat == new.chat
        and old.chat_title == new.chat_title
        and old.settings == new.settings
    )


def _looks_the_same(one: Screen, other: Screen) -> bool:
    """The two screens are the same as their player sees and uses them: an unpressable
    tile's payload names the turn it was drawn for, and only matters on the player's own
    turn, when his hand is drawn anew anyway, so a waiting hand whose only change is
    there is not sent. (Compared button by button: building both screens without those
    payloads took twice as long.)"""
    if (one.lines, one.picture, one.card) != (other.lines, other.picture, other.card):
        return False
    rows, others = one.buttons, other.buttons
    return len(rows) == len(others) and all(
        len(row) == len(theirs) and all(map(_same_button, row, theirs))
        for row, theirs in zip(rows, others, strict=False)
    )


def _same_button(one: Button, other: Button) -> bool:
    if one.enabled or other.enabled:
        return one == other
    return replace(one, payload=None) == replace(other, payload=None)


def _pings(before: Game | None, after: Game) -> list[Outbound]:
    """Delete the ping of the player who moved; ping the player now to move."""
    doc = after.doc
    was = before.doc.pinged if before is not None else None
    now_pinged = doc.pinged
    if was == now_pinged:
        return []
    out: list[Outbound] = []
    if was is not None and before is not None and before.doc.seats[was].user is not None:
        gone = ping_slot(before.doc, was)
        if not in_table_chat(doc, gone):
            out.append(Delete(gone, after.version))
    if now_pinged is not None:
        _ = translator(doc.seats[now_pinged].lang)
        due = doc.due.at if doc.due is not None and doc.due.kind == "turn" else None
        slot = ping_slot(doc, now_pinged)
        if not in_table_chat(doc, slot):
            out.append(Show(slot, ping_screen(_, doc, due), after.version, notify=True))
    return out

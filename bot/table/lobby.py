"""Lobby flows: open a table, take and leave seats, computers, start, cancel, stop.

Each flow is pure (see :mod:`bot.model.decision`): it gets the chat's current game and
returns a decision. Who may do what:

- anyone may join a lobby or leave it; the host (the lobby's creator, or the
  next person in it once he leaves) or a chat admin adds and removes computers,
  changes settings, starts and cancels;
- ``stop`` ends a lobby or a running game: the host or a chat admin;
- a chat speaking as itself (an anonymous admin, a channel) may do what an admin
  does but never takes a seat: its private chat would be the group itself.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from bot import ai
from bot.model.contract import ChatRef, CommandRef, TextLine, UserRef, isolated
from bot.model.decision import Decision, Game, refuse
from bot.model.gamedoc import LOBBY, RESIGNED, RUNNING, GameDoc, Seat, TableSettings
from bot.table import match_steps
from bot.table.match_steps import Tempo
from bot.table.settings import ANY_TIME_KEYS, Pairs, apply_pairs, parse_pairs
from bot.views.i18n import Translator, line
from bot.views.lobby import table_settings_text, variant_picker
from bot.views.texts import error_text, level_name, variant_title
from engine import DominoError, get_variant

#: What seats the one who asks: refused to a chat speaking as itself.
SEATING: Final = frozenset({"new", "join"})


def not_as_chat(_: Translator) -> Decision:
    """The refusal to a chat speaking as itself that asked for a seat."""
    return refuse(_("Post as yourself to take a seat."))


def new_game(
    current: Game | None,
    chat: ChatRef,
    user: UserRef,
    args: tuple[str, ...],
    *,
    translator: Translator,
    game_id: str,
    seed: int,
    table: TableSettings,
    lang: str,
    now: float,
    chat_title: str | None = None,
) -> Decision:
    _ = translator
    if current is not None and current.doc.active:
        doc = current.doc
        return refuse(
            line(
                _(
                    "A game is already open here: %(game)s, table %(id)s. "
                    "Join it with %(join)s, or the host can end it first with %(stop)s."
                ),
                game=variant_title(_, doc.variant),
                id=doc.id,
                join=CommandRef("join"),
                stop=CommandRef("stop"),
            )
        )
    if not args:
        picker = variant_picker(_)
        return Decision(reply=picker.lines[0], screen=picker)
    try:
        variant = get_variant(args[0])
    except DominoError as exc:
        return refuse(error_text(_, exc))
    pairs = parse_pairs(_, args[1:])
    if isinstance(pairs, str):
        return refuse(pairs)
    doc = GameDoc(
        id=game_id,
        chat=chat,
        status=LOBBY,
        variant=variant.name,
        options={},
        seed=seed,
        seats=(Seat(user=user, lang=lang),),
        host=user.key,
        settings=table,
        created=now,
        chat_title=chat_title,
    )
    return _with_settings(_, doc, pairs)


def _with_settings(translator: Translator, doc: GameDoc, pairs: Pairs) -> Decision:
    """``doc`` with the settings written, and the table settings the chat remembers;
    or the refusal, and nothing changed."""
    changed = apply_pairs(translator, doc, pairs)
    if isinstance(changed, str):
        return refuse(changed)
    doc, remembered = changed
    return Decision(doc=doc, chat_settings=remembered)


def _is_host(doc: GameDoc, user: UserRef, admin: bool) -> bool:
    return admin or doc.host == user.key


def _host_name(doc: GameDoc) -> str:
    host = doc.host_seat()
    return isolated(host.user.name) if host is not None and host.user is not None else "?"


def table_full(translator: Translator, variant: str) -> str:
    """The refusal of one seat too many: the table is full, and how many it takes."""
    most, game = get_variant(variant).max_players, variant_title(translator, variant)
    return translator.ngettext(
        "The table is full: %(game)s is played by at most %(n)d player.",
        "The table is full: %(game)s is played by at most %(n)d players.",
        most,
        game=game,
    )


def no_table(_: Translator) -> Decision:
    return refuse(
        line(
            _("There is no open table here. Open one, for example with %(example)s"),
            example=CommandRef("new", "tyaga"),
        )
    )


def join(
    game: Game | None, user: UserRef, *, translator: Translator, lang: str, now: float, tempo: Tempo
) -> Decision:
    _ = translator
    if game is None or not game.doc.active:
        return no_table(_)
    doc = game.doc
    seat = doc.seat_of(user)
    if doc.status == RUNNING:
        return _reclaim(game, seat, translator=_, now=now, tempo=tempo)
    if seat is not None:
        return refuse(_("You have already joined this table."))
    variant = get_variant(doc.variant)
    if len(doc.seats) >= variant.max_players:
        return refuse(table_full(_, doc.variant))
    doc = doc.but(seats=doc.seats + (Seat(user=user, lang=lang),))
    if doc.settings.auto_start and len(doc.seats) == variant.max_players:
        return _start(doc, translator=_, now=now, tempo=tempo)
    return Decision(doc=doc)


def _reclaim(
    game: Game, seat: int | None, *, translator: Translator, now: float, tempo: Tempo
) -> Decision:
    _ = translator
    doc = game.doc
    if seat is None:
        return refuse(_("The game has already started."))
    held = doc.seats[seat]
    if held.away is None:
        return refuse(_("You are already playing in this game."))
    # Resigned or taken over after running out of time: as /help says, /join gives it back.
    doc = doc.with_seat(seat, replace(held, away=None, timeouts=0))
    doc = match_steps.clock(doc, game.state, now, tempo)
    assert held.user is not None
    return Decision(
        doc=doc,
        state=game.state,
        reply=_("Welcome back: your seat is yours again."),
        hands_for=(held.user,),
    )


def leave(
    game: Game | None, user: UserRef, *, translator: Translator, now: float, tempo: Tempo
) -> Decision:
    _ = translator
    if game is None or not game.doc.active:
        return no_table(_)
    doc = game.doc
    seat = doc.seat_of(user)
    if seat is None:
        return refuse(_("You are not at this table."))
    if doc.status == RUNNING:
        return _resign(game, seat, translator=_, now=now, tempo=tempo)
    return Decision(doc=unseated(host_passed(doc, user), seat, user.name))


def host_passed(doc: GameDoc, user: UserRef) -> GameDoc:
    """``doc`` with the host's part passed to the next person seated, if ``user`` had it."""
    if doc.host != user.key:
        return doc
    heir = next((s.user for s in doc.seats if s.user is not None and s.user.key != user.key), None)
    return doc.but(host=heir.key if heir is not None else None)


def unseated(doc: GameDoc, seat: int, by: str | None) -> GameDoc:
    """The lobby ``doc`` without ``seat``; one left with no person at it stops (``by``: who
    stopped it)."""
    doc = doc.but(seats=doc.seats[:seat] + doc.seats[seat + 1 :])
    return doc if any(s.is_human for s in doc.seats) else match_steps.stop(doc, by)


def _resign(game: Game, seat: int, *, translator: Translator, now: float, tempo: Tempo) -> Decision:
    _ = translator
    doc = game.doc
    held = doc.seats[seat]
    if held.away is not None:
        return refuse(_("A computer already plays your seat."))
    doc = doc.with_seat(seat, replace(held, away=RESIGNED))
    if not any(s.present for s in doc.seats):
        return Decision(doc=match_steps.stop(doc, None), state=game.state)
    doc = match_steps.clock(doc, game.state, now, tempo)
    return Decision(
        doc=doc,
        state=game.state,
        reply=take_it_back(_),
    )


def take_it_back(_: Translator) -> TextLine:
    """What a player whose seat a computer plays is told."""
    return line(
        _("A computer plays your seat now. Send %(join)s to take it back."),
        join=CommandRef("join"),
    )


def add_computer(
    game: Game | None, user: UserRef, admin: bool, level: str | None, *, translator: Translator
) -> Decision:
    _ = translator
    checked = _lobby_for_host(game, user, admin, _)
    if isinstance(checked, Decision):
        return checked
    doc = checked
    chosen = level or ai.DEFAULT_LEVEL
    if chosen not in ai.levels():
        levels = ", ".join(ai.levels())
        return refuse(
            _(
                "There is no computer level %(level)s. Levels: %(levels)s",
                level=chosen,
                levels=levels,
            )
        )
    if len(doc.seats) >= get_variant(doc.variant).max_players:
        return refuse(table_full(_, doc.variant))
    doc = doc.but(seats=doc.seats + (Seat(computer=chosen),))
    return Decision(doc=doc, reply=_("A %(level)s computer sat down.", level=level_name(_, chosen)))


def remove_computer(
    game: Game | None, user: UserRef, admin: bool, *, translator: Translator
) -> Decision:
    _ = translator
    checked = _lobby_for_host(game, user, admin, _)
    if isinstance(checked, Decision):
        return checked
    doc = checked
    computers = [i for i, s in enumerate(doc.seats) if s.computer is not None]
    if not computers:
        return refuse(_("There is no computer at this table."))
    last = computers[-1]
    return Decision(doc=doc.but(seats=doc.seats[:last] + doc.seats[last + 1 :]))


def _lobby_for_host(
    game: Game | None, user: UserRef, admin: bool, _: Translator
) -> GameDoc | Decision:
    """The lobby's document if ``user`` may change it; else the refusal."""
    if game is None or not game.doc.active:
        return no_table(_)
    doc = game.doc
    if doc.status != LOBBY:
        return refuse(_("The game has already started."))
    if not _is_host(doc, user, admin):
        return refuse(_("Only the host, %(name)s, can do that.", name=_host_name(doc)))
    return doc


def start(
    game: Game | None,
    user: UserRef,
    admin: bool,
    *,
    translator: Translator,
    now: float,
    tempo: Tempo,
) -> Decision:
    checked = _lobby_for_host(game, user, admin, translator)
    if isinstance(checked, Decision):
        return checked
    return _start(checked, translator=translator, now=now, tempo=tempo)


def _start(doc: GameDoc, *, translator: Translator, now: float, tempo: Tempo) -> Decision:
    variant = get_variant(doc.variant)
    if len(doc.seats) < variant.min_players:
        game = variant_title(
            translator, doc.variant
        )  # not inside the call: extraction would stop at the inner call
        return refuse(
            translator.ngettext(
                "%(game)s needs at least %(n)d player.",
                "%(game)s needs at least %(n)d players.",
                variant.min_players,
                game=game,
            )
        )
    try:
        step = match_steps.deal_first(doc)
    except DominoError as exc:
        return refuse(error_text(translator, exc))
    step = match_steps.play_forced(step.doc, step.state)
    step = match_steps.finish_if_over(step)
    started = match_steps.clock(step.doc, step.state, now, tempo)
    return Decision(doc=started, state=step.state)


def cancel(game: Game | None, user: UserRef, admin: bool, *, translator: Translator) -> Decision:
    _ = translator
    if game is not None and game.doc.status == RUNNING:
        return refuse(
            line(_("The game is running: use %(stop)s to end it."), stop=CommandRef("stop"))
        )
    checked = _lobby_for_host(game, user, admin, _)
    if isinstance(checked, Decision):
        return checked
    return Decision(doc=match_steps.stop(checked, user.name), reply=_("The table is closed."))


def stop(game: Game | None, user: UserRef, admin: bool, *, translator: Translator) -> Decision:
    _ = translator
    if game is None or not game.doc.active:
        return refuse(_("No game is running here."))
    doc = game.doc
    if not _is_host(doc, user, admin):
        return refuse(
            _("Only the host, %(name)s, or a chat admin can stop the game.", name=_host_name(doc))
        )
    return Decision(
        doc=match_steps.stop(doc, user.name), state=game.state, reply=_("The game is stopped.")
    )


def change_settings(
    game: Game | None, user: UserRef, admin: bool, pairs: Pairs, *, translator: Translator
) -> Decision:
    """Set game options and table settings of a lobby."""
    _ = translator
    if game is not None and game.doc.status == RUNNING:
        if not pairs or not set(pairs) <= ANY_TIME_KEYS:
            return refuse(_("Settings can be changed only before the start."))
        # Pictures and pinning change no rule and no turn: the host or an admin may
        # switch them any time.
        if not _is_host(game.doc, user, admin):
            return refuse(_("Only the host, %(name)s, can do that.", name=_host_name(game.doc)))
        decided = _with_settings(_, game.doc, pairs)
        if decided.doc is None:
            return decided
        saved = table_settings_text(_, decided.doc.settings)
        said = _("Saved. %(settings)s", settings=saved)
        return replace(decided, state=game.state, reply=said)
    checked = _lobby_for_host(game, user, admin, _)
    if isinstance(checked, Decision):
        return checked
    return _with_settings(_, checked, pairs)


def show_panel(
    game: Game | None, user: UserRef, admin: bool, panel: str, *, translator: Translator
) -> Decision:
    """Switch the lobby between its main buttons and its settings."""
    checked = _lobby_for_host(game, user, admin, translator)
    if isinstance(checked, Decision):
        return checked
    if checked.panel == panel:
        return Decision()
    return Decision(doc=checked.but(panel=panel))

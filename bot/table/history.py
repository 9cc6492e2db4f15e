"""A chat's finished matches, kept and listed: ``history`` and its replay buttons.

A match is kept when it finishes (see :mod:`bot.storage.history`), as a
:class:`bot.storage.kept_match.KeptMatch`: what the list shows (when it ended, the game and
its options, who played, the result) and the whole game, packed as the chat's last
game is for ``export``. ``history`` lists the newest :data:`LISTED` of the chat, newest
first, each with a button; a press sends that match's replay to the presser alone (his
private chat; on Discord an ephemeral reply): a picture of each deal's end and the
replay file ``export`` writes. ``forget`` leaves a computer, unnamed, in the seat of
the person it forgets.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final

from babel.dates import format_datetime
from pydantic import ValidationError

from bot.model import codec
from bot.model.contract import (
    Answer,
    Button,
    ChatRef,
    Command,
    Document,
    Notice,
    Outbound,
    Press,
    Screen,
    UserRef,
    isolated,
)
from bot.model.decision import Game
from bot.model.gamedoc import FINISHED, GameDoc, replay_json, to_json
from bot.storage import keys
from bot.storage.game import MatchWrite
from bot.storage.history import MatchHistory, keep_values
from bot.storage.kept_match import KeptMatch, KeptPlayer
from bot.storage.store import pack
from bot.table.painter import Painter
from bot.table.play import private_chat
from bot.views.i18n import Translator, text_line, translator
from bot.views.lobby import current_options
from bot.views.table_screen import seat_name
from bot.views.texts import option_value_words, variant_title
from engine import State, apply, get_variant, new_match, next_deal, parse_move

if TYPE_CHECKING:
    from bot.table.runner import Runner

LISTED: Final = 20
"""Matches ``history`` lists."""


def kept_match(game: Game, ended: float, translator: Translator) -> KeptMatch | None:
    """How a chat keeps ``game``: ``None`` unless it is a finished match."""
    doc, state = game.doc, game.state
    if doc.status != FINISHED or state is None or not state.match_over:
        return None
    values = current_options(doc)
    applied = [
        option_value_words(translator, values[spec.name])
        for spec in get_variant(doc.variant).option_specs
        if spec.name in values and spec.applies(values)
    ]
    return KeptMatch(
        id=doc.id,
        ended=ended,
        variant=doc.variant,
        options=applied,
        players=[
            KeptPlayer(name=seat_name(translator, doc, n), user=s.user.key if s.user else None)
            for n, s in enumerate(doc.seats)
        ],
        scores=list(state.match_scores),
        winners=list(state.winners),
        game=pack(to_json(doc)),
    )


async def keep(history: MatchHistory, chat: ChatRef, kept: KeptMatch) -> None:
    await history.keep(chat, kept.id, kept.ended, kept.model_dump_json())


async def newest(history: MatchHistory, chat: ChatRef, now: float) -> list[KeptMatch]:
    """The chat's kept matches, newest first (one this version cannot read is left out)."""
    found = []
    for raw in await history.newest(chat, LISTED, now):
        try:
            found.append(KeptMatch.model_validate_json(raw))
        except ValidationError:
            continue
    return found


async def newest_of(history: MatchHistory, chats: Sequence[ChatRef], now: float) -> list[KeptMatch]:
    """The newest :data:`LISTED` matches kept in any of ``chats``, newest first."""
    found = [match for chat in chats for match in await newest(history, chat, now)]
    return sorted(found, key=lambda match: match.ended, reverse=True)[:LISTED]


def history_screen(
    _: Translator, matches: Sequence[KeptMatch], asker: UserRef | None = None
) -> Screen:
    """The list: one entry per match, newest first, and a replay button for each."""
    if not matches:
        return Screen((text_line(_("No finished matches are kept in this chat yet.")),))
    lines = [text_line(_("Finished matches here, newest first:"))]
    buttons = []
    for number, match in enumerate(matches, 1):
        lines.append(text_line(f"{number}. " + entry_text(_, match, asker)))
        label = _("Replay %(n)d", n=number)
        buttons.append(Button(label, payload=codec.replay_payload(match.id)))
    rows = tuple(tuple(buttons[i : i + 4]) for i in range(0, len(buttons), 4))
    return Screen(tuple(lines), rows)


def entry_text(_: Translator, match: KeptMatch, asker: UserRef | None = None) -> str:
    """``7 Dec 2026, 04:53 UTC · Kozel (to 101 points) · Anna 12, Computer 1 105 · won
    by Anna``."""
    names = player_names(_, match, asker)
    when = datetime.fromtimestamp(match.ended, UTC)
    game = variant_title(_, match.variant)
    if match.options:
        game = _("%(game)s (%(options)s)", game=game, options=", ".join(match.options))
    played = ", ".join(f"{name} {score}" for name, score in zip(names, match.scores, strict=False))
    winners = ", ".join(names[w] for w in match.winners if w < len(names))
    return _(
        "%(when)s UTC · %(game)s · %(played)s · won by %(winners)s",
        when=format_datetime(when, "d MMM y, HH:mm", tzinfo=UTC, locale=_.lang),
        game=game,
        played=played,
        winners=winners,
    )


def player_names(_: Translator, match: KeptMatch, asker: UserRef | None) -> list[str]:
    """A kept match's players as this screen names them: the computers by their number
    among them, as the table did, and the asker as he is named now, both in the
    language of the screen (the kept names are in the language the match was played
    in); anyone else as kept."""
    names = []
    computers = 0
    for player in match.players:
        if player.user is None:
            computers += 1
            names.append(_("Computer %(n)d", n=computers))
        elif asker is not None and player.user == asker.key:
            names.append(isolated(asker.name))
        else:
            names.append(isolated(player.name))
    return names


def deal_ends(doc: GameDoc) -> list[State[Any]]:
    """The state at the end of each deal of a finished game, replayed through the engine."""
    state = new_match(doc.variant, len(doc.seats), doc.options, doc.seed, doc.deals[0])
    ends = []
    for seat, text in doc.moves:
        if state.deal_over:
            ends.append(state)
            state = next_deal(state, doc.deals[state.deal_number])
        state, _events = apply(state, parse_move(text), seat)
    ends.append(state)
    return ends


async def replay_for(
    painter: Painter, user: UserRef, match: KeptMatch, _: Translator
) -> list[Outbound]:
    """A kept match's replay for ``user`` alone: a picture of each deal's end and the
    replay file, in his private chat."""
    doc = match.doc()
    to = private_chat(user)
    ends = deal_ends(doc)
    out: list[Outbound] = []
    for state in ends:
        screen = await painter.table(_, doc, state)
        out.append(Notice(to, screen))
    data = json.dumps(replay_json(doc, ends[-1].options, len(doc.deals)), indent=1).encode()
    caption = _(
        "%(game)s, table %(id)s: a replay file", game=variant_title(_, doc.variant), id=doc.id
    )
    out.append(Document(to, f"domino-{doc.id}.json", data, caption))
    return out


def history_writes(history: MatchHistory, game: Game, now: float) -> tuple[MatchWrite, ...]:
    """What keeps a finished ``game`` in its chat's history, done by the write that ends
    it (nothing for another game); the chat's language names its computers."""
    kept = kept_match(game, now, translator(game.doc.settings.lang))
    if kept is None:
        return ()
    chat = game.doc.chat
    values = keep_values(kept.id, kept.ended, kept.model_dump_json(), history.ttl)
    return (MatchWrite("history", (keys.history(chat), keys.history_order(chat)), values),)


async def asked(runner: Runner, command: Command, _: Translator) -> Screen | list[Outbound]:
    """``history``: the list; ``history N``: the replay of its Nth match, for the asker."""
    chats = runner.board_chats(command.chat)
    matches = await newest_of(runner.store.history, chats, runner.clock())
    if not command.args:
        return history_screen(_, matches, command.user)
    wanted = command.args[0]
    if not wanted.isdigit() or not 1 <= int(wanted) <= len(matches):
        return Screen((text_line(_("There is no match %(n)s in this chat's list.", n=wanted)),))
    return await replay_for(runner.painter, command.user, matches[int(wanted) - 1], _)


async def pressed(runner: Runner, press: Press, match_id: str, _: Translator) -> list[Outbound]:
    """A replay button of the list (which may list the matches of a group of chats):
    the match's replay for the presser alone."""
    match = None
    for chat in runner.board_chats(press.chat):
        match = await read_kept(runner, chat, match_id)
        if match is not None:
            break
    if match is None:
        return [Answer(_("That match is no longer kept here."))]
    replay = await replay_for(runner.painter, press.user, match, _)
    return [Answer(_("The replay is yours alone, in your private chat with the bot.")), *replay]


async def read_kept(runner: Runner, chat: ChatRef, match_id: str) -> KeptMatch | None:
    """The match ``chat`` keeps under ``match_id``, as a replay or a review button names
    it; ``None`` when it is no longer kept, or kept in a form this version cannot read."""
    raw = await runner.store.history.one(chat, match_id)
    if raw is None:
        return None
    try:
        return KeptMatch.model_validate_json(raw)
    except ValidationError:
        return None

"""Commands that look things up: help, rules, scores, stats, lang, export.

Each answer is a screen the command replies with. ``export`` sends a file,
rebuilt from the game's event stream.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from babel import Locale

from bot.model.contract import (
    ChatRef,
    Command,
    CommandRef,
    Document,
    Screen,
    TextLine,
    UserRef,
    isolated,
)
from bot.model.game_state import build_state
from bot.model.gamedoc import RUNNING, BadDocument, GameDoc, from_json, replay_json
from bot.storage.store import Scoreboard, ScoreRow, StatRow, Store
from bot.table.rating_lookups import rating_lines, shown_name
from bot.table.runner import Runner
from bot.views import catalog
from bot.views.i18n import N_, Translator, available_languages, line, text_line
from bot.views.rules import SUMMARIES
from bot.views.texts import board_figures, error_text, option_help, players_span, variant_title
from bot.views.web_links import watch_button
from engine import DominoError, all_variants, get_variant

TOP: Final = 10
WHOLE: Final = 1000
"""Rows read of each chat's board when several are merged: all of them, for a group of
chats whose boards hold the few people of one place (a terminal's keyboard)."""

log = logging.getLogger(__name__)


FAIR_PLAY: Final = N_(
    "Computers play fair: each decides from what its seat can see (its own tiles, the line, "
    "how many tiles each player holds, who drew or passed), never from another hand or the "
    "boneyard; the bot's tests check this in every game."
)


def help_screen(_: Translator, *, live_table: bool = False) -> Screen:
    """Every command with what it does (``live_table``: ``table`` brings the live table),
    the games, and how the computers and the bot treat players."""
    lines: list[TextLine] = [text_line(_("Commands:"))]
    for info in catalog.commands(_.lang, live_table=live_table):
        lines.append((CommandRef(info.name, info.usage, usage=True), f" — {info.description}"))
    names = ", ".join(v.name for v in all_variants())
    lines.append(text_line(_("Games: %(names)s", names=names)))
    lines.append(text_line(_(FAIR_PLAY)))
    lines.append(privacy_note(_))
    return Screen(tuple(lines))


def privacy_note(_: Translator) -> TextLine:
    """What the bot keeps of a player, for how long, and how he sees or deletes it."""
    return line(
        _(
            "Privacy: for the scoreboards and ratings the bot keeps your name, results and "
            "ratings, here and across every chat, until you have not played for a while (a "
            "year unless whoever runs the bot chose otherwise). %(mydata)s shows you what is "
            "kept, %(forget)s deletes it."
        ),
        mydata=CommandRef("mydata"),
        forget=CommandRef("forget"),
    )


def rules_screen(_: Translator, args: tuple[str, ...], current: GameDoc | None) -> Screen:
    """The summary of one game (the named one, else the chat's current one), or a
    list of games to ask about."""
    if args:
        try:
            name = get_variant(args[0]).name
        except DominoError as exc:
            return Screen((text_line(error_text(_, exc)),))
    elif current is not None:
        name = current.variant
    else:
        names = ", ".join(v.name for v in all_variants())
        which = line(
            _("Which game? For example %(example)s. Games: %(names)s"),
            example=CommandRef("rules", "tyaga"),
            names=names,
        )
        return Screen((which,))
    variant = get_variant(name)
    span = players_span(_, name)
    lines: list[TextLine] = [
        text_line(variant_title(_, name)),
        text_line(_("Players: %(span)s", span=span)),
    ]
    lines += [text_line(_(rule)) for rule in SUMMARIES.get(name, ())]
    for spec in variant.option_specs:
        lines.append(text_line(f"{spec.name} — {option_help(_, spec.name)}"))
    lines.append(text_line(_(FAIR_PLAY)))
    return Screen(tuple(lines))


def names_a_game(args: tuple[str, ...]) -> bool:
    """Whether a lookup's words name a game, or name none (every game): not a
    refusal."""
    if not args:
        return True
    try:
        get_variant(args[0])
    except DominoError:
        return False
    return True


async def scores_screen(
    runner: Runner, chat: ChatRef, user: UserRef, args: tuple[str, ...], _: Translator
) -> Screen:
    """The chat's scoreboard of one game, or each game's own when none is named: points
    of different games mean different things, so they are never added together."""
    if args:
        try:
            variants = [get_variant(args[0]).name]
        except DominoError as exc:
            return Screen((text_line(error_text(_, exc)),))
    else:
        variants = [v.name for v in all_variants()]
    lines: list[TextLine] = []
    chats = runner.board_chats(chat)
    for variant in variants:
        board = await scoreboard(runner.store, chats, variant, user)
        if board.rows or args:
            lines += _board_lines(_, board, user)
    if not lines:
        lines.append(text_line(_("Nobody has finished a match here yet.")))
    return Screen(tuple(lines))


async def scoreboard(
    store: Store, chats: Sequence[ChatRef], variant: str, asker: UserRef
) -> Scoreboard:
    """The scoreboard of one game in ``chats``: the one chat's own, or, for a group of
    chats that are one place to their players, their boards merged (see :func:`merged`)."""
    if len(chats) == 1:
        return await store.scoreboard(chats[0], variant, TOP, asker)
    boards = await asyncio.gather(
        *(store.scoreboard(chat, variant, WHOLE, asker) for chat in chats)
    )
    return merged(variant, boards, asker)


def merged(variant: str, boards: Sequence[Scoreboard], asker: UserRef) -> Scoreboard:
    """One board of several chats' boards of a game: each player's rows summed (named as
    the first board names him), ranked again as a chat's board ranks them (matches won,
    then win rate), its first :data:`TOP` rows and the asker's own."""
    totals: dict[str, ScoreRow] = {}
    for board in boards:
        for row in board.rows:
            seen = totals.get(row.user_key)
            totals[row.user_key] = row if seen is None else _summed(seen, row)
    ranked = sorted(totals.values(), key=lambda row: (-row.won, -row.win_rate, row.user_key))
    rows = tuple(replace(row, rank=rank) for rank, row in enumerate(ranked, 1))
    mine = next((row for row in rows if row.user_key == asker.key), None)
    return Scoreboard(variant, rows[:TOP], mine, len(rows))


def _summed(first: ScoreRow, other: ScoreRow) -> ScoreRow:
    return replace(
        first,
        played=first.played + other.played,
        won=first.won + other.won,
        points=first.points + other.points,
    )


def _board_lines(_: Translator, board: Scoreboard, asker: UserRef) -> list[TextLine]:
    lines: list[TextLine] = [
        text_line(_("Scoreboard: %(game)s", game=variant_title(_, board.variant)))
    ]
    if not board.rows:
        lines.append(text_line(_("Nobody has finished a match here yet.")))
        return lines
    lines += [text_line(_score_row(_, board.variant, row, asker)) for row in board.rows]
    if board.me is not None and all(row.user_key != board.me.user_key for row in board.rows):
        lines.append(text_line("…"))
        lines.append(text_line(_score_row(_, board.variant, board.me, asker)))
    return lines


def _score_row(_: Translator, variant: str, row: ScoreRow, asker: UserRef) -> str:
    return _(
        "%(rank)d. %(name)s: won %(won)d of %(played)d (%(rate)d%%), %(figures)s",
        rank=row.rank,
        name=shown_name(_, row.user_key, row.name, asker),
        won=row.won,
        played=row.played,
        rate=round(row.win_rate * 100),
        figures=board_figures(_, variant, row.points),
    )


def results_text(_: Translator, row: StatRow) -> str:
    """A person's results in one game across every chat, as ``stats`` and ``mydata``
    both tell them."""
    return _(
        "%(game)s: won %(won)d of %(played)d (%(rate)d%%), %(figures)s",
        game=variant_title(_, row.variant),
        won=row.won,
        played=row.played,
        rate=round(row.win_rate * 100),
        figures=board_figures(_, row.variant, row.points),
    )


async def stats_of(runner: Runner, command: Command, _: Translator) -> Screen:
    """The asker's stats, or those of the player his words name (``@Anna`` or ``Anna``,
    as the chat's scoreboards know him)."""
    if not command.args:
        # Where the asker talks to the bot alone, his results are said to him.
        heading = _("Your results in every chat:") if command.private else None
        return await stats_screen(runner, command.user, _, heading)
    asked = " ".join(command.args).strip().removeprefix("@")
    variants = [v.name for v in all_variants()]
    known: dict[str, str] = {}
    for chat in runner.board_chats(command.chat):
        known |= await runner.store.chat_players(chat, variants)
    found = [
        key for key, name in known.items() if asked.casefold() in (name.casefold(), key.casefold())
    ]
    if len(found) > 1:
        return Screen(
            (text_line(_("Several players here are called %(name)s.", name=isolated(asked))),)
        )
    if not found or ":" not in found[0]:
        return Screen(
            (
                text_line(
                    _("Nobody called %(name)s has finished a match here.", name=isolated(asked))
                ),
            )
        )
    platform, user_id = found[0].split(":", 1)
    return await stats_screen(runner, UserRef(platform, user_id, known[found[0]]), _)


async def stats_screen(
    runner: Runner, user: UserRef, _: Translator, heading: str | None = None
) -> Screen:
    rows = await runner.store.user_stats(user)
    heading = heading or _("Results of %(name)s in every chat:", name=isolated(user.name))
    lines: list[TextLine] = [text_line(heading)]
    if not rows:
        lines.append(text_line(_("No finished matches yet.")))
    lines += await rating_lines(runner.store, user, _)
    lines += [text_line(results_text(_, row)) for row in rows]
    return Screen(tuple(lines))


def _native(code: str) -> str:
    """``uk (українська)``: a language's code and its name in that language."""
    return f"{code} ({Locale.parse(code).display_name})"


def languages_screen(_: Translator, current: str) -> Screen:
    return Screen(
        (
            text_line(_("Your language: %(lang)s", lang=current)),
            text_line(
                _("Available: %(langs)s", langs=", ".join(map(_native, available_languages())))
            ),
            line(
                _("Choose one with %(mine)s; an admin sets the chat's with %(chat)s."),
                mine=CommandRef("lang", _("CODE")),
                chat=CommandRef("lang", "chat " + _("CODE")),
            ),
        )
    )


async def export(runner: Runner, command: Command, _: Translator) -> Document | Screen:
    """The chat's running or last game as a replay file.

    A running game is exported up to its last finished deal and without its seed,
    whoever asks: the deal being played would give away every hand and the boneyard,
    and the seed every deal still to come (see :func:`bot.model.gamedoc.replay_json`).
    """
    chat = command.chat
    current = await runner.load(chat)
    doc = current.doc if current is not None and current.doc.deals else None
    if doc is None:
        raw = await runner.store.last_game(chat)
        try:
            doc = from_json(raw) if raw is not None else None
        except BadDocument:
            doc = None
    if doc is None or not doc.deals:
        return Screen((text_line(_("There is no game to export yet.")),))
    state = build_state(doc)
    deals = len(doc.deals)
    if doc.status == "running":
        deals = state.deal_number if state.deal_over else state.deal_number - 1
        if not state.match_over and deals == 0:
            return Screen((text_line(_("Nothing to export until the first deal is over.")),))
    replay = replay_json(doc, state.options, deals)
    data = json.dumps(replay, indent=1, ensure_ascii=False).encode()
    caption = _(
        "%(game)s, table %(id)s: a replay file", game=variant_title(_, doc.variant), id=doc.id
    )
    return Document(chat, f"domino-{doc.id}.json", data, caption)


async def watch_screen(runner: Runner, chat: ChatRef, _: Translator) -> Screen:
    """A button that opens ``chat``'s table on the web to watch it; or why there is
    none: the bot does not offer the web table, or no game is being played here."""
    links = runner.web_links()
    if links is None:
        return Screen((text_line(_("The web table is not set up on this bot.")),))
    game = await runner.load(chat)
    if game is None or game.state is None or game.doc.status != RUNNING:
        return Screen((text_line(_("No game is running here.")),))
    said = text_line(_("Watch the table in your browser:"))
    return Screen((said,), ((watch_button(_, links, game.doc.chat),),))

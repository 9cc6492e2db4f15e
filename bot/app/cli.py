"""The command line of ``domino-bot`` in the operator's language: its help, and
argparse's own words ("usage:", "show this help message and exit", its errors),
in the language of ``--lang`` or else the environment's (``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``).

argparse says its words through the gettext functions it imported when it was
loaded, which read the process's text domain and the environment only; ``--lang``
cannot reach them that way. So while a parser is built and parses,
:func:`speaking` points those two functions at our catalog for the chosen
language, and puts them back after.
"""

from __future__ import annotations

import argparse
import gettext
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Final

from bot.views import catalog
from bot.views.i18n import (
    DOMAIN,
    LOCALE_DIR,
    N_,
    Translator,
    available_languages,
    environment_language,
    pick_language,
)
from bot.views.i18n import translator as translator_for

#: argparse's own words a ``domino-bot`` command line can show, for the catalogs.
ARGPARSE_WORDS: Final = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("expected one argument"),
    N_("ignored explicit argument %r"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("%(prog)s: error: %(message)s\n"),
)


def cli_language(words: Sequence[str]) -> str:
    """The language of the last ``--lang`` among the words, else the environment's."""
    return pick_language(asked_language(words), environment_language())


def asked_language(words: Sequence[str]) -> str | None:
    """The last ``--lang`` among the words, wherever it stands."""
    asked = None
    for index, word in enumerate(words):
        if word == "--lang" and index + 1 < len(words):
            asked = words[index + 1]
        elif word.startswith("--lang="):
            asked = word.partition("=")[2]
    return asked


def command_at(words: Sequence[str]) -> int | None:
    """Where the command stands among the words: the first that is neither an option
    of ``domino-bot`` itself (``--lang ru``, ``-h``) nor that option's value."""
    at = 0
    while at < len(words):
        if words[at] == "--lang":
            at += 2
        elif words[at].startswith("-"):
            at += 1
        else:
            return at
    return None


def known_language(asked: str) -> bool:
    """Whether a catalog speaks ``asked`` (``ru``, ``pt-BR`` only if we had it, ``ru_RU``)."""
    exact = asked.replace("-", "_").split(".")[0]
    return exact in available_languages() or exact.split("_")[0].lower() in available_languages()


def unknown_language(_: Translator, asked: str) -> str:
    return _(
        "unknown language %(lang)s: choose one of %(langs)s",
        lang=repr(asked),
        langs=", ".join(available_languages()),
    )


@contextmanager
def speaking(lang: str) -> Iterator[gettext.NullTranslations]:
    """argparse's own words in ``lang`` inside the block (see the module's comment),
    which is given the catalog argparse reads them from."""
    words = gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._, argparse.ngettext = words.gettext, words.ngettext  # type: ignore[attr-defined]
    try:
        yield words
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]


def parse(argv: Sequence[str] | None, lang: str | None = None) -> argparse.Namespace:
    """The command line, its help and errors in ``lang`` (by default the language
    :func:`cli_language` finds). ``play``'s options and KEY=VALUE words may be
    intermixed (``play kozel --players 4 teams=on``), which argparse does only for a
    parser without subcommands, so ``play`` is parsed on its own."""
    words = list(sys.argv[1:] if argv is None else argv)
    lang = cli_language(words) if lang is None else lang
    _ = translator_for(lang)
    with speaking(lang) as argparse_words:
        asked = asked_language(words)
        if asked is not None and not known_language(asked):
            build_parser(_).error(unknown_language(_, asked))
        at = command_at(words)
        if at is None or words[at] != "play":
            return build_parser(_).parse_args(words)
        words = words[:at] + words[at + 1 :]  # play's own --lang takes the group's
        parser = play_parser(_)
        # parse_intermixed_args keeps its usage for errors by cutting 7 characters, the
        # English "usage: ", off the front; a usage given beforehand is kept whole.
        prefix = argparse_words.gettext("usage: ")
        parser.usage = parser.format_usage().removeprefix(prefix).rstrip()
        args = parser.parse_intermixed_args(words)
        # The game is the word without "=", wherever it stands among the options.
        given = ([args.variant] if args.variant else []) + args.options
        games = [word for word in given if "=" not in word]
        if len(games) > 1:
            parser.error(_("one game at a time, not %(games)s", games=", ".join(games)))
    args.variant = games[0] if games else "tyaga"
    args.options = [word for word in given if "=" in word]
    args.command = "play"
    return args


def play_parser(translator: Translator) -> argparse.ArgumentParser:
    """``domino-bot play`` on its own, so its words may be intermixed."""
    return _play_arguments(
        translator,
        argparse.ArgumentParser(prog="domino-bot play", description=_play_description(translator)),
    )


def build_parser(_: Translator) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="domino-bot",
        description=_(
            "Domino tables for Telegram groups, Discord channels and the terminal. With no "
            "command: the chat bots whose tokens are set, or else a game at the terminal."
        ),
    )
    parser.add_argument(
        "--lang", help=_("language of these messages, before or after the command (default: LANG)")
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.add_parser("serve", help=_("run the chat bots whose tokens are set"))
    commands.add_parser("telegram", help=_("run the Telegram bot (TELEGRAM_TOKEN)"))
    commands.add_parser("discord", help=_("run the Discord bot (DISCORD_TOKEN)"))

    play = commands.add_parser(
        "play", help=_("play at the terminal"), description=_play_description(_)
    )
    _play_arguments(_, play)

    replay = commands.add_parser("replay", help=_("tell a replay file move by move"))
    replay.add_argument("file", help=_("a replay file (JSON); - reads standard input"))
    replay.add_argument("--lang", help=_("language of the story (default: LANG)"))
    replay.add_argument("--png", metavar="DIR", help=_("also draw each deal's end into DIR"))

    export = commands.add_parser("export", help=_("write a game as a replay file"))
    export.add_argument(
        "--chat", default="con:local", help=_("a chat key such as %(key)s", key="tg:-100123")
    )
    export.add_argument(
        "-o",
        "--output",
        help=_("a file or folder to write into (default exports/); - for output"),
    )

    web = commands.add_parser("web", help=_("play in the browser, on this machine"))
    _game_arguments(_, web, default="tyaga")
    web.add_argument("--port", type=int, help=_("the port to listen on (default: WEB_PORT)"))

    commands.add_parser("health", help=_("exit 0 if the store answers (for health checks)"))
    return parser


def _play_description(_: Translator) -> str:
    return _(
        "A game at the terminal: full screen in a terminal, plain lines in a pipe. "
        "Options and KEY=VALUE words may come in any order."
    )


def _game_arguments(
    _: Translator, parser: argparse.ArgumentParser, default: str | None = None
) -> None:
    """The game, its options and its number of seats, as ``play`` and ``web`` take them."""
    parser.add_argument("variant", nargs="?", default=default, metavar="GAME", help=_games_help(_))
    parser.add_argument(
        "options",
        nargs="*",
        metavar="KEY=VALUE",
        help=_("the game's options, e.g. %(example)s", example="target=50"),
    )
    parser.add_argument(
        "--players", type=int, help=_("seats at the table (default: the game's least)")
    )


def _play_arguments(_: Translator, play: argparse.ArgumentParser) -> argparse.ArgumentParser:
    _game_arguments(_, play)
    play.add_argument(
        "--humans", type=int, default=1, help=_("people at this keyboard (default 1)")
    )
    play.add_argument("--level", help=_("the computers' level: random, greedy or strong (default)"))
    play.add_argument("--lang", help=_("language of the table: en, ru, uk, pl, ca (default: LANG)"))
    play.add_argument("--seed", type=int, help=_("deal the same tiles every time"))
    play.add_argument(
        "--resume", action="store_true", help=_("continue a saved match (a list if several)")
    )
    play.add_argument(
        "--verbose",
        action="store_true",
        help=_("also say first where the games are kept"),
    )
    play.add_argument(
        "--plain",
        action="store_true",
        help=_(
            "plain lines instead of the full screen (automatic when input or output "
            "is not a terminal)"
        ),
    )
    return play


def _games_help(_: Translator) -> str:
    names = [
        info.name + (f" ({', '.join(info.aliases)})" if info.aliases else "")
        for info in catalog.variants(_.lang)
    ]
    return _("the game: %(games)s; tyaga if none is named", games=", ".join(names))

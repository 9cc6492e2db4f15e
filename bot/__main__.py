"""``domino-bot``: the command that runs the bot, the terminal table and the tools.

This is the composition root: it reads the settings, opens the store (an
embedded Redis when ``REDIS_URL`` is unset), builds the core's sessions and
hands them to the front end a subcommand names. Each front end is imported only
when it runs, so ``domino-bot play`` starts without loading Telegram or Discord.

    domino-bot                 Telegram and/or Discord if a token is set, else the terminal table
    domino-bot serve           the chat bots (at least one token required)
    domino-bot telegram        the Telegram bot only
    domino-bot discord         the Discord bot only
    domino-bot play [GAME]     a game at the terminal against computers (or friends)
    domino-bot web [GAME]      a game in the browser against computers, on this machine
    domino-bot replay FILE     a replay file told move by move
    domino-bot export          the terminal's last game (or a chat's) as a replay file
    domino-bot health          exit status 0 if the store answers
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from bot.ai.thinker import Thinker, allowance_of
from bot.app import gc_tuning
from bot.app.cli import asked_language, cli_language, parse
from bot.app.config import ConfigError, Settings, load_settings
from bot.app.embedded_redis import EmbeddedRedisError
from bot.app.failures import plain_failure
from bot.app.launch import (
    EXPORTS,
    banner,
    console_settings,
    default_players,
    export_replay,
    open_store,
    run_health,
    seats_refusal,
    stop_on_signals,
    store_name,
    welcome,
)
from bot.app.logging_setup import secrets_of, setup_logging
from bot.table.painter import Painter
from bot.table.sessions import Sessions
from bot.views.i18n import Translator, environment_language, pick_language
from bot.views.i18n import translator as translator_for

log = logging.getLogger("bot")

EXIT_USAGE = 2
BOTS: Final = ("telegram", "discord")  # the chat platforms, in the order they are started


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    lang = cli_language(words)
    _tolerant_output()
    args = parse(words, lang)
    _ = translator_for(lang)
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(f"domino-bot: {exc.told(_)}", file=sys.stderr)
        return EXIT_USAGE
    command: str = args.command or ("serve" if _tokens(settings) else "play")
    # At the terminal table, routine log lines would scroll the table away.
    quiet = command == "play" and "log_level" not in settings.model_fields_set
    level = "WARNING" if quiet else settings.log_level
    setup_logging(settings.log_format, level, secrets=secrets_of(settings))
    if command == "play" and args.command is None:
        args = parse(["play"], lang)
    args.lang = asked_language(words)  # a subcommand's own --lang unset hides the group's
    try:
        return _dispatch(command, args, settings, _)
    except EmbeddedRedisError as exc:
        print(f"domino-bot: {exc.told(_)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        said = plain_failure(exc, store_name(settings, _), _)
        if said is None or _debug(settings):
            raise
        print(f"domino-bot: {said}", file=sys.stderr)
        return 1


def _dispatch(
    command: str, args: argparse.Namespace, settings: Settings, translator: Translator
) -> int:
    if command == "serve" or command in BOTS:
        platforms = _tokens(settings) if command == "serve" else (command,)
        missing = [p for p in platforms if p not in _tokens(settings)]
        if not platforms or missing:
            print(f"domino-bot: {_token_wanted(translator, command, missing)}", file=sys.stderr)
            return EXIT_USAGE
        what = " + ".join(p.capitalize() for p in platforms)
        print(banner(translator, what, settings), file=sys.stderr)
        return asyncio.run(run_bots(settings, platforms, translator))
    if command == "play":
        return _play(args, settings)
    if command == "web":
        return _web(args, settings)
    if command == "replay":
        return _replay(args.file, translator_for(args.lang or translator.lang), args.png)
    if command == "export":
        return asyncio.run(export_replay(settings, args.chat, args.output, translator))
    assert command == "health", command
    return asyncio.run(run_health(settings, translator))


def _play(args: argparse.Namespace, settings: Settings) -> int:
    args.lang = pick_language(args.lang, environment_language(), settings.default_lang)
    players = args.players if args.players is not None else default_players(args.variant)
    _ = translator_for(args.lang)
    refused = seats_refusal(_, args.variant, players, args.humans)
    if refused is not None:
        print(f"domino-bot play: {refused}", file=sys.stderr)
        return EXIT_USAGE
    technical = banner(_, _("terminal table"), settings)
    log.info("%s", technical)
    if args.verbose:
        print(technical, file=sys.stderr)
    print(welcome(_, args.variant, args.resume), file=sys.stderr)
    return asyncio.run(run_table(console_settings(settings, args.lang), args, players))


def _web(args: argparse.Namespace, settings: Settings) -> int:
    lang = pick_language(args.lang, environment_language(), settings.default_lang)
    players = args.players if args.players is not None else default_players(args.variant)
    _ = translator_for(lang)
    refused = seats_refusal(_, args.variant, players, 1)
    if refused is not None:
        print(f"domino-bot web: {refused}", file=sys.stderr)
        return EXIT_USAGE
    print(banner(_, _("web table"), settings), file=sys.stderr)
    return asyncio.run(run_web(settings, args, players, lang))


async def run_web(settings: Settings, args: argparse.Namespace, players: int, lang: str) -> int:
    """The local web table: a game against computers served on this machine until
    SIGINT or SIGTERM; its link is printed."""
    import secrets

    from adapters.web.local import LocalRequest, NotOpened, local_table

    secret = settings.web_secret.get_secret_value() if settings.web_secret else ""
    request = LocalRequest(
        variant=args.variant,
        players=players,
        lang=lang,
        options=tuple(args.options),
        host=settings.web_listen,
        port=args.port if args.port is not None else settings.web_port,
        pass_hours=settings.web_pass_hours,
    )
    thinker = Thinker(settings.ai_workers, allowance_of(settings))
    async with open_store(settings) as opened, thinker:
        sessions = Sessions(opened.store, settings, thinker=thinker)
        try:
            async with local_table(
                sessions, opened.redis, request, secret or secrets.token_urlsafe(32)
            ) as table:
                print(table.url, flush=True)
                await stop_on_signals().wait()
        except NotOpened as exc:
            print(f"domino-bot web: {exc}", file=sys.stderr)
            return 1
    return 0


def _token_wanted(_: Translator, command: str, missing: Sequence[str]) -> str:
    """What to set for ``command`` to run: the missing token, or either one."""
    if len(missing) == 1:
        token = f"{missing[0].upper()}_TOKEN"
        return _(
            "set %(token)s to run %(command)s (see .env.example)", token=token, command=command
        )
    return _(
        "set TELEGRAM_TOKEN or DISCORD_TOKEN to run %(command)s (see .env.example)",
        command=command,
    )


async def run_bots(settings: Settings, platforms: Sequence[str], translator: Translator) -> int:
    """Serve the chat platforms in one event loop until SIGTERM or SIGINT, and the web
    table beside them where it is set up; if one of them stops on its own (a revoked
    token), the others are stopped too."""
    from adapters.web.host import Deliveries, hosted_table, serve_web

    thinker = Thinker(settings.ai_workers, allowance_of(settings))
    painter = Painter(settings.picture_workers)
    async with open_store(settings) as opened, thinker, painter:
        sessions = Sessions(opened.store, settings, thinker=thinker, painter=painter)
        stop = stop_on_signals()
        tasks: list[asyncio.Task[None]] = []
        pages = Deliveries()  # each chat adapter's, for the presses made on the web table
        if "telegram" in platforms:
            from adapters.telegram.run import run_telegram

            serving = run_telegram(
                settings, sessions, redis=opened.redis, stop_event=stop, pages=pages.by_platform
            )
            tasks.append(asyncio.create_task(serving, name="telegram"))
        if "discord" in platforms:
            from adapters.discord.client import run_discord

            serving = run_discord(
                settings, sessions, redis=opened.redis, stop_event=stop, pages=pages.by_platform
            )
            tasks.append(asyncio.create_task(serving, name="discord"))
        web = hosted_table(settings, sessions, opened.redis, pages)
        if web is not None:
            serving = serve_web(web, settings.web_listen, settings.web_port, stop)
            tasks.append(asyncio.create_task(serving, name="web"))
        gc_tuning.freeze_startup()
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        stop.set()
        results = await asyncio.gather(*tasks, return_exceptions=True)
    failed = False
    for task, result in zip(tasks, results, strict=True):
        if isinstance(result, Exception):
            said = plain_failure(result, store_name(settings, translator), translator)
            if said is None or _debug(settings):
                log.error("%s stopped with an error", task.get_name(), exc_info=result)
            else:
                print(f"domino-bot: {said}", file=sys.stderr)
            failed = True
    log.info("stopped")
    return 1 if failed else 0


async def run_table(settings: Settings, args: argparse.Namespace, players: int) -> int:
    """The terminal table on the store, until the match ends or the player leaves:
    full screen in a terminal, plain lines otherwise (or with ``--plain``)."""
    import random
    import shutil

    from adapters.console import ConsoleAdapter, TableRequest, line_source, look_around

    request = TableRequest(
        variant=args.variant,
        players=players,
        humans=args.humans,
        level=args.level,
        lang=args.lang,
        options=tuple(args.options),
        resume=args.resume,
    )
    # A seed fixes the game's id and its deals, so the same command deals the same tiles.
    rng = random.Random(args.seed) if args.seed is not None else None
    width = max(40, min(100, shutil.get_terminal_size((80, 24)).columns - 2))
    thinker = Thinker(settings.ai_workers, allowance_of(settings))
    async with open_store(settings) as opened, thinker:
        sessions = Sessions(opened.store, settings, rng=rng, thinker=thinker)
        tables = await look_around(opened.store)
        if full_screen(args.plain):
            from adapters.console.fullscreen import TableApp
            from adapters.console.logfile import LOG_FILE, logs_into

            thinker.start()  # before the screen is taken (see bot.ai.workers)
            log_file = settings.data_dir / LOG_FILE
            app = TableApp(
                sessions, request, tables, poll=settings.timer_poll_interval, log_file=log_file
            )
            with logs_into(log_file, app.logged):
                return await app.play(stop_on_signals())
        console = ConsoleAdapter(
            sessions,
            line_source(sys.stdin),
            sys.stdout,
            stop=stop_on_signals(),
            echo=not sys.stdin.isatty(),
            clear_screen=sys.stdout.isatty(),
            width=width,
            export_dir=Path(EXPORTS),
        )
        return await console.run(request, tables)


def full_screen(plain: bool) -> bool:
    """The full-screen table, unless asked for plain lines or either end is not a
    terminal (a pipe, a script, a file)."""
    return not plain and sys.stdin.isatty() and sys.stdout.isatty()


def _replay(path: str, _: Translator, png: str | None = None) -> int:
    from bot.picture.files import CannotWrite, DealPictures
    from bot.views.replay_story import ReplayStopped, story
    from engine import DominoError
    from engine.replay import load_replay

    pictures = DealPictures(_, Path(png)) if png is not None else None
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
        for line in story(_, load_replay(text), pictures):
            print(line)
    except CannotWrite as exc:
        said = _("cannot write %(what)s", what=exc)
        print(f"domino-bot replay: {said}", file=sys.stderr)
        return 1
    except (OSError, UnicodeDecodeError) as exc:
        said = _("cannot read %(path)s: %(error)s", path=path, error=exc)
        print(f"domino-bot replay: {said}", file=sys.stderr)
        return EXIT_USAGE
    except ReplayStopped as exc:
        said = _("stopped at %(move)s", move=exc)
        print(f"domino-bot replay: {said}", file=sys.stderr)
        return 1
    except DominoError as exc:
        print(f"domino-bot replay: {path}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if pictures is not None:
        drawn = len(pictures.written)
        said = _.ngettext(
            "%(n)d picture in %(folder)s", "%(n)d pictures in %(folder)s", drawn, folder=png
        )
        print(f"domino-bot replay: {said}", file=sys.stderr)
    return 0


def _debug(settings: Settings) -> bool:
    """Whether tracebacks are wanted (``LOG_LEVEL=DEBUG``)."""
    return settings.log_level == "DEBUG"


def _tokens(settings: Settings) -> tuple[str, ...]:
    """The chat platforms that have a token, in a fixed order."""
    present = {"telegram": settings.telegram_token, "discord": settings.discord_token}
    return tuple(name for name in BOTS if present[name] is not None)


def _tolerant_output() -> None:
    """Tiles and arrows are not ASCII; a terminal that cannot show them gets a
    replacement character instead of a crash."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")


if __name__ == "__main__":
    sys.exit(main())

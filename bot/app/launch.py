"""What every ``domino-bot`` command needs before a front end runs: the store (an
embedded Redis when no ``REDIS_URL`` is set), a stop signal wired to SIGTERM and
SIGINT, the start-up line, and the two commands that only talk to the store
(``health`` and ``export``). Opening the store checks that Redis keeps every key when
its memory is full (:func:`check_eviction`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, cast
from urllib.parse import urlsplit, urlunsplit

import redis.asyncio as aredis

from bot.app.config import Settings
from bot.app.embedded_redis import (
    DATA_FILE,
    EmbeddedRedis,
    EmbeddedRedisError,
    redis_url_or_embedded,
)
from bot.model.contract import ChatRef, Command, Document, Response, UserRef
from bot.storage.connect import REDIS_ERRORS, unreachable
from bot.storage.store import Store, StoreUnavailable, connect
from bot.table.sessions import Sessions
from bot.views import catalog
from bot.views.i18n import Translator
from bot.views.texts import players_span
from engine import DominoError

log = logging.getLogger(__name__)

HEALTH_TIMEOUT: Final = 3.0
KEEPS_EVERY_KEY: Final = "noeviction"
"""The one ``maxmemory-policy`` under which Redis refuses a write rather than drop a key."""
EXPORTS: Final = "exports"  # where replay files go unless the player names a place


def store_name(settings: Settings, _: Translator) -> str:
    """Where the games are kept, for people (a password in the URL is hidden)."""
    if settings.redis_url is None:
        return _("an embedded Redis at %(path)s", path=str(settings.data_dir / DATA_FILE))
    parts = urlsplit(settings.redis_url)
    if parts.password is not None:
        user = parts.username or ""
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port is not None else ""
        parts = parts._replace(netloc=f"{user}:***@{host}{port}")
    return urlunsplit(parts)


def banner(_: Translator, what: str, settings: Settings) -> str:
    """The first line every running command prints: what runs, on which store."""
    said = _("%(what)s on %(store)s", what=what, store=store_name(settings, _))
    return f"domino-bot: {said}"


def welcome(_: Translator, variant: str | None, resume: bool) -> str:
    """The terminal table's first line, for the player: what is played, and how to
    get help or leave (where the games are kept is for the log, or ``--verbose``)."""
    try:
        game = None if resume else catalog.variant(variant or "tyaga", _.lang).title
    except DominoError:
        game = None
    said = _("%(game)s at the terminal.", game=game) if game else _("Dominoes at the terminal.")
    more = _("Type help to see what you can type, and quit to leave: an unfinished match is kept.")
    return f"{said} {more}"


def console_settings(settings: Settings, lang: str | None) -> Settings:
    """The settings for the terminal table: its ``--lang`` is the table's language,
    a finished deal waits for the player to ask for the next one, and no screen offers
    the web table."""
    # The terminal has no link to follow: its screens offer no web table.
    update: dict[str, object] = {"next_deal_delay": None, "web_public_url": None}
    if lang is not None:
        update["default_lang"] = lang
    return settings.model_copy(update=update)


def default_players(variant: str) -> int:
    """The fewest players the game takes (2 for an unknown name: the core refuses it)."""
    try:
        return catalog.variant(variant).min_players
    except DominoError:
        return 2


def seats_refusal(_: Translator, variant: str, players: int, humans: int) -> str | None:
    """Why ``--players`` and ``--humans`` cannot make a table, or ``None`` if they can
    (an unknown game is left for the core to refuse by name)."""
    try:
        game = catalog.variant(variant, _.lang)
    except DominoError:
        return None
    if not game.min_players <= players <= game.max_players:
        return _(
            "%(game)s is played by %(span)s players, not %(value)s.",
            game=game.title,
            span=players_span(_, game.name),
            value=players,
        )
    if not 1 <= humans <= players:
        return _.ngettext(
            "--humans must be from 1 to %(n)d, the number of players.",
            "--humans must be from 1 to %(n)d, the number of players.",
            players,
        )
    return None


@dataclass(frozen=True, slots=True)
class Opened:
    store: Store
    redis: aredis.Redis


@contextlib.asynccontextmanager
async def open_store(settings: Settings) -> AsyncIterator[Opened]:
    """The store for the settings; on the way out the client is closed and an
    embedded server this call started is stopped (its data is on disk by then)."""
    url, server = await asyncio.to_thread(
        redis_url_or_embedded, settings.redis_url, settings.data_dir
    )
    client = connect(url, cluster=settings.redis_cluster)
    store = Store(
        client,
        idle_ttl=settings.game_idle_ttl,
        retention=settings.player_retention_ttl,
        history_ttl=settings.history_ttl,
    )
    try:
        await check_eviction(client)
        await tell_pages(store)
        yield Opened(store, client)
    finally:
        await store.close()
        if server is not None:
            await asyncio.to_thread(server.stop)


async def tell_pages(store: Store) -> None:
    """Have the store publish every game's new versions for the web table's pages, which
    any process's writes must reach; a Redis that does not answer yet is left to the
    store's first use to report, and its writes tell no page."""
    try:
        await store.tell_pages()
    except REDIS_ERRORS as exc:
        if unreachable(exc):  # the store's first use says so in one line
            log.debug("Redis does not answer, so web pages hear of no move: %s", exc)
            return
        log.warning("Redis did not say its version, so web pages hear of no move: %s", exc)


async def check_eviction(redis: aredis.Redis) -> set[str]:
    """Redis's ``maxmemory-policy`` (each node's, on a cluster), with a loud warning in the
    log for one that evicts keys: under it a full Redis drops parts of games (the chat is
    freed, the game is lost), and scoreboards and ratings with them. A Redis that does
    refuse ``CONFIG GET`` (managed services often do) is said so in the log, and the bot
    goes on; one that does not answer at all is left to the store's first use to report."""
    try:
        if isinstance(cast(object, redis), aredis.RedisCluster):  # each node has its own
            nodes = aredis.RedisCluster.ALL_NODES
            reply = await redis.config_get("maxmemory-policy", target_nodes=nodes)
        else:
            reply = await redis.config_get("maxmemory-policy")
    except REDIS_ERRORS as exc:
        if unreachable(exc):
            # The store's first use says so in one line, which is what a person needs.
            log.debug("Redis does not answer, so its maxmemory-policy is not checked: %s", exc)
            return set()
        log.warning(
            "could not check Redis's maxmemory-policy (it refused CONFIG GET: %s); make "
            "sure it is %s, or a full Redis drops games (see deploy/README.md)",
            exc,
            KEEPS_EVERY_KEY,
        )
        return set()
    policies = _policies(reply)
    evicting = sorted(policies - {KEEPS_EVERY_KEY})
    if evicting:
        log.warning(
            "REDIS EVICTS KEYS: its maxmemory-policy is %s. When its memory is full it "
            "drops keys, and games lose their moves or deals (each is then set aside and "
            "its chat freed), scoreboards and ratings are lost. Set maxmemory-policy %s "
            "with a maxmemory, and alert on refused writes (see deploy/README.md)",
            ", ".join(evicting),
            KEEPS_EVERY_KEY,
        )
    else:
        log.info("Redis's maxmemory-policy is %s", ", ".join(sorted(policies)) or "unknown")
    return policies


def _policies(reply: Any) -> set[str]:
    """The policies in a ``CONFIG GET`` reply: one server's ``{name: value}``, or a
    cluster's ``{node: {name: value}}``."""
    if not isinstance(reply, dict):
        return set()
    if "maxmemory-policy" in reply:
        return {str(reply["maxmemory-policy"])}
    return {policy for part in reply.values() for policy in _policies(part)}


def stop_on_signals() -> asyncio.Event:
    """An event set by SIGTERM or SIGINT: front ends stop taking updates, finish what
    is in flight and return. A second signal while stopping interrupts at once."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    main = asyncio.current_task()

    def on_signal(number: int) -> None:
        if stop.is_set() and main is not None:
            main.cancel()
            return
        log.info("%s received: stopping", signal.Signals(number).name)
        stop.set()

    for number in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(number, on_signal, number)
    return stop


async def run_health(settings: Settings, _: Translator) -> int:
    """0 if the store answers within a few seconds. Never starts an embedded server:
    it asks the one the bot runs, through its socket."""
    url = settings.redis_url or EmbeddedRedis(settings.data_dir).url
    try:
        store = Store(connect(url, timeout=HEALTH_TIMEOUT, cluster=settings.redis_cluster))
    except ValueError as exc:
        print(f"unhealthy: {exc}", file=sys.stderr)
        return 1
    try:
        await store.ping()
    except StoreUnavailable as exc:
        where = store_name(settings, _)
        print(
            _(
                "unhealthy: the store at %(store)s does not answer: %(error)s",
                store=where,
                error=exc,
            )
        )
        return 1
    finally:
        await store.close()
    print(_("ok: the store at %(store)s answers", store=store_name(settings, _)))
    return 0


async def export_replay(
    settings: Settings, chat_key: str, output: str | None, _: Translator
) -> int:
    """Write the chat's running or last game as a replay file."""
    chat = ChatRef.from_key(chat_key)
    # At the terminal the one who asks is its player ("You"), anywhere else an outsider;
    # either way a match still being played comes without its deal in play or its seed.
    asker = UserRef(
        chat.platform, "1" if chat.platform == "con" else "cli", "domino-bot", lang=_.lang
    )
    try:
        async with open_store(settings) as opened:
            sessions = Sessions(opened.store, settings)
            command = Command(chat, asker, "export", is_admin=True, private=True)
            replies = await sessions.handle(command)
    except EmbeddedRedisError as exc:
        print(f"domino-bot export: {exc.told(_)}", file=sys.stderr)
        return 1
    document = next((r for r in replies if isinstance(r, Document)), None)
    if document is None:
        for reply in replies:
            if isinstance(reply, Response):
                print(f"domino-bot export: {reply.screen.plain_text()}", file=sys.stderr)
        return 1
    if output == "-":
        sys.stdout.write(document.data.decode())
        return 0
    target = Path(output or EXPORTS)
    path = target / document.filename if output is None or target.is_dir() else target
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(document.data)
    except OSError as exc:
        said = _("cannot write %(path)s: %(error)s", path=str(path), error=exc.strerror or exc)
        print(f"domino-bot export: {said}", file=sys.stderr)
        return 1
    print(_("The replay file is written: %(path)s", path=str(path)), file=sys.stderr)
    return 0

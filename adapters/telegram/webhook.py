"""The webhook server: Telegram posts updates here, and load balancers ask ``/healthz``.

Every post must carry the secret token given to ``setWebhook``; anything else is
answered 403 and never reaches the bot. Accepted updates go to the Application's
update queue, so several workers behind one URL each process what they receive,
with all game state in Redis. Each update is marked taken in Redis first: one that
Telegram posts again (its first answer came too late) or that two workers are given
is handled once.
"""

from __future__ import annotations

import hmac
import json
import logging
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from telegram import Update
from telegram.ext import Application

from bot import keys
from bot.store_connect import REDIS_ERRORS, unreachable

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
HEALTH_PATH = "/healthz"
TAKEN_FOR = 24 * 3600  # Telegram gives up posting an update again well within a day


class UpdateLedger:
    """Which updates some worker has taken, in Redis (see :func:`bot.keys.telegram_update`)."""

    def __init__(self, redis: Any, *, ttl: int = TAKEN_FOR) -> None:
        self._redis = redis
        self._ttl = ttl

    async def take(self, update_id: int) -> bool:
        """Mark the update taken; ``False`` if a worker took it before. With Redis out of
        reach it is taken all the same: the bot then answers that it is unavailable,
        which beats leaving the press with no answer at all."""
        try:
            marked = await self._redis.set(
                keys.telegram_update(update_id), 1, nx=True, ex=self._ttl
            )
        except REDIS_ERRORS as exc:
            if not unreachable(exc):
                raise
            log.warning("could not mark update %s taken; handling it all the same", update_id)
            return True
        return bool(marked)


def webhook_path(url: str) -> str:
    """The path Telegram will post to, taken from the public webhook URL."""
    return urlsplit(url).path or "/"


def webhook_app(
    application: Application, path: str, secret: str, ledger: UpdateLedger | None = None
) -> web.Application:
    async def receive(request: web.Request) -> web.Response:
        given = request.headers.get(SECRET_HEADER, "")
        if not hmac.compare_digest(given.encode(), secret.encode()):
            log.warning("a webhook post from %s had a wrong secret", request.remote)
            return web.Response(status=403, text="forbidden")
        try:
            data = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return web.Response(status=400, text="not JSON")
        if not isinstance(data, dict) or "update_id" not in data:
            return web.Response(status=400, text="not an update")
        try:
            update = Update.de_json(data, application.bot)
        except (KeyError, TypeError, ValueError):
            return web.Response(status=400, text="not an update")
        if ledger is not None and not await ledger.take(update.update_id):
            log.debug("update %s was taken already", update.update_id)
            return web.Response(text="ok")
        await application.update_queue.put(update)
        return web.Response(text="ok")

    async def health(request: web.Request) -> web.Response:
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_post(path, receive)
    app.router.add_get(HEALTH_PATH, health)
    return app


class WebhookServer:
    """Serves :func:`webhook_app` on ``listen:port`` until :meth:`stop`."""

    def __init__(self, app: web.Application, listen: str, port: int) -> None:
        self._runner = web.AppRunner(app)
        self._listen = listen
        self._port = port

    async def start(self) -> None:
        await self._runner.setup()
        await web.TCPSite(self._runner, self._listen, self._port).start()
        log.info("webhook server listening on %s:%s", self._listen, self._port)

    @property
    def port(self) -> int:
        """The port actually bound (useful when asked for port 0)."""
        return int(self._runner.addresses[0][1])

    async def stop(self) -> None:
        await self._runner.cleanup()

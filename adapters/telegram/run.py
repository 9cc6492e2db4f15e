"""Running the Telegram bot: long polling by default, a webhook when one is configured,
and a timer loop that lets the core act on deadlines and computer turns.

Stopping is bounded: each part (the timer loop, the updates being handled, delivery,
the Bot API client) gets :data:`STOP_SECONDS`, and one that has not stopped by then is
cancelled and left behind with a log line naming it, so a press or a tick stuck on
something that never answers (a Redis pool with no free connection, a picture that is
never drawn) cannot keep the process from exiting on SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from telegram import Update

from adapters.delivery.catchup import STORE_DOWN, CatchUp
from adapters.delivery.clock import Clock
from adapters.delivery.wiring import Wiring
from adapters.delivery.wiring import redis_wiring as shared_wiring
from adapters.telegram.app import Core, TelegramAdapter, build_application
from adapters.telegram.conversion import PLATFORM
from adapters.telegram.heldpings import TelegramPings
from adapters.telegram.webhook import UpdateLedger, WebhookServer, webhook_app, webhook_path
from adapters.web_address import PageDeliveries, web_address
from bot.app.config import Settings
from bot.model.contract import Outbound

log = logging.getLogger(__name__)

# Migrations come as messages; my_chat_member says the bot was removed from a group.
ALLOWED_UPDATES = [Update.MESSAGE, Update.CALLBACK_QUERY, Update.MY_CHAT_MEMBER]
DRAIN_SECONDS = 10.0  # at shutdown, how long queued edits may still go out
STOP_SECONDS = 10.0  # at shutdown, how long each other part may take to stop


def redis_wiring(
    redis: Any,
    clock: Clock | None = None,
    wall: Callable[[], float] = time.time,
) -> Wiring:
    """Telegram's records in Redis (:func:`adapters.delivery.wiring.redis_wiring`), with
    its held turn pings; a chat that changes its id is moved by the core."""
    return shared_wiring(redis, PLATFORM, clock, wall, TelegramPings(redis))


class TelegramService:
    """One bot process: :meth:`start` it, and :meth:`stop` it when told to."""

    def __init__(
        self, settings: Settings, core: Core, wiring: Wiring, ledger: UpdateLedger | None = None
    ) -> None:
        if settings.telegram_token is None:
            raise ValueError("TELEGRAM_TOKEN is not set")
        self.settings = settings
        self.core = core
        self.webhook_url = settings.telegram_webhook_url
        self.application = build_application(
            settings.telegram_token.get_secret_value(),
            settings.telegram_base_url,
            with_updater=self.webhook_url is None,
        )
        self.adapter = TelegramAdapter(self.application, core, wiring, web_address(settings))
        self.liveness = wiring.liveness
        self.catch_up: CatchUp | None = None
        if wiring.pending is not None:
            self.catch_up = CatchUp(
                wiring.pending,
                wiring.book,
                core.redraw,
                self.adapter.submit,
                wiring.outbox,
                lambda entries: self.adapter.deliverer.resend(entries),
            )
        self.webhook: WebhookServer | None = None
        self.ledger = ledger  # webhook updates taken, shared by every worker
        self._stop_ticking = asyncio.Event()
        self._ticker: asyncio.Task[None] | None = None
        self.ticking = False  # a tick's moves are being played or handed to delivery
        self._started = False  # every table has been looked at once

    async def start(self) -> None:
        if self.liveness is not None:
            await self.liveness.start()  # before any hold or turn names this process
        await self.application.initialize()
        await self.adapter.start()
        self._started = await self._catch_up(False)  # before the first update comes
        await self.application.start()
        if self.webhook_url is None:
            assert self.application.updater is not None
            await self.application.updater.start_polling(allowed_updates=ALLOWED_UPDATES)
            log.info("Telegram bot @%s is polling", self.application.bot.username)
        else:
            await self._start_webhook(self.webhook_url)
        self._ticker = asyncio.create_task(self._tick(), name="telegram timers")

    async def _start_webhook(self, url: str) -> None:
        secret = self.settings.telegram_webhook_secret
        assert secret is not None  # the settings refuse a webhook without one
        app = webhook_app(
            self.application, webhook_path(url), secret.get_secret_value(), self.ledger
        )
        self.webhook = WebhookServer(
            app, self.settings.telegram_webhook_listen, self.settings.telegram_webhook_port
        )
        await self.webhook.start()
        # Every worker sets the same webhook; Telegram keeps one, so this is harmless.
        await self.application.bot.set_webhook(
            url, secret_token=secret.get_secret_value(), allowed_updates=ALLOWED_UPDATES
        )
        log.info("Telegram bot @%s takes updates at %s", self.application.bot.username, url)

    async def stop(self) -> None:
        self._stop_ticking.set()
        if self._ticker is not None:
            await _within("the timer loop", self._ticker)
        if self.webhook is not None:
            await _within("the webhook server", self.webhook.stop())
        if self.application.updater is not None and self.application.updater.running:
            await _within("polling", self.application.updater.stop())
        if self.application.running:
            await _within("the updates being handled", self.application.stop())
        if self.adapter.started:
            await _within("the queued edits", self.adapter.deliverer.drain(), DRAIN_SECONDS)
            await _within("delivery", self.adapter.stop())
        # Does nothing if it never initialised.
        await _within("the Bot API client", self.application.shutdown())
        if self.liveness is not None:
            await _within("this process's liveness key", self.liveness.stop())

    async def _tick(self) -> None:
        """Ask the core for what is due, every few hundred milliseconds, until stopped;
        and bring the tables due for a look up to what the store says (all of them at
        first, until one look succeeds)."""
        interval = self.settings.timer_poll_interval
        while not self._stop_ticking.is_set():
            self.ticking = True
            try:
                self.adapter.submit(await self.core.tick(PLATFORM))
                await self.adapter.deliverer.release_pings()
                self._started = await self._catch_up(self._started)
            except Exception:
                log.exception("the timer loop failed; trying again")
            finally:
                self.ticking = False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop_ticking.wait(), interval)

    async def _catch_up(self, started: bool) -> bool:
        """Look at the tables due (every table, the first time); whether that was done."""
        if self.catch_up is None:
            return True
        try:
            if started:
                await self.catch_up.poll()
            else:
                behind = await self.catch_up.on_start()
                log.info("on start, %d tables were behind the store", behind)
        except STORE_DOWN as err:
            log.warning("cannot bring tables up to date while the store is down (%s)", err)
            return started
        return True


async def _within(what: str, step: Awaitable[None], seconds: float | None = None) -> None:
    """Wait for ``step`` for ``seconds`` at most (:data:`STOP_SECONDS` unless given); if
    it is not done by then, cancel it without waiting for it (it may ignore being
    cancelled) and say what was left behind. A step that fails is logged: the parts
    after it are stopped all the same."""
    limit = STOP_SECONDS if seconds is None else seconds
    task = asyncio.ensure_future(step)
    done, _ = await asyncio.wait({task}, timeout=limit)
    if not done:
        task.cancel()
        log.warning("stopping: %s not done after %g s, cancelled and left behind", what, limit)
        return
    if not task.cancelled() and task.exception() is not None:
        log.error("%s failed to stop", what, exc_info=task.exception())


def page_delivery(adapter: TelegramAdapter) -> Callable[[Sequence[Outbound]], Awaitable[None]]:
    """``adapter``'s delivery, for what a press on a web table's page says to the chats."""

    async def deliver(outbounds: Sequence[Outbound]) -> None:
        adapter.submit(outbounds)

    return deliver


async def run_telegram(
    settings: Settings,
    core: Core,
    *,
    redis: Any,
    stop_event: asyncio.Event,
    pages: PageDeliveries | None = None,
) -> None:
    """Serve Telegram until ``stop_event`` is set (the CLI sets it on SIGTERM/SIGINT);
    once started, its delivery carries what presses on the web table's pages say to
    Telegram's chats (``pages``)."""
    wiring = redis_wiring(redis)
    service = TelegramService(settings, core, wiring, UpdateLedger(redis))
    try:
        await service.start()
        if pages is not None:
            pages[PLATFORM] = page_delivery(service.adapter)
        await stop_event.wait()
    finally:
        await service.stop()  # also what a start cut short (a bad token) had opened

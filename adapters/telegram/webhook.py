"""The webhook server: Telegram posts updates here, and load balancers ask ``/healthz``.

Every post must carry the secret token given to ``setWebhook``; anything else is
answered 403 and never reaches the bot, and told in the log at most once a minute (with
how many there were), so a flood of them does not flood the log. A post with the secret
is read as an :class:`UpdateShape`: the parts of an update the bot reads, each of the
type Telegram gives it. Anything else (not JSON, nested beyond reason, an ``update_id``
that is no whole number) is answered 400 and changes nothing; only the parts read go on
to python-telegram-bot, so no other part of a post can trip it up.

Accepted updates go to the Application's update queue, so several workers behind one
URL each process what they receive, with all game state in Redis. Each update is
marked taken in Redis first: one that Telegram posts again (its first answer came too
late) or that two workers are given is handled once.
"""

from __future__ import annotations

import hmac
import logging
import time
from collections.abc import Callable
from typing import Annotated, Any
from urllib.parse import urlsplit

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError
from telegram import Update
from telegram.ext import Application

from bot.storage import keys
from bot.storage.connect import REDIS_ERRORS, unreachable

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
HEALTH_PATH = "/healthz"
TAKEN_FOR = 24 * 3600  # Telegram gives up posting an update again well within a day
WARN_EVERY = 60.0
"""Seconds between two log lines about posts with a wrong secret."""

# -- what the bot reads of an update ------------------------------------------------------

Id = Annotated[StrictInt, Field(ge=-(2**63), le=2**63 - 1)]  # Telegram's ids fit 64 bits
UpdateId = Annotated[StrictInt, Field(ge=0, le=2**63 - 1)]
When = Annotated[StrictInt, Field(ge=0, le=2**32)]  # Unix time
Count = Annotated[StrictInt, Field(ge=0, le=2**31)]


class _Shape(BaseModel):
    # Parts the bot does not read are dropped, whatever they hold.
    model_config = ConfigDict(extra="ignore", frozen=True)


class UserShape(_Shape):
    id: Id
    is_bot: StrictBool
    first_name: StrictStr
    last_name: StrictStr | None = None
    username: StrictStr | None = None
    language_code: StrictStr | None = None


class ChatShape(_Shape):
    id: Id
    type: StrictStr
    title: StrictStr | None = None
    username: StrictStr | None = None
    first_name: StrictStr | None = None
    last_name: StrictStr | None = None
    is_forum: StrictBool | None = None


class EntityShape(_Shape):
    type: StrictStr
    offset: Count
    length: Count


class MessageShape(_Shape):
    message_id: Id
    date: When  # 0 in a press: the message is too old to be shown to the bot
    chat: ChatShape
    from_user: UserShape | None = Field(None, alias="from")
    sender_chat: ChatShape | None = None
    text: StrictStr | None = None
    entities: tuple[EntityShape, ...] | None = None
    message_thread_id: Id | None = None
    is_topic_message: StrictBool | None = None
    migrate_to_chat_id: Id | None = None
    migrate_from_chat_id: Id | None = None


class PressShape(_Shape):
    id: StrictStr
    from_user: UserShape = Field(alias="from")
    chat_instance: StrictStr
    message: MessageShape | None = None
    inline_message_id: StrictStr | None = None
    data: StrictStr | None = None


class MemberShape(_Shape):
    """A chat member: the bot reads the status; the flags of an administrator or a
    restricted member (true/false, or a title) go along, as python-telegram-bot needs
    them to make one."""

    model_config = ConfigDict(extra="allow", frozen=True)
    __pydantic_extra__: dict[str, StrictBool | StrictStr] = Field(init=False)

    status: StrictStr
    user: UserShape
    until_date: When | None = None


class MembershipShape(_Shape):
    chat: ChatShape
    from_user: UserShape = Field(alias="from")
    date: When
    old_chat_member: MemberShape
    new_chat_member: MemberShape


class UpdateShape(_Shape):
    """The parts of an update the bot reads (a command, a press, a group's move to a
    supergroup, the bot's own membership); an update of another kind keeps its id only,
    and the bot lets it pass."""

    update_id: UpdateId
    message: MessageShape | None = None
    callback_query: PressShape | None = None
    my_chat_member: MembershipShape | None = None

    def telegram_json(self) -> dict[str, Any]:
        """The update as Telegram would send these parts of it."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)


class WrongSecretLog:
    """Tells the log of posts with a wrong secret at most once every ``every`` seconds,
    with how many came since the last line."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, every: float = WARN_EVERY):
        self._clock = clock
        self._every = every
        self._told_at: float | None = None
        self._untold = 0

    def refused(self, remote: str | None) -> None:
        self._untold += 1
        now = self._clock()
        if self._told_at is not None and now - self._told_at < self._every:
            return
        log.warning(
            "%d webhook post(s) with a wrong secret since the last such line, the latest from %s",
            self._untold,
            remote,
        )
        self._told_at, self._untold = now, 0


class UpdateLedger:
    """Which updates some worker has taken, in Redis (see
    :func:`bot.storage.keys.telegram_update`)."""

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
    application: Application,
    path: str,
    secret: str,
    ledger: UpdateLedger | None = None,
    wrong_secrets: WrongSecretLog | None = None,
) -> web.Application:
    told = wrong_secrets or WrongSecretLog()

    async def receive(request: web.Request) -> web.Response:
        given = request.headers.get(SECRET_HEADER, "")
        if not hmac.compare_digest(given.encode(), secret.encode()):
            told.refused(request.remote)
            return web.Response(status=403, text="forbidden")
        # What was wrong is logged by its kind and place alone: a post's contents are
        # people's messages, kept out of the log at every level.
        try:
            shape = UpdateShape.model_validate_json(await request.read())
        except ValidationError as exc:
            first = exc.errors(include_url=False, include_context=False, include_input=False)[0]
            where = ".".join(str(part) for part in first["loc"]) or "the body"
            log.debug("a webhook post was no update: %s at %s", first["type"], where)
            return web.Response(status=400, text="not an update")
        try:
            # A member record without the flags its status comes with is refused here.
            update = Update.de_json(shape.telegram_json(), application.bot)
        except (KeyError, TypeError, ValueError) as exc:
            log.debug("a webhook post was no update python-telegram-bot makes: %s", type(exc))
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

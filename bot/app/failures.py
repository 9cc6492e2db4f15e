"""Failures a person can fix, told in one line: a token the platform rejects, a
platform or a Redis that cannot be reached. Anything else is a bug and keeps its
traceback. The chat libraries are imported only if they are loaded already: a
failure can only be theirs if they ran."""

from __future__ import annotations

import sys

from bot.storage.connect import unreachable
from bot.storage.store import StoreUnavailable
from bot.views.i18n import Translator, translator


def plain_failure(exc: BaseException, store: str, _: Translator | None = None) -> str | None:
    """What went wrong and what to do, in one line (in English unless ``_`` says
    otherwise); ``None`` if it is not such a failure. ``store`` names where the games
    are kept."""
    _ = translator("en") if _ is None else _
    for explain in (_telegram, _discord):
        said = explain(_, exc)
        if said is not None:
            return said
    if isinstance(exc, StoreUnavailable) or unreachable(exc):
        return _(
            "Redis at %(store)s does not answer (%(error)s): start it, fix REDIS_URL, "
            "or unset REDIS_URL to use the embedded one",
            store=store,
            error=_short(exc),
        )
    return None


def _telegram(_: Translator, exc: BaseException) -> str | None:
    errors = sys.modules.get("telegram.error")
    if errors is None:
        return None
    if isinstance(exc, errors.InvalidToken):
        return _(
            "Telegram rejected TELEGRAM_TOKEN: copy the token @BotFather gave into .env again "
            "(%(example)s, no quotes)",
            example="TELEGRAM_TOKEN=123456789:AA…",
        )
    if isinstance(exc, errors.NetworkError):
        return _(
            "Telegram cannot be reached (%(error)s): check the network, a proxy, "
            "or TELEGRAM_BASE_URL",
            error=_short(exc),
        )
    return None


def _discord(_: Translator, exc: BaseException) -> str | None:
    discord = sys.modules.get("discord")
    if discord is None:
        return None
    if isinstance(exc, discord.LoginFailure):
        return _(
            "Discord rejected DISCORD_TOKEN: reset the bot's token in the developer portal "
            "and put it into .env again"
        )
    aiohttp = sys.modules.get("aiohttp")
    unreachable: tuple[type[BaseException], ...] = (discord.GatewayNotFound,)
    if aiohttp is not None:
        unreachable += (aiohttp.ClientConnectionError,)
    if isinstance(exc, unreachable):
        return _(
            "Discord cannot be reached (%(error)s): check the network or a proxy",
            error=_short(exc),
        )
    return None


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 120 else text[:119] + "…"

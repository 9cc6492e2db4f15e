"""The bot's settings, read from the environment and a ``.env`` file (``.env.example``
lists every one). Names are the field names in upper case, e.g. ``REDIS_URL``.

Each secret (:data:`FROM_FILES`: the tokens, the webhook secret, and ``REDIS_URL``, which
may hold a password) may instead be read from a file that ``<NAME>_FILE`` names, as
Docker and Kubernetes secrets are mounted; setting both is refused.

What is wrong with them is told in the operator's language: the validators raise
:class:`Problem`, a text of the catalogs with its values, and pydantic's own
refusals of a value (not a number, out of range, not one of a list) are told by
their kind in our own words; any other kind keeps pydantic's English."""

from __future__ import annotations

import ipaddress
import json
import logging
import os
import re
from pathlib import Path
from typing import Annotated, Any, Final, Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_core import ErrorDetails
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.views.i18n import N_, Translator, translator

_WEBHOOK_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")  # what Telegram accepts
WEBHOOK_SECRET_MIN = 16
"""Characters a webhook secret has at least: a short one can be guessed by trying."""
WEB_SECRET_MIN = 32
"""Characters the web table's secret has at least: it signs every pass to a table, and
one guessed forges them all."""
_LANGUAGE = re.compile(r"[a-z]{2,3}(_[A-Z]{2})?")


class Problem(ValueError):
    """A setting's value is wrong: a catalog text and the values it names."""

    def __init__(self, text: str, /, **params: object) -> None:
        super().__init__(text % params if params else text)
        self.text = text
        self.params = params

    def told(self, _: Translator) -> str:
        return _(self.text, **self.params)


# pydantic's refusals of a value by kind, and the bound its context names.
_REFUSALS: dict[str, tuple[str, str | None]] = {
    "int_parsing": (N_("must be a whole number, not %(value)s"), None),
    "float_parsing": (N_("must be a number, not %(value)s"), None),
    "bool_parsing": (N_("must be true or false, not %(value)s"), None),
    "greater_than_equal": (N_("must be %(limit)s or more, not %(value)s"), "ge"),
    "greater_than": (N_("must be more than %(limit)s, not %(value)s"), "gt"),
    "less_than_equal": (N_("must be %(limit)s or less, not %(value)s"), "le"),
    "literal_error": (N_("must be %(limit)s, not %(value)s"), "expected"),
}


class ConfigError(ValueError):
    """The settings are not usable; the message names each bad setting (in English;
    :meth:`told` in another language)."""

    def __init__(self, problems: list[ErrorDetails]) -> None:
        self.problems = problems
        super().__init__(self.told(translator("en")))

    def told(self, _: Translator) -> str:
        lines = []
        for problem in self.problems:
            names = ".".join(str(part) for part in problem["loc"]).upper()
            said = _told(_, problem)
            lines.append(f"{names}: {said}" if names else said)
        return _("invalid settings:") + "".join(f"\n  {line}" for line in lines)


def _told(_: Translator, problem: ErrorDetails) -> str:
    context = problem.get("ctx", {})
    error = context.get("error")
    if isinstance(error, Problem):
        return error.told(_)
    refusal = _REFUSALS.get(problem["type"])
    if refusal is None:
        return str(problem["msg"]).removeprefix("Value error, ")
    text, bound = refusal
    limit = context.get(bound, "") if bound is not None else ""
    return _(text, limit=limit, value=repr(problem["input"]))


def user_data_dir() -> Path:
    """Where the embedded Redis keeps its data unless ``DATA_DIR`` says: the user's own
    data folder (``$XDG_DATA_HOME/domino-bot``, else ``~/.local/share/domino-bot``),
    whatever folder the command is run from."""
    xdg = os.environ.get("XDG_DATA_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".local" / "share"
    return base / "domino-bot"


FROM_FILES: Final = (
    "redis_url",
    "telegram_token",
    "telegram_webhook_secret",
    "discord_token",
    "web_secret",
)
"""The settings that ``<NAME>_FILE`` may give instead, as the contents of a file."""


def _from_files(values: dict[str, Any]) -> dict[str, Any]:
    """``values`` with each secret that ``<NAME>_FILE`` names read from its file (the
    file's text without its surrounding blanks: a trailing newline is no part of it)."""
    given = dict(values)
    for name in FROM_FILES:
        path = given.get(f"{name}_file")
        if path in (None, ""):
            continue
        if given.get(name) not in (None, ""):
            raise Problem(
                N_("%(name)s and %(name)s_FILE are both set: set one of them"),
                name=name.upper(),
            )
        try:
            given[name] = Path(path).read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as exc:
            raise Problem(
                N_("%(name)s_FILE: cannot read %(path)s: %(error)s"),
                name=name.upper(),
                path=str(path),
                error=getattr(exc, "strerror", None) or exc,
            ) from None
    return given


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        env_ignore_empty=True,  # `TELEGRAM_TOKEN=` in .env means "not set"
        extra="ignore",
        frozen=True,
    )

    # storage
    redis_url: str | None = None
    redis_url_file: Path | None = None
    # REDIS_URL names any node of a Redis Cluster, whose client then finds the others.
    redis_cluster: bool = False
    data_dir: Path = Field(default_factory=user_data_dir)
    game_idle_days: float = Field(7, gt=0)
    # A player's results, ratings, name and language expire after this long without a match.
    player_retention_days: float = Field(365, gt=0)
    history_days: float = Field(180, gt=0)

    # play
    turn_timeout: int = Field(60, ge=0)
    timeouts_before_takeover: int = Field(3, ge=1)
    # A player the bot cannot write to privately (he blocked it, or never opened it) plays
    # his turns on this shorter timer, so the table does not wait a whole turn for him.
    unreachable_turn_timeout: int = Field(15, ge=1)
    computer_delay: float = Field(1.0, ge=0)
    # None: a finished deal waits for its Next deal button (the terminal table).
    next_deal_delay: float | None = Field(5.0, ge=0)
    ai_seconds: float = Field(0.05, gt=0)
    ai_worlds: int | None = Field(None, ge=1)
    ai_workers: int = Field(1, ge=0)
    picture_workers: int = Field(1, ge=0)
    timer_poll_interval: float = Field(0.5, gt=0)
    default_lang: str = "en"

    # logs
    log_format: Literal["text", "json"] = "text"
    log_level: str = "INFO"

    # Telegram
    telegram_token: SecretStr | None = None
    telegram_token_file: Path | None = None
    telegram_base_url: str | None = None
    telegram_webhook_url: str | None = None
    telegram_webhook_listen: str = "0.0.0.0"
    telegram_webhook_port: int = Field(8080, ge=1, le=65535)
    telegram_webhook_secret: SecretStr | None = None
    telegram_webhook_secret_file: Path | None = None

    # Discord
    discord_token: SecretStr | None = None
    discord_token_file: Path | None = None
    discord_guild_id: int | None = None
    discord_shard_ids: Annotated[list[int] | None, NoDecode] = None
    discord_shard_count: int | None = Field(None, ge=1)

    # the web table
    web_public_url: str | None = None
    web_app_short_name: str | None = None
    web_secret: SecretStr | None = None
    web_secret_file: Path | None = None
    web_listen: str = "127.0.0.1"
    web_port: int = Field(8090, ge=0, le=65535)
    web_pass_hours: float = Field(24, gt=0)

    @property
    def game_idle_ttl(self) -> int:
        """How long an untouched game is kept, in seconds."""
        return max(1, round(self.game_idle_days * 86400))

    @property
    def player_retention_ttl(self) -> int:
        """How long a player's stored data outlives his last match, in seconds."""
        return max(1, round(self.player_retention_days * 86400))

    @property
    def history_ttl(self) -> int:
        """How long a chat keeps a finished match for ``history``, in seconds."""
        return max(1, round(self.history_days * 86400))

    @model_validator(mode="before")
    @classmethod
    def _secret_files(cls, values: Any) -> Any:
        return _from_files(values) if isinstance(values, dict) else values

    @field_validator("redis_url")
    @classmethod
    def _redis_scheme(cls, url: str | None) -> str | None:
        if url is not None and not url.startswith(("redis://", "rediss://", "unix://")):
            raise Problem(N_("must start with redis://, rediss:// or unix://"))
        return url

    @field_validator("telegram_webhook_url", "telegram_base_url")
    @classmethod
    def _http_scheme(cls, url: str | None) -> str | None:
        if url is not None and not url.startswith(("https://", "http://")):
            raise Problem(N_("must start with https:// (or http:// for a local server)"))
        return url

    @field_validator("web_public_url")
    @classmethod
    def _web_scheme(cls, url: str | None) -> str | None:
        """HTTPS, since a pass travels in the address; plain HTTP only on this machine."""
        if url is None:
            return None
        parts = urlsplit(url)
        secure = parts.scheme == "https" or (parts.scheme == "http" and _loopback(parts.hostname))
        if not secure or not parts.hostname:
            raise Problem(N_("must start with https:// (http:// only for localhost or 127.0.0.1)"))
        return url

    @field_validator("web_secret")
    @classmethod
    def _web_secret_length(cls, secret: SecretStr | None) -> SecretStr | None:
        if secret is not None:
            _long_enough(
                secret.get_secret_value(),
                WEB_SECRET_MIN,
                N_(
                    "is %(length)d characters long: the web table's secret needs at least "
                    "%(least)d, or its links can be forged"
                ),
            )
        return secret

    @field_validator("telegram_webhook_secret")
    @classmethod
    def _webhook_secret_shape(cls, secret: SecretStr | None) -> SecretStr | None:
        if secret is None:
            return None
        given = secret.get_secret_value()
        if not _WEBHOOK_SECRET.fullmatch(given):
            raise Problem(N_("must be 1 to 256 characters: letters, digits, _ and -"))
        _long_enough(
            given,
            WEBHOOK_SECRET_MIN,
            N_(
                "is %(length)d characters long: a webhook secret needs at least "
                "%(least)d, or it can be guessed"
            ),
        )
        return secret

    @field_validator("default_lang")
    @classmethod
    def _language_code(cls, lang: str) -> str:
        if not _LANGUAGE.fullmatch(lang):
            raise Problem(
                N_("%(value)s is not a language code such as en or pt_BR"), value=repr(lang)
            )
        return lang

    @field_validator("log_level", mode="before")
    @classmethod
    def _known_level(cls, level: Any) -> str:
        name = str(level).upper()
        if name not in logging.getLevelNamesMapping():
            raise Problem(
                N_("%(value)s is not one of DEBUG, INFO, WARNING, ERROR, CRITICAL"),
                value=repr(level),
            )
        return name

    @field_validator("discord_shard_ids", mode="before")
    @classmethod
    def _shard_list(cls, value: Any) -> Any:
        """Accept ``0,1,2`` as well as a JSON list."""
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("["):
                return json.loads(text)
            return [part.strip() for part in text.split(",") if part.strip()]
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Settings:
        if self.redis_cluster and not self.redis_url:
            raise Problem(N_("REDIS_CLUSTER needs REDIS_URL: a node of the cluster"))
        if self.telegram_webhook_url and self.telegram_webhook_secret is None:
            raise Problem(
                N_(
                    "TELEGRAM_WEBHOOK_URL is set but TELEGRAM_WEBHOOK_SECRET is not: "
                    "a webhook needs a secret token, or anyone could post updates to it"
                )
            )
        if self.telegram_webhook_url and self.telegram_token is None:
            raise Problem(N_("TELEGRAM_WEBHOOK_URL is set but TELEGRAM_TOKEN is not"))
        if self.web_public_url and self.web_secret is None:
            raise Problem(
                N_(
                    "WEB_PUBLIC_URL is set but WEB_SECRET is not: the links to the web table "
                    "are signed with it"
                )
            )
        if self.discord_shard_ids is not None:
            if self.discord_shard_count is None:
                raise Problem(N_("DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT"))
            wrong = [i for i in self.discord_shard_ids if not 0 <= i < self.discord_shard_count]
            if wrong or not self.discord_shard_ids:
                raise Problem(
                    N_("DISCORD_SHARD_IDS must be numbers from 0 to %(last)d"),
                    last=self.discord_shard_count - 1,
                )
        return self


def _long_enough(secret: str, least: int, too_short: str) -> None:
    """Refuse a secret of fewer than ``least`` characters with ``too_short``, a catalog
    text naming its ``length`` and the ``least`` it needs."""
    if len(secret) < least:
        raise Problem(too_short, length=len(secret), least=least)


def _loopback(host: str | None) -> bool:
    """``host`` names this machine (``localhost``, ``127.0.0.1``, ``[::1]``)."""
    if host is None:
        return False
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def load_settings(env_file: Path | str | None = ".env", **overrides: Any) -> Settings:
    """The settings from the environment, ``env_file`` (if it exists) and ``overrides``;
    raises :class:`ConfigError` naming every bad setting."""
    try:
        return Settings(_env_file=env_file, **overrides)
    except ValidationError as exc:
        raise ConfigError(exc.errors()) from None

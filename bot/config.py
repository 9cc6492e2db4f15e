"""The bot's settings, read from the environment and a ``.env`` file (``.env.example``
lists every one). Names are the field names in upper case, e.g. ``REDIS_URL``."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

_WEBHOOK_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")  # what Telegram accepts
_LANGUAGE = re.compile(r"[a-z]{2,3}(_[A-Z]{2})?")


class ConfigError(ValueError):
    """The settings are not usable; the message names each bad setting."""


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
    # REDIS_URL names any node of a Redis Cluster, whose client then finds the others.
    redis_cluster: bool = False
    data_dir: Path = Path("data")
    game_idle_days: float = Field(7, gt=0)

    # play
    turn_timeout: int = Field(60, ge=0)
    timeouts_before_takeover: int = Field(3, ge=1)
    computer_delay: float = Field(1.0, ge=0)
    # None: a finished deal waits for its Next deal button (the terminal table).
    next_deal_delay: float | None = Field(5.0, ge=0)
    ai_seconds: float = Field(0.05, gt=0)
    ai_worlds: int | None = Field(None, ge=1)
    ai_workers: int = Field(1, ge=0)
    timer_poll_interval: float = Field(0.5, gt=0)
    default_lang: str = "en"

    # logs
    log_format: Literal["text", "json"] = "text"
    log_level: str = "INFO"

    # Telegram
    telegram_token: SecretStr | None = None
    telegram_base_url: str | None = None
    telegram_webhook_url: str | None = None
    telegram_webhook_listen: str = "0.0.0.0"
    telegram_webhook_port: int = Field(8080, ge=1, le=65535)
    telegram_webhook_secret: SecretStr | None = None

    # Discord
    discord_token: SecretStr | None = None
    discord_guild_id: int | None = None
    discord_shard_ids: Annotated[list[int] | None, NoDecode] = None
    discord_shard_count: int | None = Field(None, ge=1)

    @property
    def game_idle_ttl(self) -> int:
        """How long an untouched game is kept, in seconds."""
        return max(1, round(self.game_idle_days * 86400))

    @field_validator("redis_url")
    @classmethod
    def _redis_scheme(cls, url: str | None) -> str | None:
        if url is not None and not url.startswith(("redis://", "rediss://", "unix://")):
            raise ValueError("must start with redis://, rediss:// or unix://")
        return url

    @field_validator("telegram_webhook_url", "telegram_base_url")
    @classmethod
    def _http_scheme(cls, url: str | None) -> str | None:
        if url is not None and not url.startswith(("https://", "http://")):
            raise ValueError("must start with https:// (or http:// for a local server)")
        return url

    @field_validator("telegram_webhook_secret")
    @classmethod
    def _webhook_secret_shape(cls, secret: SecretStr | None) -> SecretStr | None:
        if secret is not None and not _WEBHOOK_SECRET.fullmatch(secret.get_secret_value()):
            raise ValueError("must be 1 to 256 characters: letters, digits, _ and -")
        return secret

    @field_validator("default_lang")
    @classmethod
    def _language_code(cls, lang: str) -> str:
        if not _LANGUAGE.fullmatch(lang):
            raise ValueError(f"{lang!r} is not a language code such as en or pt_BR")
        return lang

    @field_validator("log_level", mode="before")
    @classmethod
    def _known_level(cls, level: Any) -> str:
        name = str(level).upper()
        if name not in logging.getLevelNamesMapping():
            raise ValueError(f"{level!r} is not one of DEBUG, INFO, WARNING, ERROR, CRITICAL")
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
            raise ValueError("REDIS_CLUSTER needs REDIS_URL: a node of the cluster")
        if self.telegram_webhook_url and self.telegram_webhook_secret is None:
            raise ValueError(
                "TELEGRAM_WEBHOOK_URL is set but TELEGRAM_WEBHOOK_SECRET is not: "
                "a webhook needs a secret token, or anyone could post updates to it"
            )
        if self.telegram_webhook_url and self.telegram_token is None:
            raise ValueError("TELEGRAM_WEBHOOK_URL is set but TELEGRAM_TOKEN is not")
        if self.discord_shard_ids is not None:
            if self.discord_shard_count is None:
                raise ValueError("DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT")
            wrong = [i for i in self.discord_shard_ids if not 0 <= i < self.discord_shard_count]
            if wrong or not self.discord_shard_ids:
                raise ValueError(
                    f"DISCORD_SHARD_IDS must be numbers from 0 to {self.discord_shard_count - 1}"
                )
        return self


def load_settings(env_file: Path | str | None = ".env", **overrides: Any) -> Settings:
    """The settings from the environment, ``env_file`` (if it exists) and ``overrides``;
    raises :class:`ConfigError` naming every bad setting."""
    try:
        return Settings(_env_file=env_file, **overrides)
    except ValidationError as exc:
        raise ConfigError(_describe(exc)) from None


def _describe(error: ValidationError) -> str:
    lines = []
    for problem in error.errors():
        message = str(problem["msg"]).removeprefix("Value error, ")
        names = ".".join(str(part) for part in problem["loc"])
        lines.append(f"{names.upper()}: {message}" if names else message)
    return "invalid settings:\n" + "\n".join(f"  {line}" for line in lines)

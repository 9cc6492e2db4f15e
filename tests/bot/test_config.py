"""Settings: from the environment and .env, with defaults, and clear errors for bad ones."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.app.config import ConfigError, Settings, load_settings

EXAMPLE = Path(__file__).resolve().parents[2] / ".env.example"


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)


def test_every_setting_has_a_default_for_running_with_nothing_configured(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    settings = load_settings(None)
    assert settings.redis_url is None
    assert settings.data_dir == Path.home() / ".local" / "share" / "domino-bot"
    assert (settings.game_idle_days, settings.game_idle_ttl) == (7, 7 * 86400)
    assert (settings.turn_timeout, settings.computer_delay) == (60, 1.0)
    assert (settings.default_lang, settings.log_format, settings.log_level) == (
        "en",
        "text",
        "INFO",
    )
    assert (settings.telegram_webhook_listen, settings.telegram_webhook_port) == ("0.0.0.0", 8080)


def test_the_embedded_redis_keeps_its_data_in_the_users_data_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert load_settings(None).data_dir == tmp_path / "domino-bot"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/is/ignored")
    assert load_settings(None).data_dir == Path.home() / ".local" / "share" / "domino-bot"


def test_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REDIS_URL", "redis://db:6379/1")
    monkeypatch.setenv("TURN_TIMEOUT", "0")
    monkeypatch.setenv("TELEGRAM_TOKEN", "123:abc")
    settings = load_settings(None)
    assert settings.redis_url == "redis://db:6379/1"
    assert settings.turn_timeout == 0
    assert settings.telegram_token is not None
    assert settings.telegram_token.get_secret_value() == "123:abc"


def test_settings_come_from_an_env_file_and_the_environment_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DATA_DIR=/var/lib/domino\nLOG_LEVEL=debug\nCOMPUTER_DELAY=2.5\n")
    monkeypatch.setenv("COMPUTER_DELAY", "0.5")
    settings = load_settings(env_file)
    assert (settings.data_dir, settings.log_level) == (Path("/var/lib/domino"), "DEBUG")
    assert settings.computer_delay == 0.5


def test_an_empty_value_counts_as_not_set(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("REDIS_URL=\nTELEGRAM_TOKEN=\nDISCORD_SHARD_COUNT=\n")
    settings = load_settings(env_file)
    assert (settings.redis_url, settings.telegram_token, settings.discord_shard_count) == (
        None,
        None,
        None,
    )


def test_secrets_do_not_show_when_the_settings_are_printed() -> None:
    settings = load_settings(None, telegram_token="123:abc", discord_token="xyz")
    assert "123:abc" not in repr(settings) and "xyz" not in str(settings)


def test_the_example_file_lists_every_setting_and_loads_as_it_is() -> None:
    # Every setting stands commented out at its default, so a copy changes nothing.
    listed = set(re.findall(r"^# ([A-Z_]+)=", EXAMPLE.read_text(), flags=re.MULTILINE))
    assert listed == {name.upper() for name in Settings.model_fields}
    assert load_settings(EXAMPLE) == load_settings(None)


def test_every_setting_in_the_example_file_has_a_comment_above_it() -> None:
    lines = EXAMPLE.read_text().splitlines()
    for number, line in enumerate(lines):
        if re.match(r"^# [A-Z_]+=", line):
            above = next(
                text for text in reversed(lines[:number]) if not re.match(r"^# [A-Z_]+=", text)
            )
            assert above.startswith("# "), line


def test_a_webhook_without_a_secret_is_refused_with_a_clear_message() -> None:
    with pytest.raises(ConfigError, match="TELEGRAM_WEBHOOK_SECRET is not"):
        load_settings(None, telegram_token="1:a", telegram_webhook_url="https://bot.example/tg")


def test_a_webhook_with_its_secret_and_token_is_accepted() -> None:
    settings = load_settings(
        None,
        telegram_token="1:a",
        telegram_webhook_url="https://bot.example/tg",
        telegram_webhook_secret="s3cret_-0123456789",
    )
    assert settings.telegram_webhook_url == "https://bot.example/tg"


def test_a_webhook_without_a_token_is_refused() -> None:
    with pytest.raises(ConfigError, match="TELEGRAM_TOKEN is not"):
        load_settings(
            None,
            telegram_webhook_url="https://bot.example/tg",
            telegram_webhook_secret="s3cret_-0123456789",
        )


@pytest.mark.parametrize("secret", ["Q", "Fifteen-chars-Q"])
def test_a_webhook_secret_shorter_than_16_characters_is_refused(secret: str) -> None:
    with pytest.raises(ConfigError) as refused:
        load_settings(
            None,
            telegram_token="1:a",
            telegram_webhook_url="https://bot.example/tg",
            telegram_webhook_secret=secret,
        )
    said = str(refused.value)
    assert f"TELEGRAM_WEBHOOK_SECRET: is {len(secret)} characters long" in said
    assert "at least 16" in said and secret not in said


def test_a_webhook_secret_of_16_characters_is_accepted() -> None:
    settings = load_settings(None, telegram_webhook_secret="sixteen-chars-xy")
    assert settings.telegram_webhook_secret is not None


def test_a_webhook_secret_with_characters_telegram_refuses_is_refused() -> None:
    with pytest.raises(ConfigError, match="TELEGRAM_WEBHOOK_SECRET: must be 1 to 256"):
        load_settings(None, telegram_webhook_secret="not allowed!")


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("redis_url", "localhost:6379", "REDIS_URL: must start with redis://"),
        ("telegram_webhook_url", "bot.example", "TELEGRAM_WEBHOOK_URL: must start with https://"),
        ("turn_timeout", "-1", "TURN_TIMEOUT: "),
        ("game_idle_days", "0", "GAME_IDLE_DAYS: "),
        ("telegram_webhook_port", "70000", "TELEGRAM_WEBHOOK_PORT: "),
        ("log_level", "loud", "LOG_LEVEL: 'loud' is not one of"),
        ("log_format", "xml", "LOG_FORMAT: "),
        ("default_lang", "English", "DEFAULT_LANG: 'English' is not a language code"),
    ],
)
def test_a_bad_value_is_refused_naming_the_setting(name: str, value: str, message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        load_settings(None, **{name: value})


def test_every_bad_setting_is_named_at_once() -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(None, turn_timeout="-1", log_level="loud")
    assert "TURN_TIMEOUT" in str(caught.value) and "LOG_LEVEL" in str(caught.value)


def test_shard_ids_are_read_as_a_comma_separated_list_or_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DISCORD_SHARD_COUNT", "4")
    monkeypatch.setenv("DISCORD_SHARD_IDS", "0, 2")
    assert load_settings(None).discord_shard_ids == [0, 2]
    monkeypatch.setenv("DISCORD_SHARD_IDS", "[1,3]")
    assert load_settings(None).discord_shard_ids == [1, 3]


def test_shard_ids_need_the_shard_count() -> None:
    with pytest.raises(ConfigError, match="DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT"):
        load_settings(None, discord_shard_ids="0,1")


def test_shard_ids_must_lie_below_the_shard_count() -> None:
    with pytest.raises(ConfigError, match="numbers from 0 to 1"):
        load_settings(None, discord_shard_ids="0,2", discord_shard_count=2)


# -- secrets from files --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("redis_url", "redis://domino:pa55word@redis:6379/0"),
        ("telegram_token", "123456:ABC-def"),
        ("telegram_webhook_secret", "a-long-random-secret-0123456789"),
        ("discord_token", "discord.token.value"),
    ],
)
def test_a_secret_is_read_from_the_file_its_file_setting_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    secret = tmp_path / name
    secret.write_text(value + "\n")  # as editors and `echo` leave it
    monkeypatch.setenv(f"{name.upper()}_FILE", str(secret))
    read = getattr(load_settings(None), name)
    assert (read if isinstance(read, str) else read.get_secret_value()) == value


def test_a_secret_given_both_in_full_and_as_a_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "token").write_text("123456:from-the-file")
    monkeypatch.setenv("TELEGRAM_TOKEN_FILE", str(tmp_path / "token"))
    monkeypatch.setenv("TELEGRAM_TOKEN", "123456:from-the-environment")
    with pytest.raises(ConfigError, match="TELEGRAM_TOKEN and TELEGRAM_TOKEN_FILE are both set"):
        load_settings(None)


def test_a_secret_file_that_cannot_be_read_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    with pytest.raises(ConfigError) as refused:
        load_settings(None, discord_token_file=missing)
    assert f"DISCORD_TOKEN_FILE: cannot read {missing}: No such file" in str(refused.value)


def test_a_secret_read_from_a_file_is_checked_as_the_setting_itself(tmp_path: Path) -> None:
    (tmp_path / "secret").write_text("short")
    with pytest.raises(ConfigError, match="TELEGRAM_WEBHOOK_SECRET: is 5 characters long"):
        load_settings(None, telegram_webhook_secret_file=tmp_path / "secret")


WEB_SECRET = "w" * 32


@pytest.mark.parametrize(
    "url",
    ["https://domino.example", "http://localhost:8090", "http://127.0.0.1:8090", "http://[::1]/"],
)
def test_the_web_tables_address_is_https_or_plain_http_on_this_machine(url: str) -> None:
    settings = load_settings(None, web_public_url=url, web_secret=WEB_SECRET)
    assert settings.web_public_url == url


@pytest.mark.parametrize(
    "url", ["http://domino.example", "http://192.168.1.5", "domino.example", "https://"]
)
def test_the_web_tables_address_over_plain_http_elsewhere_is_refused(url: str) -> None:
    with pytest.raises(ConfigError, match="WEB_PUBLIC_URL: must start with https://"):
        load_settings(None, web_public_url=url, web_secret=WEB_SECRET)


def test_the_web_tables_address_without_its_secret_is_refused() -> None:
    with pytest.raises(ConfigError, match="WEB_PUBLIC_URL is set but WEB_SECRET is not"):
        load_settings(None, web_public_url="https://domino.example")


def test_a_web_secret_shorter_than_32_characters_is_refused() -> None:
    short = "w" * 31
    with pytest.raises(ConfigError) as refused:
        load_settings(None, web_public_url="https://domino.example", web_secret=short)
    said = str(refused.value)
    assert "WEB_SECRET: is 31 characters long" in said
    assert "at least 32" in said and short not in said


def test_a_web_secret_read_from_a_file_is_checked_as_the_setting_itself(tmp_path: Path) -> None:
    (tmp_path / "secret").write_text("too-short\n")
    with pytest.raises(ConfigError, match="WEB_SECRET: is 9 characters long"):
        load_settings(None, web_secret_file=tmp_path / "secret")


def test_web_settings_problems_are_told_in_the_operators_language() -> None:
    from bot.views.i18n import translator

    with pytest.raises(ConfigError) as refused:
        load_settings(None, web_public_url="http://domino.example", web_secret=WEB_SECRET)
    english = "must start with https:// (http:// only for localhost or 127.0.0.1)"
    assert english in str(refused.value)
    russian = refused.value.told(translator("ru"))
    assert "WEB_PUBLIC_URL: " in russian and english not in russian

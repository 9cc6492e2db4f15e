"""``domino-bot``'s help and its start-up errors speak the operator's language: that
of ``--lang``, else the environment's, argparse's own words included."""

from __future__ import annotations

import argparse
import gettext
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file

import bot.__main__ as cli
from bot.app.cli import ARGPARSE_WORDS
from tests.test_cli import closed_port, run, workdir  # noqa: F401  (workdir: a fixture)

pytestmark = pytest.mark.usefixtures("workdir")


@pytest.fixture(autouse=True)
def locale_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def helped(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as stopped:
        cli.main(argv)
    assert stopped.value.code == 0
    return capsys.readouterr().out


def test_help_speaks_russian_under_a_russian_locale(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    said = helped(["--help"], capsys)
    assert said.startswith("использование: domino-bot [-h]")
    assert "позиционные аргументы:" in said and "показать эту справку и выйти" in said
    assert "Столы для домино в группах Telegram" in said
    assert "usage" not in said and "show this help" not in said


def test_a_subcommands_help_speaks_polish_under_a_polish_locale(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANG", "pl_PL.UTF-8")
    said = helped(["play", "--help"], capsys)
    # The usage is whole: argparse cuts the English prefix's length off it otherwise.
    assert said.startswith("użycie: domino-bot play [-h]")
    assert "argumenty pozycyjne:" in said and "opcje:" in said
    assert "pokaż tę pomoc i zakończ" in said and "osoby przy tej klawiaturze" in said
    said = helped(["replay", "--help"], capsys)
    assert "plik powtórki (JSON)" in said


def test_lang_on_the_command_line_goes_before_the_environment(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANG", "pl_PL.UTF-8")
    assert "показати цю довідку й вийти" in helped(["--lang", "uk", "--help"], capsys)
    assert "show this help message and exit" in helped(["play", "--help", "--lang=en"], capsys)


def test_a_bad_setting_is_told_in_russian(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    monkeypatch.setenv("REDIS_URL", "localhost:6379")
    monkeypatch.setenv("TURN_TIMEOUT", "soon")
    assert run(["play"], monkeypatch) == 2
    assert capsys.readouterr().err.splitlines() == [
        "domino-bot: неверные настройки:",
        "  REDIS_URL: должен начинаться с redis://, rediss:// или unix://",
        "  TURN_TIMEOUT: должно быть целым числом, а не 'soon'",
    ]


def test_a_missing_token_and_a_bad_argument_are_told_in_polish(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANG", "pl_PL.UTF-8")
    assert run(["discord"], monkeypatch) == 2
    said = capsys.readouterr().err
    assert said == "domino-bot: ustaw DISCORD_TOKEN, aby uruchomić discord (zob. .env.example)\n"
    with pytest.raises(SystemExit) as stopped:
        run(["play", "--players", "x"], monkeypatch)
    assert stopped.value.code == 2
    error = capsys.readouterr().err.splitlines()[-1]
    assert error == "domino-bot play: błąd: argument --players: nieprawidłowa wartość int: 'x'"


def test_argparse_speaks_its_own_language_again_once_parsed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    helped(["--help"], capsys)
    assert argparse._ is gettext.gettext  # type: ignore[attr-defined]
    assert "usage: x" in argparse.ArgumentParser(prog="x").format_usage()


def test_argparse_still_says_every_word_the_catalogs_translate() -> None:
    said = {
        message
        for _line, message, _comments, _context in extract_from_file(
            "python", str(Path(argparse.__file__)), keywords={"_": None}
        )
    }
    assert set(ARGPARSE_WORDS) <= said


def test_the_first_line_and_the_health_check_speak_the_language_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async def no_bots(settings: object, platforms: object, _: object) -> int:
        return 0

    monkeypatch.setattr(cli, "run_bots", no_bots)
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    monkeypatch.setenv("TELEGRAM_TOKEN", "1:x")
    assert run(["telegram"], monkeypatch) == 0
    first = capsys.readouterr().err.splitlines()[0]
    assert first.startswith("domino-bot: Telegram на встроенном Redis в ")
    monkeypatch.setenv("LANG", "pl_PL.UTF-8")
    monkeypatch.setenv("REDIS_URL", f"redis://127.0.0.1:{closed_port()}/0")
    assert run(["health"], monkeypatch) == 1
    assert "nie odpowiada" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [["--lang", "ru", "play", "--seed", "4"], ["play", "--seed", "4", "--lang", "ru"]],
    ids=["before", "after"],
)
def test_lang_before_or_after_play_speaks_at_the_table(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(argv, monkeypatch, "quit\n") == 0
    out, err = capsys.readouterr()
    assert "Тяга" in err.splitlines()[0]
    assert "Ваши кости" in out or "Ваш ход" in out, out


@pytest.mark.parametrize("argv", [["--lang", "de", "play"], ["play", "--lang=xx"]])
def test_an_unknown_language_is_refused_with_the_known_ones(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        run(argv, monkeypatch, "quit\n")
    assert stopped.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines()[-1].endswith("choose one of en, ca, pl, ru, uk"), err

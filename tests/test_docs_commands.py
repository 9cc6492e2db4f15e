"""docs/commands.md names every command of every platform: the Telegram commands the
bot registers, the Discord subcommands of /domino, the domino-bot subcommands and the
options of its play, the words the terminal's prompt takes and the table settings."""

from __future__ import annotations

import re
from pathlib import Path

from adapters.console.words import HELP
from adapters.discord.commands import subcommands
from adapters.telegram.conversion import TELEGRAM_NAMES
from bot.app.cli import build_parser, play_parser
from bot.table.settings import TABLE_KEYS
from bot.views.catalog import COMMAND_NAMES
from bot.views.i18n import translator

PAGE = (Path(__file__).resolve().parent.parent / "docs" / "commands.md").read_text(encoding="utf-8")


def test_every_telegram_command_is_on_the_page() -> None:
    names = [TELEGRAM_NAMES[name] for name in COMMAND_NAMES]
    assert len(names) == len(COMMAND_NAMES) > 20
    assert [name for name in names if f"| `/{name}" not in PAGE] == []


def test_every_discord_subcommand_is_on_the_page() -> None:
    names = [sub.name for sub in subcommands()]
    assert sorted(names) == sorted(COMMAND_NAMES)
    assert [name for name in names if f"| `/domino {name}" not in PAGE] == []


def test_every_domino_bot_command_is_on_the_page() -> None:
    listed = build_parser(translator("en")).format_help().partition("COMMAND\n")[2]
    names = re.findall(r"^    ([a-z]+)\b", listed, re.MULTILINE)
    assert "serve" in names and "health" in names
    assert [name for name in names if f"`domino-bot {name}" not in PAGE] == []


def test_every_option_of_play_is_on_the_page() -> None:
    usage = play_parser(translator("en")).format_usage()
    options = [option for option in re.findall(r"\[(--[a-z]+)", usage) if option != "--help"]
    assert "--humans" in options and "--plain" in options
    assert [option for option in options if f"`{option}" not in PAGE] == []


def test_every_word_of_the_terminals_prompt_is_on_the_page() -> None:
    words = re.findall(r"^  ([a-z]+) ", HELP, re.MULTILINE)
    assert "hint" in words and "quit" in words
    assert [word for word in words if f"| `{word}` |" not in PAGE] == []


def test_every_table_setting_is_on_the_page() -> None:
    assert [key for key in TABLE_KEYS if f"| `{key}` |" not in PAGE] == []

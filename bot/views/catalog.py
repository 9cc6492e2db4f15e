"""What adapters register with their platform: commands with descriptions, and
the games with their options (for slash-command choices and help pages)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bot.ai import levels
from bot.views.i18n import N_, translator
from bot.views.texts import level_name, option_help, option_value_words, variant_title
from engine import all_variants, get_variant
from engine.variant import Variant


@dataclass(frozen=True, slots=True)
class CommandInfo:
    name: str
    usage: str  # the arguments, as typed after the command ("VARIANT [key=value …]"), translated
    description: str


@dataclass(frozen=True, slots=True)
class OptionInfo:
    name: str
    description: str
    default: str  # for the smallest table; some defaults depend on the number of players
    choices: tuple[str, ...]  # named choices; empty for numbers and free text
    choice_words: tuple[str, ...]  # the same choices as people read them, in this order
    low: int | None  # for numbers: the allowed range
    high: int | None


@dataclass(frozen=True, slots=True)
class VariantInfo:
    name: str
    title: str
    aliases: tuple[str, ...]
    min_players: int
    max_players: int
    options: tuple[OptionInfo, ...]


@dataclass(frozen=True, slots=True)
class LevelInfo:
    name: str
    title: str


# name, usage, description — in the order help lists them
_COMMANDS: Final = (
    ("new", N_("VARIANT [key=value …]"), N_("open a table for a game")),
    ("join", "", N_("take a seat, or take your seat back")),
    ("leave", "", N_("leave the table (during a game a computer plays for you)")),
    ("add_computer", N_("[LEVEL]"), N_("seat a computer player")),
    ("remove_computer", "", N_("remove a computer player")),
    ("start", "", N_("start the game (the host)")),
    ("cancel", "", N_("close the table before the start (the host)")),
    ("stop", "", N_("stop the game (the host or an admin)")),
    ("settings", N_("[key=value …]"), N_("game options, turn timer, auto-start, pings")),
    ("rules", N_("[VARIANT]"), N_("how a game is played")),
    ("scores", N_("[VARIANT]"), N_("this chat's scoreboard")),
    ("table", "", N_("the table as a picture")),
    ("watch", "", N_("a link to watch this chat's table in the browser")),
    ("hand_picture", N_("on|off"), N_("your hand with a picture of your tiles")),
    ("top", N_("[global] [VARIANT]"), N_("the best-rated players, here or everywhere")),
    ("stats", "", N_("your results in every chat")),
    ("lang", N_("[LANGUAGE]"), N_("choose your language")),
    ("export", "", N_("the last game as a replay file")),
    ("mydata", "", N_("what the bot keeps about you, sent to you privately")),
    ("forget", "", N_("delete everything the bot keeps about you")),
    ("history", N_("[NUMBER]"), N_("this chat's finished matches, each with its replay")),
    ("review", "", N_("how your play in your last match here could have been better")),
    ("help", "", N_("this list")),
)

COMMAND_NAMES: Final = tuple(name for name, _usage, _text in _COMMANDS)

#: What ``table`` does where it brings the live table (see Sessions.tables_on_demand).
LIVE_TABLE: Final = N_("the live table with its buttons, posted again below")


def commands(lang: str = "en", *, live_table: bool = False) -> tuple[CommandInfo, ...]:
    """The commands, described in ``lang``; ``live_table``: ``table`` brings the live
    table rather than its picture."""
    _ = translator(lang)
    described = {"table": LIVE_TABLE} if live_table else {}
    return tuple(
        CommandInfo(name, _(usage) if usage else "", _(described.get(name, text)))
        for name, usage, text in _COMMANDS
    )


def option_infos(variant: Variant, lang: str = "en") -> tuple[OptionInfo, ...]:
    _ = translator(lang)
    return tuple(
        OptionInfo(
            name=spec.name,
            description=option_help(_, spec.name),
            default=str(spec.default_for(variant.min_players)),
            choices=spec.choices,
            choice_words=tuple(option_value_words(_, choice) for choice in spec.choices),
            low=spec.low,
            high=spec.high,
        )
        for spec in variant.option_specs
    )


def variant_info(variant: Variant, lang: str = "en") -> VariantInfo:
    return VariantInfo(
        name=variant.name,
        title=variant_title(translator(lang), variant.name),
        aliases=variant.aliases,
        min_players=variant.min_players,
        max_players=variant.max_players,
        options=option_infos(variant, lang),
    )


def variants(lang: str = "en") -> tuple[VariantInfo, ...]:
    """Every game the engine knows, in its registry order."""
    return tuple(variant_info(v, lang) for v in all_variants())


def variant(name: str, lang: str = "en") -> VariantInfo:
    """One game by name or alias; raises :class:`engine.UnknownVariant`."""
    return variant_info(get_variant(name), lang)


def computer_levels(lang: str = "en") -> tuple[LevelInfo, ...]:
    _ = translator(lang)
    return tuple(LevelInfo(level, level_name(_, level)) for level in levels())

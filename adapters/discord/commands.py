"""The ``/domino`` command group, built from the core's catalog.

Each subcommand's typed options turn back into the words a typed command would
carry (``/domino new variant:kozel target:51`` is ``new kozel target=51``), so the
core sees the same command on every platform. ``new`` offers every game option as
a typed option and also takes a free ``options`` string of ``key=value`` words.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands

from adapters.discord.autocomplete import new_options
from bot.views import catalog
from bot.views.i18n import N_, available_languages, translator

GROUP_NAME = "domino"
DESCRIPTION_LIMIT = 100
CHOICE_LIMIT = 25

Autocomplete = Callable[
    [discord.Interaction[Any], str], Coroutine[Any, Any, list[app_commands.Choice[str]]]
]
CommandHandler = Callable[[discord.Interaction[Any], str, tuple[str, ...]], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Param:
    """One typed option of a subcommand."""

    name: str
    description: str
    choices: tuple[tuple[str, str], ...] = ()  # (shown name, value)
    required: bool = False
    as_word: bool = False  # passed as a bare word (a variant), not as key=value
    low: int | None = None  # a whole number from low to high, when both are set
    high: int | None = None
    flag: str | None = None  # a yes/no option that, when yes, adds this word

    @property
    def annotation(self) -> Any:
        if self.flag is not None:
            return bool
        if self.low is not None and self.high is not None:
            return app_commands.Range[int, self.low, self.high]
        return str


@dataclass(frozen=True, slots=True)
class Subcommand:
    name: str
    description: str
    params: tuple[Param, ...] = field(default=())
    free_words: str | None = None  # the name of a free "key=value …" option
    free_help: str = N_("more options as key=value words")
    suggest: Autocomplete | None = None  # suggestions while the free option is typed


def build_group(handler: CommandHandler, lang: str = "en") -> app_commands.Group:
    """The ``/domino`` group; every subcommand calls ``handler(interaction, name, args)``."""
    _ = translator(lang)
    group = app_commands.Group(
        name=GROUP_NAME,
        description=_("Domino tables for this channel"),
        guild_only=True,
    )
    for sub in subcommands(lang):
        group.add_command(_make_command(sub, handler))
    return group


def subcommands(lang: str = "en") -> list[Subcommand]:
    """What the group offers, from the catalog, with each command's options."""
    _ = translator(lang)
    variant_choices = tuple((v.title, v.name) for v in catalog.variants(lang))
    extra: dict[str, tuple[tuple[Param, ...], str | None]] = {
        "new": (
            (Param("variant", _("the game"), choices=variant_choices, required=True, as_word=True),)
            + game_options(lang),
            "options",
        ),
        "add_computer": (
            (
                Param(
                    "level",
                    _("how well the computer plays"),
                    choices=tuple((lv.title, lv.name) for lv in catalog.computer_levels(lang)),
                    as_word=True,
                ),
            ),
            None,
        ),
        "settings": ((), "change"),
        "hand_picture": (
            (Param("state", _("on or off"), choices=(("on", "on"), ("off", "off")), as_word=True),),
            None,
        ),
        "rules": ((Param("variant", _("the game"), choices=variant_choices, as_word=True),), None),
        "scores": ((Param("variant", _("the game"), choices=variant_choices, as_word=True),), None),
        "top": (
            (
                Param("everywhere", _("across every chat"), flag="global"),
                Param("variant", _("the game"), choices=variant_choices, as_word=True),
            ),
            None,
        ),
        "lang": (
            (
                Param("whole_chat", _("set the chat's language (admins)"), flag="chat"),
                Param(
                    "language",
                    _("a language code"),
                    choices=tuple((code, code) for code in available_languages()),
                    as_word=True,
                ),
            ),
            None,
        ),
    }
    found = []
    for info in catalog.commands(lang, live_table=True):  # /domino table: the live table
        params, free = extra.get(info.name, ((), None))
        suggest = new_options if info.name == "new" else None
        sub = Subcommand(info.name, _short(info.description), params, free, suggest=suggest)
        if info.name == "settings":
            changes = N_("settings to change: key=value")
            sub = Subcommand(sub.name, sub.description, (), free, changes)
        found.append(sub)
    return found


def game_options(lang: str = "en") -> tuple[Param, ...]:
    """Every game's options, merged by name: one typed option for each name."""
    merged: dict[str, Param] = {}
    for variant in catalog.variants(lang):
        for option in variant.options:
            merged[option.name] = _merge(merged.get(option.name), option)
    return tuple(merged.values())


def _merge(known: Param | None, option: catalog.OptionInfo) -> Param:
    description = known.description if known else _short(option.description)
    if option.choices:
        old = known.choices if known else ()
        named = {value: shown for shown, value in old}
        for value, shown in zip(option.choices, option.choice_words, strict=True):
            named.setdefault(value, shown)
        choices = tuple((shown, value) for value, shown in named.items())
        return Param(option.name, description, choices[:CHOICE_LIMIT])
    if option.low is not None and option.high is not None:
        low, high = option.low, option.high
        if known is not None and known.low is not None and known.high is not None:
            low, high = min(low, known.low), max(high, known.high)
        return Param(option.name, description, low=low, high=high)
    return Param(option.name, description)


def words_of(sub: Subcommand, values: dict[str, Any]) -> tuple[str, ...]:
    """The words a typed command would carry for these option values."""
    words: list[str] = []
    for param in sub.params:
        value = values.get(param.name)
        if value is None or value is False:
            continue
        if param.flag is not None:
            words.append(param.flag)
            continue
        words.append(str(value) if param.as_word else f"{param.name}={value}")
    if sub.free_words is not None and values.get(sub.free_words):
        words.extend(str(values[sub.free_words]).split())
    return tuple(words)


def _make_command(sub: Subcommand, handler: CommandHandler) -> app_commands.Command[Any, Any, None]:
    async def callback(interaction: discord.Interaction[Any], /, **values: Any) -> None:
        await handler(interaction, sub.name, words_of(sub, values))

    callback.__name__ = sub.name
    callback.__qualname__ = sub.name
    parameters = _signature_of(sub)
    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    described = {p.name: p.description for p in sub.params}
    choices = {
        p.name: [app_commands.Choice(name=n[:DESCRIPTION_LIMIT], value=v) for n, v in p.choices]
        for p in sub.params
        if p.choices
    }
    if sub.free_words is not None:
        described[sub.free_words] = sub.free_help  # English: the translator finds it by that
    callback.__discord_app_commands_param_description__ = described  # type: ignore[attr-defined]
    callback.__discord_app_commands_param_choices__ = choices  # type: ignore[attr-defined]
    if sub.free_words is not None and sub.suggest is not None:
        suggesting = {sub.free_words: sub.suggest}
        callback.__discord_app_commands_param_autocomplete__ = suggesting  # type: ignore[attr-defined]
    return app_commands.Command(name=sub.name, description=sub.description, callback=callback)


def _signature_of(sub: Subcommand) -> Sequence[inspect.Parameter]:
    keyword = inspect.Parameter.KEYWORD_ONLY
    parameters = [
        inspect.Parameter(
            "interaction",
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
            annotation=discord.Interaction,
        )
    ]
    ordered = sorted(sub.params, key=lambda p: not p.required)
    for param in ordered:
        default = inspect.Parameter.empty if param.required else None
        parameters.append(
            inspect.Parameter(param.name, keyword, default=default, annotation=param.annotation)
        )
    if sub.free_words is not None:
        parameters.append(inspect.Parameter(sub.free_words, keyword, default=None, annotation=str))
    return parameters


def _short(text: str) -> str:
    return text if len(text) <= DESCRIPTION_LIMIT else text[: DESCRIPTION_LIMIT - 1] + "…"


def usage_text(name: str, lang: str = "en") -> str:
    """A subcommand as Discord offers it: ``/domino new variant:… [options:…]``, its
    required options first, then the optional ones (a game's own options left to the
    suggestions of ``options``)."""
    sub = next((s for s in subcommands(lang) if s.name == name), None)
    if sub is None:
        return f"/{GROUP_NAME} {name}"
    words = [f"/{GROUP_NAME}", name]
    for param in sorted(sub.params, key=lambda p: not p.required):
        if param.required:
            words.append(f"{param.name}:…")
        elif param.as_word or param.flag is not None:
            words.append(f"[{param.name}:…]")
    if sub.free_words is not None:
        words.append(f"[{sub.free_words}:…]")
    return " ".join(words)

"""``key=value`` settings: a game's options and the table's own settings.

The same words work after ``new`` (``new tyaga target=50 timer=30``), after
``settings``, and behind the lobby's settings buttons. Game options are checked
by the engine one by one here; combinations that depend on the number of
players are checked when the game starts.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from bot.model.gamedoc import GameDoc, TableSettings
from bot.views.i18n import DEFAULT_LANG, Translator, translator
from bot.views.texts import error_text
from engine import BadOption, get_variant
from engine.options import ascii_number, ascii_word, resolve_options
from engine.state import OptionValue

Pairs = dict[str, str]

TIMER: Final = "timer"
AUTO_START: Final = "auto_start"
PINGS: Final = "pings"
PICTURES: Final = "pictures"  # the table's picture after every move
PIN: Final = "pin"  # the table pinned in its chat
TABLE_KEYS: Final = (TIMER, AUTO_START, PINGS, PICTURES, PIN)
# Settings that change no rule and no turn: the host may switch them during a game.
ANY_TIME_KEYS: Final = frozenset({PICTURES, PIN})
TIMER_MIN: Final = 10
TIMER_MAX: Final = 3600
_TRUE: Final = frozenset({"on", "yes", "true", "1"})
_FALSE: Final = frozenset({"off", "no", "false", "0"})


def parse_pairs(_: Translator, words: tuple[str, ...]) -> Pairs | str:
    """``("target=50", "timer=off")`` as a dict; an error text for a word without ``=``."""
    pairs: Pairs = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key or not value:
            return _(
                "Write settings as key=value, for example target=50 (not %(word)s).", word=word
            )
        # Read in ASCII, as the engine reads values (see engine.options): a key in
        # another script is no key, and is named as typed when it is refused.
        pairs[ascii_word(key) or key] = value
    return pairs


def apply_pairs(
    translator: Translator, doc: GameDoc, pairs: Pairs
) -> tuple[GameDoc, tuple[tuple[str, str], ...]] | str:
    """``doc`` with the settings changed, and the table settings to remember for
    the chat; or an error text, and nothing changed."""
    table = doc.settings
    remembered: list[tuple[str, str]] = []
    options: dict[str, OptionValue] = dict(doc.options)
    for key, value in pairs.items():
        if key in TABLE_KEYS:
            changed = table_setting(translator, table, key, value)
            if isinstance(changed, str):
                return changed
            table = changed
            remembered.append((key, stored_value(table, key)))
        else:
            options[key] = value  # the engine reads it (engine.options)
    checked = check_options(translator, doc.variant, len(doc.seats), options)
    if isinstance(checked, str):
        return checked
    return doc.but(settings=table, options=checked), tuple(remembered)


def check_options(
    translator: Translator, variant_name: str, seated: int, options: dict[str, OptionValue]
) -> dict[str, OptionValue] | str:
    """The options as the engine checked them (given ones only), or an error text."""
    variant = get_variant(variant_name)
    players = max(seated, variant.min_players)
    try:
        resolved = resolve_options(variant.option_specs, players, options, variant.name)
    except BadOption as exc:
        return error_text(translator, exc)
    return {name: resolved[name] for name in options}


def table_setting(_: Translator, table: TableSettings, key: str, value: str) -> TableSettings | str:
    text = ascii_word(value) or ""
    if key == TIMER:
        seconds = 0 if text in _FALSE else ascii_number(text.removesuffix("s"))
        if seconds is None or (seconds and not TIMER_MIN <= seconds <= TIMER_MAX):
            return _(
                "timer must be off or from %(low)d to %(high)d seconds",
                low=TIMER_MIN,
                high=TIMER_MAX,
            )
        return replace(table, timer=seconds)
    if text not in _TRUE | _FALSE:
        return _("%(key)s must be on or off", key=key)
    if key == AUTO_START:
        return replace(table, auto_start=text in _TRUE)
    if key == PICTURES:
        return replace(table, pictures=text in _TRUE)
    if key == PIN:
        return replace(table, pin=text in _TRUE)
    return replace(table, pings=text in _TRUE)


def stored_value(table: TableSettings, key: str) -> str:
    """How a table setting is kept in the chat's settings."""
    if key == TIMER:
        return str(table.timer)
    flags = {
        AUTO_START: table.auto_start,
        PINGS: table.pings,
        PICTURES: table.pictures,
        PIN: table.pin,
    }
    return "on" if flags[key] else "off"


def table_defaults(stored: dict[str, str], timer: int, lang: str) -> TableSettings:
    """A new table's settings: the chat's remembered ones over the bot's defaults."""
    table = TableSettings(
        timer=timer, auto_start=False, pings=True, lang=stored.get("lang") or lang
    )
    for key in TABLE_KEYS:
        if key in stored:
            changed = table_setting(translator(DEFAULT_LANG), table, key, stored[key])
            if isinstance(changed, TableSettings):
                table = changed
    return table

"""Option schemas: each variant declares its options once; one function checks
what a player asked for and fills in the defaults.

Every option value typed anywhere (a chat command, the lobby's buttons, the terminal's
``KEY=VALUE`` words, a replay file) is read here, in ASCII only: a number is ASCII
digits, a choice is ASCII letters in any case, and ASCII spaces around either are
ignored. ``str.isdigit`` and ``int`` would take other scripts' digits (``²``, ``١٢``)
and ``str.lower`` other alphabets' letters; anything outside ASCII is refused with the
option's own error, never passed on."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from engine.errors import BadOption
from engine.state import OptionValue

ASCII_SPACE: Final = " \t\n\r\x0b\x0c"
MOST_DIGITS: Final = 9
"""Significant digits a number may have: more is out of every option's range, and is
never converted."""
TOO_LARGE: Final = 10**MOST_DIGITS


def ascii_word(text: str) -> str | None:
    """``text`` without the ASCII spaces around it, its ASCII letters in lower case;
    ``None`` if anything in it is not ASCII."""
    if not text.isascii():
        return None
    return text.strip(ASCII_SPACE).lower()


def ascii_number(text: str) -> int | None:
    """The whole number ``text`` writes in ASCII digits, perhaps after a minus sign
    (ASCII spaces around it allowed), or ``None``. A number of more than
    :data:`MOST_DIGITS` significant digits reads as :data:`TOO_LARGE` (or its negative),
    beyond every range, and is never converted."""
    word = ascii_word(text)
    if word is None:
        return None
    digits = word.removeprefix("-")
    if not digits.isdigit():  # an ASCII string: one or more of 0 to 9, nothing else
        return None
    significant = digits.lstrip("0")
    number = int(significant or "0") if len(significant) <= MOST_DIGITS else TOO_LARGE
    return -number if word.startswith("-") else number


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option. ``default`` may depend on the number of players."""

    name: str
    default: OptionValue | Callable[[int], OptionValue]
    help: str
    choices: tuple[str, ...] = ()
    low: int | None = None  # for integers: the allowed range
    high: int | None = None
    parse: Callable[[str], str] | None = None  # custom check for free-form text
    only_with: tuple[str, str] | None = None  # (option, value): it has no effect otherwise

    def applies(self, options: Mapping[str, OptionValue]) -> bool:
        """Whether this option makes any difference beside the other ``options``."""
        if self.only_with is None:
            return True
        other, value = self.only_with
        return options.get(other) == value

    @property
    def is_int(self) -> bool:
        return self.low is not None

    def default_for(self, players: int) -> OptionValue:
        return self.default(players) if callable(self.default) else self.default

    def check(self, value: OptionValue) -> OptionValue:
        """The value as the option keeps it; raises :class:`BadOption` naming the option
        and what it takes."""
        if self.is_int:
            return self._check_int(value)
        text = ascii_word(value) if isinstance(value, str) else None
        if self.parse is not None:
            return self.parse(text if text is not None else str(value))
        if text not in self.choices:
            raise BadOption(
                f"option {self.name}={value}: choose one of {', '.join(self.choices)}",
                option=self.name,
                value=str(value),
                choices=", ".join(self.choices),
            )
        return text

    def _check_int(self, value: OptionValue) -> int:
        assert self.low is not None and self.high is not None
        if isinstance(value, bool) or not isinstance(value, int | str):
            number = None
        else:
            number = value if isinstance(value, int) else ascii_number(value)
        if number is None:
            raise BadOption(
                f"option {self.name}={value}: must be a whole number "
                f"from {self.low} to {self.high}",
                option=self.name,
                value=str(value),
                low=self.low,
                high=self.high,
                whole_number=True,
            )
        if not self.low <= number <= self.high:
            raise BadOption(
                f"option {self.name}={value}: must be from {self.low} to {self.high}",
                option=self.name,
                value=str(value),
                low=self.low,
                high=self.high,
            )
        return number


def resolve_options(
    specs: tuple[OptionSpec, ...],
    players: int,
    given: Mapping[str, OptionValue] | None,
    variant: str,
) -> Mapping[str, OptionValue]:
    """Check ``given`` against ``specs`` and return every option with its value."""
    by_name = {spec.name: spec for spec in specs}
    given = dict(given or {})
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        known = ", ".join(by_name) or "none"
        raise BadOption(
            f"unknown option {unknown[0]!r} for {variant}; its options: {known}",
            option=unknown[0],
            variant=variant,
            known=known,
        )
    resolved: dict[str, OptionValue] = {}
    for name, spec in by_name.items():
        resolved[name] = spec.check(given[name]) if name in given else spec.default_for(players)
    return MappingProxyType(resolved)

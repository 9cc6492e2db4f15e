"""Option schemas: each variant declares its options once; one function checks
what a player asked for and fills in the defaults."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from engine.errors import BadOption
from engine.state import OptionValue


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
        if self.is_int:
            return self._check_int(value)
        text = str(value).strip().lower()
        if self.parse is not None:
            return self.parse(text)
        if text not in self.choices:
            raise BadOption(
                f"option {self.name}={value}: choose one of {', '.join(self.choices)}",
                option=self.name,
                value=str(value),
                choices=", ".join(self.choices),
            )
        return text

    def _check_int(self, value: OptionValue) -> int:
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise BadOption(
                f"option {self.name}={value}: must be a whole number",
                option=self.name,
                value=str(value),
            ) from None
        assert self.low is not None and self.high is not None
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

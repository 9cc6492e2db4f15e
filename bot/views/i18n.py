"""Translations: gettext catalogs in ``bot/locale/<lang>/LC_MESSAGES/domino.po``.

Source strings are English. Each ``.po`` file is compiled to the ``.mo`` file
beside it, which is what runs: both are kept in the tree (so a fresh clone runs
with no build step) and ship in the wheel. After changing texts::

    make messages

extracts the texts into ``bot/locale/domino.pot``, brings every catalog up to
date (a changed text comes back *fuzzy*, to be checked by a translator) and
compiles them. A test fails while any catalog lacks a text, keeps a fuzzy one,
breaks a placeholder, or differs from its ``.mo``.

Every user-visible text goes through a :class:`Translator` obtained from
:func:`translator`. Texts take named placeholders (``%(name)s``) so a
translation may move them; :func:`line` turns a translated template into a
:data:`~bot.model.contract.TextLine` whose placeholders may be mentions or deadlines.
"""

from __future__ import annotations

import gettext
import os
import re
from collections.abc import Mapping
from functools import cache, lru_cache
from pathlib import Path
from typing import Final

from babel.numbers import format_decimal

from bot.model.contract import Segment, TextLine

DOMAIN: Final = "domino"
DEFAULT_LANG: Final = "en"
LOCALE_DIR: Final = Path(__file__).parent.parent / "locale"
_PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|%%")


def N_(message: str) -> str:
    """Mark a text for extraction where it is declared; translate it where it is shown."""
    return message


def NC_(context: str, message: str) -> str:
    """Like :func:`N_` for a text that means something else in ``context`` (a word
    that is also a command's name); translate it with :meth:`Translator.pgettext`."""
    return message


class Translator:
    """``_("text %(x)s", x=...)`` translates and fills in; ``_.ngettext`` for plurals.

    A screen asks for a dozen texts and every move draws a few screens, while a catalog
    lookup that finds no translation (every English text) takes three dictionary
    lookups and a call of the plural rule: the translations found are kept, bounded.
    """

    __slots__ = ("lang", "_catalog", "_gettext", "_ngettext")

    def __init__(self, lang: str, catalog: gettext.NullTranslations) -> None:
        self.lang = lang
        self._catalog = catalog
        self._gettext = lru_cache(maxsize=4096)(catalog.gettext)
        self._ngettext = lru_cache(maxsize=4096)(catalog.ngettext)

    def __call__(self, message: str, /, **params: object) -> str:
        text = self._gettext(message)
        return text % params if params else text

    def pgettext(self, context: str, message: str, /) -> str:
        """``message`` as meant in ``context`` (see :func:`NC_`)."""
        return self._catalog.pgettext(context, message)

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        """The form for ``n``; ``%(n)d`` is filled in with ``n`` itself."""
        text = self._ngettext(singular, plural, n)
        return text % {"n": n, **params}

    def decimal(self, value: float, *, signed: bool = False) -> str:
        """``value`` to one decimal as the language writes numbers (``24.8``, Russian
        ``24,8``); ``signed``: with its sign even when it is a gain (``+1.3``)."""
        pattern = "+#,##0.0;-#,##0.0" if signed else "#,##0.0"
        return format_decimal(value, format=pattern, locale=self.lang)


@cache
def available_languages() -> tuple[str, ...]:
    """Languages that have a compiled catalog, English first."""
    found = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    return tuple(sorted(found, key=lambda lang: lang != DEFAULT_LANG))


def pick_language(*candidates: str | None) -> str:
    """The first candidate we have a catalog for (``en-US`` and ``ru_RU.UTF-8``
    match ``en`` and ``ru``)."""
    known = available_languages()
    for candidate in candidates:
        if not candidate:
            continue
        exact = candidate.replace("-", "_").split(".")[0].split("@")[0]
        base = exact.split("_")[0].lower()
        for option in (exact, base):
            if option in known:
                return option
    return DEFAULT_LANG


def environment_language(environ: Mapping[str, str] | None = None) -> str | None:
    """The language the environment asks for, as gettext reads it: the first of
    ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set (the C
    locale asks for none)."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "").split(":")[0]
        if value and value != "POSIX" and value.split(".")[0] != "C":
            return value
    return None


@cache
def translator(lang: str) -> Translator:
    """The translator for ``lang``, falling back to English for unknown languages."""
    chosen = pick_language(lang)
    return Translator(chosen, _load(chosen))


def _load(lang: str) -> gettext.NullTranslations:
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if not path.exists():
        return gettext.NullTranslations()
    with path.open("rb") as mo:
        return gettext.GNUTranslations(mo)


def line(template: str, /, **params: Segment | int) -> TextLine:
    """Fill a translated template's placeholders with text, numbers, mentions or
    deadlines, keeping the non-text ones as segments for the adapter."""
    texts, names = _split(template)
    segments: list[Segment] = [texts[0]]
    for name, text in zip(names, texts[1:], strict=True):
        value = "%" if name is None else params[name]
        segments += (str(value) if isinstance(value, int) else value, text)
    return _merge(segments)


@lru_cache(maxsize=1024)
def _split(template: str) -> tuple[tuple[str, ...], tuple[str | None, ...]]:
    """``template``'s text around its placeholders, and the placeholders' names in
    their order (``None``: ``%%``, a percent sign): read once for each template, as
    the table, drawn on every move, fills the same few."""
    texts: list[str] = []
    names: list[str | None] = []
    position = 0
    for match in _PLACEHOLDER.finditer(template):
        texts.append(template[position : match.start()])
        names.append(match.group(1))
        position = match.end()
    texts.append(template[position:])
    return tuple(texts), tuple(names)


def _merge(segments: list[Segment]) -> TextLine:
    merged: list[Segment] = []
    for segment in segments:
        if isinstance(segment, str) and merged and isinstance(merged[-1], str):
            merged[-1] += segment
        elif segment != "":
            merged.append(segment)
    return tuple(merged)


def text_line(text: str) -> TextLine:
    """A line of plain (already translated) text."""
    return (text,)

"""Every screen of every game speaks every language: whole matches are played in
each language, with their lobby, tables mid-deal, hands, popups, deal ends, match
end, lookups and refusals, and nothing on them falls back to English.

Two checks. With the real catalogs, every text a screen asked for has a
translation. With a pseudo-translation that wraps each text in ⟦ ⟧, no English
word reaches a screen except inside a wrapped text (names, table ids and the
typed option words such as ``target=50`` excepted).
"""

from __future__ import annotations

import gettext
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

import bot.picture
import bot.views.i18n
from bot.model import codec
from bot.model.contract import Answer, Notice, Outbound, Screen, Show, UserRef
from bot.storage.store import Store
from bot.views.catalog import commands
from engine import all_variants
from tests.bot.driver import make_table

LANGUAGES = ("ru", "uk", "pl", "ca")
MATCHES = {  # each game, small enough to end in a few deals
    "tyaga": ("target=20",),
    "kozel": ("target=25",),
    "baghdad": ("match=deals:2",),
    "three_guns": (),
}
PLAYERS = {"tyaga": 2, "kozel": 3, "baghdad": 2, "three_guns": 3}
OPEN, CLOSE = "⟦", "⟧"
WRAPPED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
TYPED = re.compile(r"[a-z_]+=[\w:]+|[a-z_]+:N")  # option words as typed: target=50, deals:N
# Words a player types, shown as he must type them: commands, games and their options.
IDENTIFIERS = (
    {info.name for info in commands()}
    | {variant.name for variant in all_variants()}
    | {spec.name for variant in all_variants() for spec in variant.option_specs}
)


class Recording(gettext.GNUTranslations):
    """The real catalog, noting every text it was asked for and did not have."""

    missing: set[str]

    def gettext(self, message: str) -> str:
        if message not in self._catalog:  # type: ignore[attr-defined]
            self.missing.add(message)
        return super().gettext(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        if (msgid1, 0) not in self._catalog:  # type: ignore[attr-defined]
            self.missing.add(msgid1)
        return super().ngettext(msgid1, msgid2, n)


class Marking(gettext.NullTranslations):
    def gettext(self, message: str) -> str:
        return OPEN + message + CLOSE

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return OPEN + (msgid1 if n == 1 else msgid2) + CLOSE


def texts(out: list[Outbound]) -> Iterator[str]:
    for item in out:
        screen: Screen | None = None
        if isinstance(item, Show | Notice):
            screen = item.screen
        elif isinstance(item, Answer):
            yield item.text
            screen = item.screen
        if screen is not None:
            yield screen.plain_text()
            yield from (b.label for row in screen.buttons for b in row)


async def play_everything(store: Store, lang: str, variant: str) -> list[str]:
    """A whole match of ``variant`` at a table whose people speak ``lang``, with the
    lookups and refusals a newcomer meets: every text the core sent."""
    people = [UserRef("tg", str(n), name, lang) for n, name in ((1, "Anna"), (2, "Boris"))]
    host, late = people
    table = make_table(store, seed=3)
    said: list[str] = []

    async def send(out: Any) -> None:
        said.extend(texts(await out))

    await send(table.command(host, "help"))
    await send(table.command(host, "rules", variant))
    await send(table.command(host, "new"))  # the game picker
    await send(table.command(host, "new", "nonsense"))
    await send(table.command(host, "new", variant, "colour=red"))
    await send(table.command(host, "start"))  # no table yet
    await send(table.command(host, "new", variant, *MATCHES[variant], "timer=30"))
    await send(table.command(host, "settings"))
    await send(table.command(host, "add_computer", "genius"))
    for _ in range(PLAYERS[variant] - 1):
        await send(table.command(host, "add_computer"))
    await send(table.command(late, "join"))  # the table is full
    await send(table.command(host, "start"))
    await send(table.command(late, "scores"))
    rng = random.Random(5)
    for _ in range(3000):
        if await store.load(table.chat) is None:
            break
        out = await table.step([host], rng)
        said.extend(texts(out))
        if rng.random() < 0.05 and table.game_id is not None:
            await send(table.press(late, codec.tiles_payload(table.game_id)))  # not his table
    else:
        raise AssertionError("the match did not end")
    await send(table.command(host, "scores", variant))
    await send(table.command(host, "stats"))
    await send(table.command(host, "lang"))
    return [text for text in said if text]


@pytest.fixture
def catalogs(monkeypatch: pytest.MonkeyPatch) -> Iterator[set[str]]:
    """Every language's real catalog, recording the texts it lacked.

    The pictures' palette is learnt first: a process learns it once, from sample
    pictures drawn in English, and those texts are no screen's."""
    bot.picture.learnt_palette()
    missing: set[str] = set()
    real = bot.views.i18n._load

    def recording(lang: str) -> gettext.NullTranslations:
        loaded = real(lang)
        assert isinstance(loaded, gettext.GNUTranslations)
        loaded.__class__ = Recording
        loaded.missing = missing  # type: ignore[attr-defined]
        return loaded

    monkeypatch.setattr(bot.views.i18n, "_load", recording)
    bot.views.i18n.translator.cache_clear()
    yield missing
    bot.views.i18n.translator.cache_clear()


@pytest.mark.parametrize("variant", sorted(MATCHES))
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_every_screen_of_a_whole_match_has_every_text_translated(
    fake_store: Store, catalogs: set[str], lang: str, variant: str
) -> None:
    said = await play_everything(fake_store, lang, variant)
    assert len(said) > 50
    assert sorted(catalogs) == []


@pytest.mark.parametrize("variant", sorted(MATCHES))
async def test_no_english_word_reaches_a_screen_outside_a_template(
    fake_store: Store, monkeypatch: pytest.MonkeyPatch, variant: str
) -> None:
    monkeypatch.setattr(bot.views.i18n, "_load", lambda lang: Marking())
    bot.views.i18n.translator.cache_clear()
    try:
        said = await play_everything(fake_store, "ru", variant)
    finally:
        bot.views.i18n.translator.cache_clear()
    leaks = set()
    for text in said:
        while WRAPPED.search(text):
            text = WRAPPED.sub("", text)
        text = TYPED.sub("", text)
        words = re.findall(r"[A-Za-z_]{2,}", text)
        leaks |= {word for word in words if word not in IDENTIFIERS | {"Anna", "Boris"}}
    assert sorted(leaks) == []

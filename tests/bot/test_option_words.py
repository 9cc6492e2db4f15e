"""``key=value`` words, as a chat's ``new`` and ``settings`` commands and the terminal's
``play GAME KEY=VALUE`` take them: every value of every game's options and of the
table's settings is read in ASCII, or refused with an answer that names it; a value
in another script never crashes the lobby, and never sets a value it does not say in
ASCII."""

from __future__ import annotations

import asyncio
from typing import Final

import fakeredis
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.storage.store import Store
from bot.table.settings import TABLE_KEYS, TIMER, TIMER_MAX, TIMER_MIN
from engine import get_variant
from tests.bot.driver import info_text, make_table, user
from tests.engine.test_option_values import SPACE, meaning, read_number

ANNA = user(1, "Anna")
APOLOGY: Final = "Sorry, something went wrong"
WORDS: Final = [
    (game, spec.name)
    for game in ("tyaga", "kozel", "baghdad")
    for spec in get_variant(game).option_specs
] + [("tyaga", key) for key in TABLE_KEYS]
ON: Final = {"on", "yes", "true", "1"}
OFF: Final = {"off", "no", "false", "0"}


def table_meaning(key: str, text: str) -> int | bool | None:
    """What a table setting's value means read in ASCII, or ``None``."""
    word = text.strip(SPACE).lower() if text.isascii() else None
    if word is None:
        return None
    if key == TIMER:
        if word in OFF:
            return 0
        seconds = read_number(word.removesuffix("s"))
        ok = seconds == 0 or (seconds is not None and TIMER_MIN <= seconds <= TIMER_MAX)
        return seconds if ok else None
    return True if word in ON else False if word in OFF else None


async def opened(game: str, key: str, text: str) -> None:
    store = Store(fakeredis.FakeAsyncRedis(server=fakeredis.FakeServer(), decode_responses=True))
    try:
        table = make_table(store)
        out = await table.command(ANNA, "new", game, f"{key}={text}")
        said = info_text(out)
        doc = await table.doc()
    finally:
        await store.close()
    assert APOLOGY not in said
    if key in TABLE_KEYS:
        wanted: object = table_meaning(key, text)
        got = None if doc is None else getattr(doc.settings, key)
    else:
        spec = next(s for s in get_variant(game).option_specs if s.name == key)
        wanted = meaning(spec, text) if text else None
        got = None if doc is None else doc.options[key]
    if wanted is None:
        assert doc is None, f"{key}={text!r} opened a table"
        assert key in said or (key == "no_double" and "double" in said)  # said in words
    else:
        assert got == wanted


@pytest.mark.parametrize(("game", "key"), WORDS, ids=[f"{g}-{k}" for g, k in WORDS])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=12) | st.sampled_from(["50", "30s", "on", "Deals:4", " 12 "]))
def test_a_value_in_any_script_opens_the_table_it_says_in_ascii_or_is_refused(
    game: str, key: str, text: str
) -> None:
    asyncio.run(opened(game, key, text))


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("baghdad", "match=deals:²"), "match=deals:² does not work"),
        (("baghdad", "match=target:١٢"), "match=target:١٢ does not work"),
        (("tyaga", "target=١٢"), "target must be a whole number"),
        (("kozel", "target=１０１"), "target must be a whole number"),
        (("tyaga", "timer=１０"), "timer must be off or from 10 to 3600 seconds"),
        (("tyaga", "pings=ｏｎ"), "pings must be on or off"),
    ],
)
async def test_digits_of_other_scripts_are_refused_in_the_lobby(
    fake_store: Store, args: tuple[str, ...], says: str
) -> None:
    table = make_table(fake_store)
    out = await table.command(ANNA, "new", *args)
    assert says in info_text(out)
    assert await table.doc() is None


async def test_the_settings_of_an_open_table_refuse_them_too(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(ANNA, "new", "baghdad")
    before = await table.doc()
    out = await table.command(ANNA, "settings", "match=deals:²", admin=True)
    assert "match=deals:² does not work" in info_text(out)
    assert await table.doc() == before
    await table.command(ANNA, "settings", "match=deals:4", admin=True)
    after = await table.doc()
    assert after is not None and after.options["match"] == "deals:4"

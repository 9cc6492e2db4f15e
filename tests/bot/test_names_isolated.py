"""A person's name is shown inside Unicode's first strong isolate (U+2068 … U+2069)
wherever a text names him, so a name written right to left cannot reorder the rest of
its line: whole matches are played by people with such names, with the lookups and
refusals that name them, and every text the core sends is checked."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from bot.model.contract import (
    Answer,
    Mention,
    Notice,
    Outbound,
    Response,
    Screen,
    Show,
    UserRef,
    isolated,
    segment_text,
)
from bot.storage.store import Store
from tests.bot.driver import make_table

NAMES = ("דנה כהן", "سلمى 7")  # Hebrew and Arabic, one with a number of its own
GAMES = {"tyaga": ("target=20",), "baghdad": ("match=deals:2",)}


def texts(out: list[Outbound]) -> Iterator[str]:
    for item in out:
        screen: Screen | None = None
        if isinstance(item, Show | Notice | Response):
            screen = item.screen
        elif isinstance(item, Answer):
            yield item.text
            screen = item.screen
        if screen is not None:
            yield screen.plain_text()
            yield from (b.label for row in screen.buttons for b in row)


def bare(text: str) -> list[str]:
    """The names in ``text`` that are not inside an isolate."""
    for name in NAMES:
        text = text.replace(isolated(name), "")
    return [name for name in NAMES if name in text]


async def said_in_a_match(store: Store, variant: str) -> list[str]:
    people = [UserRef("tg", str(n), name, "en") for n, name in enumerate(NAMES, 1)]
    host, other = people
    table = make_table(store, seed=4)
    said: list[str] = []

    async def send(out: list[Outbound]) -> None:
        said.extend(texts(out))

    await send(await table.command(host, "new", variant, *GAMES[variant], "timer=off"))
    await send(await table.command(other, "join"))
    await send(await table.command(other, "add_computer"))  # only the host may
    await send(await table.command(host, "start"))
    rng = random.Random(2)
    for _ in range(3000):
        if await store.load(table.chat) is None:
            break
        await send(await table.step(people, rng))
    else:
        raise AssertionError("the match did not end")
    await send(await table.command(other, "scores", variant))
    await send(await table.command(other, "stats"))
    await send(await table.command(other, "stats", NAMES[0]))
    await send(await table.command(other, "stats", "nobody at all"))
    return said


def test_a_name_is_isolated_and_kept_whole() -> None:
    assert isolated("سلمى") == "\u2068سلمى\u2069"
    assert segment_text(Mention(UserRef("tg", "1", "דנה"))) == "\u2068דנה\u2069"


@pytest.mark.parametrize("variant", sorted(GAMES))
async def test_every_text_of_a_whole_match_isolates_every_name(
    fake_store: Store, variant: str
) -> None:
    said = await said_in_a_match(fake_store, variant)
    naming = [text for text in said if any(isolated(name) in text for name in NAMES)]
    # The table, the hands' headings, the scores, the ratings and the host's refusal.
    assert len(naming) > 20
    assert any(re.search(r"Ratings: .*\u2069 [+-]", text) for text in said)
    assert any("Only the host, \u2068" in text for text in said)
    unwrapped = {text: bare(text) for text in said if bare(text)}
    assert unwrapped == {}

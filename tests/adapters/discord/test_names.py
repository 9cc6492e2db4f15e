"""Display names are shown as written: one shaped like a mention (``<@1004>``) never
renders as somebody's mention and markdown in a name is not formatting, in the lobby,
the table, its fields and its last moves; a long name is cut on whole characters."""

from __future__ import annotations

import re
import unicodedata

from adapters.discord.render import TITLE_LIMIT, card_embed
from bot.model import codec
from bot.model.contract import Card, CardField
from bot.storage.store import Store
from tests.adapters.discord.conftest import ALICE
from tests.adapters.discord.fake_api import FakeDiscord, Json
from tests.adapters.discord.gateway import Person
from tests.adapters.discord.harness import CHANNEL_ID, Bot
from tests.adapters.discord.matches import Referee, custom_id_for, move_once, table_message

MENTION_SHAPED = Person(5_100_000_000_000_000_011, "<@1004>")
RAW_MENTION = re.compile(r"(?<!\\)<@1004>")


def shown_texts(message: Json) -> list[str]:
    texts = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        texts += [embed.get("title") or "", embed.get("description") or ""]
        texts += [f["name"] for f in embed.get("fields") or []]
        texts += [f["value"] for f in embed.get("fields") or []]
    return texts


async def test_a_mention_shaped_name_is_shown_as_written_in_the_lobby_and_the_table(
    bot: Bot, fake: FakeDiscord, store: Store
) -> None:
    await bot.command(ALICE, "new", variant="tyaga")
    join = custom_id_for(table_message(bot), codec.LobbyPress, action="join")
    assert join is not None
    await bot.press(MENTION_SHAPED, table_message(bot), join)
    start = custom_id_for(table_message(bot), codec.LobbyPress, action="start")
    assert start is not None
    await bot.press(ALICE, table_message(bot), start)
    for _ in range(2):  # a move of each: the last moves name them
        found = await Referee(bot, store).state()
        assert found is not None and found[1] is not None
        doc, state = found
        mover = doc.seats[state.turn].user
        person = ALICE if mover.user_id == str(ALICE.id) else MENTION_SHAPED
        await move_once(bot, person, state.counter)
    texts = [t for e in fake.channel_events(CHANNEL_ID) for t in shown_texts(e.message)]
    assert any("\\<@1004>" in t for t in texts), "the name was never shown"
    assert [t for t in texts if RAW_MENTION.search(t)] == []


def test_names_in_the_table_s_fields_are_escaped_and_cut_on_whole_characters() -> None:
    long = "e\u0301" * TITLE_LIMIT
    card = Card(title="Tyaga", fields=(CardField("**Dave**", ()), CardField(long, ())))
    names = [f["name"] for f in card_embed(card).to_dict().get("fields", [])]
    assert names[0] == "\\*\\*Dave\\*\\*"
    assert len(names[1]) <= TITLE_LIMIT and names[1].endswith("…")
    assert names[1][:-1].endswith("\u0301"), "an accent was cut from its letter"
    assert all(unicodedata.combining(c) for c in names[1][1:-1:2])


def test_a_name_cut_next_to_an_escape_keeps_its_ellipsis_unescaped() -> None:
    name = "a" * (TITLE_LIMIT - 2) + "*b"  # escaped, its backslash falls on the cut
    card = Card(title="Tyaga", fields=(CardField(name, ()),))
    (field,) = card_embed(card).to_dict().get("fields", [])
    assert len(field["name"]) <= TITLE_LIMIT and field["name"].endswith("…")
    assert not field["name"].endswith("\\…"), "the cut left a backslash escaping the ellipsis"

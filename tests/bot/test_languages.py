"""Whose language a screen speaks: the chat's own choice, else the language of
whoever opened the table; a hand and a popup speak their player's language."""

from __future__ import annotations

from bot.model import codec
from bot.model.contract import SlotKind, UserRef
from bot.storage.store import Store
from tests.bot.driver import answer, make_table, move_buttons, responses, shows

IVAN = UserRef("tg", "1", "Ivan", "ru")
OKSANA = UserRef("tg", "2", "Oksana", "uk-UA")
MARTA = UserRef("tg", "3", "Marta", "pl")
JOAN = UserRef("tg", "4", "Joan", None)


async def test_a_chat_whose_opener_speaks_russian_gets_russian_without_any_command(
    fake_store: Store,
) -> None:
    table = make_table(fake_store)
    [lobby] = shows(await table.command(IVAN, "new", "kozel"), SlotKind.TABLE)
    assert "Козёл" in lobby.screen.plain_text()
    await table.command(OKSANA, "join")
    await table.command(IVAN, "start")
    text = table.table().plain_text()
    assert "Партия 1" in text and "Deal" not in text


async def test_the_chats_own_language_wins_over_the_openers(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(JOAN, "lang", "chat", "ca", admin=True)
    await table.command(IVAN, "new", "tyaga")
    assert "Tiaga" in table.table().plain_text()


async def test_each_hand_and_popup_speaks_its_players_language(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(IVAN, "new", "tyaga", "timer=off")
    await table.command(MARTA, "join")
    await table.command(IVAN, "start")
    ivan, marta = table.hand(IVAN), table.hand(MARTA)
    assert ivan is not None and marta is not None
    assert "Ваши фишки" in ivan.plain_text()
    assert "Twoje kamienie" in marta.plain_text()
    waiting = MARTA if move_buttons(ivan) else IVAN
    assert table.game_id is not None
    out = await table.press(waiting, codec.tiles_payload(table.game_id))  # "My tiles"
    popup = answer(out).text
    assert ("Twoje kamienie" if waiting is MARTA else "Ваши фишки") in popup


async def test_a_language_a_player_chose_wins_over_his_platforms(fake_store: Store) -> None:
    table = make_table(fake_store)
    await table.command(IVAN, "lang", "uk")
    await table.command(IVAN, "new", "tyaga")
    assert "Господар столу: \u2068Ivan\u2069" in table.table().plain_text()
    out = await table.command(IVAN, "help")
    assert "Команди:" in "\n".join(o.screen.plain_text() for o in responses(out))


async def test_the_language_list_names_each_language_in_its_own_words(fake_store: Store) -> None:
    table = make_table(fake_store)
    out = await table.command(MARTA, "lang")
    said = "\n".join(o.screen.plain_text() for o in responses(out))
    assert "uk (українська)" in said and "ca (català)" in said and "lang KOD" in said

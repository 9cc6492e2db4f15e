"""``new`` without a game: a button per game, and a press opens its table."""

from __future__ import annotations

from bot.model import codec
from bot.model.contract import SlotKind
from bot.storage.store import Store
from engine import all_variants
from tests.bot.driver import answer, button, buttons, make_table, responses, shows, user

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")


async def test_new_without_a_game_offers_one_button_per_game(fake_store: Store) -> None:
    table = make_table(fake_store)
    [picker] = responses(await table.command(ANNA, "new"))
    picks = [codec.decode(b.payload or "") for b in buttons(picker.screen)]
    assert picks == [codec.VariantPick(v.name) for v in all_variants()]
    assert await fake_store.load(table.chat) is None


async def test_pressing_a_game_opens_its_table_as_new_would(fake_store: Store) -> None:
    table = make_table(fake_store)
    [picker] = responses(await table.command(ANNA, "new"))
    out = await table.press(BORIS, button(picker.screen, "Three Guns").payload)
    assert answer(out).text == ""
    [lobby] = shows(out, SlotKind.TABLE)
    assert "Host: \u2068Boris\u2069" in lobby.screen.plain_text()
    doc = await table.doc()
    assert doc is not None and doc.variant == "three_guns" and doc.host == BORIS.key


async def test_a_game_pressed_while_a_table_is_open_points_to_it(fake_store: Store) -> None:
    table = make_table(fake_store)
    [picker] = responses(await table.command(ANNA, "new"))
    await table.command(BORIS, "new", "kozel")
    out = await table.press(ANNA, button(picker.screen, "Tyaga").payload)
    assert answer(out).text.startswith("A game is already open here: Kozel")
    doc = await table.doc()
    assert doc is not None and doc.variant == "kozel"

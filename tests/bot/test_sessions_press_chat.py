"""A press acts only on a game of the chat it came from; a button in a player's private
chat names its game's chat, and a button naming another chat is refused."""

from __future__ import annotations

from bot.model import codec, payload_fields
from bot.model.contract import Answer, ChatRef, Press, SlotKind
from bot.storage.store import Store
from engine import DOUBLE_SIX, Move, Tile
from tests.bot.driver import deal, make_table, scripted, shows, user

ANNA, BORIS, DANA = user(1, "Anna"), user(2, "Boris"), user(4, "Dana")
GROUP_A, GROUP_B = ChatRef("tg", "-100111"), ChatRef("tg", "-100222")
HANDS = deal(DOUBLE_SIX, "6-6 6-5 5-5 4-4 3-3 2-2 1-1", "6-4 6-3 6-2 6-1 6-0 5-4 5-3")


async def test_a_lobby_button_of_another_chat_s_game_changes_nothing(fake_store: Store) -> None:
    table_b = make_table(fake_store, GROUP_B)
    await table_b.command(ANNA, "new", "tyaga")
    before = await fake_store.load(GROUP_B)
    assert before is not None
    forged = codec.lobby_payload(before.doc["id"], "join")
    out = await make_table(fake_store, GROUP_A).send(Press(GROUP_A, DANA, forged))
    assert isinstance(out[0], Answer) and out[0].text
    assert await fake_store.load(GROUP_B) == before
    assert await fake_store.load(GROUP_A) is None


async def test_a_hand_button_names_its_game_s_chat_and_works_in_the_private_chat(
    fake_store: Store,
) -> None:
    table = make_table(fake_store, GROUP_B)
    doc = await scripted(table, "tyaga", [ANNA, BORIS], HANDS)
    await table.open_hands(ANNA, BORIS, game_id=doc.id)
    [hand] = [s for s in shows(table.log[-2], SlotKind.HAND)]
    payloads = [b.payload for row in hand.screen.buttons for b in row if b.payload]
    assert payloads and all(
        p.endswith("_" + (payload_fields.encode_chat(GROUP_B) or "")) for p in payloads
    )
    mine = codec.move_payload(doc.id, 0, Move.lead(Tile(6, 6)), GROUP_B)
    out = await table.send(Press(ChatRef("tg", ANNA.user_id), ANNA, mine))
    assert isinstance(out[0], Answer) and not out[0].alert, out[0]
    stored = await table.doc()
    assert stored is not None and stored.moves == ((0, "6-6"),)


async def test_a_button_naming_another_chat_is_refused_outside_a_private_chat(
    fake_store: Store,
) -> None:
    table = make_table(fake_store, GROUP_B)
    doc = await scripted(table, "tyaga", [ANNA, BORIS], HANDS)
    forged = codec.move_payload(doc.id, 0, Move.lead(Tile(6, 6)), GROUP_B)
    out = await make_table(fake_store, GROUP_A).send(Press(GROUP_A, ANNA, forged))
    assert out == [Answer("That button is not one of mine, or it is too old.")]
    stored = await table.doc()
    assert stored is not None and stored.moves == ()

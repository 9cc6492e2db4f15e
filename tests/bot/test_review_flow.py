"""The "Review my play" button and ``review``: at a match's end each person's hand
offers his review; it reaches him alone, in his language, and is kept with the match."""

from __future__ import annotations

import random

from bot.ai.review import review as ai_review
from bot.ai.thinker import Thinker
from bot.model.contract import Answer, Notice, Press
from bot.storage.kept_match import KeptMatch
from bot.storage.store import Store
from bot.table.play import private_chat
from bot.table.review import job_for
from tests.bot.driver import Table, buttons, make_table, user

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")


async def finished(table: Table) -> str:
    await table.start_match("tyaga", [ANNA], "target=20", computers=1)
    doc = await table.doc()
    assert doc is not None
    await table.play_out([ANNA], random.Random(5))
    return doc.id


def review_button(table: Table, game_id: str) -> str:
    hand = table.hand(ANNA, game_id)
    assert hand is not None and "The match is over." in hand.plain_text()
    (button,) = [b for b in buttons(hand) if b.label == "Review my play"]
    assert button.payload is not None
    return button.payload


def told(out: list[object]) -> str:
    return "\n".join(o.screen.plain_text() for o in out if isinstance(o, Notice))


async def test_the_review_reaches_the_player_alone_and_is_kept_with_the_match(
    store: Store,
) -> None:
    table = make_table(store)
    game_id = await finished(table)
    payload = review_button(table, game_id)
    out = await table.send(Press(private_chat(ANNA), ANNA, payload))
    assert isinstance(out[0], Answer)
    notices = [o for o in out if isinstance(o, Notice)]
    assert notices and {n.chat for n in notices} == {private_chat(ANNA)}
    text = told(list(out))
    assert text.startswith(f"Your play in Tyaga (Draw), table {game_id}:")
    assert "points more chance of winning" in text or "no costly decision" in text
    kept = await store.history.one(table.chat, f"{game_id}>review:{ANNA.key}")
    assert kept is not None
    again = await table.send(Press(private_chat(ANNA), ANNA, payload))
    assert told(list(again)) == text
    assert told(list(await table.command(ANNA, "review"))) == text


async def test_the_review_speaks_the_players_language(store: Store) -> None:
    table = make_table(store)
    game_id = await finished(table)
    payload = review_button(table, game_id)
    await table.command(ANNA, "lang", "ru")
    out = await table.send(Press(private_chat(ANNA), ANNA, payload))
    assert told(list(out)).startswith("Ваша игра: Тяга")


async def test_only_a_player_of_the_match_gets_a_review(store: Store) -> None:
    table = make_table(store)
    game_id = await finished(table)
    payload = review_button(table, game_id)
    out = await table.send(Press(private_chat(BORIS), BORIS, payload))
    assert told(list(out)) == "Only those who played a match can review their play in it."
    assert await store.history.one(table.chat, f"{game_id}>review:{BORIS.key}") is None
    typed = await table.command(BORIS, "review")
    assert "You have played no finished match kept in this chat." in str(typed)


async def test_a_review_worked_out_in_a_worker_process_is_the_one_made_here(
    store: Store,
) -> None:
    table = make_table(store)
    game_id = await finished(table)
    raw = await store.history.one(table.chat, game_id)
    assert raw is not None
    job = job_for(KeptMatch.model_validate_json(raw).doc(), 0)
    async with Thinker(1) as thinker:
        assert await thinker.review(job) == ai_review(job)

"""A spectator's page is sent nothing of any hand: every tile in every frame it gets is
compared with the tiles the engine holds in the seats' hands at that frame's version."""

from __future__ import annotations

from typing import Any

from adapters.web import frames
from adapters.web.local import PLATFORM
from bot.model.contract import ChatRef
from bot.model.parts import TileRef
from tests.adapters.web.conftest import Page, Tables, Worker, game_of, ticket

MY_MOVES = 4


def tiles_in(value: Any) -> set[TileRef]:
    """Every tile a frame names, wherever it is (a tile is an object of hi and lo)."""
    found: set[TileRef] = set()
    if isinstance(value, dict):
        if {"hi", "lo"} <= value.keys() and len(value) == 2:
            found.add(TileRef(hi=value["hi"], lo=value["lo"]))
        for inner in value.values():
            found |= tiles_in(inner)
    elif isinstance(value, list):
        for inner in value:
            found |= tiles_in(inner)
    return found


async def hands_now(worker: Worker, chat: ChatRef, hands: dict[int, set[TileRef]]) -> int | None:
    """Note the tiles in the seats' hands at the stored version; the seat to move."""
    game = await game_of(worker, chat)
    assert game.state is not None
    hands[game.version] = {TileRef.of(t) for hand in game.state.hands for t in hand}
    return game.state.turn


async def caught_up(page: Page, version: int) -> frames.State:
    """The page's state at ``version``, every frame before it kept in ``page.got``."""
    state = await page.until(lambda f: isinstance(f, frames.State) and f.version >= version)
    assert isinstance(state, frames.State) and state.version == version
    return state


def states(page: Page) -> list[dict[str, Any]]:
    return [f.model_dump(mode="json") for f in page.got if isinstance(f, frames.State)]


async def test_a_spectator_is_sent_no_tile_of_any_hand(tables: Tables) -> None:
    worker = await tables.worker()
    chat = await tables.open(worker, players=3)
    hands: dict[int, set[TileRef]] = {}
    watcher = await worker.page(frames.Hello(ticket=ticket(chat, None)))
    player = await worker.page(frames.Hello(ticket=ticket(chat)))
    played = 0
    while played < MY_MOVES:
        turn = await hands_now(worker, chat, hands)
        version = max(hands)
        await caught_up(watcher, version)
        state = await caught_up(player, version)
        assert state.table is not None and state.hand is not None
        if turn is None or state.table.deal_result is not None:
            break  # the deal is over: its end shows the hands to all
        if turn != 0:
            await worker.sessions.tick(PLATFORM)
            continue
        move = state.hand.moves[0].notation
        await player.send(frames.Play(notation=move, counter=state.hand.counter))
        await player.answer()
        played += 1
    seen = states(watcher)
    assert len(seen) > MY_MOVES  # the watcher was told every move
    for frame in seen:
        assert frame["hand"] is None
        assert not tiles_in(frame) & hands[frame["version"]], frame["version"]
    # The check can fail: the player's own frames do hold his tiles.
    assert any(tiles_in(f) & hands[f["version"]] for f in states(player))
    await watcher.close()
    await player.close()

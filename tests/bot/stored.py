"""Games and finished matches put in the store the way the core puts them there.

The core writes a chat's game only through :class:`bot.table.runner.Runner`: a flow's document
goes out as one compare-and-set :class:`bot.storage.store.GameWrite` that names the game it was
decided on and appends only the moves and deals added since; the write that ends a game
counts the match on the chat's board and queues it in the chat's rating queue, from
which each person's own results and the global ratings are settled. These helpers make
those same writes, for tests that need a game or a result in place (:func:`put_game`
through a runner, the others straight from a document as JSON).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from typing import Any

from bot.model.contract import ChatRef
from bot.model.decision import Decision, Game, refuse
from bot.model.game_state import build_state
from bot.model.gamedoc import GameDoc
from bot.storage.ratings import rating_queue_write
from bot.storage.scores import board_writes
from bot.storage.store import Ending, GameWrite, MatchRow, MatchWrite, Store, Stored, pack
from bot.table.match_steps import Tempo
from bot.table.runner import Runner
from bot.views.i18n import Translator


def runner(store: Store, clock: Callable[[], float] = time.time) -> Runner:
    """A runner of its own on ``store``, as a process has one."""
    return Runner(store, Tempo(1.0, 5.0, 3), clock, "en")


async def put_game(
    store: Store, doc: GameDoc, clock: Callable[[], float] = time.time
) -> Game | None:
    """Write ``doc`` as its chat's new game, as the flow that opens it would (its deadline
    set in the same round trip); ``None`` if the chat has a game already."""

    def opened(game: Game | None, translator: Translator) -> Decision:
        if game is not None:
            return refuse("the chat has a game")
        return Decision(doc, build_state(doc) if doc.deals else None)

    return (await runner(store, clock).run(doc.chat, None, opened)).after


async def change_game(
    store: Store,
    chat: ChatRef,
    change: Callable[[GameDoc], GameDoc],
    clock: Callable[[], float] = time.time,
) -> Game | None:
    """Write the chat's game as ``change`` makes it, as a flow deciding on it would;
    ``None`` if the chat has no game."""

    def changed(game: Game | None, translator: Translator) -> Decision:
        if game is None:
            return refuse("the chat has no game")
        doc = change(game.doc)
        return Decision(doc, build_state(doc) if doc.deals else None)

    return (await runner(store, clock).run(chat, None, changed)).after


def _dump(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def game_write(doc: dict[str, Any], over: Stored | None, ending: Ending | None = None) -> GameWrite:
    """The write of ``doc`` (one document, its deals and moves inside) decided on the game
    ``over`` as read (``None``: the chat had none), as the runner makes it."""
    same = over is not None and over.doc.get("id") == doc.get("id")
    held_moves = len(over.doc.get("moves") or ()) if over is not None and same else 0
    held_deals = len(over.doc.get("deals") or ()) if over is not None and same else 0
    return GameWrite(
        expected=over.version if over is not None else 0,
        game_id=str(doc.get("id") or ""),
        head=_dump({k: v for k, v in doc.items() if k not in ("deals", "moves")}),
        moves=[f"{seat}:{move}" for seat, move in (doc.get("moves") or [])[held_moves:]],
        deals=[_dump(d) for d in (doc.get("deals") or [])[held_deals:]],
        moves_before=held_moves if same else -1,
        deals_before=held_deals,
        ending=ending,
        held=str(over.doc.get("id") or "") if over is not None else None,
    )


async def write(
    store: Store, chat: ChatRef, doc: dict[str, Any], over: Stored | None = None
) -> bool:
    """Write ``doc`` as the chat's game, decided on ``over``; ``False`` on a conflict."""
    return (await store.write_game(chat, game_write(doc, over))).ok


async def end_game(
    store: Store,
    chat: ChatRef,
    over: Stored,
    *,
    keep_last: bool = True,
    variant: str = "",
    rows: Sequence[MatchRow] = (),
) -> bool:
    """End the game ``over`` as read, as the write that ends a game does: keep it as the
    chat's last game (unless not ``keep_last``) and, given the ``rows`` of a finished match
    of ``variant``, count them on the chat's board and queue them in its rating queue, then
    settle them there (each person's own results, the global ratings). ``False`` on a
    conflict, and nothing written."""
    writes: tuple[MatchWrite, ...] = ()
    if rows:
        match_id = str(over.doc.get("id") or "")
        names = {row.user.key: row.user.name for row in rows}
        result = tuple((1 if row.won else 2, ((row.user.key, row.won),)) for row in rows)
        queued = rating_queue_write(chat, match_id, variant, names, result, rows)
        writes = (*board_writes(chat, variant, rows, store.retention), queued)
    ending = Ending(pack(over.doc) if keep_last else None, writes)
    ended = (await store.write_game(chat, game_write(over.doc, over, ending))).ok
    if ended and rows:
        await store.settle_global_ratings(chat, str(over.doc.get("id")))
    return ended


async def count_match(
    store: Store, chat: ChatRef, match_id: str, variant: str, rows: Sequence[MatchRow]
) -> bool:
    """A match ``match_id`` of ``variant`` opened in the chat and finished with ``rows``
    (see :func:`end_game`; it is no game to export, so it is not kept as the chat's last);
    ``False`` if the chat has a game already."""
    doc = {"id": match_id, "status": "running", "variant": variant}
    if not await write(store, chat, doc):
        return False
    over = Stored(doc, 1)
    return await end_game(store, chat, over, keep_last=False, variant=variant, rows=rows)

"""A game from what the store read: its document, and its engine state continued from
the game this process held, from the deal snapshot stored beside it, or replayed from
its moves; and the snapshot a write keeps when it deals a deal."""

from __future__ import annotations

import json

from bot.model.decision import Game
from bot.model.game_state import build_state, deal_start_state, fits
from bot.model.gamedoc import deals_from, from_parts, moves_from
from bot.storage import deal_snapshot
from bot.storage.deal_snapshot import BadSnapshot
from bot.storage.store import GameRead


def assemble(read: GameRead, cached: Game | None) -> tuple[Game, BadSnapshot | None]:
    """A game from what was read, continuing ``cached`` when the read did; and why the
    read's snapshot could not be used, if it was of this engine and did not validate."""
    head = json.loads(read.head)
    moves, deals = moves_from(read.moves), deals_from(read.deals)
    if read.moves_from or read.deals_from:
        assert cached is not None, "a partial read without a cached game"
        moves = cached.doc.moves[: read.moves_from] + moves
        deals = cached.doc.deals[: read.deals_from] + deals
    doc = from_parts(head, deals, moves)
    if not doc.deals:
        return Game(doc, None, read.version), None
    start = cached.state if cached is not None and cached.doc.id == doc.id else None
    broken = None
    if start is None or not fits(start, doc):
        try:
            start = deal_snapshot.load(read.snapshot)
        except BadSnapshot as exc:
            start, broken = None, exc
        if start is not None and not deal_snapshot.belongs(start, doc):
            start, broken = None, BadSnapshot("its deal is not one the game dealt")
        if start is not None and not fits(start, doc):
            start = None
    return Game(doc, build_state(doc, start), read.version), broken


def deal_start_snapshot(before: Game | None, after: Game) -> str | None:
    """The new deal's first state, when ``after`` dealt one (``None`` otherwise)."""
    doc = after.doc
    dealt_before = len(before.doc.deals) if before is not None else 0
    if len(doc.deals) <= dealt_before or after.state is None:
        return None
    if doc.deal_starts and doc.deal_starts[-1] == len(doc.moves):
        return deal_snapshot.dump(after.state)  # nothing moved since the deal
    return deal_snapshot.dump(deal_start_state(doc, before.state if before else None))

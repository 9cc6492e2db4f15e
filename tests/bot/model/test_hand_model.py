"""A seat's own model: its tiles, each legal move typed with its notation, and for every
other tile the engine's reason it cannot be played now."""

from __future__ import annotations

import random

import engine
from bot.model.hand import HandView, hand_view
from tests.bot.model.games import TABLES, positions


def test_a_hand_holds_the_seat_s_tiles_its_moves_and_why_the_others_do_not_fit() -> None:
    rng = random.Random(21)
    refused = 0
    for number in range(len(TABLES)):
        for doc, state in positions(rng, number):
            if state.deal_over:
                continue
            for seat in range(state.players):
                hand = hand_view(doc, state, seat, refusals=True)
                view = engine.view(state, seat)
                assert hand.refusals is not None
                assert hand_view(doc, state, seat).refusals is None  # not asked for
                assert hand.version == doc.step
                assert [t.tile() for t in hand.tiles] == list(state.hands[seat])
                assert hand.counter == state.counter
                moves = [engine.parse_move(m.notation) for m in hand.moves]
                assert moves == [m.unflipped() for m in view.legal]
                assert [m.move() for m in hand.moves] == moves
                named = {m.tile.tile() for m in hand.moves if m.tile is not None}
                named |= {m.second.tile() for m in hand.moves if m.second is not None}
                reasons = {r.tile.tile(): r.reason for r in hand.refusals}
                assert set(reasons) == set(state.hands[seat]) - named
                if seat != state.turn:
                    assert set(reasons.values()) <= {"not_your_turn"}
                refused += len(reasons)
                assert HandView.model_validate_json(hand.model_dump_json()) == hand
    assert refused


def test_a_tile_that_fits_neither_end_names_both() -> None:
    rng = random.Random(22)
    for doc, state in positions(rng, 0):  # Tyaga
        if state.deal_over or state.turn is None or not state.line:
            continue
        hand = hand_view(doc, state, state.turn, refusals=True)
        assert hand.refusals is not None
        for refusal in hand.refusals:
            assert refusal.reason == "does_not_fit"
            assert state.ends is not None
            assert (refusal.params["left"], refusal.params["right"]) == state.ends
            return
    raise AssertionError("no Tyaga position had a tile that fits neither end")

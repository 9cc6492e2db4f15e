"""Caravans in Thief of Baghdad: the closed ones the deal keeps, the thieves
that steal the active caravan and the handcuffs that win a stolen one back.

A steal or a recovery is the extra a seat may add right after laying his own
camel; the turn ends with it (the caller ends it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from engine.dealing import replace_hand, without
from engine.errors import IllegalMove
from engine.moves import Move
from engine.public import Caravan as Caravan
from engine.public import Phase as Phase
from engine.state import Event, State
from engine.tiles import Tile
from engine.variants.refusals import not_in_hand

THIEVES: Final = frozenset((Tile(3, 3), Tile(6, 0), Tile(5, 1), Tile(4, 2)))
#: The handcuff doubles that win back a caravan stolen by each thief, higher first.
#: ``[3|3]`` has none: what it steals stays stolen.
HANDCUFFS: Final = {
    Tile(6, 0): (Tile(6, 6), Tile(0, 0)),
    Tile(5, 1): (Tile(5, 5), Tile(1, 1)),
    Tile(4, 2): (Tile(4, 4), Tile(2, 2)),
}
CUFF_TILES: Final = frozenset(t for pair in HANDCUFFS.values() for t in pair)
_THIEF_OF_CUFFS: Final = {cuffs: thief for thief, cuffs in HANDCUFFS.items()}


@dataclass(frozen=True, slots=True)
class BaghdadDetail:
    caravans: tuple[Caravan, ...]  # closed caravans, in the order they were closed
    phase: Phase
    drawn: Tile | None  # the tile drawn this turn, while it is the only one playable
    penalties: tuple[int, ...]  # "no camel" points each seat received this deal

    def at(self, phase: Phase, drawn: Tile | None = None) -> BaghdadDetail:
        return BaghdadDetail(self.caravans, phase, drawn, self.penalties)


BaghdadState = State[BaghdadDetail]
Outcome = tuple[BaghdadState, tuple[Event, ...]]


def extras(state: State[Any], seat: int) -> list[Move]:
    """The steal and the recoveries open to ``seat`` right after his camel."""
    hand = state.hands[seat]
    moves: list[Move] = []
    if state.ends is not None:
        shown = Tile(*state.ends)
        if shown in THIEVES and shown in hand:
            moves.append(Move.steal(shown))
    for caravan in state.detail.caravans:
        if caravan.status != "stolen" or caravan.owner == seat or caravan.thief is None:
            continue
        cuffs = HANDCUFFS.get(caravan.thief)
        if cuffs is not None and cuffs[0] in hand and cuffs[1] in hand:
            moves.append(Move.recover(*cuffs))
    return moves


def steal(state: State[Any], seat: int, move: Move) -> tuple[BaghdadState, list[Event]]:
    """Close the active caravan as ``seat``'s: its ends show the thief he lays."""
    thief = move.tile
    assert thief is not None and state.ends is not None
    if thief not in THIEVES:
        raise IllegalMove(f"{thief} is not a thief", "not_thief", tile=str(thief))
    hand = state.hands[seat]
    if thief not in hand:
        raise not_in_hand(thief)
    left, right = state.ends
    shown = Tile(left, right)
    if shown is not thief:
        text = (
            f"{thief} cannot steal this caravan: its ends show {left} and {right}"
            if shown in THIEVES
            else f"nothing to steal: the caravan's ends show {left} and {right}"
        )
        raise IllegalMove(text, "no_steal", tile=str(thief), left=left, right=right)
    detail: BaghdadDetail = state.detail
    caravan = Caravan(state.line, "stolen", seat, thief)
    stolen = state.but(
        hands=replace_hand(state.hands, seat, without(hand, thief)),
        line=(),
        ends=None,
        counter=state.counter + 1,
        last_player=seat,
        detail=BaghdadDetail((*detail.caravans, caravan), Phase.MAIN, None, detail.penalties),
    )
    info = (("caravan", len(detail.caravans)), ("camels", len(caravan.camels)))
    return stolen, [Event("move", seat, move), Event("steal", seat, move, thief, info)]


def recover(state: State[Any], seat: int, move: Move) -> tuple[BaghdadState, list[Event]]:
    """Win back the first caravan the opponent stole with the thief these handcuffs catch."""
    first, second = move.tile, move.second
    assert first is not None and second is not None
    pair = (first, second) if first.index >= second.index else (second, first)
    thief = _THIEF_OF_CUFFS.get(pair)
    if thief is None:
        text = f"{first} and {second} are not a pair of handcuffs"
        raise IllegalMove(text, "not_handcuffs", tiles=f"{first} {second}")
    hand = state.hands[seat]
    for tile in pair:
        if tile not in hand:
            raise not_in_hand(tile)
    detail: BaghdadDetail = state.detail
    caravans = detail.caravans
    found = [
        i
        for i, c in enumerate(caravans)
        if c.thief is thief and c.status == "stolen" and c.owner != seat
    ]
    if not found:
        text = f"nothing to recover: your opponent holds no caravan stolen by {thief}"
        raise IllegalMove(text, "no_recover", thief=str(thief))
    i = found[0]
    won_back = Caravan(caravans[i].camels, "recovered", seat, thief, pair)
    recovered = state.but(
        hands=replace_hand(state.hands, seat, without(without(hand, pair[0]), pair[1])),
        counter=state.counter + 1,
        last_player=seat,
        detail=BaghdadDetail(
            (*caravans[:i], won_back, *caravans[i + 1 :]), Phase.MAIN, None, detail.penalties
        ),
    )
    info = (("caravan", i), ("camels", len(won_back.camels)))
    return recovered, [Event("move", seat, move), Event("recover", seat, move, thief, info)]

"""Possible worlds for one seat: the tiles it cannot see, dealt again at random
into the other hands and the boneyard, consistently with what the table showed.

Everything here is built from the seat's :class:`~engine.View` (its hand, the
line, the caravans, the counts, the table's options) and the clues of
:mod:`bot.ai.clues`; the real hidden hands are never read.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from engine import (
    BaghdadPublic,
    Caravan,
    GunsPublic,
    Kind,
    KozelPublic,
    Phase,
    Tile,
    View,
    get_variant,
)
from engine.playout import BaghdadSim, GunsSim, Rules, Sim, Simulator
from engine.playout.baghdad import AFTER_DRAW, EXTRA, MAIN
from engine.playout.codes import BIT, mask_of, tiles_of

#: Tries at dealing the hidden tiles so that every clue holds, before giving up
#: on the clues for that world (they can only fail to fit together if a rule
#: they stand for is read more strictly than the engine plays it). Late in a
#: deal where every other seat has passed, as few as one try in five may fit
#: (Kozel for four, 12 tiles unseen): 20 tries then missed one world in a hundred.
ATTEMPTS: Final = 100
_PHASES: Final = {Phase.MAIN: MAIN, Phase.AFTER_DRAW: AFTER_DRAW, Phase.EXTRA: EXTRA}


def seat_of(view: View) -> int:
    """The seat whose view this is (a spectator's view has none to play)."""
    if view.seat is None:
        raise ValueError("a spectator's view has no seat to play for")
    return view.seat


class Worlds:
    """Deals possible worlds for the seat whose ``view`` this is."""

    def __init__(self, view: View, lacks: Sequence[int] | None = None) -> None:
        self.view = view
        self.seat = seat_of(view)
        self.base = base_simulator(view)
        self.unseen = tiles_of(unseen_mask(view))
        self.lacks = tuple(lacks) if lacks is not None else (0,) * view.players
        others = [s for s in range(view.players) if s != self.seat]
        allowed = {s: sum(1 for t in self.unseen if not BIT[t] & self.lacks[s]) for s in others}
        # The seat with the least room first, so a tight clue is met before the
        # tiles it may hold are taken by others.
        self.order = sorted(others, key=lambda s: allowed[s] - view.hand_counts[s])
        hidden = sum(view.hand_counts[s] for s in others) + self.boneyard_size
        if hidden != len(self.unseen):
            raise ValueError(f"{hidden} hidden tiles but {len(self.unseen)} unseen in {view}")

    @property
    def boneyard_size(self) -> int:
        # Where nobody draws, the boneyard is a tile set aside face up.
        return self.view.boneyard if get_variant(self.view.variant).draws else 0

    def sample(self, rng: random.Random) -> Simulator:
        """One world, as a simulator ready to play on."""
        world = self.base.copy()
        hands, bone = self.deal(rng)
        for seat, mask in hands.items():
            world.hands[seat] = mask
        if not isinstance(world, GunsSim):
            world.bone = bone
        return world

    def deal(self, rng: random.Random) -> tuple[dict[int, int], list[int]]:
        """Hidden hands by seat and the boneyard (next draw last)."""
        counts = self.view.hand_counts
        draw = rng.random
        for attempt in range(ATTEMPTS + 1):
            # A random order: sorted by a random float each, half the time of
            # rng.shuffle's loop (a tie, odds about 1 in 10**13, would only keep
            # two tiles in their old order).
            pool = sorted(self.unseen, key=lambda _: draw())
            hands: dict[int, int] = {}
            for seat in self.order:
                count = counts[seat]
                lack = self.lacks[seat] if attempt < ATTEMPTS else 0
                if not lack:  # the first tiles of the shuffled pool, as they come
                    hands[seat] = mask_of_indices(pool[:count])
                    pool = pool[count:]
                    continue
                taken = [t for t in pool if not BIT[t] & lack][:count]
                if len(taken) < count:
                    break
                hands[seat] = mask_of_indices(taken)
                pool = [t for t in pool if not BIT[t] & hands[seat]]
            else:
                return hands, pool
        raise AssertionError("unreachable: the last attempt ignores the clues")


def mask_of_indices(tiles: Sequence[int]) -> int:
    return sum(BIT[t] for t in tiles)  # distinct tiles, distinct bits: the sum is their union


def table_tiles(view: View) -> tuple[Tile, ...]:
    """Every tile face up: the line, the closed caravans with their thieves and
    handcuffs, and Three Guns' 6-6 set aside."""
    return tuple(Tile(p.left, p.right) for p in view.line) + view.details.face_up()


def unseen_mask(view: View) -> int:
    full = get_variant(view.variant).tiles
    return mask_of(full) & ~mask_of(view.hand) & ~mask_of(table_tiles(view))


def base_simulator(view: View) -> Simulator:
    """The seat's deal as a simulator, the hidden hands and boneyard left empty."""
    if view.turn is None or view.deal_over:
        raise ValueError("the deal is not being played")
    hands = [0] * view.players
    hands[seat_of(view)] = mask_of(view.hand)
    details = view.details
    if isinstance(details, GunsPublic):
        shows, accepts = list(details.shows), list(details.accepts)
        return GunsSim(tuple(view.match_scores), hands, shows, accepts, view.turn)
    if isinstance(details, BaghdadPublic):
        return _baghdad(view, details, hands)
    opened = details.opened if isinstance(details, KozelPublic) else (False,) * view.players
    rules = Rules.of(view.variant, view.players, view.options, opened)
    table = mask_of(tuple(Tile(p.left, p.right) for p in view.line))
    return Sim(rules, hands, [], view.ends, -1, view.turn, -1, table)


def _baghdad(view: View, details: BaghdadPublic, hands: list[int]) -> BaghdadSim:
    caravans = [_closed(c) for c in details.caravans if c.closed]
    phase = _PHASES[details.phase]
    drawn = -1
    if phase == AFTER_DRAW:
        played = next(m.tile for m in view.legal if m.kind is Kind.PLAY and m.tile is not None)
        drawn = played.index
    assert view.turn is not None
    return BaghdadSim(
        hands,
        [],
        view.ends,
        len(view.line),
        caravans,
        phase,
        drawn,
        list(details.penalties),
        view.turn,
    )


def _closed(caravan: Caravan) -> list[int]:
    """A closed caravan as the simulator keeps it: its thief's index, its owner, its
    camels and whether it was won back (every closed caravan was stolen first)."""
    if caravan.thief is None or caravan.owner is None:
        raise ValueError(f"a closed caravan never stolen: {caravan}")
    recovered = int(caravan.status == "recovered")
    return [caravan.thief.index, caravan.owner, len(caravan.camels), recovered]

"""Playing a deal to its end: with any policy, or at random in one tight loop."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from engine.playout.baghdad import BaghdadSim
from engine.playout.codes import BIT, DOUBLE, DOUBLE_BIT, DRAW, FIT, NEXT_SEAT, PASS, PIPS
from engine.playout.guns import GunsSim
from engine.playout.sim import Outcome, Sim
from engine.state import DealEnd, State

#: A simulator of any of the four games.
Simulator = Sim | BaghdadSim | GunsSim

#: Picks one of the legal codes for the seat to move.
Policy = Callable[[Sim, Sequence[int]], int]


def simulator(state: State[Any]) -> Simulator:
    """The simulator for the deal being played in ``state``."""
    if state.variant == "baghdad":
        return BaghdadSim.from_state(state)
    if state.variant == "three_guns":
        return GunsSim.from_state(state)
    return Sim.from_state(state)  # Tyaga and Kozel; any other game is refused by name


def simulate(
    state: State[Any],
    rng: random.Random,
    policy: Policy | None = None,
    trace: list[int] | None = None,
) -> Outcome:
    """Play the rest of ``state``'s deal on a simulator and say how it ended."""
    return playout(Sim.from_state(state), rng, policy, trace)


def playout(
    sim: Sim,
    rng: random.Random,
    policy: Policy | None = None,
    trace: list[int] | None = None,
) -> Outcome:
    """Play the rest of the deal in place and return how it ended.

    ``policy(sim, legal)`` picks each move; without one, each move is drawn
    uniformly from the legal ones with ``rng``. ``trace``, when given, receives
    every move's code.
    """
    if policy is None:
        if sim.turn >= 0 and sim.left < 0:  # the lead: one move, off the fast loop
            _step(sim, _pick_at_random(rng), trace)
        if sim.turn >= 0:
            _random_to_end(sim, rng.random, trace)
    else:
        while sim.turn >= 0:
            _step(sim, policy, trace)
    assert sim.outcome is not None
    return sim.outcome


def _step(sim: Sim, policy: Policy, trace: list[int] | None) -> None:
    code = policy(sim, sim.legal())
    if trace is not None:
        trace.append(code)
    sim.apply(code)


def _pick_at_random(rng: random.Random) -> Policy:
    def pick(sim: Sim, legal: Sequence[int]) -> int:
        return legal[int(rng.random() * len(legal))]

    return pick


def _random_to_end(sim: Sim, random: Callable[[], float], trace: list[int] | None) -> None:
    """:meth:`Sim.legal` and :meth:`Sim.apply` unrolled into one loop over locals,
    picking uniformly among the legal moves without listing them. The line is
    not empty. Kept in step with ``Sim`` by the property tests."""
    hands, bone = sim.hands, sim.bone
    after = NEXT_SEAT[sim.rules.players]
    double_move = sim.rules.double_move
    left, right, turn, last, table = sim.left, sim.right, sim.turn, sim.last, sim.table
    fit_left, fit_right = FIT[left], FIT[right]
    loose = 0  # every tile in a hand: with the boneyard empty, a block is loose & fits == 0
    for hand in hands:
        loose |= hand
    # Moves are counted at the end from what changed; only these two leave no trace.
    passes = doubles = 0
    drawn = len(bone)
    winner = None
    while True:
        hand = hands[turn]
        on_left = hand & fit_left
        on_right = hand & fit_right
        if on_left or on_right:
            n_left = on_left.bit_count()
            n = n_left + on_right.bit_count()
            pick = 0 if n == 1 else int(random() * n)
            if double_move and left != right:
                both = DOUBLE_BIT[left] | DOUBLE_BIT[right]
                if hand & both == both:
                    pick = int(random() * (n + 1))  # the double move is the last choice
            if pick < n_left:
                while pick:  # drop the lowest tiles until the picked one is lowest
                    on_left &= on_left - 1
                    pick -= 1
                placed = on_left & -on_left
                tile = placed.bit_length() - 1
                left = PIPS[tile] - left  # the other half of a tile is its pips less this one
                fit_left = FIT[left]
                code = tile << 1
            elif pick < n:
                pick -= n_left
                while pick:
                    on_right &= on_right - 1
                    pick -= 1
                placed = on_right & -on_right
                tile = placed.bit_length() - 1
                right = PIPS[tile] - right
                fit_right = FIT[right]
                code = tile << 1 | 1
            else:
                placed = both  # a double on each end leaves both ends as they were
                doubles += 1
                code = DOUBLE
            if trace is not None:
                trace.append(code)
            hand ^= placed
            hands[turn] = hand
            table |= placed
            loose ^= placed
            last = turn
            if not hand:
                winner = turn
                break
            turn = after[turn]
            if not bone and not loose & (fit_left | fit_right):
                break
        elif bone:
            tile = bone.pop()
            hands[turn] = hand | BIT[tile]
            loose |= BIT[tile]
            if trace is not None:
                trace.append(DRAW)
            if not bone and not loose & (fit_left | fit_right):
                break
        else:
            if trace is not None:
                trace.append(PASS)
            passes += 1
            turn = after[turn]
    placed_now = (table ^ sim.table).bit_count() - doubles
    sim.moves += placed_now + drawn - len(bone) + passes
    sim.left, sim.right, sim.last, sim.table = left, right, last, table
    sim.finish(DealEnd.DOMINO if winner is not None else DealEnd.BLOCK, winner)


def finish_at_random(sim: Simulator, rng: random.Random) -> Outcome:
    """Play the rest of any simulator's deal with its own light policy."""
    if isinstance(sim, Sim):
        return playout(sim, rng)
    return sim.play_out(rng)

"""Playing a deal to its end: with any policy, or at random in one tight loop.

The random loop (:func:`_run`) and :func:`scores_each`, which plays each of a
seat's moves out from one possible world, are where a computer player spends
its thinking time: every move of every playout of every world passes through
them, so they are written for speed over plain reading (locals, look-up tables
in :mod:`engine.playout.codes`, no objects built per move), and property tests
hold them move for move to :class:`Sim` and the engine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final

from engine.playout.baghdad import BaghdadSim
from engine.playout.codes import (
    BIT,
    DOUBLE,
    DOUBLE_BIT,
    DRAW,
    FIT,
    INDEX_OF_BIT,
    NEXT_SEAT,
    PASS,
    PIPS,
    PIPS_OF_BIT,
    SPLIT,
    lay,
    pip_slices,
)
from engine.playout.guns import GunsSim
from engine.playout.sim import WRITTEN, Outcome, Sim, lowest, points_left, written
from engine.state import DealEnd, State
from engine.variants.kozel_scoring import BLANK_DOUBLE_POINTS

#: No double move: no double of either end counts.
NO_DOUBLES: Final = (0,) * len(DOUBLE_BIT)

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
    """Play the rest of the deal at random with :func:`_run` and write where it
    ended back into ``sim``. The line is not empty and the deal not blocked."""
    bone = sim.bone
    drawn = len(bone)
    rules = sim.rules
    winner, sim.left, sim.right, sim.last, table, passes, doubles = _run(
        sim.hands,
        bone,
        sim.left,
        sim.right,
        sim.turn,
        sim.last,
        sim.table,
        NEXT_SEAT[rules.players],
        rules.double_move,
        random,
        trace,
    )
    # Moves are counted from what changed; only passes and double moves leave no trace.
    sim.moves += (table ^ sim.table).bit_count() - doubles + drawn - len(bone) + passes
    sim.table = table
    sim.finish(DealEnd.DOMINO if winner is not None else DealEnd.BLOCK, winner)


def _run(
    hands: list[int],
    bone: list[int],
    left: int,
    right: int,
    turn: int,
    last: int,
    table: int,
    after: Sequence[int],
    double_move: bool,
    random: Callable[[], float],
    trace: list[int] | None,
) -> tuple[int | None, int, int, int, int, int, int]:
    """:meth:`Sim.legal` and :meth:`Sim.apply` unrolled into one loop over locals,
    picking uniformly among the legal moves without listing them, to the deal's
    end. ``hands`` and ``bone`` change in place; the rest comes back: the seat
    that dominoed (None at a block), the ends, who laid last, the line's mask,
    and how many passes and double moves were made. Kept in step with ``Sim``
    by the property tests."""
    split, pips_of, fit = SPLIT, PIPS_OF_BIT, FIT
    fit_left, fit_right = fit[left], fit[right]
    # The double of each end, 0 for none when the double move is off.
    double_of = DOUBLE_BIT if double_move else NO_DOUBLES
    double_left, double_right = double_of[left], double_of[right]
    loose = 0  # every tile in a hand: with the boneyard empty, a block is loose & fits == 0
    for hand in hands:
        loose |= hand
    passes = doubles = 0
    while True:
        hand = hands[turn]
        n_left, on_left = split[hand & fit_left]
        n_right, on_right = split[hand & fit_right]
        if n_left or n_right:
            n = n_left + n_right
            if hand & double_left and hand & double_right and left != right:
                pick = int(random() * (n + 1))  # the double move is the last choice
            else:
                pick = 0 if n == 1 else int(random() * n)
            if pick < n_left:
                placed = on_left[pick]
                left = pips_of[placed] - left  # the other half of a tile is its pips less this one
                fit_left, double_left = fit[left], double_of[left]
                if trace is not None:
                    trace.append(INDEX_OF_BIT[placed] << 1)
            elif pick < n:
                placed = on_right[pick - n_left]
                right = pips_of[placed] - right
                fit_right, double_right = fit[right], double_of[right]
                if trace is not None:
                    trace.append(INDEX_OF_BIT[placed] << 1 | 1)
            else:
                placed = double_left | double_right  # they leave both ends as they were
                doubles += 1
                if trace is not None:
                    trace.append(DOUBLE)
            hand ^= placed
            hands[turn] = hand
            table |= placed
            loose ^= placed
            last = turn
            if not hand:
                return turn, left, right, last, table, passes, doubles
            turn = after[turn]
            if not bone and not loose & (fit_left | fit_right):
                break
        elif bone:
            fits = fit_left | fit_right
            while True:  # draw until a tile fits or the boneyard is empty
                drawn = BIT[bone.pop()]
                hand |= drawn
                if trace is not None:
                    trace.append(DRAW)
                if drawn & fits or not bone:
                    break
            hands[turn] = hand
            loose |= hand
            if not bone and not loose & fits:
                break
        else:
            if trace is not None:
                trace.append(PASS)
            passes += 1
            turn = after[turn]
    return None, left, right, last, table, passes, doubles


def scores_each(sim: Simulator, codes: Sequence[int], rng: random.Random) -> list[tuple[int, ...]]:
    """What the deal writes on the sheets (``Outcome.scores``) when each of
    ``codes`` is played from ``sim`` and the rest of the deal at random, one
    playout per code; ``sim`` is left as it was. The same, random numbers and
    all, as copying ``sim``, applying the code and :func:`finish_at_random`,
    code after code; for Tyaga and Kozel without building those copies and
    outcomes."""
    if not isinstance(sim, Sim):
        return [_scores_after(sim, code, rng) for code in codes]
    random = rng.random
    rules = sim.rules
    after = NEXT_SEAT[rules.players]
    double_move = rules.double_move
    hands_now, bone, seat = sim.hands, sim.bone, sim.turn
    left_now, right_now = sim.left, sim.right
    table = sim.table
    # Kozel's sheets one by one (not teams, nor [0|0] at 25 alone): a look-up a seat.
    sheets = None
    if rules.variant == "kozel" and not rules.teams and rules.blank_rule != "alone":
        sheets = [WRITTEN[opened] for opened in rules.opened]
        a, b, c, d = pip_slices(BLANK_DOUBLE_POINTS if rules.blank_rule == "always" else 0)
    results = []
    for code in codes:
        if code >= DRAW:  # a draw, a pass or a double move: the simulator's own way
            results.append(_scores_after(sim, code, rng))
            continue
        tile = code >> 1
        placed = BIT[tile]
        hands = hands_now[:]
        hand = hands[seat] ^ placed
        hands[seat] = hand
        if left_now < 0:  # the lead
            left, right = lay(left_now, right_now, tile, code & 1)
        elif code & 1:
            left, right = left_now, PIPS[tile] - right_now
        else:
            left, right = PIPS[tile] - left_now, right_now
        winner: int | None = seat
        if hand:
            fits = FIT[left] | FIT[right]
            if bone or any(h & fits for h in hands):
                winner = _run(
                    hands,
                    bone[:],
                    left,
                    right,
                    after[seat],
                    seat,
                    table | placed,
                    after,
                    double_move,
                    random,
                    None,
                )[0]
            else:
                winner = None  # blocked at once
        if sheets is not None:
            results.append(
                tuple(
                    [
                        sheet[a[h & 127] + b[h >> 7 & 127] + c[h >> 14 & 127] + d[h >> 21]]
                        for sheet, h in zip(sheets, hands, strict=True)
                    ]
                )
            )
            continue
        points = points_left(rules, hands)
        results.append(written(rules, points, lowest(points) if winner is None else winner))
    return results


def _scores_after(sim: Simulator, code: int, rng: random.Random) -> tuple[int, ...]:
    twin = sim.copy()
    twin.apply(code)
    outcome = twin.outcome if twin.outcome is not None else finish_at_random(twin, rng)
    return outcome.scores


def finish_at_random(sim: Simulator, rng: random.Random) -> Outcome:
    """Play the rest of any simulator's deal with its own light policy."""
    if isinstance(sim, Sim):
        return playout(sim, rng)
    return sim.play_out(rng)

"""A compact mutable simulator for computer players' playouts.

The engine's immutable states are built for correctness and sharing; a computer
player that searches by playing thousands of deals to the end needs something
cheaper. :class:`Sim` holds one deal in progress as small ints — each hand a
bitmask over tile indices, the boneyard a list of indices, the open ends two
ints — mutated in place; :meth:`Sim.copy` is two list copies. :func:`playout`
plays the rest of a deal, at random in one tight loop or with a policy, and
returns an :class:`Outcome` worded like the engine's ``DealResult``.

Covered: Tyaga and Kozel with every option (the double move, ``[0|0]`` at 25
under both ``blank_double`` settings, the 13 rule and teams in a deal's scores)
by :class:`Sim`; Thief of Baghdad (caravans, thieves, handcuffs, the "no camel"
penalty) by :class:`BaghdadSim`; Three Guns (the rule of sixes, plays across,
the token a deal moves) by :class:`GunsSim`. :func:`simulator` picks the right
one. A simulator starts from any state of a deal in progress, before or after
the lead; it plays one deal, so match totals, the next leader and the next
deal are left to the engine. ``Sim`` alone refuses the other two games with
:class:`UnsupportedVariant`.

Moves are small ints (:mod:`engine.playout.codes`); :meth:`Sim.move_of` and
:meth:`Sim.code_of` translate them. Property tests check move for move that
:meth:`Sim.legal`, :meth:`Sim.apply` and the random loop agree with the engine.

Typical use, one playout per possible world::

    base = Sim.from_state(state)
    for _ in range(n):
        world = base.copy()
        world.redeal(rng, keep=me)
        outcome = playout(world, rng)

or, to weigh each of a seat's moves over the same worlds,
``scores_each(world, sim.legal(), rng)``: what the deal writes after each move
played out once at random, without building copies and outcomes.
"""

from engine.playout.baghdad import BaghdadSim
from engine.playout.codes import DOUBLE, DRAW, PASS, play_code
from engine.playout.guns import GunsSim
from engine.playout.run import (
    Policy,
    Simulator,
    finish_at_random,
    playout,
    scores_each,
    simulate,
    simulator,
)
from engine.playout.sim import Outcome, Rules, Sim, UnsupportedVariant

__all__ = [
    "DOUBLE",
    "DRAW",
    "PASS",
    "BaghdadSim",
    "GunsSim",
    "Outcome",
    "Policy",
    "Rules",
    "Sim",
    "Simulator",
    "UnsupportedVariant",
    "finish_at_random",
    "play_code",
    "playout",
    "scores_each",
    "simulate",
    "simulator",
]

"""How fast the engine plays random games, next to the `dominoes` library.

Run from the repository root: ``.venv/bin/python bench/bench_engine.py``
(``--games N --repeat R --chunk C`` to change the work; ``--seed S`` for other deals).

What is compared, one deal per game, every move picked uniformly at random:

* **dominoes library** (PyPI ``dominoes``, the independent engine in the dev
  extra): ``Game.new(starting_domino=Domino(6, 6))`` deals 4 hands of 7 and lays
  the ``[6|6]`` for its holder; then ``make_move`` until ``game.result`` is set.
  Two loops are timed: the library's own random player
  (``dominoes.players.random`` then the first of ``valid_moves``) and a plain
  ``random.choice(game.valid_moves)``. Ratios are taken against the faster one.
  The library skips passes inside ``make_move``, so its move count has none.
* **engine, public API**: the same game is Tyaga with 4 players and
  ``opening=double_six``: ``api.new_match`` (a seeded shuffle) and then
  ``api.legal_moves`` / ``api.apply`` until the deal is over. Every applied move
  counts, passes included.
* **playout simulator** (``engine.playout``): the computer players' path. The
  engine deals one Tyaga deal and lays its ``[6|6]`` once, outside the clock;
  each game then copies that position, ``redeal``s the 27 tiles left among the
  four hands at random (a fresh deal, as the library's ``Game.new`` shuffles and
  leads), and plays it out with ``playout``. A second figure plays out positions
  that the engine dealt, converting each with ``Sim.from_state`` on the clock.

Then, as figures without comparison: the other games through the public API
(Kozel, Thief of Baghdad, Three Guns, with their default options) and Kozel on
the simulator.

Timing (time.perf_counter): the games are played in chunks of ``--chunk``, the
paths taking turns chunk by chunk, ``--repeat`` times over; each figure is its
path's best chunk. On a shared machine the load comes and goes within seconds,
and the best chunk is the one least disturbed, for every path alike.
The targets are the public path at least as fast as the library, and the
simulator at least 5 times the library's games per second. Nothing here is
asserted.

Counting instructions instead, which the machine's load does not disturb:
``--play library`` or ``--play public`` plays ``--games`` games of that loop
once, untimed. Run it under ``valgrind --tool=callgrind`` for N and for 2N
games: the difference divided by N is one game's instructions, start-up and
imports cancelled out.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import dominoes

from engine import api
from engine.playout import Sim, playout
from engine.state import State

# A path plays the games numbered in a range (the same games whenever it is
# given the same range) and returns how many moves they made.
PlayChunk = Callable[[range], int]
TYAGA_4 = ("tyaga", 4, {"opening": "double_six"})


@dataclass
class Figure:
    name: str
    games: int = 0
    moves: int = 0
    seconds: float = 0.0

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def moves_per_s(self) -> float:
        return self.moves / self.seconds

    def line(self) -> str:
        per_game = self.moves / self.games
        return (
            f"{self.name:<46} {self.games_per_s:>10,.0f} games/s {self.moves_per_s:>11,.0f} "
            f"moves/s  ({per_game:.1f} moves a game)"
        )


def time_paths(paths: dict[str, PlayChunk], games: int, repeat: int, chunk: int) -> list[Figure]:
    """Time every path over the same ``games``, chunk by chunk.

    The paths take turns on each chunk, ``repeat`` times, and each chunk counts
    with its fastest time: the same games every time, so the load of a shared
    machine, which comes and goes within seconds, is what the minimum removes.
    """
    figures = {name: Figure(name) for name in paths}
    for first in range(0, games, chunk):
        numbers = range(first, min(first + chunk, games))
        best = dict.fromkeys(paths, float("inf"))
        moves = dict.fromkeys(paths, 0)  # the same every time: the same games
        for _ in range(repeat):
            for name, play_chunk in paths.items():
                started = time.perf_counter()
                moves[name] = play_chunk(numbers)
                best[name] = min(best[name], time.perf_counter() - started)
        for name, figure in figures.items():
            figure.games += len(numbers)
            figure.moves += moves[name]
            figure.seconds += best[name]
    return list(figures.values())


# -- the library ---------------------------------------------------------------


def library_own_player(numbers: range) -> int:
    random.seed(numbers.start)  # the library deals from the module's generator
    moves = 0
    for _ in numbers:
        game = dominoes.Game.new(starting_domino=dominoes.Domino(6, 6))
        moves += 1  # the [6|6], laid by Game.new
        while game.result is None:
            dominoes.players.random(game)
            game.make_move(*game.valid_moves[0])
            moves += 1
    return moves


def library_choice(numbers: range) -> int:
    random.seed(numbers.start)
    choose = random.choice
    moves = 0
    for _ in numbers:
        game = dominoes.Game.new(starting_domino=dominoes.Domino(6, 6))
        moves += 1
        while game.result is None:
            game.make_move(*choose(game.valid_moves))
            moves += 1
    return moves


# -- the engine ----------------------------------------------------------------


def public_api(variant: str, players: int, options: dict[str, Any], seed: int) -> PlayChunk:
    """One random deal of ``variant`` per game through the public API."""
    rng = random.Random()

    def play_chunk(numbers: range) -> int:
        rng.seed(seed + numbers.start)
        choose = rng.choice
        moves = 0
        for number in numbers:
            state = api.new_match(variant, players, options, seed=seed + number)
            while not state.deal_over:
                state, _ = api.apply(state, choose(api.legal_moves(state)))
                moves += 1
        return moves

    return play_chunk


def after_lead(variant: str, players: int, options: dict[str, Any], seed: int) -> State[Any]:
    state = api.new_match(variant, players, options, seed=seed)
    state, _ = api.apply(state, random.Random(seed).choice(api.legal_moves(state)))
    return state


def redeal_and_playout(variant: str, players: int, options: dict[str, Any], seed: int) -> PlayChunk:
    """A fresh random deal from one led position, played out, per game."""
    base = Sim.from_state(after_lead(variant, players, options, seed))
    rng = random.Random()

    def play_chunk(numbers: range) -> int:
        rng.seed(seed + numbers.start)
        moves = len(numbers)  # the leads, as the other paths count them
        for _ in numbers:
            world = base.copy()
            world.redeal(rng)
            moves += playout(world, rng).moves
        return moves

    return play_chunk


def playout_engine_deals(
    variant: str, players: int, options: dict[str, Any], seed: int, games: int
) -> PlayChunk:
    """Play out ``games`` positions the engine dealt and led (dealt before timing)."""
    states = [after_lead(variant, players, options, seed + n) for n in range(games)]
    rng = random.Random()

    def play_chunk(numbers: range) -> int:
        rng.seed(seed + numbers.start)
        moves = len(numbers)
        for number in numbers:
            moves += playout(Sim.from_state(states[number]), rng).moves
        return moves

    return play_chunk


# -- report --------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per path and round")
    parser.add_argument("--repeat", type=int, default=3, help="passes over the games")
    parser.add_argument("--chunk", type=int, default=100, help="games timed at once")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--play", choices=("library", "public"), help="only play this loop's games, untimed"
    )
    args = parser.parse_args()
    games, repeat, chunk, seed = args.games, args.repeat, args.chunk, args.seed
    if args.play is not None:
        loop = library_choice if args.play == "library" else public_api(*TYAGA_4, seed)
        moves = loop(range(games))
        print(f"{args.play}: {games} games, {moves} moves")
        return

    print(
        f"Random 4-player block games, one deal each: {games} games per path, each chunk"
        f" of {chunk} timed {repeat} times, fastest counted."
    )
    library = time_paths(
        {
            "dominoes library, its random player": library_own_player,
            "dominoes library, random.choice": library_choice,
            "engine public API (tyaga 4p double_six)": public_api(*TYAGA_4, seed),
            "engine.playout: redeal + playout": redeal_and_playout(*TYAGA_4, seed),
            "engine.playout: from_state + playout": playout_engine_deals(*TYAGA_4, seed, games),
        },
        games,
        repeat,
        chunk,
    )
    for figure in library:
        print(figure.line())
    baseline = max(library[:2], key=lambda f: f.games_per_s)
    print(f"\nRatios in games/s against the faster library loop ({baseline.name}):")
    for figure, target in zip(library[2:], (1.0, 5.0, 5.0), strict=True):
        ratio = figure.games_per_s / baseline.games_per_s
        verdict = "meets" if ratio >= target else "MISSES"
        print(f"  {figure.name:<44} {ratio:5.2f}x  ({verdict} the {target:g}x target)")

    print("\nOther games, one random deal each (figures only):")
    others = time_paths(
        {
            "engine public API, kozel 4p": public_api("kozel", 4, {}, seed),
            "engine public API, kozel 2p": public_api("kozel", 2, {}, seed),
            "engine public API, baghdad 2p": public_api("baghdad", 2, {}, seed),
            "engine public API, three_guns 3p": public_api("three_guns", 3, {}, seed),
            "engine public API, tyaga 2p": public_api("tyaga", 2, {}, seed),
            "engine.playout: redeal + playout, kozel 4p": redeal_and_playout("kozel", 4, {}, seed),
            "engine.playout: redeal + playout, kozel 2p": redeal_and_playout("kozel", 2, {}, seed),
            "engine.playout: redeal + playout, tyaga 2p": redeal_and_playout("tyaga", 2, {}, seed),
        },
        max(1, games // 2),
        repeat,
        chunk,
    )
    for figure in others:
        print(figure.line())


if __name__ == "__main__":
    main()

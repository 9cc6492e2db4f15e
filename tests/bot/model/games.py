"""Games of all four kinds played to random positions, as the store keeps them: a game
document with its deals and moves in notation, and the engine state they replay to."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, Final

import engine
from bot.model.contract import ChatRef, UserRef
from bot.model.gamedoc import RUNNING, TIMED_OUT, Due, GameDoc, Seat, TableSettings
from engine import State
from engine.state import OptionValue

# (game, players, options): each game at each table size it is played at.
TABLES: Final[tuple[tuple[str, int, dict[str, OptionValue]], ...]] = (
    ("tyaga", 2, {}),
    ("tyaga", 4, {"target": 60}),
    ("kozel", 2, {"target": 25}),
    ("kozel", 3, {"target": 25}),
    ("kozel", 4, {"target": 25, "teams": "on"}),
    ("three_guns", 3, {}),
    ("baghdad", 2, {"match": "deals:2"}),
)
GAMES: Final = ("tyaga", "kozel", "three_guns", "baghdad")
CHAT: Final = ChatRef("con", "table")


def random_game(rng: random.Random, table: int | None = None) -> tuple[GameDoc, State[Any]]:
    """A game of one of :data:`TABLES` (chosen by ``rng`` unless given) played with random
    legal moves to a random point: mid-deal, between deals or at the match's end."""
    steps = rng.choice((0, 3, 20, 80, 400))
    reached = None
    for number, position in enumerate(positions(rng, table)):
        reached = position
        if number == steps:
            break
    assert reached is not None
    return reached


def positions(rng: random.Random, table: int | None = None) -> Iterator[tuple[GameDoc, State[Any]]]:
    """Every position of one random game of :data:`TABLES` (chosen by ``rng`` unless
    given), from its first deal to the match's end, as the store would hold it."""
    variant, players, options = TABLES[rng.randrange(len(TABLES)) if table is None else table]
    state = engine.new_match(variant, players, options, seed=rng.randrange(10**6))
    doc = _doc(rng, variant, players, options, state)
    yield _stamped(doc, state, rng), state
    while not state.match_over:
        if state.deal_over:
            state = engine.next_deal(state)
            doc = doc.but(
                deals=doc.deals + (state.dealt,), deal_starts=doc.deal_starts + (len(doc.moves),)
            )
        else:
            move = rng.choice(engine.legal_moves(state))
            seat = state.turn
            assert seat is not None
            state, _ = engine.apply(state, move, seat)
            timed_out = doc.timed_out + ((len(doc.moves),) if rng.random() < 0.05 else ())
            doc = doc.but(moves=doc.moves + ((seat, str(move)),), timed_out=timed_out)
        yield _stamped(doc, state, rng), state


def _stamped(doc: GameDoc, state: State[Any], rng: random.Random) -> GameDoc:
    """``doc`` with the status and the deadline a stored game has at ``state``."""
    due = None
    if not state.deal_over:
        due = Due("turn", 1000.0 + rng.randrange(100), doc.step)
    elif not state.match_over:
        due = Due("deal", 2000.0, doc.step)
    return doc.but(due=due, status="finished" if state.match_over else RUNNING)


def _doc(
    rng: random.Random,
    variant: str,
    players: int,
    options: dict[str, OptionValue],
    state: State[Any],
) -> GameDoc:
    seats = []
    for number in range(players):
        if number and rng.random() < 0.4:
            seats.append(Seat(computer="simple"))
        else:
            person = UserRef("con", str(number), f"Player {number}")
            away = TIMED_OUT if rng.random() < 0.1 else None
            seats.append(Seat(user=person, away=away))
    return GameDoc(
        id=f"t{rng.randrange(1000)}",
        chat=CHAT,
        status=RUNNING,
        variant=variant,
        options=options,
        seed=state.seed,
        seats=tuple(seats),
        host="con:0",
        settings=TableSettings(timer=60, auto_start=False, pings=False, lang="en"),
        created=0.0,
        deals=(state.dealt,),
        deal_starts=(0,),
    )

"""Positions to draw: sample moments of real games for the gallery, and the
worst positions a picture must still handle (the longest line, the most
players, the most caravans) for the tests and the benchmark.

Sample games are played with random legal moves from a fixed seed, so the
same positions come back every time; the worst ones are built by hand, since
random play rarely reaches them.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

import engine
from bot.model.table import TableView, position_table
from bot.picture.status import status_lines
from bot.views.i18n import translator
from engine import DOUBLE_SIX, DealEnd, DealResult, Placed, State, Tile, View
from engine.state import Hands

#: Names from every script the languages use, as players call themselves.
NAMES: Final = ("Анна", "Łukasz", "Núria", "Олекса", "Gil·la", "Żaneta")
#: The longest names a table may show, to test the cut.
LONG_NAMES: Final = tuple(name * 12 for name in NAMES)


@dataclass(frozen=True, slots=True)
class Sample:
    """A position worth drawing: its file name, the table as everybody sees it,
    and what the picture says under the line."""

    name: str
    view: View
    names: tuple[str, ...]
    status: tuple[str, ...] = ()

    @property
    def table(self) -> TableView:
        """The table's model, which the picture is drawn from."""
        return position_table(self.view, self.names)

    @property
    def revealed(self) -> Hands | None:
        """The hands a finished deal shows, which the model never holds."""
        return self.view.revealed


def states(
    variant: str,
    players: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    limit: int = 400,
) -> Iterator[State[Any]]:
    """A match played with random legal moves from ``seed``: every state in
    turn, the next deal dealt as soon as one ends."""
    state = engine.new_match(variant, players, options, seed=seed)
    chooser = random.Random(seed)
    yield state
    for _ in range(limit):
        if state.match_over:
            return
        if state.deal_over:
            state = engine.next_deal(state)
        else:
            state, _events = engine.apply(state, chooser.choice(engine.legal_moves(state)))
        yield state


def first(
    variant: str, players: int, seed: int, wanted: Callable[[State[Any]], bool]
) -> State[Any]:
    """The first state of that match that is ``wanted``."""
    for state in states(variant, players, seed):
        if wanted(state):
            return state
    raise LookupError(f"no such position in {variant} with seed {seed}")


def _sample(name: str, state: State[Any]) -> Sample:
    names = NAMES[: state.players]
    view = engine.public_view(state)
    status = status_lines(translator("en"), position_table(view, names), names.__getitem__)
    return Sample(name, view, names, tuple(status))


def _caravans(state: State[Any]) -> int:
    details = engine.variant_of(state).public(state)
    return len(details.caravans) if isinstance(details, engine.BaghdadPublic) else 0


def gallery() -> list[Sample]:
    """Every game mid-deal and at a deal's end, and the positions that show the
    most: a long line that turns twice, six at Tyaga, tiles across, caravans."""

    def middle(n: int) -> Callable[[State[Any]], bool]:
        return lambda s: s.counter >= n and not s.deal_over

    def over(s: State[Any]) -> bool:
        return s.deal_over

    return [
        _sample("tyaga-mid-deal", first("tyaga", 3, 7, middle(9))),
        _sample("tyaga-deal-end", first("tyaga", 3, 7, over)),
        _sample("tyaga-long-line", first("tyaga", 2, 12, over)),
        _sample("tyaga-six-players", first("tyaga", 6, 2, middle(14))),
        _sample("kozel-mid-deal", first("kozel", 4, 3, middle(8))),
        _sample("kozel-deal-end", first("kozel", 4, 3, over)),
        _sample("three-guns-across", first("three_guns", 3, 0, middle(7))),
        _sample("three-guns-deal-end", first("three_guns", 3, 0, over)),
        _sample("baghdad-mid-deal", first("baghdad", 2, 1, middle(12))),
        _sample("baghdad-three-caravans", first("baghdad", 2, 14, lambda s: _caravans(s) >= 3)),
    ]


# -- the worst positions ----------------------------------------------------------


def whole_set_line() -> tuple[Placed, ...]:
    """All 28 tiles of the double-six set in one line, as no deal can lay them
    but as the largest line a picture could meet. Each value is on eight
    half-tiles, so the tiles make one closed trail, found by Hierholzer's walk."""
    unused = {v: [t for t in DOUBLE_SIX if t.has(v)] for v in range(7)}
    used: set[Tile] = set()
    trail: list[tuple[int, Tile | None]] = []
    stack: list[tuple[int, Tile | None]] = [(6, None)]
    while stack:
        value, _came = stack[-1]
        while unused[value] and unused[value][-1] in used:
            unused[value].pop()
        if unused[value]:
            nxt = unused[value].pop()
            used.add(nxt)
            stack.append((nxt.other(value), nxt))
        else:
            trail.append(stack.pop())
    trail.reverse()
    line: list[Placed] = []
    for (left, _came), (right, tile) in itertools.pairwise(trail):
        assert tile is not None
        line.append(Placed(left, right))
    return tuple(line)


def worst() -> list[Sample]:
    """The positions that make the largest pictures: the whole set in the line
    at a deal's end, six players with their hands revealed, five caravans."""
    ended = first("tyaga", 2, 12, lambda s: s.deal_over)
    base = engine.public_view(ended)
    table = position_table(base, LONG_NAMES[:2])
    said = tuple(status_lines(translator("en"), table, LONG_NAMES.__getitem__))
    line = whole_set_line()
    longest = replace(base, line=line, ends=(line[0].left, line[-1].right))
    six = engine.public_view(first("tyaga", 6, 2, lambda s: s.deal_over))
    hands = _split(DOUBLE_SIX[:24], 6)
    crowded = replace(
        six,
        line=line[:4],
        revealed=hands,
        hand_counts=tuple(len(h) for h in hands),
        result=DealResult(DealEnd.BLOCK, None, (0,) * 6),
    )
    return [
        Sample("worst-longest-line", longest, LONG_NAMES[:2], said),
        Sample("worst-six-hands", crowded, LONG_NAMES, said),
        Sample("worst-most-caravans", _most_caravans(), LONG_NAMES[:2], said),
    ]


def _split(tiles: tuple[Tile, ...], players: int) -> tuple[tuple[Tile, ...], ...]:
    return tuple(tiles[seat::players] for seat in range(players))


def _most_caravans() -> View:
    """Thief of Baghdad with every thief used: four closed caravans (three of
    them won back with handcuffs) and a fifth one open, 28 tiles in all."""
    base = engine.public_view(first("baghdad", 2, 1, lambda s: s.counter >= 12))
    line = whole_set_line()
    assert isinstance(base.details, engine.BaghdadPublic)
    thieves = (Tile(3, 3), Tile(6, 0), Tile(5, 1), Tile(4, 2))
    cuffs: tuple[tuple[Tile, Tile] | None, ...] = (
        None,
        (Tile(6, 6), Tile(0, 0)),
        (Tile(5, 5), Tile(1, 1)),
        (Tile(4, 4), Tile(2, 2)),
    )
    caravans = []
    for i, (thief, pair) in enumerate(zip(thieves, cuffs, strict=True)):
        camels = line[i * 5 : i * 5 + 5]
        status = "stolen" if pair is None else "recovered"
        caravans.append(engine.Caravan(camels, status, i % 2, thief, pair))
    active = line[20:]
    caravans.append(engine.Caravan(active, "open"))
    details = replace(base.details, caravans=tuple(caravans))
    return replace(base, line=active, details=details)

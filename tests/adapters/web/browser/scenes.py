"""Positions of real games, played with the engine as the store keeps them, and the
frames a web table's server would send a page for them, made with the real models."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import engine
from adapters.web.frames import Action, State, Welcome
from adapters.web.words import page_words
from bot.model.events import events_since
from bot.model.gamedoc import GameDoc
from bot.model.hand import HandView, LegalMove, hand_view, refusal
from bot.model.parts import TileRef
from bot.model.table import TableView, table_view
from bot.views.event_words import EventWords, seat_names
from bot.views.i18n import translator
from bot.views.texts import error_text
from tests.bot.model.games import TABLES, positions

TABLE_OF = {"tyaga": 0, "kozel": 3, "three_guns": 5, "baghdad": 6}
"""The table of :data:`TABLES` each game is played at here."""
KOZEL_TEAMS = 4
"""The table of :data:`TABLES` where Kozel is played by two teams of partners."""


@dataclass(frozen=True)
class Scene:
    """A position of a game and the seat whose page is drawn (None: a spectator's)."""

    doc: GameDoc
    state: engine.State[Any]
    seat: int | None

    @cached_property
    def table(self) -> TableView:
        return table_view(self.doc, engine.public_view(self.state))

    @cached_property
    def hand(self) -> HandView | None:
        if self.seat is None:
            return None
        return hand_view(self.doc, self.state, self.seat, refusals=True)

    @cached_property
    def moves(self) -> tuple[LegalMove, ...]:
        """The seat's legal moves (asked without the refusals, which cost more)."""
        if self.seat is None:
            return ()
        return hand_view(self.doc, self.state, self.seat).moves

    def plays(self, tile: TileRef) -> list[LegalMove]:
        """The hand's moves that lay ``tile`` alone."""
        return [m for m in self.moves if m.kind == "play" and m.tile == tile]

    def welcome(self, lang: str = "en") -> Welcome:
        return Welcome(lang=lang, seat=self.seat, words=page_words(translator(lang)))

    def frame(self, lang: str = "en", since: int = 0, now: float | None = None) -> State:
        """The state a page at ``since`` is sent, in ``lang``, at ``now`` on the server's
        clock (the time it is: a test's games' deadlines are long gone)."""
        _ = translator(lang)
        table = self.table
        name = seat_names(_, table)
        events = events_since(self.doc, since)
        hand = self.hand
        why = {}
        if hand is not None and self.seat is not None:
            for tile in hand.tiles:
                refused = refusal(self.state, self.seat, tile.tile())
                if refused is not None:
                    why[f"{tile.hi}-{tile.lo}"] = error_text(_, refused)
        actions: tuple[Action, ...] = ()
        if self.state.match_over:
            actions = (Action(act="rematch", label=_("Rematch")),)
        elif self.state.deal_over:
            actions = (Action(act="next_deal", label=_("Next deal")),)
        return State(
            version=self.doc.step,
            game=self.doc.id,
            step=self.doc.step,
            now=time.time() if now is None else now,
            table=table,
            hand=hand,
            events=events,
            said=tuple(EventWords(_, name, self.seat).sentences(events, table=table)[-8:]),
            why=why,
            names=tuple(name(seat.seat) for seat in table.seats),
            actions=actions,
        )


def scenes(game: str, spectator: bool = False, table: int | None = None) -> Iterator[Scene]:
    """Every position of random games of ``game`` (at its usual table of :data:`TABLES`,
    or at ``table``), each as the seat to move sees it (the first seat's between deals),
    or as a spectator."""
    for seed in range(300):
        for doc, state in positions(
            random.Random(seed), TABLE_OF[game] if table is None else table
        ):
            seat = None if spectator else (state.turn if state.turn is not None else 0)
            yield Scene(doc, state, seat)


def find(
    game: str, where: Callable[[Scene], bool], spectator: bool = False, table: int | None = None
) -> Scene:
    """The first position of ``game`` (at ``table``, if given) that ``where`` holds for."""
    for scene in scenes(game, spectator, table):
        if where(scene):
            return scene
    raise LookupError(f"no {game} position found")


def mid_deal(scene: Scene) -> bool:
    return not scene.state.deal_over and len(scene.state.line) >= 3


assert set(TABLE_OF) == {TABLES[n][0] for n in TABLE_OF.values()}

"""The :class:`~adapters.web.frames.State` each page is sent, built from the game as the
store holds it: the table's model once a version per worker, each seat's hand (with why
each tile it cannot play does not fit) once a version per seat, and the events of the
match once a version; only the words (which are in the viewer's language, and say
"you" to his seat) are made per page.

A spectator's state is built from the table's model alone: ``hand`` is ``None`` and no
hand's tile is in it.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Final

from adapters.web.frames import Action, State
from bot.model.decision import Game
from bot.model.events import DealStarted, Drew, TableEvent, events_since
from bot.model.hand import HandView, Refusal, hand_view
from bot.model.parts import TileRef
from bot.model.table import TableView
from bot.table.models import table_model
from bot.views.event_words import EventWords, seat_names
from bot.views.i18n import Translator
from bot.views.texts import error_text
from engine import IllegalMove

KEPT: Final = 512  # versions whose models a worker keeps, all tables together


@dataclass(slots=True)
class Built:
    """One version of a game, modelled: its table (``None``: a lobby), its events, and
    the hands asked for so far."""

    game: Game
    table: TableView | None
    events: tuple[TableEvent, ...]
    hands: dict[int, HandView] = field(default_factory=dict)

    def hand(self, seat: int) -> HandView | None:
        """``seat``'s hand at this version (made the first time it is asked for)."""
        state = self.game.state
        if state is None or not 0 <= seat < len(self.game.doc.seats):
            return None
        if seat not in self.hands:
            self.hands[seat] = hand_view(self.game.doc, state, seat, refusals=True)
        return self.hands[seat]

    @property
    def step(self) -> int:
        """The game document's step at this version: what the events count in."""
        return self.game.doc.step

    def events_after(self, step: int | None) -> tuple[TableEvent, ...]:
        """The events after ``step``; all of the current deal's when ``step`` is not
        known (a page that comes back to another worker) or is of an older deal."""
        starts = [n for n, event in enumerate(self.events) if isinstance(event, DealStarted)]
        deal_start = starts[-1] if starts else 0
        if step is None:
            return self.events[deal_start:]
        return tuple(event for event in self.events if event.version > step)


class Models:
    """The built versions this worker holds, newest last, :data:`KEPT` at most; and which
    document step each version of a table was at (to resume a page's events)."""

    def __init__(self) -> None:
        self._built: OrderedDict[tuple[str, str, int], Built] = OrderedDict()

    def built(self, game: Game) -> Built:
        """``game`` at its version, modelled once."""
        key = (game.doc.chat.key, game.doc.id, game.version)
        found = self._built.get(key)
        if found is not None:
            self._built.move_to_end(key)
            return found
        made = Built(game, table_model(game), events_since(game.doc) if game.state else ())
        self._built[key] = made
        while len(self._built) > KEPT:
            self._built.popitem(last=False)
        return made

    def step_at(self, game: Game, version: int) -> int | None:
        """The step ``game``'s table was at in ``version``, if this worker built it."""
        found = self._built.get((game.doc.chat.key, game.doc.id, version))
        return None if found is None else found.step


class StateTexts:
    """One version's state as it goes out to many pages at once, made and serialised once
    for all the pages that see it alike: from the same seat, in the same language, with
    the events since the same step and the same tiles last shown. A table's spectators
    are most of its pages, and building and serialising a state was most of what a page
    cost its worker a move (``bench/bench_web_fanout.py``). ``now`` is the server's clock
    for them all."""

    def __init__(self, built: Built, now: float) -> None:
        self.built = built
        self.now = now
        self._made: dict[tuple[object, ...], tuple[State, str]] = {}

    def state(
        self, seat: int | None, _: Translator, since: int | None, held: tuple[TileRef, ...] = ()
    ) -> tuple[State, str]:
        """The state ``seat`` sees (``None``: a spectator) and its JSON text, as
        :func:`state_of` makes it."""
        key = (seat, _.lang, since, held)
        made = self._made.get(key)
        if made is None:
            state = state_of(self.built, seat, _, since, self.now, held)
            made = self._made[key] = (state, state.model_dump_json())
        return made


def state_of(
    built: Built,
    seat: int | None,
    _: Translator,
    since: int | None,
    now: float,
    held: tuple[TileRef, ...] = (),
) -> State:
    """The state a page sees: ``seat``'s (``None``: a spectator's), its words in ``_``'s
    language, the events after step ``since`` (``None``: the deal's so far); ``held``:
    the seat's tiles as the page last showed them, so that his own draws since are
    told by name, as only his hand may."""
    game, table = built.game, built.table
    if table is None:
        return State(version=game.version, game=game.doc.id, step=built.step, now=now, table=None)
    hand = built.hand(seat) if seat is not None else None
    events = built.events_after(since)
    name = seat_names(_, table)
    words = EventWords(_, name, seat)
    drawn = _drawn(hand, held, events) if hand is not None else ()
    return State(
        version=game.version,
        game=game.doc.id,
        step=built.step,
        now=now,
        table=table,
        hand=hand,
        events=events,
        said=tuple(words.sentences(events, drawn, table)),
        why=refusal_words(_, hand.refusals or ()) if hand is not None else {},
        names=tuple(name(n) for n in range(len(table.seats))),
        actions=actions(_, table) if seat is not None else (),
    )


def _drawn(
    hand: HandView, held: tuple[TileRef, ...], events: tuple[TableEvent, ...]
) -> tuple[TileRef, ...]:
    """The tiles the seat drew in ``events``: those its hand gained since ``held``, when
    ``events`` hold one draw of his (more, and which tile came when is not known)."""
    draws = [e for e in events if isinstance(e, Drew) and e.seat == hand.seat]
    if len(draws) != 1 or not held:
        return ()
    gained = tuple(tile for tile in hand.tiles if tile not in held)
    return gained if len(gained) == draws[0].count else ()


def refusal_words(_: Translator, refusals: tuple[Refusal, ...]) -> dict[str, str]:
    """Why each tile cannot go, as the core says it when the tile is pressed, by "hi-lo"."""
    return {
        f"{refused.tile.hi}-{refused.tile.lo}": error_text(
            _, IllegalMove(refused.reason, refused.reason, **refused.params)
        )
        for refused in refusals
    }


def actions(_: Translator, table: TableView) -> tuple[Action, ...]:
    """The buttons beside a player's hand: a rematch once the match is over, the next
    deal once a deal is over and the match is not."""
    if table.status == "finished":
        return (Action(act="rematch", label=_("Rematch")),)
    if table.status == "running" and table.deal_result is not None and table.match_result is None:
        return (Action(act="next_deal", label=_("Next deal")),)
    return ()

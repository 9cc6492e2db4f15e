"""What happened at a table, in words, from the typed events and the table's model
(:mod:`bot.model.events`, :mod:`bot.model.table`) rather than from a game document.

The sentences are the table's own (the same msgids as its history and its deal's end),
so a screen worded from the model reads like the core's. Told to the one person at the
keyboard (``you``, his seat), what is about him is said to him: "You take the deal.",
"You are the goat.", "The match is over. You won.", "Stolen by you with …", and his
draws name the tiles he drew, which only his own hand knows ("You drew [5|2]").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.model.contract import isolated
from bot.model.events import (
    Blocked,
    DealScored,
    Drew,
    EndedTurn,
    MatchEnded,
    Moved,
    Passed,
    Played,
    RecoveredCaravan,
    StoleCaravan,
    TableEvent,
    WentOut,
)
from bot.model.parts import BaghdadParts, CaravanPart, LineTile, TileRef
from bot.model.table import MatchOutcome, TableView
from bot.views import outcome
from bot.views.i18n import Translator
from bot.views.texts import move_sentence
from engine import Move

SeatName = Callable[[int], str]
_JOIN = ", "  # how the table joins several names


def tile_words(tile: TileRef) -> str:
    """``[6|4]``: a tile as every screen writes it."""
    return f"[{tile.hi}|{tile.lo}]"


def camels_words(camels: Sequence[LineTile]) -> str:
    """A closed caravan's tiles as the table writes them, as they lie."""
    return "".join(f"[{camel.left}|{camel.right}]" for camel in camels)


def seat_names(_: Translator, table: TableView) -> SeatName:
    """How the table names a seat: a person by his name (isolated, as the table's
    text writes names), a computer by its number."""

    def name(seat: int) -> str:
        held = table.seats[seat]
        if held.name is None:
            return _("Computer %(n)d", n=held.computer or 0)
        if held.away:
            return _("%(name)s (computer)", name=isolated(held.name))
        return isolated(held.name)

    return name


@dataclass(frozen=True, slots=True)
class EventWords:
    """Words events in ``_``'s language, naming seats with ``name``; ``you``: the seat
    of the one person at the keyboard, whom the sentences about him address."""

    _: Translator
    name: SeatName
    you: int | None = None

    def sentences(
        self,
        events: Sequence[TableEvent],
        drawn: Sequence[TileRef] = (),
        table: TableView | None = None,
    ) -> list[str]:
        """``events`` in words, one sentence a move (two tiles played at once are one
        move), the deal's and the match's end as the table says them. ``drawn``: the
        tiles ``you`` drew in these events, as his hand gained them; ``table``: the
        model, whose closed caravans say what a steal or a recovery took."""
        return [said for _event, said in self.told(events, drawn, table)]

    def told(
        self,
        events: Sequence[TableEvent],
        drawn: Sequence[TileRef] = (),
        table: TableView | None = None,
    ) -> list[tuple[TableEvent, str]]:
        """As :meth:`sentences`, each sentence with the event it tells."""
        told: list[tuple[TableEvent, str]] = []
        out: int | None = None
        for at, event in enumerate(events):
            if isinstance(event, Played) and at and _same_move(events[at - 1], event):
                continue  # told with the tile before it
            if isinstance(event, WentOut):
                out = event.seat
            if isinstance(event, DealScored):
                said = self.deal_taken(out, event.winner)
            elif isinstance(event, MatchEnded):
                said = self.match_end(event.winners, event.goats)
            else:
                after = events[at + 1] if at + 1 < len(events) else None
                second = (
                    after.tile if isinstance(after, Played) and _same_move(event, after) else None
                )
                one = self.sentence(event, second=second, drawn=drawn, table=table)
                said = [one] if one is not None else []
            told += [(event, sentence) for sentence in said]
        return told

    def sentence(
        self,
        event: TableEvent,
        *,
        second: TileRef | None = None,
        drawn: Sequence[TileRef] = (),
        table: TableView | None = None,
    ) -> str | None:
        """One event in words (``second``: the other tile of a double move); ``None``
        for what the table does not tell as it happens (a token, a penalty, a deal
        begun, the points, which its deal's end says)."""
        _ = self._
        if isinstance(event, Moved):
            said = self._move(event, second, drawn, table)
            return _("%(sentence)s (time ran out)", sentence=said) if event.timed_out else said
        if isinstance(event, WentOut):
            return _("%(name)s went out.", name=self.name(event.seat))
        if isinstance(event, Blocked):
            return _("Blocked: nobody can move.")
        return None

    def _move(
        self,
        event: Moved,
        second: TileRef | None,
        drawn: Sequence[TileRef],
        table: TableView | None,
    ) -> str:
        _, name = self._, self.name(event.seat)
        if isinstance(event, Played):
            return _played(_, name, event, second)
        if isinstance(event, Drew):
            if event.seat == self.you and drawn and len(drawn) == event.count:
                return _("You drew %(tiles)s", tiles=" ".join(tile_words(t) for t in drawn))
            if event.count == 1:
                return _("%(name)s drew a tile", name=name)
            return _.ngettext(
                "%(name)s drew %(n)d tile", "%(name)s drew %(n)d tiles", event.count, name=name
            )
        if isinstance(event, Passed):
            return _("%(name)s passed", name=name)
        if isinstance(event, EndedTurn):
            return _("%(name)s ended the turn", name=name)
        if isinstance(event, StoleCaravan):
            camels = _caravan(table, thief=event.thief)
            if event.seat == self.you and camels is not None:
                return _(
                    "Stolen by you with %(thief)s: %(tiles)s",
                    thief=tile_words(event.thief),
                    tiles=camels_words(camels),
                )
            return _(
                "%(name)s stole the caravan with %(tile)s", name=name, tile=tile_words(event.thief)
            )
        assert isinstance(event, RecoveredCaravan)
        camels = _caravan(table, handcuffs=event.handcuffs)
        if event.seat == self.you and camels is not None:
            return _("Recovered by you: %(tiles)s", tiles=camels_words(camels))
        first, other = event.handcuffs
        return _(
            "%(name)s recovered a caravan with %(a)s and %(b)s",
            name=name,
            a=tile_words(first),
            b=tile_words(other),
        )

    def deal_taken(self, went_out: int | None, winner: int | None) -> list[str]:
        """Who takes the deal, unless it is the one who went out (said already)."""
        _ = self._
        if winner is None:
            return [_("Nobody takes the deal.")]
        if winner == went_out:
            return []
        if winner == self.you:
            return [_("You take the deal.")]
        return [_("The deal goes to %(name)s.", name=self.name(winner))]

    def deal_end(self, went_out: int | None, winner: int | None) -> list[str]:
        """Who went out, or the block, then who takes the deal."""
        _ = self._
        if went_out is None:
            how = _("Blocked: nobody can move.")
        else:
            how = _("%(name)s went out.", name=self.name(went_out))
        return [how, *self.deal_taken(went_out, winner)]

    def caravan(self, caravan: CaravanPart) -> str:
        """A closed caravan: who stole it with which thief, or recovered it, and its camels."""
        _ = self._
        tiles = camels_words(caravan.camels)
        mine = caravan.owner is not None and caravan.owner == self.you
        who = self.name(caravan.owner) if caravan.owner is not None else "?"
        if caravan.status == "recovered":
            if mine:
                return _("Recovered by you: %(tiles)s", tiles=tiles)
            return _("Recovered by %(name)s: %(tiles)s", name=who, tiles=tiles)
        thief = tile_words(caravan.thief) if caravan.thief is not None else "?"
        if mine:
            return _("Stolen by you with %(thief)s: %(tiles)s", thief=thief, tiles=tiles)
        return _("Stolen by %(name)s with %(thief)s: %(tiles)s", name=who, thief=thief, tiles=tiles)

    def match_end(self, winners: Sequence[int], goats: Sequence[int]) -> list[str]:
        """Who won the match, and in Kozel who is the goat, as the table says it
        (:func:`bot.views.outcome.match_end_lines`) but for what is said to the player."""
        _ = self._
        match = MatchOutcome(winners=tuple(winners), goats=tuple(goats))
        said = outcome.match_end_lines(_, match, self.name)
        if self.you in winners:
            partners = [self.name(seat) for seat in winners if seat != self.you]
            said[0] = (
                _("The match is over. You won, with %(names)s.", names=_JOIN.join(partners))
                if partners
                else _("The match is over. You won.")
            )
        if list(goats) == [self.you]:
            said[-1] = _("You are the goat.")
        return said


def _played(_: Translator, name: str, event: Played, second: TileRef | None) -> str:
    """The table's own sentence for the move that played ``event``'s tile (with
    ``second``, Kozel's two doubles at once)."""
    tile = event.tile.tile()
    if second is not None:
        move = Move.double(tile, second.tile())
    elif event.end is None:
        move = Move.lead(tile)
    else:
        move = Move.play(tile, event.end, across=event.across)
    return move_sentence(_, name, move)


def _same_move(first: TableEvent | None, then: Played) -> bool:
    """``then`` is the second tile of ``first``'s move (Kozel's two doubles at once)."""
    return isinstance(first, Played) and (first.version, first.seat) == (then.version, then.seat)


def _caravan(
    table: TableView | None,
    *,
    thief: TileRef | None = None,
    handcuffs: tuple[TileRef, TileRef] | None = None,
) -> tuple[LineTile, ...] | None:
    """The camels of the closed caravan that ``thief`` stole or ``handcuffs`` recovered,
    as the model holds it (``None`` once the deal is gone)."""
    parts = table.parts if table is not None else None
    if not isinstance(parts, BaghdadParts):
        return None
    for caravan in parts.caravans:
        if thief is not None and caravan.status == "stolen" and caravan.thief == thief:
            return caravan.camels
        cuffed = caravan.handcuffs
        if handcuffs is not None and cuffed is not None and set(cuffed) == set(handcuffs):
            return caravan.camels
    return None

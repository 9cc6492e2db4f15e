"""What a finished match does to ratings, worked out before the write that ends it.

The chat's new ratings go into that write (:func:`bot.storage.ratings.chat_rating_writes`),
so they move exactly when the match is counted, and never for a stopped game. The same
write queues the match's result in the chat's rating queue, with each person's own results;
those are counted and the global ratings moved
from it by one script keyed by the match id (so a retry moves nothing twice) and it is
taken out. A process stopped in between leaves it queued for the next tick's sweep. The
final table shows each person's global rating before and after, as worked out before the
write (a match ending at the same moment elsewhere may move them a little more).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from bot.model.contract import Show, SlotKind, isolated
from bot.model.decision import Game
from bot.model.gamedoc import FINISHED
from bot.model.ratings import COMPUTER, Rating, Result, entrants, rate_result, result_of
from bot.storage.game import MatchWrite
from bot.storage.ratings import Queued, chat_rating_writes, rating_queue_write
from bot.storage.values import MatchRow
from bot.views.i18n import Translator, text_line, translator
from bot.views.texts import computer_name
from engine import public_view, variant_of

if TYPE_CHECKING:
    from bot.model.contract import ChatRef, Outbound
    from bot.storage.store import Store


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """A finished match's rating changes: in its chat, and across every chat."""

    match_id: str
    variant: str
    names: dict[str, str]
    result: Result
    in_chat: dict[str, Rating] = field(default_factory=dict)
    before: dict[str, Rating] = field(default_factory=dict)  # global, before the match
    after: dict[str, Rating] = field(default_factory=dict)  # global, after it
    noted: float | None = None  # when the chat was noted as holding it in its rating queue

    def writes(
        self, chat: ChatRef, retention: int, rows: Sequence[MatchRow] = ()
    ) -> tuple[MatchWrite, ...]:
        """The match's writes in the step that ends it: the match queued in the chat's
        rating queue with each person's own results (``rows``), and the chat's ratings; each
        key written keeps the players' data for ``retention`` seconds from now (the
        rating queue is written first, so that its expiry is set on a key that exists)."""
        queued = rating_queue_write(
            chat, self.match_id, self.variant, self.names, self.result, rows
        )
        return (queued, *chat_rating_writes(chat, self.variant, self.in_chat, retention))

    def queued(self, rows: Sequence[MatchRow]) -> Queued:
        """The match as :meth:`writes` queues it."""
        return self.variant, self.names, self.result, tuple(rows)


async def rate_finished(
    store: Store, chat: ChatRef, game: Game, names: dict[str, str], noted: float
) -> RatedMatch | None:
    """The rating changes of ``game`` if it is a finished match (``None`` otherwise),
    read in the round trip that notes the chat's rating queue as of ``noted``. ``names`` maps
    a computer's key to the name it goes by."""
    doc, state = game.doc, game.state
    if doc.status != FINISHED or state is None:
        return None
    seated = entrants(doc)
    shown = {e.key: _name(doc.seats[e.seat].user, e.key, names) for e in seated}
    local, known = await store.ratings_before_end(chat, doc.variant, shown, noted)
    result = result_of(doc.variant, state, seated)
    return RatedMatch(
        doc.id,
        doc.variant,
        shown,
        result,
        rate_result(result, local),
        known,
        rate_result(result, known),
        noted,
    )


def _name(user: object, key: str, names: dict[str, str]) -> str:
    name = getattr(user, "name", None)
    return name if isinstance(name, str) else names.get(key, key)


def change_lines(_: Translator, rated: RatedMatch) -> list[str]:
    """``Ratings: Anna +1.3 (now 26.1), Boris -1.8 (now 18.2)`` (people only): what the
    match did first, signed, as it is what a player looks for; then where it leaves him.
    Written as before and after, a newcomer's first loss read ``0.0 → -1.1``, as if he had
    had nothing and now owed something."""
    parts = [
        _(
            "%(name)s %(change)s (now %(after)s)",
            name=isolated(after.name),
            change=_.decimal(after.shown - rated.before[key].shown, signed=True),
            after=_.decimal(after.shown),
        )
        for key, after in rated.after.items()
        if not key.startswith(COMPUTER) and key in rated.before
    ]
    return [_("Ratings: %(changes)s", changes=", ".join(parts))] if parts else []


def with_changes(updates: list[Outbound], game_id: str, lines: list[str]) -> list[Outbound]:
    """``updates`` with ``lines`` added under the game's table, in its text and its card."""
    if not lines:
        return updates
    out: list[Outbound] = []
    for item in updates:
        if (
            isinstance(item, Show)
            and item.slot.kind is SlotKind.TABLE
            and item.slot.game_id == game_id
        ):
            extra = tuple(text_line(said) for said in lines)
            card = item.screen.card
            if card is not None:
                card = replace(card, closing=card.closing + extra)
            screen = replace(item.screen, lines=item.screen.lines + extra, card=card)
            item = replace(item, screen=screen)
        out.append(item)
    return out


def match_rows(game: Game) -> list[MatchRow]:
    """Each person's result, with the figure his game's board adds up: a match's score,
    except in Kozel, where a lower score is better and the board counts goats (1 for a
    seat that reached the target, else 0)."""
    state = game.state
    assert state is not None
    variant = variant_of(state)
    goats = variant.goats(public_view(state))
    return [
        MatchRow(
            seat.user,
            number in state.winners,
            int(number in goats) if variant.lower_wins else state.match_scores[number],
        )
        for number, seat in enumerate(game.doc.seats)
        if seat.user is not None
    ]


def computer_names(game: Game) -> dict[str, str]:
    """How the table names each computer level seated at it."""
    _ = translator(game.doc.settings.lang)
    return {
        COMPUTER + seat.computer: computer_name(_, seat.computer)
        for seat in game.doc.seats
        if seat.user is None and seat.computer
    }

"""The latest screens the core sent to the console: the table and each hand.

Like any adapter, the console keeps what each slot shows and never lets an
older version replace a newer one. Everything the table loop needs to know
(who is to move, whether a deal waits for the next one, whether the match
ended) is read from these screens' buttons, not worked out from the rules. The
shows carry the table's model, what happened since the table was last shown, and each
hand's model (see :class:`~bot.model.contract.Show`); they are kept beside the screens.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.model.codec import BadPayload, NextDealPress, RematchPress, ScoresPick, decode
from bot.model.contract import Button, Outbound, Screen, Show, SlotKind, UserRef
from bot.model.events import TableEvent
from bot.model.hand import HandView
from bot.model.table import TableView
from bot.table.typed_moves import offered_moves


@dataclass(frozen=True, slots=True)
class Hand:
    user: UserRef
    screen: Screen
    version: int
    model: HandView | None = None

    @property
    def buttons(self) -> list[Button]:
        return pressable(self.screen)


@dataclass(slots=True)
class Screens:
    table: Screen | None = None
    table_version: int = -1
    hands: dict[str, Hand] = field(default_factory=dict)
    model: TableView | None = None  # the table's, once dealt
    events: tuple[TableEvent, ...] = ()  # what happened, as the table's last show told it

    def keep(self, replies: Sequence[Outbound]) -> None:
        for reply in replies:
            if not isinstance(reply, Show):
                continue
            slot = reply.slot
            if is_table(reply) and reply.version >= self.table_version:
                self.table, self.table_version = reply.screen, reply.version
                self.model, self.events = reply.table, reply.events
            elif slot.kind is SlotKind.HAND and slot.user is not None:
                kept = self.hands.get(slot.user.key)
                if kept is None or reply.version >= kept.version:
                    self.hands[slot.user.key] = Hand(
                        slot.user, reply.screen, reply.version, reply.hand
                    )

    def to_move(self) -> Hand | None:
        """The person whose hand offers moves (the newest, should two look so)."""
        movers = [h for h in self.hands.values() if offered_moves(h.buttons)]
        return max(movers, key=lambda h: h.version, default=None)

    def next_deal(self) -> str | None:
        """The payload of the table's next-deal button, while a finished deal shows."""
        for button in pressable(self.table) if self.table is not None else ():
            assert button.payload is not None
            try:
                if isinstance(decode(button.payload), NextDealPress):
                    return button.payload
            except BadPayload:
                continue
        return None

    def over(self) -> bool:
        """The table has no buttons left but what follows a match (a rematch, the
        scores): the match ended or was stopped."""
        if self.table is None:
            return False
        return all(_after_match(b.payload or "") for b in pressable(self.table))


def is_table(reply: Outbound) -> bool:
    return isinstance(reply, Show) and reply.slot.kind in (SlotKind.TABLE, SlotKind.LOBBY)


def pressable(screen: Screen) -> list[Button]:
    """The buttons that send a press back (not links, nor a tile that cannot be played)."""
    return [b for row in screen.buttons for b in row if b.payload and b.enabled]


def _after_match(payload: str) -> bool:
    try:
        return isinstance(decode(payload), RematchPress | ScoresPick)
    except BadPayload:
        return False

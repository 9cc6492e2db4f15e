"""Tables with people at every seat, pressing the buttons the core sent them: a random
move among those offered, "Next deal" as soon as a deal is over.

With steady hands (as the Telegram adapter shows them, see :mod:`bot.views.steady_hand`) a hand
does not say whose turn it is nor which tiles fit: the person the table names to move
presses a random button of his hand among the tiles that fit and the words, as a
person who reads the line's ends does (which tiles fit is looked up in the game the
core holds), and a word refused this turn is not pressed again."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import engine
from bot.app.config import Settings
from bot.model import codec
from bot.model.contract import (
    Answer,
    ChatRef,
    Command,
    Mention,
    Outbound,
    Press,
    Show,
    SlotKind,
    UserRef,
)
from bot.storage.store import Store, connect
from bot.table.painter import Painter
from bot.table.sessions import Sessions
from engine import Tile

GAMES = {"tyaga": 4, "kozel": 4, "baghdad": 2, "three_guns": 3}
SETTINGS = Settings(_env_file=None, turn_timeout=0, computer_delay=1.0, next_deal_delay=5.0)
#: A finished match's hand offers its review and replay (``bot.model.codec``): not moves,
#: and a table whose hands offer nothing else is over.
AFTER_THE_MATCH = ("1w_", "1x_")
#: One for the process, as a bot has: deals' ends are drawn in a worker process.
PAINTER = Painter(SETTINGS.picture_workers)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Table:
    sessions: Sessions
    chat: ChatRef
    variant: str
    people: list[UserRef]
    hands: dict[str, Show] = field(default_factory=dict)
    table: Show | None = None
    presses: int = 0
    moves: int = 0  # presses that made a move
    refused: int = 0
    pictures: int = 0  # deals' ends drawn for this table (a press that ends a deal waits for one)
    over: bool = False
    steady: bool = False
    tried: set[str] = field(default_factory=set)  # steady: buttons refused this turn

    def take(self, out: list[Outbound]) -> None:
        for item in out:
            if not isinstance(item, Show):
                continue
            if item.screen.picture is not None:
                self.pictures += 1
            if item.slot.kind is SlotKind.HAND and item.slot.user is not None:
                shown = self.hands.get(item.slot.user.key)
                if shown is None or item.version >= shown.version:
                    self.hands[item.slot.user.key] = item
            elif item.slot.kind is SlotKind.TABLE and item.slot.chat == self.chat:
                newer = self.table is None or item.version >= self.table.version
                self.table = item if newer else self.table

    async def send(self, inbound: Any) -> list[Outbound]:
        out = await self.sessions.handle(inbound)
        self.take(out)
        return out

    async def open(self, timer: str = "timer=off", options: tuple[str, ...] = ()) -> None:
        host = self.people[0]
        await self.send(Command(self.chat, host, "new", (self.variant, *options, timer)))
        for person in self.people[1:]:
            await self.send(Command(self.chat, person, "join", ()))
        await self.send(Command(self.chat, host, "start", ()))

    def next_press(self, rng: random.Random) -> Press | None:
        for person in self._to_move() if self.steady else self.people:
            shown = self.hands.get(person.key)
            buttons = [b for row in shown.screen.buttons for b in row] if shown else []
            moves = [b.payload for b in buttons if b.enabled and b.payload]
            moves = [m for m in moves if not m.startswith(AFTER_THE_MATCH)]
            if self.steady:  # never back from a choice of ends, nor a button refused
                fit = self._fitting()
                moves = [m for m in moves if self._may_press(m, fit)]
            if moves:
                return Press(shown.slot.chat if shown else self.chat, person, rng.choice(moves))
        if self.table is not None:
            for row in self.table.screen.buttons:
                for b in row:
                    if b.payload and b.payload.startswith("1n_"):
                        return Press(self.chat, self.people[0], b.payload)
        return None

    def _fitting(self) -> set[Tile] | None:
        """The tiles that fit now, from the game the core holds (``None``: not known)."""
        game = self.sessions._runner.games.get(self.chat.key)
        if game is None or game.state is None or game.state.deal_over:
            return None
        moves = engine.legal_moves(game.state)
        return {t for m in moves for t in (m.tile, m.second) if t is not None}

    def _may_press(self, payload: str, fit: set[Tile] | None) -> bool:
        """A steady hand's button worth pressing: a word not refused this turn, a tile
        that fits, a choice of ends; not the way back from that choice."""
        if payload in self.tried or payload.startswith("1y_"):
            return False
        pressed = codec.decode(payload)
        if not isinstance(pressed, codec.HandPress) or pressed.tile is None or fit is None:
            return True
        return pressed.tile in fit

    def _to_move(self) -> list[UserRef]:
        """The person the table names to move, if any."""
        lines = self.table.screen.lines if self.table is not None else ()
        named = [ln[0] for ln in lines if len(ln) == 2 and ln[1] == " to move"]
        return [n.user for n in named if isinstance(n, Mention)]

    async def press(self, rng: random.Random) -> bool:
        press = self.next_press(rng)
        if press is None:
            self.over = True
            return False
        out = await self.send(press)
        self.presses += 1
        answer = out[0] if out else None
        if _made_a_move(press, out):
            self.moves += 1
            self.tried.clear()
        elif self.steady and isinstance(answer, Answer) and answer.text:
            self.tried.add(press.payload)  # it says why not: try another
        if isinstance(answer, Answer) and answer.alert:  # a button gone stale: the match moved on
            self.hands.pop(press.user.key, None)
            self.refused += 1
        return True


def _made_a_move(press: Press, out: list[Outbound]) -> bool:
    """The press made a move: the table changed, and the press was not "Next deal"."""
    if isinstance(codec.decode(press.payload), codec.NextDealPress):
        return False
    return any(isinstance(o, Show) and o.slot.kind is SlotKind.TABLE for o in out)


def tables(sessions: Sessions, count: int, prefix: int, steady: bool = False) -> list[Table]:
    made = []
    for n in range(count):
        variant = list(GAMES)[n % len(GAMES)]
        people = [UserRef("tg", f"{prefix}{n:05d}{s}", f"P{s}") for s in range(GAMES[variant])]
        chat = ChatRef("tg", f"-{prefix}{n:05d}")
        made.append(Table(sessions, chat, variant, people, steady=steady))
    return made


def sessions_on(
    url: str, clock: Clock, seed: int = 1, steady: bool = False
) -> tuple[Sessions, Store]:
    """A core on the Redis at ``url``; ``steady``: it draws Telegram's hands steady,
    as the Telegram adapter asks it to."""
    store = Store(connect(url))
    PAINTER.start()  # its worker is ready before the clock starts
    sessions = Sessions(store, SETTINGS, clock=clock, rng=random.Random(seed), painter=PAINTER)
    if steady:
        sessions.steady_hands("tg")
    return sessions, store

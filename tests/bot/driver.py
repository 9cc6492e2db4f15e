"""A stand-in adapter for the core's tests: it sends inbound events, keeps what
each slot shows (dropping older versions, as adapters do), and presses only
buttons the core actually returned."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.app.config import Settings
from bot.model import codec
from bot.model.contract import (
    Answer,
    Button,
    ChatRef,
    Command,
    Delete,
    Document,
    Inbound,
    Notice,
    Outbound,
    Press,
    PrivateStart,
    Response,
    Screen,
    Show,
    SlotKind,
    UserRef,
)
from bot.model.game_state import build_state
from bot.model.gamedoc import RUNNING, Due, GameDoc, Seat, TableSettings, from_json
from bot.storage.store import Store
from bot.table.painter import Painter
from bot.table.sessions import Sessions
from engine import Fixture, State, Tile
from tests.bot.stored import put_game

TILE = re.compile(r"\[(\d)\|(\d)\]")
SETTINGS = Settings(
    _env_file=None,
    turn_timeout=60,
    computer_delay=1.0,
    next_deal_delay=5.0,
    timeouts_before_takeover=3,
    ai_worlds=4,  # computers' choices follow the seed alone
)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def user(number: int, name: str, platform: str = "tg") -> UserRef:
    return UserRef(platform, str(number), name)


def tiles_in(text: str) -> set[Tile]:
    return {Tile(int(a), int(b)) for a, b in TILE.findall(text)}


def buttons(screen: Screen | None) -> list[Button]:
    if screen is None:
        return []
    return [b for row in screen.buttons for b in row]


def move_buttons(screen: Screen | None) -> list[Button]:
    """The buttons that make a move: a hand's playable tiles, draw, pass, end turn
    (a hand's other tiles are disabled buttons)."""
    return [b for b in buttons(screen) if b.enabled and b.payload]


def button(screen: Screen | None, label: str) -> Button:
    found = [b for b in buttons(screen) if label in b.label]
    assert found, f"no button {label!r} in {[b.label for b in buttons(screen)]}"
    return found[0]


def shows(out: Iterable[Outbound], kind: SlotKind) -> list[Show]:
    return [o for o in out if isinstance(o, Show) and o.slot.kind is kind]


def responses(out: Iterable[Outbound]) -> list[Response]:
    """The core's replies to a command (new messages replying to it)."""
    return [o for o in out if isinstance(o, Response)]


def answer(out: list[Outbound]) -> Answer:
    assert out and isinstance(out[0], Answer), out
    return out[0]


def info_text(out: list[Outbound]) -> str:
    texts = [o.screen.plain_text() for o in responses(out)]
    texts += [o.screen.plain_text() for o in out if isinstance(o, Notice)]
    return "\n".join(texts)


@dataclass
class Table:
    """One chat seen through a stand-in adapter."""

    sessions: Sessions
    store: Store
    chat: ChatRef
    clock: Clock
    slots: dict[str, Show] = field(default_factory=dict)
    notices: list[Notice] = field(default_factory=list)
    documents: list[Document] = field(default_factory=list)
    log: list[list[Outbound]] = field(default_factory=list)
    game_id: str | None = None  # the game of the table shown last

    async def send(self, inbound: Inbound, sessions: Sessions | None = None) -> list[Outbound]:
        out = await (sessions or self.sessions).handle(inbound)
        self.take(out)
        return out

    async def tick(self, sessions: Sessions | None = None) -> list[Outbound]:
        out = await (sessions or self.sessions).tick()
        self.take(out)
        return out

    def take(self, out: list[Outbound]) -> None:
        self.log.append(out)
        for item in out:
            if isinstance(item, Show):
                if item.slot.kind is SlotKind.TABLE and item.slot.chat == self.chat:
                    self.game_id = item.slot.game_id
                shown = self.slots.get(item.slot.key)
                if shown is None or item.version >= shown.version:
                    self.slots[item.slot.key] = item
            elif isinstance(item, Delete):
                self.slots.pop(item.slot.key, None)
            elif isinstance(item, Notice):
                self.notices.append(item)
            elif isinstance(item, Document):
                self.documents.append(item)

    async def command(
        self, who: UserRef, name: str, *args: str, admin: bool = False
    ) -> list[Outbound]:
        return await self.send(Command(self.chat, who, name, tuple(args), is_admin=admin))

    async def press(
        self, who: UserRef, payload: str | None, *, sessions: Sessions | None = None
    ) -> list[Outbound]:
        assert payload is not None
        return await self.send(Press(self.chat, who, payload), sessions)

    async def start_match(
        self, variant: str, people: Sequence[UserRef], *options: str, computers: int = 0
    ) -> list[Outbound]:
        """The first person opens a table for ``variant`` with ``options`` and no turn timer,
        the others join, the host adds ``computers`` computers and starts the game: what the
        start brought."""
        host = people[0]
        await self.command(host, "new", variant, *options, "timer=off")
        for person in people[1:]:
            await self.command(person, "join")
        for _ in range(computers):
            await self.command(host, "add_computer")
        return await self.command(host, "start")

    async def open_hands(self, *people: UserRef, game_id: str = "scripted") -> None:
        """Each person opens his hand through the game's deep link, as the start of a
        game has him do, so that his screens are shown once; the table follows the game."""
        self.game_id = game_id
        for person in people:
            await self.send(PrivateStart(person, codec.hand_link(game_id, self.chat)))

    # -- what the slots show ------------------------------------------------------------

    def table(self) -> Screen:
        tables = [
            s
            for s in self.slots.values()
            if s.slot.kind is SlotKind.TABLE and s.slot.game_id == self.game_id
        ]
        assert tables, "no table shown"
        return tables[0].screen

    def hand(self, who: UserRef, game_id: str | None = None) -> Screen | None:
        hands = [
            s
            for s in self.slots.values()
            if s.slot.kind is SlotKind.HAND
            and s.slot.user is not None
            and s.slot.user.key == who.key
            and s.slot.game_id == (game_id or self.game_id)
        ]
        return hands[0].screen if hands else None

    def pinged(self, who: UserRef) -> bool:
        return any(
            s.slot.kind is SlotKind.PING and s.slot.user is not None and s.slot.user.key == who.key
            for s in self.slots.values()
        )

    async def doc(self) -> GameDoc | None:
        stored = await self.store.load(self.chat)
        return from_json(stored.doc) if stored is not None else None

    async def last_doc(self) -> GameDoc | None:
        current = await self.doc()
        if current is not None:
            return current
        raw = await self.store.last_game(self.chat)
        return from_json(raw) if raw is not None else None

    async def state(self) -> State[Any] | None:
        doc = await self.last_doc()
        return build_state(doc) if doc is not None and doc.deals else None

    # -- playing ------------------------------------------------------------------------

    async def step(
        self, people: list[UserRef], rng: random.Random, sessions: list[Sessions] | None = None
    ) -> list[Outbound]:
        """One thing happens: a person with move buttons presses one, or someone
        presses "Next deal", or time passes until the next deadline."""
        pick = rng.choice(sessions) if sessions else None
        for person in people:
            moves = move_buttons(self.hand(person))
            if moves:
                return await self.press(person, rng.choice(moves).payload, sessions=pick)
        table_buttons = [b for b in buttons(self.table()) if b.payload and "Next deal" in b.label]
        if table_buttons and people and rng.random() < 0.5:
            return await self.press(rng.choice(people), table_buttons[0].payload, sessions=pick)
        self.clock.advance(6.0)
        return await self.tick(pick)

    async def play_out(
        self,
        people: list[UserRef],
        rng: random.Random,
        *,
        limit: int = 5000,
        sessions: list[Sessions] | None = None,
    ) -> None:
        """Play until the chat has no current game."""
        for _ in range(limit):
            if await self.store.load(self.chat) is None:
                return
            await self.step(people, rng, sessions)
        raise AssertionError("the match did not end")


def make_table(
    store: Store, chat: ChatRef | None = None, seed: int = 1, painter: Painter | None = None
) -> Table:
    clock = Clock()
    sessions = Sessions(store, SETTINGS, clock=clock, rng=random.Random(seed), painter=painter)
    return Table(sessions, store, chat or ChatRef("tg", "-100"), clock)


async def scripted(
    table: Table,
    variant: str,
    people: list[UserRef | str],
    fixture: Fixture,
    *,
    options: dict[str, str | int] | None = None,
    timer: int = 0,
    game_id: str = "scripted",
) -> GameDoc:
    """Put a running game dealt from ``fixture`` in the table's chat (a person, or
    a computer level for each seat), as if it had just started."""
    seats = tuple(
        Seat(computer=p) if isinstance(p, str) else Seat(user=p, lang="en") for p in people
    )
    host = next(p.key for p in people if not isinstance(p, str))
    doc = GameDoc(
        id=(game_id + "00000000")[:8],
        chat=table.chat,
        status=RUNNING,
        variant=variant,
        options=options or {},
        seed=0,
        seats=seats,
        host=host,
        settings=TableSettings(timer=timer, auto_start=False, pings=True, lang="en"),
        created=table.clock(),
        deals=(fixture,),
        deal_starts=(0,),
    )
    state = build_state(doc)
    due = None
    if state.turn is not None and isinstance(people[state.turn], str):
        due = Due("computer", table.clock() + SETTINGS.computer_delay, doc.step)
    elif timer:
        due = Due("turn", table.clock() + timer, doc.step)
    doc = doc.but(due=due)
    assert await put_game(table.store, doc, table.clock) is not None
    return doc


def deal(variant_tiles: Iterable[Tile], *hands: str, leader: int | None = None) -> Fixture:
    """A fixture from hands written ``"6-6 5-4 …"``; the rest of the set is the
    boneyard in the order given by ``variant_tiles``."""
    parsed = tuple(tuple(Tile.parse(t) for t in hand.split()) for hand in hands)
    dealt = {t for hand in parsed for t in hand}
    return Fixture(parsed, tuple(t for t in variant_tiles if t not in dealt), leader)

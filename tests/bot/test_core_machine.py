"""The core driven by random commands and presses, from random people in random chats.

A hypothesis state machine sends the core what people could send it: commands with
and without arguments, presses of buttons the core showed (in the chat they were
shown in or anywhere else, now or long after), forged payloads, deep links, and time
passing. After every step it checks what must always hold:

- no exception escapes, and the core logs none (a crash turned into an apology is
  still a crash);
- every press gets exactly one answer, first;
- every stored game replays: each move was legal and made by the seat to move, and the
  tiles of its set are all there, each once;
- a move a press added was the presser's own, a computer's, or the only one possible;
- no screen shows a tile of a hand it may not: the chat sees no hand while a deal is
  played, and a private screen or a popup no one else's.

Because the steps themselves are drawn, a failure shrinks to the few steps that cause it.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

import fakeredis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from bot.model import codec
from bot.model.contract import Answer, ChatRef, Command, Notice, Outbound, Press, PrivateStart, Show
from bot.model.game_state import build_state
from bot.model.gamedoc import GameDoc, from_json
from bot.storage.store import Store
from bot.table.sessions import Sessions
from engine import THREE_GUNS_SET, State, Tile, legal_moves
from engine import apply as apply_move
from engine import next_deal as deal_next
from engine.tiles import DOUBLE_SIX
from tests.bot.driver import SETTINGS, Clock, tiles_in, user
from tests.bot.test_hidden_hands import PUBLIC, seen

CHATS = (ChatRef("tg", "-100"), ChatRef("tg", "-200"), ChatRef("tg", "-300", thread="7"))
PEOPLE = (user(1, "Anna"), user(2, "Boris"), user(3, "Chen"), user(4, "Dara"))
COMMANDS = (
    ("new", ("tyaga", "target=15")),
    ("new", ("kozel", "target=13")),
    ("new", ("baghdad", "match=deals:1")),
    ("new", ("three_guns",)),
    ("new", ("tyaga", "timer=30")),
    ("new", ("chess",)),
    ("new", ()),
    ("join", ()),
    ("leave", ()),
    ("add_computer", ()),
    ("add_computer", ("greedy",)),
    ("remove_computer", ()),
    ("start", ()),
    ("stop", ()),
    ("cancel", ()),
    ("scores", ()),
    ("stats", ()),
    ("settings", ("timer=off",)),
    ("settings", ("target=x",)),
    ("rules", ("kozel",)),
    ("lang", ("pl",)),
    ("help", ()),
    ("export", ()),
)


TABLES = (
    ("tyaga", ("target=15",), 2),
    ("kozel", ("target=13",), 2),
    ("kozel", ("target=13", "teams=on"), 4),
    ("baghdad", ("match=deals:1",), 2),
    ("three_guns", (), 3),
)


class _Crashes(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def the_set(variant: str) -> list[Tile]:
    return list(THREE_GUNS_SET if variant == "three_guns" else DOUBLE_SIX)


def placed_tiles(state: State[Any]) -> list[Tile]:
    """Every tile on the table: the line, closed caravans, thieves and handcuffs."""
    from engine import BaghdadPublic, variant_of

    placed = [Tile(p.left, p.right) for p in state.line]
    details = variant_of(state).public(state)
    for caravan in details.caravans if isinstance(details, BaghdadPublic) else ():
        if caravan.status == "open":
            continue
        placed += [Tile(p.left, p.right) for p in caravan.camels]
        placed += [caravan.thief] if caravan.thief else []
        placed += list(caravan.handcuffs or ())
    return placed


def named_in(inbound: object) -> set[Tile]:
    """The tiles a pressed move names: the presser chose them, so a popup may repeat them."""
    if not isinstance(inbound, Press):
        return set()
    try:
        action = codec.decode(inbound.payload)
    except codec.BadPayload:
        return set()
    if not isinstance(action, codec.MovePress):
        return set()
    move = action.move
    return {t for t in (move.tile, move.second) if t is not None}


class CoreMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.store = Store(fakeredis.FakeAsyncRedis(server=fakeredis.FakeServer()))
        self.clock = Clock()
        self.sessions = Sessions(self.store, SETTINGS, clock=self.clock, rng=random.Random(0))
        self.buttons: list[tuple[ChatRef, str]] = []  # every payload shown, and where
        self.links: list[str] = []
        self.slots: dict[str, Show] = {}  # what each slot shows now, as an adapter keeps it
        self.games: dict[str, GameDoc] = {}  # every game seen, by id, as last stored
        self.crashes = _Crashes()
        logging.getLogger("bot").addHandler(self.crashes)

    def teardown(self) -> None:
        logging.getLogger("bot").removeHandler(self.crashes)
        self.loop.run_until_complete(self.store.close())
        self.loop.close()

    # -- sending --------------------------------------------------------------------

    def send(self, inbound: Command | Press | PrivateStart) -> list[Outbound]:
        before = self.docs()
        out = self.loop.run_until_complete(self.sessions.handle(inbound))
        self.after(out, before, inbound)
        return out

    def docs(self) -> dict[str, GameDoc]:
        """The current game of every chat, by chat key."""
        found: dict[str, GameDoc] = {}
        for chat in CHATS:
            stored = self.loop.run_until_complete(self.store.load(chat))
            if stored is not None:
                found[chat.key] = from_json(stored.doc)
        return found

    def after(
        self,
        out: list[Outbound],
        before: dict[str, GameDoc],
        inbound: Command | Press | PrivateStart | None,
    ) -> None:
        now = self.docs()
        for doc in now.values():
            self.games[doc.id] = doc
        for chat in CHATS:
            raw = self.loop.run_until_complete(self.store.last_game(chat))
            if raw is not None:
                last = from_json(raw)
                self.games[last.id] = last
        for item in out:
            if isinstance(item, Show):
                shown = self.slots.get(item.slot.key)
                if shown is None or item.version >= shown.version:
                    self.slots[item.slot.key] = item
            if isinstance(item, (Show, Notice, Answer)) and item.screen is not None:
                where = item.slot.chat if isinstance(item, Show) else getattr(item, "chat", None)
                for row in item.screen.buttons:
                    for b in row:
                        if b.payload and where is not None:
                            self.buttons.append((where, b.payload))
                        if b.deep_link:
                            self.links.append(b.deep_link)
        self.check_hands(out, inbound)
        if isinstance(inbound, Press):
            self.check_moves_are_the_pressers(before, now, inbound)

    # -- rules ----------------------------------------------------------------------

    @rule(
        chat=st.sampled_from(CHATS),
        who=st.sampled_from(PEOPLE),
        command=st.sampled_from(COMMANDS),
        admin=st.booleans(),
    )
    def command(
        self, chat: ChatRef, who: Any, command: tuple[str, tuple[str, ...]], admin: bool
    ) -> None:
        name, args = command
        self.send(Command(chat, who, name, args, is_admin=admin))

    @rule(
        chat=st.sampled_from(CHATS),
        table=st.sampled_from(TABLES),
        computers=st.integers(min_value=0, max_value=2),
        timer=st.sampled_from(["timer=off", "timer=30"]),
    )
    def open_and_start_a_table(
        self, chat: ChatRef, table: tuple[str, tuple[str, ...], int], computers: int, timer: str
    ) -> None:
        """The steps that seat people and start a game, in one (each still checked)."""
        variant, options, seats = table
        computers = min(computers, seats - 1)
        host, *others = PEOPLE[: seats - computers]
        self.send(Command(chat, host, "new", (variant, *options, timer)))
        for person in others:
            self.send(Command(chat, person, "join"))
        for _ in range(computers):
            self.send(Command(chat, host, "add_computer"))
        self.send(Command(chat, host, "start"))

    @precondition(lambda self: any(self.offered()))
    @rule(pick=st.integers(min_value=0), impostor=st.sampled_from([None, None, None, *PEOPLE]))
    def press_an_offered_move(self, pick: int, impostor: Any) -> None:
        """A move button a hand offers now, pressed by its player (or by someone else)."""
        offered = self.offered()
        show, payload = offered[pick % len(offered)]
        assert show.slot.user is not None
        self.press(Press(show.slot.chat, impostor or show.slot.user, payload))

    def offered(self) -> list[tuple[Show, str]]:
        return [
            (show, b.payload)
            for show in self.slots.values()
            if show.slot.kind.value == "hand"
            for row in show.screen.buttons
            for b in row
            if b.enabled and b.payload
        ]

    @precondition(lambda self: self.buttons)
    @rule(
        pick=st.integers(min_value=0),
        who=st.sampled_from(PEOPLE),
        elsewhere=st.sampled_from([None, None, None, *CHATS]),
    )
    def press_a_button_shown(self, pick: int, who: Any, elsewhere: ChatRef | None) -> None:
        """A button the core showed, maybe long ago, maybe from another chat or person."""
        chat, payload = self.buttons[-1 - pick % min(len(self.buttons), 40)]
        self.press(Press(elsewhere or chat, who, payload))

    @precondition(lambda self: self.buttons)
    @rule(
        pick=st.integers(min_value=0),
        who=st.sampled_from(PEOPLE),
        at=st.integers(min_value=0, max_value=63),
        char=st.sampled_from("0123456789abcdefghijklmnopqrstuvwxyz_-LRN:|"),
    )
    def press_a_forged_button(self, pick: int, who: Any, at: int, char: str) -> None:
        """A shown payload with one character changed."""
        chat, payload = self.buttons[pick % len(self.buttons)]
        index = at % len(payload)
        self.press(Press(chat, who, payload[:index] + char + payload[index + 1 :]))

    @rule(chat=st.sampled_from(CHATS), who=st.sampled_from(PEOPLE), payload=st.text(max_size=70))
    def press_anything(self, chat: ChatRef, who: Any, payload: str) -> None:
        self.press(Press(chat, who, payload))

    @rule(who=st.sampled_from(PEOPLE), pick=st.integers(min_value=0), forged=st.text(max_size=20))
    def open_a_deep_link(self, who: Any, pick: int, forged: str) -> None:
        link = self.links[pick % len(self.links)] if self.links and pick % 3 else forged
        self.send(PrivateStart(who, link))

    @rule(seconds=st.sampled_from([0.5, 1.0, 6.0, 31.0, 61.0]))
    def time_passes(self, seconds: float) -> None:
        self.clock.advance(seconds)
        before = self.docs()
        out = self.loop.run_until_complete(self.sessions.tick())
        self.after(out, before, None)

    def press(self, press: Press) -> None:
        out = self.send(press)
        answers = [o for o in out if isinstance(o, Answer)]
        assert out and isinstance(out[0], Answer) and len(answers) == 1, out

    # -- what must hold -------------------------------------------------------------

    @invariant()
    def the_core_logged_no_error(self) -> None:
        records = self.crashes.records
        assert not records, [r.getMessage() for r in records]

    @invariant()
    def every_game_replays_with_its_tiles_all_there(self) -> None:
        for doc in self.docs().values():
            if not doc.deals:
                continue
            state = build_state(doc)  # raises if a stored move is not legal for its seat
            tiles = [t for h in state.hands for t in h] + list(state.boneyard)
            tiles += placed_tiles(state)
            assert sorted(tiles) == sorted(the_set(doc.variant)), doc.id

    def check_moves_are_the_pressers(
        self, before: dict[str, GameDoc], after: dict[str, GameDoc], press: Press
    ) -> None:
        for key, doc in after.items():
            old = before.get(key)
            if old is None or old.id != doc.id or len(doc.moves) == len(old.moves):
                continue
            state = build_state(old) if old.deals else None
            for index in range(len(old.moves), len(doc.moves)):
                seat, text = doc.moves[index]
                if state is None:
                    break
                while state.deal_over and not state.match_over:
                    state = deal_next(state, doc.deals[state.deal_number])
                held = doc.seats[seat]
                assert (
                    (held.user is not None and held.user.key == press.user.key)
                    or held.user is None
                    or held.away is not None
                    or len(legal_moves(state)) == 1
                ), f"{press.user.name}'s press played {text} for seat {seat}"
                state, _ = apply_move(state, text, seat)

    def check_hands(self, out: list[Outbound], inbound: object) -> None:
        for item in out:
            game_id = None
            if isinstance(item, Show):
                game_id = item.slot.game_id
            elif isinstance(item, Answer) and isinstance(inbound, Press):
                try:
                    action = codec.decode(inbound.payload)
                except codec.BadPayload:
                    continue
                game_id = getattr(action, "game_id", None)
            doc = self.games.get(game_id) if game_id else None
            if doc is None or not doc.deals:
                continue
            state = build_state(doc)
            hands = [set(h) for h in state.hands]
            seats = {s.user.key: n for n, s in enumerate(doc.seats) if s.user is not None}
            if isinstance(item, Show) and item.slot.kind in PUBLIC:
                if not state.deal_over:
                    assert not tiles_in(seen(item.screen)) & set().union(*hands), seen(item.screen)
                continue
            if isinstance(item, Show):
                viewer, text = item.slot.user, seen(item.screen)
            elif isinstance(item, Answer) and isinstance(inbound, Press):
                viewer = inbound.user
                text = seen(item.screen) if item.screen is not None else ""
            else:
                continue
            if viewer is None or viewer.key not in seats or state.deal_over:
                continue
            mine = seats[viewer.key]
            others = set().union(*(h for s, h in enumerate(hands) if s != mine))
            if isinstance(item, Answer):
                text += item.text
                others -= named_in(inbound)  # "[3|1] is not in your hand": his own words
            assert not tiles_in(text) & others, text


CoreMachine.TestCase.settings = settings(
    max_examples=40,
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_the_core_holds_under_random_commands_and_presses = CoreMachine.TestCase

"""Running a flow against the store: decide, compare-and-set, follow up.

:meth:`Runner.run` calls the flow on the game this process last stored or read of the
chat, and writes the flow's document by compare-and-set at once: one round trip (the
game's deadline and the write). Only if another process wrote the game meanwhile does
the write lose; the same script then answers with the game as it is now, and the flow
runs again on it. A decision to write nothing may rest on a game that moved on
elsewhere, so it is taken again on a fresh read (one script call) before it is
answered. The write appends only the moves and deals the flow added, and a read
fetches only what this process has not seen (see :mod:`bot.storage.game`), so a press
costs the same at the hundredth move and at the two-thousandth.

The write that ends a game does, in the same script, what the end of a match does in
the chat: the scoreboard, keeping the game as the chat's last game for export, and a
finished match in the chat's history; it queues in the chat's rating queue what lives outside
the chat's hash slot (each player's own results, the global ratings), which follows the
write and is swept by a later tick when this process does not live to do it. Remembered
chat settings follow the write and are retried on the next tick when the store fails
halfway, so a successful write is never reported as a failure.

The one follow-up a game cannot do without is its next deadline: nothing else would wake
the game. It is set in the same round trip as the write, just before it, and a game read
without being written gets its deadline armed again if it has gone missing. Arming never
replaces a deadline, so doing it too often is harmless. A write that lost may have set a
deadline for a game that was not there; the write that wins after it sets it anyway.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import orjson

from bot.model.contract import ChatRef, Outbound, UserRef
from bot.model.decision import Decision, Game
from bot.model.gamedoc import (
    FINISHED,
    RUNNING,
    STOPPED,
    BadDocument,
    GameDoc,
    deal_entry,
    head_json,
    move_entry,
    to_json,
)
from bot.storage import keys
from bot.storage.deal_snapshot import BadSnapshot
from bot.storage.privacy import players_noted
from bot.storage.ratings import RatingContention
from bot.storage.scores import board_writes
from bot.storage.store import (
    Ending,
    GameRead,
    GameWrite,
    MatchWrite,
    Store,
    StoreBusy,
    StoreUnavailable,
    TimerChange,
    Written,
    pack,
)
from bot.table.game_read import assemble, deal_start_snapshot
from bot.table.history import history_writes
from bot.table.match_steps import Tempo
from bot.table.painter import Painter
from bot.table.rating_step import (
    RatedMatch,
    change_lines,
    computer_names,
    match_rows,
    rate_finished,
    with_changes,
)
from bot.table.shown_screens import ShownScreens
from bot.table.state_cache import GameCache
from bot.table.updates import game_updates, pictured
from bot.table.web_setup import WebSetup
from bot.views.i18n import Translator, pick_language, translator
from bot.views.web_links import WebLinks
from engine import DominoError

log = logging.getLogger(__name__)

Flow = Callable[[Game | None, Translator], Decision]

_UNREADABLE = (BadDocument, DominoError, ValueError, TypeError, KeyError, AttributeError)
"""What reading a stored game raises when this version cannot read it (or it lost a part)."""

RETRIES = 20
"""Compare-and-set conflicts in a row before a flow gives up (StoreBusy)."""
RATING_QUEUE_GRACE = 30.0
"""Seconds a chat's queued global rating update is left to the process that ended the
match before the periodic sweep settles it."""


@dataclass(frozen=True, slots=True)
class Ran:
    """A flow's decision, the game before and after (``None``: nothing written),
    and the updates to send."""

    decision: Decision
    before: Game | None
    after: Game | None
    updates: list[Outbound] = field(default_factory=list)


class Runner:
    def __init__(
        self,
        store: Store,
        tempo: Tempo,
        clock: Callable[[], float],
        default_lang: str,
        painter: Painter | None = None,
        web: WebSetup | None = None,
    ) -> None:
        self.store = store
        self.tempo = tempo
        self.clock = clock
        self.default_lang = default_lang
        self.games = GameCache()
        self.shown = ShownScreens()
        # Platforms whose adapters show steady hands (see bot.views.steady_hand), and
        # those that draw from the table's model; chats whose lookups read a group's boards.
        self.steady: set[str] = set()
        self.drawn: set[str] = set()
        self.boards: dict[ChatRef, tuple[ChatRef, ...]] = {}
        # The platforms whose adapters send no picture of a deal's end: none is drawn.
        self.unpictured: set[str] = set()
        self.web = web  # where the screens offer the web table
        self.painter = painter or Painter()  # draws deals' ends while the loop goes on
        self._pending: list[Callable[[], Awaitable[None]]] = []
        self._rated: dict[str, RatedMatch] = {}  # by game id: worked out for its ending write

    def web_links(self) -> WebLinks | None:
        """The web table's passes for a drawing now, where the bot offers it."""
        return None if self.web is None else self.web.links(self.clock())

    def board_chats(self, chat: ChatRef) -> tuple[ChatRef, ...]:
        """The chats whose boards a lookup in ``chat`` reads (see Sessions.share_boards)."""
        return self.boards.get(chat, (chat,))

    # -- reading ----------------------------------------------------------------------

    async def load(self, chat: ChatRef) -> Game | None:
        """The chat's game, read in one round trip; only what this process has not seen
        of it is fetched and replayed."""
        cached = self.games.get(chat.key)
        if cached is None:
            read = await self.store.read_game(chat)
        else:
            doc = cached.doc
            read = await self.store.read_game(chat, doc.id, len(doc.moves), len(doc.deals))
        return await self._take(chat, read, cached)

    async def _take(self, chat: ChatRef, read: GameRead | None, cached: Game | None) -> Game | None:
        """The game ``read`` holds (continuing ``cached``), remembered as the chat's."""
        if read is None:
            self.games.forget(chat.key)
            return None
        try:
            game, broken = assemble(read.intact(), cached)
        except _UNREADABLE as exc:
            await self._set_aside(chat, read, exc)
            return None
        self.games.remember(chat.key, game)
        if broken is not None and read.snapshot:
            await self._set_snapshot_aside(chat, game.doc.id, read.snapshot, broken)
        return game

    async def _set_snapshot_aside(
        self, chat: ChatRef, game_id: str, snapshot: str, error: BadSnapshot
    ) -> None:
        """Move a deal snapshot that does not validate out of the game, keeping it for a
        person to look at; the game, rebuilt from its moves, goes on."""
        if await self.store.set_snapshot_aside(chat, game_id, snapshot):
            log.error(
                "the deal snapshot of game %s in %s cannot be read (%s); set aside under %s",
                game_id,
                chat.key,
                error,
                keys.snapshot_aside(chat, game_id),
            )

    async def _set_aside(self, chat: ChatRef, read: GameRead, error: Exception) -> None:
        """Move a game this version cannot read (an unknown schema or layout, a move that
        no longer replays, a part gone) out of the chat's way, keeping it for a person to
        look at."""
        self.games.forget(chat.key)
        try:
            game_id = str(json.loads(read.head).get("id") or "")
        except (ValueError, AttributeError):
            game_id = ""
        if await self.store.set_aside(chat, read.version, game_id):
            log.error(
                "game %s in %s cannot be read (%s); set aside under %s",
                game_id or "?",
                chat.key,
                error,
                keys.set_aside(chat, game_id),
            )

    def translator_for(self, user: UserRef | None, game: Game | None) -> Translator:
        """A seated player's language, else his platform's, else the chat's."""
        if user is not None and game is not None:
            seat = game.doc.seat_of(user)
            if seat is not None:
                return translator(game.doc.seats[seat].lang)
        chat_lang = game.doc.settings.lang if game is not None else self.default_lang
        return translator(pick_language(user.lang if user else None, chat_lang))

    # -- writing ----------------------------------------------------------------------

    async def run(
        self,
        chat: ChatRef,
        user: UserRef | None,
        flow: Flow,
        asker_translator: Translator | None = None,
    ) -> Ran:
        """Run ``flow`` on the chat's game; ``asker_translator`` speaks the asker's language
        (by default: his seat's, his platform's, or the chat's)."""
        before, fresh, lost = self.games.get(chat.key), False, False
        for _attempt in range(RETRIES + 1):
            chosen = asker_translator or self.translator_for(user, before)
            decision = flow(before, chosen)
            if decision.doc is None:
                if not fresh:  # taken on what this process remembers: check it
                    before, fresh = await self.load(chat), True
                    continue
                if before is not None:
                    await self.arm(chat, before.doc)
                return Ran(decision, before, None, list(decision.extra))
            after = Game(decision.doc, decision.state, (before.version if before else 0) + 1)
            written = await self._write(chat, before, after, restate_deadline=lost)
            if written.ok:
                break
            before = await self._take(chat, written.current, before)
            fresh, lost = True, True
        else:
            raise StoreBusy(f"the game in {chat.key} kept changing under {RETRIES} retries")
        drawn = None
        if after.state is not None and pictured(before, after, self.unpictured):
            in_chat = translator(after.doc.settings.lang)
            model = self.shown.model(after)
            drawn = await self.painter.table(in_chat, after.doc, after.state, model)
        updates = game_updates(
            before,
            after,
            decision,
            self.shown,
            drawn,
            self.steady,
            self.drawn,
            self.unpictured,
            self.web_links(),
        )
        steps = [_setting(self.store, chat, name, value) for name, value in decision.chat_settings]
        steps += players_noted(self.store, chat, before, after)  # for mydata and forget
        seated = _newly_seated(before, after)
        if seated:
            steps.append(lambda: self.store.note_seats(chat, seated, self.clock()))
        if after.doc.status in (FINISHED, STOPPED):
            self.games.forget(chat.key)
            rated = self._rated.pop(after.doc.id, None)
            if rated is not None:
                said = change_lines(translator(after.doc.settings.lang), rated)
                updates = with_changes(updates, after.doc.id, said)
                steps.append(self._queued_results(chat, rated, after))
        else:
            self.games.remember(chat.key, after)
        await self._attempt(steps)
        return Ran(decision, before, after, updates + list(decision.extra))

    async def _write(
        self, chat: ChatRef, before: Game | None, after: Game, *, restate_deadline: bool = False
    ) -> Written:
        doc = after.doc
        same = before is not None and before.doc.id == doc.id
        prior = before.doc if before is not None and same else None
        counter = after.state.counter if after.state is not None else None
        ended = doc.status in (FINISHED, STOPPED)
        names = computer_names(after) if ended else {}
        rated = await rate_finished(self.store, chat, after, names, self.clock()) if ended else None
        write = GameWrite(
            expected=before.version if before is not None else 0,
            game_id=doc.id,
            # orjson writes the compact UTF-8 text json.dumps would, in a tenth of the time.
            head=orjson.dumps(head_json(doc, counter)).decode(),
            moves=[move_entry(m) for m in doc.moves[len(prior.moves) if prior else 0 :]],
            deals=[deal_entry(d) for d in doc.deals[len(prior.deals) if prior else 0 :]],
            moves_before=len(prior.moves) if prior is not None else -1,
            deals_before=len(prior.deals) if prior is not None else 0,
            snapshot=None if ended else deal_start_snapshot(before if same else None, after),
            ending=self._ending(chat, after, rated) if ended else None,
            held=before.doc.id if before is not None else None,
        )
        timer = _timer_change(prior, doc, restate_deadline)
        written = await self.store.write_game(chat, write, timer)
        if written.ok and rated is not None:
            self._rated[doc.id] = rated  # for the caller: the table's lines, the global step
        return written

    def _ending(self, chat: ChatRef, game: Game, rated: RatedMatch | None) -> Ending:
        """The chat's updates of an ended game: the match counted on the scoreboard and
        in the chat's ratings (a finished one), and the game kept as the chat's last game
        (a dealt one)."""
        doc = game.doc
        writes: tuple[MatchWrite, ...] = ()
        if doc.status == FINISHED and game.state is not None:
            writes = board_writes(chat, doc.variant, match_rows(game), self.store.retention)
        if rated is not None:
            writes += rated.writes(chat, self.store.retention, match_rows(game))
        writes += history_writes(self.store.history, game, self.clock())
        # The final table's version, so an adapter that died before showing it can tell.
        ended = f"{game.version}:{doc.id}"
        ttl = self.store.idle_ttl
        writes += (MatchWrite("SET", (keys.last_version(chat),), (ended, "EX", ttl)),)
        return Ending(pack(to_json(doc)) if doc.deals else None, writes)

    def _queued_results(
        self, chat: ChatRef, rated: RatedMatch, game: Game
    ) -> Callable[[], Awaitable[None]]:
        """The step after a match's ending write: each person's own results and the
        global ratings, from what that write queued in the chat's rating queue (a process
        stopped before the step leaves them there for a sweep)."""

        async def record() -> None:
            try:
                queued = rated.queued(match_rows(game))
                await self.store.settle_global_ratings(chat, rated.match_id, rated.noted, queued)
            except RatingContention:  # it stays queued: a later sweep settles it
                log.warning("global ratings busy: match %s waits for a sweep", rated.match_id)

        return record

    async def sweep_rating_queues(self) -> None:
        """Finish the global rating updates that stopped processes left queued (a chat
        is swept once its note is :data:`RATING_QUEUE_GRACE` seconds old)."""
        await self.store.sweep_rating_queues(self.clock() - RATING_QUEUE_GRACE)

    async def arm(self, chat: ChatRef, doc: GameDoc) -> None:
        """Make sure the running game's deadline is in the timer set (a process killed
        between claiming it and writing its move took it along)."""
        if doc.due is not None and doc.status == RUNNING:
            await self.store.arm(chat, doc.id, doc.due.step, doc.due.at)

    async def _attempt(self, steps: list[Callable[[], Awaitable[None]]]) -> None:
        """Run follow-up steps; keep those the store could not take for the next tick."""
        for index, step in enumerate(steps):
            try:
                await step()
            except StoreUnavailable:
                log.warning(
                    "store unavailable after a write; will retry %d follow-ups", len(steps) - index
                )
                self._pending += steps[index:]
                return

    def later(self, step: Callable[[], Awaitable[None]]) -> None:
        """Run ``step`` on the next tick (the store failed it now)."""
        self._pending.append(step)

    async def retry_pending(self) -> None:
        pending, self._pending = self._pending, []
        await self._attempt(pending)


def _timer_change(prior: GameDoc | None, doc: GameDoc, restate: bool = False) -> TimerChange | None:
    """How the game's deadline changes with this write (``None``: it does not; with
    ``restate``, it is set even so)."""
    was = prior.due if prior is not None else None
    if doc.due == was and doc.status not in (FINISHED, STOPPED) and not restate:
        return None
    if doc.due is None or doc.status != RUNNING:
        return TimerChange()
    return TimerChange(doc.due.step, doc.due.at)


def _newly_seated(before: Game | None, after: Game) -> list[UserRef]:
    """The people seated at ``after`` who were not at ``before`` (the same game)."""
    if not after.doc.active:
        return []
    had = set()
    if before is not None and before.doc.id == after.doc.id:
        if before.doc.seats == after.doc.seats:  # most writes: a move seats nobody
            return []
        had = {s.user.key for s in before.doc.seats if s.user is not None}
    return [s.user for s in after.doc.seats if s.user is not None and s.user.key not in had]


def _setting(store: Store, chat: ChatRef, name: str, value: str) -> Callable[[], Awaitable[None]]:
    return lambda: store.set_chat_setting(chat, name, value)

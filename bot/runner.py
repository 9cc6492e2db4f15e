"""Running a flow against the store: read, decide, compare-and-set, follow up.

:meth:`Runner.run` reads the chat's game, calls the flow (again if another
process wrote first), writes the flow's document by compare-and-set, and then
does what must follow a write: the game's deadline in the timer set, its event
stream, the chat's remembered settings, and, once a game has ended, the
scoreboard and clearing the chat for the next game. Those follow-ups are
retried on the next tick when the store fails halfway, so a successful write
is never reported as a failure.

The one follow-up a game cannot do without is its next deadline (a computer's
move, the next deal, a turn timeout): nothing else would wake the game. So the
deadline is armed in the timer set *before* the write as well, and a game read
without being written gets its deadline armed again if it has gone missing.
Arming never replaces a deadline, so doing it too often is harmless.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.contract import ChatRef, Outbound, UserRef
from bot.flow import Decision, Game
from bot.gamedoc import FINISHED, RUNNING, STOPPED, GameDoc, from_json, to_json
from bot.i18n import Translator, pick_language, translator
from bot.match import Pacing
from bot.replay import StateCache
from bot.store import MatchRow, Store, Stored, StoreUnavailable
from bot.updates import game_updates

log = logging.getLogger(__name__)

Flow = Callable[[Game | None, Translator], Decision]


@dataclass(frozen=True, slots=True)
class Ran:
    """A flow's decision, the game before and after (``None``: nothing written),
    and the updates to send."""

    decision: Decision
    before: Game | None
    after: Game | None
    updates: list[Outbound] = field(default_factory=list)
    translate: Translator = field(default_factory=lambda: translator("en"))


class Runner:
    def __init__(
        self, store: Store, pacing: Pacing, clock: Callable[[], float], default_lang: str
    ) -> None:
        self.store = store
        self.pacing = pacing
        self.clock = clock
        self.default_lang = default_lang
        self.cache = StateCache()
        self._pending: list[Callable[[], Awaitable[None]]] = []

    # -- reading ----------------------------------------------------------------------

    def game(self, stored: Stored | None) -> Game | None:
        if stored is None:
            return None
        doc = from_json(stored.doc)
        state = self.cache.state(doc) if doc.deals else None
        return Game(doc, state, stored.version)

    async def load(self, chat: ChatRef) -> Game | None:
        game = self.game(await self.store.load(chat))
        if game is not None and game.state is not None:
            self.cache.remember(game.doc, game.state)
        return game

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
        self, chat: ChatRef, user: UserRef | None, flow: Flow, translate: Translator | None = None
    ) -> Ran:
        """Run ``flow`` on the chat's game; ``translate`` is the asker's language
        (by default: his seat's, his platform's, or the chat's)."""

        async def attempt(stored: Stored | None) -> tuple[dict[str, Any] | None, Ran]:
            before = self.game(stored)
            _ = translate or self.translator_for(user, before)
            decision = flow(before, _)
            if decision.doc is None:
                if before is not None:
                    await self._arm(chat, before.doc)
                return None, Ran(decision, before, None, translate=_)
            await self._arm(chat, decision.doc)
            version = (stored.version if stored is not None else 0) + 1
            after = Game(decision.doc, decision.state, version)
            counter = decision.state.counter if decision.state is not None else None
            return to_json(decision.doc, counter), Ran(decision, before, after, translate=_)

        ran = await self.store.update(chat, attempt)
        if ran.after is None:
            return ran
        if ran.after.state is not None:
            self.cache.remember(ran.after.doc, ran.after.state)
        updates = game_updates(ran.before, ran.after, ran.decision, self.clock())
        await self._follow_up(chat, ran.before, ran.after, ran.decision)
        return Ran(
            ran.decision, ran.before, ran.after, updates + list(ran.decision.extra), ran.translate
        )

    async def _follow_up(
        self, chat: ChatRef, before: Game | None, after: Game, decision: Decision
    ) -> None:
        steps: list[Callable[[], Awaitable[None]]] = []
        was = before.doc.due if before is not None and before.doc.id == after.doc.id else None
        doc = after.doc
        if doc.due != was or doc.status in (FINISHED, STOPPED):
            steps.append(lambda: self._set_timer(chat, doc))
        if decision.events:
            events = [dict(e) for e in decision.events]
            steps.append(lambda: self.store.append_events(chat, doc.id, events))
        for name, value in decision.chat_settings:
            steps.append(_setting(self.store, chat, name, value))
        if doc.status in (FINISHED, STOPPED):
            steps.append(lambda: self.finalize(chat, after))
        await self._attempt(steps)

    async def _arm(self, chat: ChatRef, doc: GameDoc) -> None:
        """Make sure the running game's deadline is in the timer set."""
        if doc.due is not None and doc.status == RUNNING:
            await self.store.arm(chat, doc.id, doc.due.step, doc.due.at)

    async def _set_timer(self, chat: ChatRef, doc: GameDoc) -> None:
        if doc.due is None or doc.status != "running":
            await self.store.unschedule(chat, doc.id)
        else:
            await self.store.schedule(chat, doc.id, doc.due.step, doc.due.at)

    async def finalize(self, chat: ChatRef, game: Game) -> None:
        """Count a finished match on the scoreboard (once: the store records the
        match id) and clear the chat for its next game, keeping this one as the
        chat's last game for export."""
        doc = game.doc
        if doc.status == FINISHED and game.state is not None:
            rows = [
                MatchRow(seat.user, number in game.state.winners, game.state.match_scores[number])
                for number, seat in enumerate(doc.seats)
                if seat.user is not None
            ]
            await self.store.record_match(chat, doc.id, doc.variant, rows)
        version = game.version
        for _attempt in range(5):
            if await self.store.clear(chat, version, keep_last=bool(doc.deals)):
                break
            stored = await self.store.load(chat)
            if stored is None or stored.doc.get("id") != doc.id:
                break
            version = stored.version
        self.cache.forget(doc.id)

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


def _setting(store: Store, chat: ChatRef, name: str, value: str) -> Callable[[], Awaitable[None]]:
    return lambda: store.set_chat_setting(chat, name, value)

"""The one door into the core: :meth:`Sessions.handle` for what people do, and
:meth:`Sessions.tick` for what time does (paced computer moves, turn timeouts,
the next deal).

Both return the outbound instructions for the adapter to carry out in order. A press
always gets exactly one :class:`~bot.model.contract.Answer`, first. When the store is
down, nothing is written and the person is told to try again.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable, Collection
from typing import Protocol

from bot import ai
from bot.ai.thinker import Thinker, allowance_of
from bot.model import codec, payload_privacy
from bot.model.contract import (
    Answer,
    ChatMoved,
    ChatRef,
    Command,
    Inbound,
    Notice,
    NotReached,
    Outbound,
    Press,
    PrivateStart,
    Response,
    Screen,
    SlotKind,
    Unreachable,
)
from bot.model.decision import Decision, Game, reply_line, reply_text
from bot.storage.store import Store, StoreUnavailable, TimerClaim
from bot.table import asking, history, lobby, lookups, play, privacy, review
from bot.table.apology import apology
from bot.table.commands import Commands
from bot.table.event_log import described
from bot.table.match_steps import UNREACHABLE_TIMER, Tempo
from bot.table.moved_chat import chat_moved
from bot.table.painter import Painter
from bot.table.presses import game_chat, press_flow
from bot.table.private_chat import tables_of, welcome_screen
from bot.table.redraw import Drawn, last_ended_game, redraw
from bot.table.rematch import rematch
from bot.table.runner import Runner
from bot.table.updates import hand_as_it_is
from bot.table.web_setup import web_of
from bot.views.i18n import Translator, pick_language, text_line, translator
from engine import Move

log = logging.getLogger(__name__)


class SessionSettings(Protocol):
    """The settings the core reads (a subset of :class:`bot.app.config.Settings`)."""

    @property
    def turn_timeout(self) -> int: ...
    @property
    def computer_delay(self) -> float: ...
    @property
    def next_deal_delay(self) -> float | None: ...
    @property
    def timeouts_before_takeover(self) -> int: ...
    @property
    def default_lang(self) -> str: ...
    @property
    def ai_seconds(self) -> float: ...
    @property
    def ai_worlds(self) -> int | None: ...


class Sessions:
    def __init__(
        self,
        store: Store,
        settings: SessionSettings,
        *,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        thinker: Thinker | None = None,
        painter: Painter | None = None,
    ) -> None:
        """``rng`` picks game ids and seeds (tests pass a seeded one); ``thinker``
        works out computer moves (default: in this process, with the settings' allowance);
        ``painter`` draws deals' ends (default: in a thread of this process)."""
        self._thinker = thinker or Thinker(0, allowance_of(settings))
        tempo = Tempo(
            settings.computer_delay,
            settings.next_deal_delay,
            settings.timeouts_before_takeover,
            self._thinker.allowance,
            # Optional: a front end's own settings may leave it to the default.
            float(getattr(settings, "unreachable_turn_timeout", UNREACHABLE_TIMER)),
        )
        self._runner = Runner(store, tempo, clock, settings.default_lang, painter, web_of(settings))
        self._commands = Commands(self._runner, rng or random.SystemRandom(), settings.turn_timeout)
        self._privacy = privacy.Privacy(self._runner, self._commands.user_lang)
        self._commands.thinker = self._thinker
        self._default_lang = settings.default_lang

    async def handle(self, inbound: Inbound) -> list[Outbound]:
        try:
            return await self._dispatch(inbound)
        except StoreUnavailable:
            log.warning("store unavailable while handling %s", type(inbound).__name__)
            return apology(inbound, self._default_lang, unavailable=True)
        except Exception:
            log.exception("failed to handle %s", described(inbound))
            return apology(inbound, self._default_lang, unavailable=False)

    async def tick(self, platform: str | None = None) -> list[Outbound]:
        """Play what is due: claims each due deadline (only one process gets it)."""
        runner = self._runner
        try:
            await runner.retry_pending()
            await runner.sweep_rating_queues()
            await runner.store.forget_inactive(ai.DEFAULT_LEVEL)
            claims = await runner.store.claim_due(runner.clock(), platform)
        except StoreUnavailable:
            log.warning("store unavailable: deadlines wait for the next tick")
            return []
        out: list[Outbound] = []
        # Every computer decision due is worked out first, all at once and off the loop.
        chosen = await asyncio.gather(*(self._think(claim) for claim in claims))
        for claim, move in zip(claims, chosen, strict=True):
            now = runner.clock()

            def flow(
                game: Game | None,
                translator: Translator,
                claim_id: str = claim.game_id,
                step: int = claim.counter,
                at: float = now,
                move: Move | None = move,
            ) -> Decision:
                return play.on_deadline(
                    game, claim_id, step, now=at, tempo=runner.tempo, chosen=move
                )

            try:
                ran = await runner.run(claim.chat, None, flow)
            except StoreUnavailable:
                runner.later(_reschedule(runner, claim, now))
                continue
            except Exception:
                log.exception("failed to play the deadline %r", claim)
                continue
            out += ran.updates
        return out

    def steady_hands(self, platform: str) -> None:
        """Draw the hands of games played on ``platform`` as steady ones (see
        :mod:`bot.views.steady_hand`): its adapter shows them so from now on."""
        self._runner.steady.add(platform)

    def draws_tables(self, platform: str) -> None:
        """Shows on ``platform`` carry the typed models its adapter draws from (Show)."""
        self._runner.drawn.add(platform)

    def no_deal_pictures(self, platform: str) -> None:
        """Draw and send no picture of a deal's end on ``platform``: its table tells it."""
        self._runner.unpictured.add(platform)

    def tables_on_demand(self, platform: str) -> None:
        """``/table`` on ``platform`` posts the chat's live table anew, buttons and all,
        where its adapter shows it (below the command), instead of sending the asker a
        picture of it: the table he looks for may be far up the chat, or gone."""
        self._commands.live_tables.add(platform)

    def share_boards(self, chats: Collection[ChatRef]) -> None:
        """Lookups asked in any of ``chats`` read the boards of all of them, merged."""
        self._runner.boards.update(dict.fromkeys(chats, tuple(chats)))

    async def redraw(self, chat: ChatRef, slot_keys: Collection[str] = ()) -> Drawn | None:
        """The chat's table as the store holds it (and the hands and picture named in
        ``slot_keys``), for an adapter to bring what it shows up to date; raises
        :class:`StoreUnavailable` when the store is down."""
        return await redraw(self._runner, chat, slot_keys)

    async def table_game(self, chat: ChatRef) -> Game | None:
        """The chat's game as the store holds it, or, once it has ended, its last game at
        the version it ended at (so a page still shows the final table); ``None`` when
        the chat has neither. Nothing is written or armed: a web page only looks."""
        game = await self._runner.load(chat)
        return game if game is not None else await last_ended_game(self._runner, chat)

    async def _think(self, claim: TimerClaim) -> Move | None:
        """The computer's move a claimed deadline calls for, worked out by the thinker;
        ``None`` when it calls for none (or thinking failed: the flow then works it out)."""
        runner = self._runner
        try:
            game = await runner.load(claim.chat)
            question = play.thinking_due(game, claim.game_id, claim.counter, runner.tempo)
            return None if question is None else await self._thinker.answer(question)
        except StoreUnavailable:
            return None
        except Exception:
            log.exception("a computer could not think about %r", claim)
            return None

    # -- dispatch ---------------------------------------------------------------------

    async def _dispatch(self, inbound: Inbound) -> list[Outbound]:
        if isinstance(inbound, Command) and inbound.name.lower() in privacy.COMMANDS:
            return await self._privacy.command(inbound)
        if isinstance(inbound, Command):
            return await self._commands.handle(inbound)
        if isinstance(inbound, Press):
            return await self._press(inbound)
        if isinstance(inbound, PrivateStart):
            return await self._private_start(inbound)
        if isinstance(inbound, ChatMoved):
            return await chat_moved(self._runner, inbound)
        if isinstance(inbound, NotReached):
            await asking.not_reached(self._runner.store, inbound)
            return []
        return await self._unreachable(inbound)

    async def _press(self, press: Press) -> list[Outbound]:
        _ = translator(pick_language(press.user.lang, self._default_lang))
        try:
            action = codec.decode(press.payload)
        except codec.BadPayload:
            return [Answer(_("That button is not one of mine, or it is too old."))]
        if isinstance(action, codec.HandLink | payload_privacy.MyDataLink):
            return [Answer(_("That button is not one of mine, or it is too old."))]
        if isinstance(action, payload_privacy.ForgetPress):
            return await self._privacy.press(press, action)
        seating = isinstance(action, codec.LobbyPress) and action.action in lobby.SEATING
        if press.as_chat and (seating or isinstance(action, codec.VariantPick)):
            return [Answer(reply_text(lobby.not_as_chat(_).reply))]
        if isinstance(action, codec.VariantPick):
            return await self._pick_variant(press, action.variant)
        if isinstance(action, codec.ScoresPick):
            return await self._scores(press, action.variant)
        if isinstance(action, codec.ReplayPick):
            _ = translator(await self._commands.user_lang(press.user))
            if action.review:
                return await review.pressed(self._runner, self._thinker, press, action, _)
            return await history.pressed(self._runner, press, action.game_id, _)
        if isinstance(action, codec.RematchPress):
            return await self._rematch(press, action.game_id)
        chat = game_chat(press, action)
        if chat is None:
            return [Answer(_("That button is not one of mine, or it is too old."))]
        if isinstance(action, codec.PicturePress):
            return await self._picture(press, chat, action.game_id)
        runner = self._runner
        steady, web = chat.platform in runner.steady, runner.web_links()
        flow = await press_flow(
            press, action, runner.clock(), runner.tempo, self._commands.user_lang, steady, web
        )
        ran = await self._runner.run(chat, press.user, flow)
        if ran.before is None and chat != press.chat:
            # A button sent before its game's chat moved (a group upgraded to a
            # supergroup) names the old chat: the game is followed there.
            moved = await runner.store.moved_to(chat)
            if moved is not None:
                ran = await self._runner.run(moved, press.user, flow)
        decision = ran.decision
        return [Answer(reply_text(decision.reply), decision.alert, decision.screen), *ran.updates]

    async def _picture(self, press: Press, chat: ChatRef, game_id: str) -> list[Outbound]:
        """The table as a picture, for the presser alone (:mod:`bot.table.asking`); nothing
        changes, and asking again for the version he has sends nothing."""
        _ = translator(await self._commands.user_lang(press.user))
        game = await self._runner.load(chat)
        if game is None or game.doc.id != game_id or game.state is None:
            return [Answer(_("That button is from a finished game."))]
        store = self._runner.store
        if await asking.ask(store, chat, press.user) is not asking.Verdict.SEND:
            return [Answer(asking.wait_text(_))]
        picture = await asking.table_picture(store, self._runner.painter, chat, press.user, game)
        if picture is None:
            return [Answer(_("You were sent this picture already."))]
        unreachable = Answer(
            _("I cannot write to you privately yet: open our private chat, then press again."),
            alert=True,
        )
        return [
            Answer(_("The picture is on its way to you alone."), unreachable=unreachable),
            picture,
        ]

    async def _pick_variant(self, press: Press, variant: str) -> list[Outbound]:
        """A game picked from the answer to ``new``: open its table as ``new`` would
        (the new lobby is the answer everyone sees)."""
        commands, user = self._commands, press.user
        lang = await commands.user_lang(user)
        flow = await commands.new_flow(press.chat, user, (variant,), lang, press.chat_title)
        ran = await self._runner.run(press.chat, user, flow)
        decision = ran.decision
        return [Answer(reply_text(decision.reply), decision.alert), *ran.updates]

    async def _scores(self, press: Press, variant: str) -> list[Outbound]:
        """The Scores button of a finished table: the chat's scoreboard for its game,
        as a new message in the chat."""
        _ = translator(await self._commands.user_lang(press.user))
        if await asking.ask(self._runner.store, press.chat, press.user) is not asking.Verdict.SEND:
            return [Answer(asking.wait_text(_))]
        screen = await lookups.scores_screen(self._runner, press.chat, press.user, (variant,), _)
        return [Answer(), Response(press.chat, screen, topic="scores", public=True)]

    async def _rematch(self, press: Press, game_id: str) -> list[Outbound]:
        """The Rematch button of a finished table: a lobby with the same players and
        options, opened in the chat the button was pressed in."""
        runner, user, admin = self._runner, press.user, press.is_admin
        _ = translator(await self._commands.user_lang(user))
        last = await self._commands.last_game(press.chat)
        if last is None or last.id != game_id:
            return [Answer(_("That button is from a finished game."))]
        game_id, seed = self._commands.new_ids()
        now = runner.clock()
        ran = await runner.run(
            press.chat,
            user,
            lambda game, translator: rematch(
                game, last, user, admin, translator=translator, game_id=game_id, seed=seed, now=now
            ),
        )
        decision = ran.decision
        return [Answer(reply_text(decision.reply), decision.alert), *ran.updates]

    async def _private_start(self, start: PrivateStart) -> list[Outbound]:
        user = start.user
        here = play.private_chat(user)
        _ = translator(pick_language(user.lang, self._default_lang))
        try:
            action = codec.decode(start.payload)
        except codec.BadPayload:
            action = None
        if isinstance(action, payload_privacy.MyDataLink):
            return await self._privacy.private_start(user)
        if not isinstance(action, codec.HandLink) and not start.payload:
            return await tables_of(self._runner, user, _, self._private_start)
        if not isinstance(action, codec.HandLink):
            return [Notice(here, welcome_screen(_))]
        chat = action.chat
        if chat is None:
            return [Notice(here, Screen((text_line(_("That game is over.")),)))]
        game_id, runner, web = action.game_id, self._runner, self._runner.web_links()
        now, tempo, steady = runner.clock(), runner.tempo, chat.platform in runner.steady
        ran = await runner.run(
            chat,
            user,
            lambda game, _: play.private_start(
                game, game_id, user, translator=_, now=now, tempo=tempo, steady=steady, web=web
            ),
        )
        decision = ran.decision
        if decision.reply:
            return [Notice(here, Screen((reply_line(decision.reply),))), *ran.updates]
        if decision.screen is not None and ran.before is not None:  # his hand, as it is
            return hand_as_it_is(ran.before, user, decision.screen)
        return ran.updates

    async def _unreachable(self, event: Unreachable) -> list[Outbound]:
        slot = event.slot
        chat = slot.table
        if chat is None or slot.game_id is None or slot.kind not in (SlotKind.HAND, SlotKind.PING):
            return []
        game_id, user, runner = slot.game_id, event.user, self._runner
        now = runner.clock()
        ran = await runner.run(
            chat,
            user,
            lambda game, _: play.on_unreachable(game, game_id, user, now=now, tempo=runner.tempo),
        )
        return ran.updates


def _reschedule(runner: Runner, claim: TimerClaim, due: float) -> Callable[[], Awaitable[None]]:
    """Put back a deadline whose move the store could not take."""
    return lambda: runner.store.schedule(claim.chat, claim.game_id, claim.counter, due)


__all__ = ["ChatRef", "SessionSettings", "Sessions"]

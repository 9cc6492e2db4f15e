"""The python-telegram-bot Application and the handlers that join it to the core.

A handler converts the update, asks the core, answers a press at once from the
core's :class:`Answer`, and hands everything else to the deliverer. It holds no
rule and no game state.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Collection, Sequence
from typing import Protocol, TypeGuard

from telegram import BotCommand, Update
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from adapters.delivery.deliver import Deliverer
from adapters.delivery.wiring import Wiring
from adapters.telegram.carry import Carrier
from adapters.telegram.conversion import (
    PLATFORM,
    TELEGRAM_NAMES,
    chat_as_user,
    chat_ref,
    described,
    is_private,
    message_to_inbound,
    query_to_press,
)
from adapters.telegram.render import INERT_DATA, Renderer
from adapters.web_address import WebAddress
from bot.model import codec
from bot.model.contract import (
    Answer,
    ChatMoved,
    ChatRef,
    Command,
    Delete,
    Inbound,
    NotReached,
    Outbound,
    Press,
    Response,
    Show,
    SlotKind,
    UserRef,
)
from bot.table.commands import ADMIN_COMMANDS
from bot.table.redraw import Drawn
from bot.views import catalog
from bot.views.i18n import DEFAULT_LANG, available_languages

log = logging.getLogger(__name__)

SORRY = "Sorry, something went wrong. Please try again."
ADMIN_CACHE_SECONDS = 300.0  # an admin list rarely changes during a game
# A lookup Telegram refused (flood control, a user it no longer knows) counts as no admin
# for a while, instead of being asked again on every press of a host action.
ADMIN_REFUSED_SECONDS = 30.0
# Updates handled at once (the core serialises writes per chat itself). A press waits for
# none of the others: under load each takes seconds, nearly all of them waiting on the store
# and on Telegram, and with a few dozen places the presses queued for one longer than that.
CONCURRENT_UPDATES = 256
# Seconds a press waits to know whether what it sent its presser privately reached him.
ALONE_WAIT = 5.0
ADMINS = {ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER}
GONE = {ChatMemberStatus.LEFT, ChatMemberStatus.BANNED}


class Core(Protocol):
    """What the adapter needs from the core's sessions."""

    async def handle(self, inbound: Inbound) -> Sequence[Outbound]: ...

    async def tick(self, platform: str) -> Sequence[Outbound]: ...

    async def redraw(self, chat: ChatRef, slot_keys: Collection[str]) -> Drawn | None: ...

    def steady_hands(self, platform: str) -> None: ...


def build_application(
    token: str, base_url: str | None = None, *, with_updater: bool = True
) -> Application:
    """An Application for ``token``; ``base_url`` points it at another Bot API server
    (``https://host/bot``, the token is appended). Webhook mode needs no updater."""
    builder = Application.builder().token(token).concurrent_updates(CONCURRENT_UPDATES)
    if base_url:
        root = base_url.rstrip("/")
        if not root.endswith("/bot"):
            root += "/bot"
        builder = builder.base_url(root).base_file_url(root.removesuffix("/bot") + "/file/bot")
    if not with_updater:
        builder = builder.updater(None)
    return builder.build()


class TelegramAdapter:
    """Handlers for one Application, and the deliverer they feed (``web``: where the
    buttons that open the web table lead)."""

    def __init__(
        self, application: Application, core: Core, wiring: Wiring, web: WebAddress | None = None
    ) -> None:
        self.application = application
        self.core = core
        self.wiring = wiring
        self.web = web
        self._deliverer: Deliverer | None = None
        self._carrier: Carrier | None = None
        self._admins: dict[tuple[int, int], tuple[bool, float]] = {}
        self.handled = 0  # updates this adapter has finished with (tests wait on it)
        # Every edit counts against the chat's send budget: a hand that stays the same
        # while the turn passes is not edited when it comes to its player.
        core.steady_hands(PLATFORM)
        application.add_handler(
            MessageHandler(filters.UpdateType.MESSAGE & filters.COMMAND, self.on_command)
        )
        application.add_handler(CallbackQueryHandler(self.on_press))
        application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self.on_migrate))
        application.add_handler(ChatMemberHandler(self.on_membership))
        application.add_error_handler(self.on_error)

    @property
    def started(self) -> bool:
        return self._deliverer is not None

    @property
    def deliverer(self) -> Deliverer:
        if self._deliverer is None:
            raise RuntimeError("the Telegram adapter has not been started")
        return self._deliverer

    async def start(self) -> None:
        """After ``application.initialize()``: the bot's name is known, so links can be made."""
        bot = self.application.bot
        renderer = Renderer(bot.username, self.wiring.wall, self.web)
        carrier = self._carrier = Carrier(bot, renderer, self.wiring.book, self.wiring.clock)
        self._deliverer = Deliverer(
            carrier,
            self.wiring.send_log,
            self.wiring.clock,
            self.core.handle,
            pending=self.wiring.pending,
            outbox=self.wiring.outbox,
            pings=self.wiring.pings,
            on_removed=self.removed,
        )
        await self.register_commands()

    async def stop(self) -> None:
        if self._deliverer is not None:
            await self._deliverer.close()

    async def register_commands(self) -> None:
        """The command menu, in every language the core speaks (English for the rest)."""
        bot = self.application.bot
        for lang in available_languages():
            commands = [
                BotCommand(TELEGRAM_NAMES[info.name], info.description[:256])
                for info in catalog.commands(lang)
            ]
            code = None if lang == DEFAULT_LANG else lang
            try:
                await bot.set_my_commands(commands, language_code=code)
            except TelegramError as err:
                log.warning("could not register the %s command menu: %s", lang, err)

    def submit(self, outbounds: Sequence[Outbound]) -> None:
        self.deliverer.submit(outbounds)

    # -- handlers ------------------------------------------------------------------

    async def on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        try:
            await self._handle_command(update)
        finally:
            self.handled += 1

    async def _handle_command(self, update: Update) -> None:
        message = update.effective_message
        if message is None:
            return
        inbound = message_to_inbound(message, self.application.bot.username)
        if inbound is None:
            return
        if (
            isinstance(inbound, Command)
            and not inbound.private
            and not inbound.is_admin
            and inbound.name.lower() in ADMIN_COMMANDS
        ):
            admin = await self.is_admin(message.chat.id, int(inbound.user.user_id))
            inbound = dataclasses.replace(inbound, is_admin=admin)
        self.submit(await self.core.handle(inbound))

    async def on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        try:
            press = query_to_press(query) if query.data != INERT_DATA else None
            if press is None:
                await self.deliverer.answer(query.id, Answer())
                return
            await self._handle_press(query.id, press, query.message is not None)
        finally:
            self.handled += 1

    async def _handle_press(self, query_id: str, press: Press, in_message: bool) -> None:
        # The answer is due at once: ask Telegram about the presser only when the
        # press may turn on it (a lobby action not by its host, or a setting).
        if (
            in_message
            and press.chat.chat_id.startswith("-")
            and codec.needs_admin(press.payload, press.user.user_id)
        ):
            admin = await self.is_admin(int(press.chat.chat_id), int(press.user.user_id))
            press = dataclasses.replace(press, is_admin=admin)
        try:
            outbounds = await self.core.handle(press)
        except Exception:
            log.exception("the core failed on a press in %s", press.chat.key)
            await self.deliverer.answer(query_id, Answer(SORRY))
            return
        answers = [o for o in outbounds if isinstance(o, Answer)]
        # The core has applied the press: what it changed is queued before the answer
        # is sent, and goes out while Telegram takes the answer, however long that is,
        # the presser's own hand first, so that no live keyboard lingers under his
        # finger while the table is edited.
        rest = [o for o in outbounds if not isinstance(o, Answer)]
        own = [o for o in rest if _is_screen_of(o, press, SlotKind.HAND)]
        pings = [o for o in rest if _is_screen_of(o, press, SlotKind.PING)]
        # A ping to the chat he has just pressed in tells him nothing that his hand,
        # redrawn in place there, does not; any other goes out with it (held back
        # first, as every ping is).
        elsewhere = [p for p in pings if p.slot.chat != press.chat]
        others = [o for o in rest if o not in own and o not in pings]
        answer = answers[0] if answers else Answer()
        alone = [o for o in others if isinstance(o, Response) and o.to == press.user]
        if answer.unreachable is not None and alone:
            others = [o for o in others if o not in alone]
            answer = await self._answer_alone(alone, answer, answer.unreachable, press.user)
        self.deliverer.first([*own, *elsewhere], others)
        await self.deliverer.answer(query_id, answer)

    async def _answer_alone(
        self, alone: list[Response], answer: Answer, instead: Answer, user: UserRef
    ) -> Answer:
        """What a press sends the presser alone goes to his private chat, and the press is
        answered once it went (or after a few seconds): if Telegram would not write to
        him there, with what the core says instead and the bot's link to open that chat,
        and the core counts it as not sent."""
        refused = [self.deliverer.privately(response, user) for response in alone]
        done, _ = await asyncio.wait(refused, timeout=ALONE_WAIT)
        missed = [r for r, f in zip(alone, refused, strict=True) if f in done and f.result()]
        if not missed:
            return answer
        for response in missed:
            self.submit(await self.core.handle(NotReached(response.chat, user)))
        try:
            link = self.application.bot.link
        except RuntimeError:  # the bot was never initialised: no username to link to
            return instead
        return dataclasses.replace(instead, text=f"{instead.text}\n{link}")

    async def on_migrate(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A group became a supergroup: its table and scoreboard move to the new id."""
        try:
            message = update.effective_message
            if message is None or message.migrate_to_chat_id is None:
                return  # the supergroup's own notice (migrate_from) says the same again
            old = ChatRef(PLATFORM, str(message.chat.id))
            new = ChatRef(PLATFORM, str(message.migrate_to_chat_id))
            log.info("chat %s moved to %s", old.key, new.key)
            # The old group's messages stay behind, read-only: its slots start afresh,
            # and whatever is still addressed to the old id goes to the new one.
            if self._carrier is not None:
                self._carrier.calls.moved(message.chat.id, message.migrate_to_chat_id)
            await self.wiring.book.forget_chat(old)
            # The table anew in the supergroup, and every hand again with buttons naming it.
            self.submit(await self.core.handle(ChatMoved(old, new)))
        finally:
            self.handled += 1

    async def on_membership(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The bot was removed from a group: the game there stops, as if its admin said so.
        Added back: its table is drawn again at the bottom of the chat."""
        try:
            change = update.my_chat_member
            if change is None:
                return
            chat = chat_ref(change.chat)
            if change.new_chat_member.status in GONE:
                await self.removed(chat, chat_as_user(change.chat))
            elif change.old_chat_member.status in GONE:
                log.info("added back to %s; drawing its table again", chat.key)
                drawn = await self.core.redraw(chat, ())
                if drawn is not None and drawn.live:
                    self.submit([_renewed(show) for show in drawn.screens])
        finally:
            self.handled += 1

    async def removed(self, chat: ChatRef, as_chat: UserRef | None = None) -> None:
        """The bot can no longer write to the group ``chat``: its game stops as ``/stop``
        stops it. Nothing can be shown in the group any more, but the players' hands are
        drawn as stopped and their pings dropped, in their private chats."""
        log.info("removed from %s; stopping its game", chat.key)
        user = as_chat or UserRef(PLATFORM, chat.chat_id, chat.chat_id)
        stop = Command(chat, user, "stop", is_admin=True, as_chat=True)
        outbounds = await self.core.handle(stop)
        self.submit([o for o in outbounds if not _in_group(o, chat)])

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("%s could not be handled", described(update), exc_info=context.error)
        if isinstance(update, Update) and update.effective_message is not None:
            chat = update.effective_message.chat
            if update.callback_query is None and is_private(chat):
                with contextlib.suppress(TelegramError):
                    await update.effective_message.reply_text(SORRY)

    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        """Whether the user administers the group, cached in this process for a few minutes
        (half a minute when Telegram would not say)."""
        now = self.wiring.clock.now()
        known = self._admins.get((chat_id, user_id))
        if known is not None and known[1] > now:
            return known[0]
        try:
            member = await self.application.bot.get_chat_member(chat_id, user_id)
        except TelegramError as err:
            log.info("could not ask whether %s administers %s: %s", user_id, chat_id, err)
            self._admins[(chat_id, user_id)] = (False, now + ADMIN_REFUSED_SECONDS)
            return False
        admin = member.status in ADMINS
        self._admins[(chat_id, user_id)] = (admin, now + ADMIN_CACHE_SECONDS)
        return admin


def _in_group(item: Outbound, group: ChatRef) -> bool:
    """``item`` would be shown in the group (any of its topics)."""
    if isinstance(item, Show | Delete):
        chat = item.slot.chat
    elif isinstance(item, Answer):
        return True
    else:
        chat = item.chat
    return chat.chat_id == group.chat_id


def _renewed(show: Show) -> Show:
    """The table posted anew at the bottom of the chat (its older message is far above)."""
    return dataclasses.replace(show, renew=True) if show.slot.kind is SlotKind.TABLE else show


def _is_screen_of(item: Outbound, press: Press, kind: SlotKind) -> TypeGuard[Show]:
    """``item`` shows the presser's own screen of ``kind`` (his hand, his ping)."""
    return (
        isinstance(item, Show)
        and item.slot.kind is kind
        and item.slot.user is not None
        and item.slot.user.key == press.user.key
    )


__all__ = ["PLATFORM", "Core", "TelegramAdapter", "Wiring", "build_application"]

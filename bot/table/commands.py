"""Typed commands: which flow or lookup each one runs, and where its reply goes.

A command's reply (a refusal, a confirmation, a lookup) is a :class:`Response`: a
new message replying to the command, so the one who typed it sees the answer
right below; the game's own updates follow it.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Final

from bot.ai.thinker import Thinker
from bot.model.contract import (
    ChatRef,
    Command,
    CommandRef,
    Outbound,
    Response,
    Screen,
    Show,
    UserRef,
)
from bot.model.decision import Decision, Game, Reply, reply_line
from bot.model.gamedoc import BadDocument, GameDoc, from_json
from bot.model.payload_fields import DIGITS, GAME_ID_LENGTH
from bot.table import asking, hand_picture, history, lobby, lookups, review
from bot.table.rating_lookups import top_screen
from bot.table.runner import Flow, Runner
from bot.table.settings import TABLE_KEYS, parse_pairs, stored_value, table_defaults, table_setting
from bot.table.updates import table_of, table_slot
from bot.views.i18n import Translator, available_languages, line, pick_language, translator
from bot.views.lobby import table_settings_text

#: Commands whose outcome may turn on the sender being a chat admin (the lobby host's
#: actions, stopping a game, the settings, the chat's language). An adapter that has to ask
#: its platform whether he is one asks only for these: every other command is handled at
#: once, without that round trip.
ADMIN_COMMANDS: Final = frozenset(
    {"add_computer", "remove_computer", "start", "cancel", "stop", "settings", "lang"}
)

#: A match's seed, in bits. With 32, the deal a finished deal's hands show was found by
#: trying every seed in hours, and then every later deal; 63 keep it out of reach and
#: within the 64-bit integers the stored head's JSON writer takes.
SEED_BITS: Final = 63

GAME_COMMANDS: Final = frozenset(
    {
        "new",
        "join",
        "leave",
        "add_computer",
        "remove_computer",
        "start",
        "cancel",
        "stop",
        "settings",
        hand_picture.COMMAND,
    }
)


#: Lookups, counted against what one person and one chat may ask for (:mod:`bot.table.asking`).
ASKED: Final = frozenset({"help", "rules", "scores", "table", "watch", "top", "stats", "export"})


class Commands:
    def __init__(self, runner: Runner, rng: random.Random, default_timer: int) -> None:
        self._runner = runner
        self._rng = rng
        self._default_timer = default_timer
        self.thinker = Thinker()  # where reviews are worked out (the sessions' own)
        # Platforms whose /table posts the live table anew (see Sessions.tables_on_demand).
        self.live_tables: set[str] = set()

    async def handle(self, command: Command) -> list[Outbound]:
        lang = await self.user_lang(command.user)
        _ = translator(lang)
        name = command.name.lower()
        if name in GAME_COMMANDS:
            return await self._game_command(command, name, lang, _)
        return await self._lookup(command, name, lang, _)

    async def user_lang(self, user: UserRef) -> str:
        """The language a person chose, else his platform's, else the bot's default."""
        stored = await self._runner.store.user_lang(user)
        return pick_language(stored, user.lang, self._runner.default_lang)

    # -- commands that change the chat's game ------------------------------------------

    async def _game_command(
        self, command: Command, name: str, lang: str, translator: Translator
    ) -> list[Outbound]:
        runner, user, admin, args = self._runner, command.user, command.is_admin, command.args
        if command.as_chat and name in lobby.SEATING:
            return self._reply(command, lobby.not_as_chat(translator))
        now = runner.clock()
        tempo = runner.tempo
        flow: Flow
        if name == "new":
            flow = await self.new_flow(command.chat, user, args, lang, command.chat_title)
        elif name == "join":
            flow = lambda game, translator: lobby.join(  # noqa: E731
                game, user, translator=translator, lang=lang, now=now, tempo=tempo
            )
        elif name == "leave":
            flow = lambda game, translator: lobby.leave(  # noqa: E731
                game, user, translator=translator, now=now, tempo=tempo
            )
        elif name == "add_computer":
            level = args[0].lower() if args else None
            flow = lambda game, translator: lobby.add_computer(  # noqa: E731
                game, user, admin, level, translator=translator
            )
        elif name == "remove_computer":
            flow = lambda game, translator: lobby.remove_computer(  # noqa: E731
                game, user, admin, translator=translator
            )
        elif name == "start":
            flow = lambda game, translator: lobby.start(  # noqa: E731
                game, user, admin, translator=translator, now=now, tempo=tempo
            )
        elif name == "cancel":
            flow = lambda game, translator: lobby.cancel(game, user, admin, translator=translator)  # noqa: E731
        elif name == "stop":
            flow = lambda game, translator: lobby.stop(game, user, admin, translator=translator)  # noqa: E731
        elif name == hand_picture.COMMAND:
            flow = lambda game, translator: hand_picture.hand_pictures(  # noqa: E731
                game, user, args, translator=translator
            )
        else:
            return await self._settings(command, translator)
        ran = await runner.run(command.chat, user, flow, translator)
        return self._reply(command, ran.decision) + ran.updates

    async def new_flow(
        self,
        chat: ChatRef,
        user: UserRef,
        args: tuple[str, ...],
        lang: str,
        chat_title: str | None = None,
    ) -> Flow:
        """The flow that opens a table in ``chat`` for ``user`` (``args``: the game
        and its settings, as typed after ``new``; ``lang``: the opener's language, the
        table's unless the chat chose one; ``chat_title``: the chat's name)."""
        runner = self._runner
        stored = await runner.store.chat_settings(chat)
        # A chat that chose no language speaks the language of whoever opens the table.
        table = table_defaults(stored, self._default_timer, pick_language(stored.get("lang"), lang))
        game_id, seed = self.new_ids()
        now = runner.clock()

        def flow(game: Game | None, translator: Translator) -> Decision:
            return lobby.new_game(
                game,
                chat,
                user,
                args,
                translator=translator,
                game_id=game_id,
                seed=seed,
                table=table,
                lang=lang,
                now=now,
                chat_title=chat_title,
            )

        return flow

    def new_ids(self) -> tuple[str, int]:
        """A new game's id and seed. The seed deals every deal of the match, so it is
        too long to find by trying seeds until one deals a deal seen."""
        game_id = "".join(self._rng.choice(DIGITS) for _ in range(GAME_ID_LENGTH))
        return game_id, self._rng.getrandbits(SEED_BITS)

    async def last_game(self, chat: ChatRef) -> GameDoc | None:
        """The chat's last ended game, or ``None``."""
        raw = await self._runner.store.last_game(chat)
        try:
            return from_json(raw) if raw is not None else None
        except BadDocument:
            return None

    async def _settings(self, command: Command, _: Translator) -> list[Outbound]:
        """``settings`` with a lobby: its options and table settings (the panel when
        no words follow); without one: the chat's table settings for later games."""
        runner, user, admin = self._runner, command.user, command.is_admin
        current = await runner.load(command.chat)
        pairs = parse_pairs(_, command.args)
        if isinstance(pairs, str):
            return [self._info(command, pairs)]
        if current is not None and current.doc.active:
            if pairs:
                flow: Flow = lambda game, translator: lobby.change_settings(  # noqa: E731
                    game, user, admin, pairs, translator=translator
                )
            else:
                flow = lambda game, translator: lobby.show_panel(  # noqa: E731
                    game, user, admin, "settings", translator=translator
                )
            ran = await runner.run(command.chat, user, flow, _)
            return self._reply(command, ran.decision) + ran.updates
        stored = await runner.store.chat_settings(command.chat)
        table = table_defaults(stored, self._default_timer, runner.default_lang)
        if not pairs:
            return [self._info(command, table_settings_text(_, table))]
        if not (admin or command.private):
            return [self._info(command, _("Only a chat admin can change the chat's settings."))]
        for key, value in pairs.items():
            if key not in TABLE_KEYS:
                return [
                    self._info(
                        command,
                        _("Open a table first to set game options such as %(key)s.", key=key),
                    )
                ]
            changed = table_setting(_, table, key, value)
            if isinstance(changed, str):
                return [self._info(command, changed)]
            table = changed
        for key in pairs:
            await runner.store.set_chat_setting(command.chat, key, stored_value(table, key))
        return [
            self._info(command, _("Saved. %(settings)s", settings=table_settings_text(_, table)))
        ]

    # -- lookups ------------------------------------------------------------------------

    async def _lookup(
        self, command: Command, name: str, lang: str, _: Translator
    ) -> list[Outbound]:
        runner = self._runner
        if name in ASKED:
            verdict = await asking.ask(runner.store, command.chat, command.user)
            if verdict is asking.Verdict.REFUSE:
                return [self._info(command, asking.wait_text(_))]
            if verdict is asking.Verdict.QUIET:
                return []
        if name == "help":
            live_table = command.chat.platform in self.live_tables
            return [self._show(command, lookups.help_screen(_, live_table=live_table))]
        if name == "rules":
            current = await runner.load(command.chat)
            doc = current.doc if current is not None else None
            return [self._show(command, lookups.rules_screen(_, command.args, doc))]
        if name == "scores":
            board = await lookups.scores_screen(runner, command.chat, command.user, command.args, _)
            return [replace(self._show(command, board), public=lookups.names_a_game(command.args))]
        if name == "table":
            return await self._table_picture(command, _)
        if name == "watch":
            return [self._show(command, await lookups.watch_screen(runner, command.chat, _))]
        if name == "top":
            chats = runner.board_chats(command.chat)
            top = await top_screen(runner.store, command.chat, command.args, _, command.user, chats)
            return [self._show(command, top)]
        if name == "stats":
            return [self._show(command, await lookups.stats_of(runner, command, _))]
        if name == "lang":
            return await self._lang(command, lang, _)
        if name == "history":
            found = await history.asked(runner, command, _)
            if not isinstance(found, Screen):
                return found
            return [replace(self._show(command, found), public=not command.args)]
        if name == "review":
            told = await review.asked(runner, self.thinker, command, _)
            return [self._show(command, told)] if isinstance(told, Screen) else told
        if name == "export":
            exported = await lookups.export(runner, command, _)
            return [exported if not isinstance(exported, Screen) else self._show(command, exported)]
        return [
            self._info(
                command,
                line(
                    _("There is no command %(name)s. Send %(help)s for the list."),
                    name=name,
                    help=CommandRef("help"),
                ),
            )
        ]

    async def _table_picture(self, command: Command, _: Translator) -> list[Outbound]:
        """The chat's game as a picture, in the chat's language, for the asker alone
        (:mod:`bot.table.asking`): nothing when he has this version already. Where tables are
        asked for live, the table itself is posted anew, buttons and all."""
        game = await self._runner.load(command.chat)
        if game is None or game.state is None:
            return [self._info(command, _("No game is running here."))]
        if command.chat.platform in self.live_tables:
            live = table_of(game, web=self._runner.web_links())
            return [Show(table_slot(game.doc), live, game.version, renew=True)]
        runner = self._runner
        picture = await asking.table_picture(
            runner.store, runner.painter, command.chat, command.user, game, command.name.lower()
        )
        return [] if picture is None else [picture]

    async def _lang(self, command: Command, lang: str, _: Translator) -> list[Outbound]:
        args = [a.lower() for a in command.args]
        if not args:
            return [self._show(command, lookups.languages_screen(_, lang))]
        for_chat = args[0] == "chat"
        wanted = args[1] if for_chat and len(args) > 1 else args[0]
        if wanted not in available_languages():
            return [
                self._info(
                    command,
                    _(
                        "There is no %(lang)s translation. Available: %(langs)s",
                        lang=wanted,
                        langs=", ".join(available_languages()),
                    ),
                )
            ]
        if for_chat:
            if not (command.is_admin or command.private):
                return [self._info(command, _("Only a chat admin can set the chat's language."))]
            await self._runner.store.set_chat_setting(command.chat, "lang", wanted)
            _ = translator(wanted)
            return [self._info(command, _("The chat's language is now %(lang)s.", lang=wanted))]
        await self._runner.store.set_user_lang(command.user, wanted)
        _ = translator(wanted)
        return [self._info(command, _("Your language is now %(lang)s.", lang=wanted))]

    # -- replies ------------------------------------------------------------------------

    def _reply(self, command: Command, decision: Decision) -> list[Outbound]:
        if decision.screen is not None:
            return [self._show(command, decision.screen)]
        return [self._info(command, decision.reply)] if decision.reply else []

    def _info(self, command: Command, text: Reply) -> Response:
        return self._show(command, Screen((reply_line(text),)))

    def _show(self, command: Command, screen: Screen) -> Response:
        return respond(command, screen)


def respond(command: Command, screen: Screen) -> Response:
    """``screen`` as the reply to ``command``."""
    return Response(command.chat, screen, command.message_id, command.name.lower())

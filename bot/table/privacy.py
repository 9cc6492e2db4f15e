"""A person's own data: ``mydata`` shows him what is kept of him, privately; ``forget``
deletes it everywhere once he confirms with a button only he may press, and a computer
takes his seat in any game he is playing.

``mydata`` goes to his private chat (on a platform whose replies can be shown to the
asker alone, that is the reply); should the platform not let the bot write to him
there, the chat he asked in gets a link to open it instead, and never the data.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Final

from bot import ai
from bot.model import codec
from bot.model.contract import (
    Answer,
    Button,
    ChatRef,
    Command,
    CommandRef,
    Notice,
    Outbound,
    Press,
    Response,
    Screen,
    Style,
    TextLine,
    UserRef,
    isolated,
)
from bot.model.decision import Decision, Game
from bot.model.payload_privacy import ForgetPress
from bot.storage.privacy import KeptData
from bot.table import play
from bot.table.lookups import results_text
from bot.table.rating_lookups import rating_row
from bot.table.runner import Runner
from bot.views.i18n import Translator, line, text_line, translator
from bot.views.texts import variant_title

COMMANDS: Final = frozenset({"mydata", "forget"})
"""The commands this module answers."""

DAY: Final = 86400


class Privacy:
    """Answers ``mydata`` and ``forget``, and the buttons of ``forget``."""

    def __init__(self, runner: Runner, user_lang: Callable[[UserRef], Awaitable[str]]) -> None:
        self._runner = runner
        self._user_lang = user_lang

    async def command(self, command: Command) -> list[Outbound]:
        _ = translator(await self._user_lang(command.user))
        if command.as_chat:
            return [_reply(command, Screen((text_line(_("Send this as yourself.")),)))]
        if command.name.lower() == "mydata":
            screen = await self.mydata_screen(command.user, _)
            if command.private:
                return [_reply(command, screen)]
            return [Notice(play.private_chat(command.user), screen, _open_private(command, _))]
        return [_reply(command, _confirmation(command.user, _))]

    async def private_start(self, user: UserRef) -> list[Outbound]:
        """The person opened the private chat through the link ``mydata`` left him."""
        _ = translator(await self._user_lang(user))
        return [Notice(play.private_chat(user), await self.mydata_screen(user, _))]

    async def mydata_screen(self, user: UserRef, _: Translator) -> Screen:
        kept = await self._runner.store.kept_about(user)
        days = max(1, round(self._runner.store.retention / DAY))
        kept_for = _.ngettext(
            "It is kept until %(n)d day after your last match.",
            "It is kept until %(n)d days after your last match.",
            days,
        )
        deletes = line(_("%(forget)s deletes it now."), forget=CommandRef("forget"))
        lines = [*_kept_lines(_, user, kept), text_line(kept_for)]
        if kept.matches:
            lines.append(self._history_line(kept.matches, _))
        return Screen((*lines, deletes))

    def _history_line(self, matches: int, translator: Translator) -> TextLine:
        """How many of the chats' kept matches he played, and for how long they are kept."""
        days = max(1, round(self._runner.store.history.ttl / DAY))
        said = translator.ngettext(
            "Finished matches you played that the chats keep for %(history)s: %(matches)d; "
            "each is kept up to %(n)d day after it ended.",
            "Finished matches you played that the chats keep for %(history)s: %(matches)d; "
            "each is kept up to %(n)d days after it ended.",
            days,
            matches=matches,
            history="%(history)s",  # (filled with the command below)
        )
        return line(said, history=CommandRef("history"))

    async def press(self, press: Press, action: ForgetPress) -> list[Outbound]:
        """Forget or Cancel, pressed: only by the person who asked."""
        user = press.user
        _ = translator(await self._user_lang(user))
        if press.as_chat or user.user_id != action.user_id:
            return [Answer(_("Only the person who asked can answer this."), alert=True)]
        if not action.confirm:
            return [Answer(_("Nothing was deleted."))]
        updates = await self.hand_over_seats(press.chat, user)
        await self._runner.store.forget_player(user, ai.DEFAULT_LEVEL)
        return [Answer(_("Everything kept about you is deleted."), alert=True), *updates]

    async def hand_over_seats(self, here: ChatRef, user: UserRef) -> list[Outbound]:
        """A computer takes the seat ``user`` holds in the game of ``here`` and of every
        chat where he played: what those games show then."""
        chats = [here, *[c for c in await self._runner.store.chats_of(user) if c != here]]
        runner, out = self._runner, list[Outbound]()
        for chat in chats:
            now = runner.clock()

            def flow(game: Game | None, translator: Translator, at: float = now) -> Decision:
                return play.forgotten(game, user, now=at, tempo=runner.tempo)

            out += (await runner.run(chat, user, flow)).updates
        return out


def _kept_lines(_: Translator, user: UserRef, kept: KeptData) -> list[TextLine]:
    if kept.empty:
        return [text_line(_("Nothing is kept about you (%(id)s).", id=user.key))]
    lines = [text_line(_("Kept about you (%(id)s), for the scoreboards and ratings:", id=user.key))]
    if kept.names:
        lines.append(text_line(_("Names: %(names)s", names=", ".join(kept.names))))
    if kept.lang:
        lines.append(text_line(_("Language: %(lang)s", lang=kept.lang)))
    if kept.stats:
        lines.append(text_line(_("Your results in every chat:")))
    lines += [text_line(f"• {results_text(_, row)}") for row in kept.stats]
    if kept.ratings:
        lines.append(text_line(_("Your ratings across every chat:")))
    for variant, rating in kept.ratings.items():
        lines.append(text_line(f"• {variant_title(_, variant)}: {rating_row(_, rating)}"))
    if kept.boards:
        lines.append(text_line(_("On the boards of these chats:")))
    for entry in kept.boards:
        said = _(
            "%(chat)s, %(game)s: %(name)s, won %(won)d of %(played)d",
            chat=entry.chat.key,
            game=variant_title(_, entry.variant),
            name=isolated(entry.name),
            won=entry.won,
            played=entry.played,
        )
        lines.append(text_line(f"• {said}"))
    if kept.queued:
        lines.append(
            text_line(_("Finished matches still to count in the ratings: %(n)d", n=kept.queued))
        )
    return lines


def _confirmation(user: UserRef, _: Translator) -> Screen:
    question = _(
        "Delete your results, ratings and name from every chat's boards and the ratings "
        "across every chat? A computer takes your seat in a game you are playing. This "
        "cannot be undone."
    )
    buttons = (
        Button(_("Forget"), payload=codec.forget_payload(True, user.user_id), style=Style.DANGER),
        Button(_("Cancel"), payload=codec.forget_payload(False, user.user_id)),
    )
    return Screen((text_line(question),), (buttons,))


def _open_private(command: Command, _: Translator) -> Response:
    """Shown where ``mydata`` was asked when the asker's private chat cannot be written:
    a way to open it, and nothing of his data."""
    said = _("I cannot write to you privately yet: open our private chat to see it there.")
    button = Button(_("Open the private chat"), deep_link=codec.mydata_link())
    return Response(
        command.chat, Screen((text_line(said),), ((button,),)), command.message_id, "mydata"
    )


def _reply(command: Command, screen: Screen) -> Response:
    return Response(command.chat, screen, command.message_id, command.name.lower())

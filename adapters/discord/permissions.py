"""What the bot must be allowed to do in a channel to show its games there, and what
it keeps while it is not.

Interaction responses (lobbies answered to a command, hands, refusals) need no
channel permission, so a game can go on in a channel where the bot may not post;
the table, the pictures and the pings cannot. Every interaction says what the bot
may do in its channel (``app_permissions``): while something is missing, the person
who acted is told what, and the newest version of each slot Discord refused is kept
(:class:`Refused`), to be shown as soon as an interaction says it can be again, or
a timer round finds that it can.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any, Final

import discord

from adapters.discord.render import render_text
from bot.model.contract import ChatRef, Show
from bot.views.i18n import DEFAULT_LANG, N_, pick_language, translator

log = logging.getLogger(__name__)

# The permissions the bot needs in a game's channel, by discord.py's name, with the
# name Discord's settings show.
NEEDED: Final = (
    ("view_channel", N_("View Channel")),
    ("send_messages", N_("Send Messages")),
    ("embed_links", N_("Embed Links")),
    ("attach_files", N_("Attach Files")),
)
WARNING_MARK = "\N{WARNING SIGN}\N{VARIATION SELECTOR-16}"


def lacking(interaction: discord.Interaction[Any]) -> list[str]:
    """The names (untranslated) of the permissions the bot lacks in the interaction's
    channel; none outside a server."""
    if interaction.guild_id is None:
        return []
    allowed = interaction.app_permissions
    return [shown for name, shown in NEEDED if not getattr(allowed, name)]


def may_post(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot may post new messages in the interaction's channel (outside a
    server it answers interactions alone)."""
    if interaction.guild_id is None:
        return True
    allowed = interaction.app_permissions
    return bool(allowed.view_channel and allowed.send_messages)


def warning(missing: list[str], lang: str | None) -> str:
    """What the person who acted is told while the bot lacks ``missing``."""
    _ = translator(pick_language(lang, DEFAULT_LANG))
    names = ", ".join(_(name) for name in missing)
    text = _(
        "I cannot post in this channel: I lack the permission {names}. A server admin "
        "can give it to me in the channel's settings; the table comes back as soon as I can."
    ).format(names=names)
    return f"{WARNING_MARK} {text}"


async def tell_missing(interaction: discord.Interaction[Any], missing: list[str]) -> None:
    """Tell the person who acted, him alone, what the bot may not do here."""
    rendered = render_text(warning(missing, str(interaction.locale)))
    try:
        if interaction.response.is_done():
            await interaction.followup.send(ephemeral=True, **rendered.send_kwargs())
        else:
            await interaction.response.send_message(ephemeral=True, **rendered.send_kwargs())
    except discord.HTTPException as exc:
        log.warning("could not say which permission is missing: %s", exc)


class Refused:
    """Per chat, the newest version of each slot that Discord refused to show for a
    missing permission, kept to be shown when it can be."""

    def __init__(self) -> None:
        self._kept: dict[str, dict[str, Show]] = {}

    def keep(self, show: Show) -> None:
        kept = self._kept.setdefault(show.slot.chat.key, {})
        older = kept.get(show.slot.key)
        if older is not None and 0 < show.version < older.version:
            return
        if older is not None and older.renew and not show.renew:
            show = dataclasses.replace(show, renew=True)  # the table was never posted anew
        kept[show.slot.key] = show

    def shown(self, show: Show) -> None:
        """``show`` reached its slot: a kept version no newer than it is done with."""
        kept = self._kept.get(show.slot.chat.key, {})
        older = kept.get(show.slot.key)
        if older is not None and (older.version <= show.version or show.version <= 0):
            del kept[show.slot.key]
        if not kept:
            self._kept.pop(show.slot.chat.key, None)

    def take(self, chat: ChatRef | None = None) -> list[Show]:
        """The kept shows of ``chat`` (of every chat if ``None``), forgotten here."""
        keys = [chat.key] if chat is not None else list(self._kept)
        return [show for key in keys for show in self._kept.pop(key, {}).values()]

    def __bool__(self) -> bool:
        return bool(self._kept)

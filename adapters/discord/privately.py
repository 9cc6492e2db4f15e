"""What the core sends a presser alone, after the interaction's reply: on Discord his
"private chat" is the interaction itself, so the notices and files addressed to it
(a kept match's pictures and replay file) go as ephemeral follow-ups only he sees. What
the interaction cannot carry (its reply failed, or Discord refused the follow-up) goes
to his direct messages with the bot instead, never to a channel named by his id."""

from __future__ import annotations

import io
import logging
from dataclasses import replace
from typing import Any

import discord

from adapters.discord.carry import direct_chat
from adapters.discord.render import render
from adapters.discord.respond import Context
from bot.model.contract import ChatRef, Document, Notice, Outbound, UserRef

log = logging.getLogger(__name__)


async def send_privately(
    interaction: discord.Interaction[Any], context: Context, rest: list[Outbound]
) -> list[Outbound]:
    """Send the presser's own notices and files as ephemeral follow-ups; what is left
    (with those Discord refused, addressed to his direct messages)."""
    private = ChatRef(context.chat.platform, context.user.user_id)
    left: list[Outbound] = []
    for outbound in rest:
        if not isinstance(outbound, Notice | Document) or outbound.chat != private:
            left.append(outbound)
            continue
        try:
            if isinstance(outbound, Notice):
                await interaction.followup.send(
                    ephemeral=True, **render(outbound.screen).send_kwargs()
                )
            else:
                upload = discord.File(io.BytesIO(outbound.data), filename=outbound.filename)
                caption = discord.utils.escape_markdown(outbound.caption) or "\u200b"
                await interaction.followup.send(caption, file=upload, ephemeral=True)
        except discord.HTTPException as exc:
            log.warning("Discord refused a private follow-up (%s); sent directly", exc)
            left.append(replace(outbound, chat=direct_chat(context.user)))
    return left


def sent_directly(rest: list[Outbound], user: UserRef) -> list[Outbound]:
    """``rest`` with the notices and files addressed to ``user`` alone sent to his direct
    messages: no interaction carries them."""
    private = ChatRef(user.platform, user.user_id)
    return [
        replace(item, chat=direct_chat(user))
        if isinstance(item, Notice | Document) and item.chat == private
        else item
        for item in rest
    ]

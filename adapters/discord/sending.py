"""Sending the reply chosen for an interaction (see :mod:`adapters.discord.respond`):
as its first response, or, once the interaction was deferred, as an edit of the
deferred response or a follow-up."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import discord

from adapters.discord.render import render_text
from adapters.discord.respond import DONE_MARK, Mode, Reply

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Sent:
    """What a reply made: a new message's id (``followup``: a follow-up message, not
    the interaction's original response), or nothing; ``failed`` if Discord refused."""

    message_id: int | None = None
    followup: bool = False
    failed: bool = False


async def send_reply(interaction: discord.Interaction[Any], reply: Reply) -> Sent:
    """Send the reply as the interaction's response (or after its deferral); what it
    made."""
    try:
        if interaction.response.is_done():
            return await _send_late(interaction, reply)
        return await _send_first(interaction, reply)
    except discord.HTTPException as exc:
        log.warning("could not answer an interaction: %s", exc)
        return Sent(failed=True)


async def _send_first(interaction: discord.Interaction[Any], reply: Reply) -> Sent:
    response = interaction.response
    rendered = reply.rendered or render_text(DONE_MARK)
    if reply.mode is Mode.ACK:
        await response.defer()
        return Sent()
    if reply.mode is Mode.UPDATE:
        await response.edit_message(**rendered.edit_kwargs())
        return Sent()
    callback = await response.send_message(
        ephemeral=reply.mode is Mode.PRIVATE, **rendered.send_kwargs()
    )
    return Sent(callback.message_id if callback is not None else None)


async def _send_late(interaction: discord.Interaction[Any], reply: Reply) -> Sent:
    """After a deferral: a command's deferred reply is edited; a press gets a follow-up."""
    rendered = reply.rendered or render_text(DONE_MARK)
    is_command = interaction.type is not discord.InteractionType.component
    if reply.mode is Mode.ACK and not is_command:
        return Sent()
    if reply.mode is Mode.PUBLIC:
        rendered = render_text(DONE_MARK)  # the public message is sent to the channel
    if reply.mode is Mode.UPDATE or is_command:
        await interaction.edit_original_response(**rendered.edit_kwargs())
        return Sent()
    message = await interaction.followup.send(ephemeral=True, wait=True, **rendered.send_kwargs())
    return Sent(message.id, followup=True)

"""Inbound events as log lines: their kind and ids, never a person's or a chat's name
(names are what people chose to show each other, not what an operator's logs keep)."""

from __future__ import annotations

from bot.model.contract import Command, Inbound, NotReached, Press, PrivateStart, Unreachable


def described(inbound: Inbound) -> str:
    """``Command stats by tg:42 in tg:-100123``: what happened, by whom, where, in ids."""
    if isinstance(inbound, Command):
        return f"Command {inbound.name} by {inbound.user.key} in {inbound.chat.key}"
    if isinstance(inbound, Press):
        return f"Press {inbound.payload} by {inbound.user.key} in {inbound.chat.key}"
    if isinstance(inbound, PrivateStart):
        return f"PrivateStart {inbound.payload} by {inbound.user.key}"
    if isinstance(inbound, Unreachable):
        return f"Unreachable {inbound.slot.key} for {inbound.user.key}"
    if isinstance(inbound, NotReached):
        return f"NotReached {inbound.user.key} from {inbound.chat.key}"
    return f"ChatMoved {inbound.old.key} to {inbound.new.key}"

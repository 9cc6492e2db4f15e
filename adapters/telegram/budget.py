"""Telegram's send rules, as the shared send budget keeps them (:mod:`adapters.delivery.limiter`).

Telegram allows about one message a second in a chat and twenty a minute in a group
(edits count the same), and about thirty a second from one bot over all its chats,
kept under the pseudo-chat :data:`EVERY_CHAT`. It answers a write beyond them with a
flood wait ("retry after N seconds"), which the transport waits out (:mod:`.calls`).
"""

from __future__ import annotations

from adapters.delivery.limiter import Budget, Rule
from bot.model.contract import ChatRef

# Groups: one a second, and 20 a minute spread as two every six seconds, so a burst
# becomes a steady trickle of edits instead of twenty at once and then a long silence.
GROUP_RULES = (Rule(1, 1.0), Rule(2, 6.0), Rule(20, 60.0))
PRIVATE_RULES = (Rule(1, 1.0),)
# The bot's sends to all chats together, shared by every worker that uses one send log.
EVERY_CHAT = "tg:bot"
BOT_RULES = (Rule(30, 1.0),)


def rules_for(chat: ChatRef) -> tuple[Rule, ...]:
    """Private chats (positive ids) get the per-chat limit; groups the group limits too."""
    return PRIVATE_RULES if not chat.chat_id.startswith("-") else GROUP_RULES


TELEGRAM = Budget(rules_for, EVERY_CHAT, BOT_RULES)

"""Discord's send rules, as the shared send budget keeps them (:mod:`adapters.delivery.limiter`).

Discord limits its REST routes per bucket (a channel's messages share one) and the whole
bot to fifty requests a second; a bucket's size is not a documented constant but told
in each answer's headers, and a request beyond it is answered 429 with ``retry_after``.
discord.py reads those headers and waits a bucket out itself, within one process, and
sleeps through a 429 before trying again. The shared budget paces every process's
writes below the figures Discord answers a channel's message routes with today (five
every five seconds), over all the bot's processes, so that discord.py's own waiting is
the exception; what it still meets it waits out in the call, before the deliverer
hears back, and a 429 it gives up on comes back as an error the deliverer tries again.
"""

from __future__ import annotations

from adapters.delivery.limiter import Budget, Rule
from bot.model.contract import ChatRef

CHANNEL_RULES = (Rule(5, 5.0),)
EVERY_CHAT = "dc:bot"
BOT_RULES = (Rule(50, 1.0),)


def rules_for(chat: ChatRef) -> tuple[Rule, ...]:
    """Every channel and thread alike."""
    return CHANNEL_RULES


DISCORD = Budget(rules_for, EVERY_CHAT, BOT_RULES)

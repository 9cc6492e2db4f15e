"""Which commands an adapter asks its platform about before handing them to the core:
exactly those whose outcome may turn on the sender being a chat admin
(:data:`bot.table.commands.ADMIN_COMMANDS`). The set is found here by sending every command the
bot has, in a chat with no table, with a lobby and with a game, once as an admin and once
not, and seeing where the two differ; a command that comes to depend on it and is missing
from the list would be handled as if its sender were no admin."""

from __future__ import annotations

import fakeredis
import pytest

from bot.model.contract import Notice, Outbound, Response, Show
from bot.storage.store import Store
from bot.table.commands import ADMIN_COMMANDS
from bot.views.catalog import COMMAND_NAMES
from tests.bot.driver import make_table, user

ANNA, BORIS = user(1, "Anna"), user(2, "Boris")
SITUATIONS = ("no table", "lobby", "game")
# Words each command is also sent with: a language for the chat, a table setting, a game
# option, a computer level.
ARGUMENTS = ((), ("chat", "ru"), ("timer=60",), ("target=51",), ("random",))


async def _outcome(situation: str, name: str, args: tuple[str, ...], admin: bool) -> str:
    """What Boris (seated, not the host) gets from the command, and what it leaves stored."""
    store = Store(fakeredis.FakeAsyncRedis(server=fakeredis.FakeServer(), decode_responses=True))
    try:
        table = make_table(store)
        if situation != "no table":
            await table.command(ANNA, "new", "tyaga", "timer=off")
            await table.command(BORIS, "join")
        if situation == "game":
            await table.command(ANNA, "start")
        out = await table.command(BORIS, name, *args, admin=admin)
        stored = await store.load(table.chat)
        settings = await store.chat_settings(table.chat)
        return f"{_said(out)}\n{stored.doc if stored else None}\n{sorted(settings.items())}"
    finally:
        await store.close()


def _said(out: list[Outbound]) -> str:
    return "\n".join(o.screen.plain_text() for o in out if isinstance(o, Show | Response | Notice))


@pytest.mark.slow
async def test_the_admin_commands_are_those_whose_outcome_turns_on_being_an_admin() -> None:
    turns: set[str] = set()
    for name in COMMAND_NAMES:
        for situation in SITUATIONS:
            for args in ARGUMENTS:
                if await _outcome(situation, name, args, admin=True) != await _outcome(
                    situation, name, args, admin=False
                ):
                    turns.add(name)
    assert turns == ADMIN_COMMANDS

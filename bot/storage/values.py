"""The values the store hands out, its errors, and how it reads replies."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import redis.asyncio as aredis
from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError

from bot.model.contract import ChatRef, UserRef


class StoreUnavailable(Exception):
    """Redis could not be reached or did not answer; nothing was changed by this call,
    unless its own docstring says what may have been."""


class StoreBusy(StoreUnavailable):
    """A compare-and-set lost to other writers more times than allowed."""


class PartsMissing(ValueError):
    """A stored game has lost one of its keys (its head, its moves or its deals): an
    evicting Redis took it, or someone deleted it; or its head lacks the id and counts
    beside it (a layout this version does not read). It cannot be played or exported."""


@dataclass(frozen=True, slots=True)
class Stored:
    """A chat's current game document at a version."""

    doc: dict[str, Any]
    version: int


@dataclass(frozen=True, slots=True)
class MatchRow:
    """One human seat's outcome of a finished match."""

    user: UserRef
    won: bool
    points: int


class Results:
    """What a row of results counts: matches played and won, and the points; the win
    rate follows from them, alike on a chat's scoreboard and in a user's results."""

    __slots__ = ()
    played: int
    won: int
    points: int

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0


@dataclass(frozen=True, slots=True)
class ScoreRow(Results):
    """A player's line on a chat's scoreboard; ``rank`` starts at 1."""

    rank: int
    user_key: str
    name: str
    played: int
    won: int
    points: int


@dataclass(frozen=True, slots=True)
class Scoreboard:
    """The top rows of a chat's scoreboard, and the asker's own row wherever he ranks.

    ``me`` is ``None`` when the asker has not played (or was not given); ``players`` is how
    many are ranked in all.
    """

    variant: str
    rows: tuple[ScoreRow, ...]
    me: ScoreRow | None
    players: int


@dataclass(frozen=True, slots=True)
class StatRow(Results):
    """A user's results in one game across every chat."""

    variant: str
    played: int
    won: int
    points: int


@dataclass(frozen=True, slots=True)
class TimerClaim:
    """A turn deadline that one :meth:`Store.claim_due` call took off the timer set."""

    chat: ChatRef
    game_id: str
    counter: int


@dataclass(frozen=True, slots=True)
class TimerChange:
    """A game's deadline set to turn ``counter`` at ``due``; cleared if ``counter`` is
    ``None``."""

    counter: int | None = None
    due: float = 0.0


def text(value: bytes | str) -> str:
    """A reply as text, whether or not the client decodes responses."""
    return value.decode() if isinstance(value, bytes) else value


async def run_pipelined(
    pipe: aredis.client.Pipeline,
    script: AsyncScript,
    calls: Sequence[tuple[Sequence[str], Sequence[Any]]],
) -> None:
    """Run ``pipe`` with ``script`` called once per ``(keys, args)`` after what it holds
    already, each sent by its digest: one round trip. A call the server refused for not
    knowing the script (it restarted, or forgot it) is sent again whole; any other error
    of a call is raised. Errors of the commands queued before are not looked at."""
    before = len(pipe.command_stack)
    for script_keys, args in calls:
        pipe.evalsha(script.sha, len(script_keys), *script_keys, *args)
    replies = await pipe.execute(raise_on_error=False)
    for (script_keys, args), reply in zip(calls, replies[before:], strict=True):
        if isinstance(reply, NoScriptError):
            await script(keys=script_keys, args=args)
        elif isinstance(reply, Exception):
            raise reply

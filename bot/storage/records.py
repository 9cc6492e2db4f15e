"""What the bot records of chats and players beside their games: scoreboards and each
player's results, ratings in a chat and across every chat, and chat and user settings.
The part of :class:`bot.storage.store.Store` that does not touch a game in play."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence

import redis.asyncio as aredis

from bot.model.contract import ChatRef, UserRef
from bot.model.ratings import Rating
from bot.storage import keys
from bot.storage.asks import AskBook
from bot.storage.connect import guarded
from bot.storage.privacy import KeptData, PrivacyBook
from bot.storage.ratings import Queued, RatingBook
from bot.storage.scores import ScoreBook
from bot.storage.values import MatchRow, Scoreboard, StatRow, text
from engine import all_variants

SEATS_TTL = 7 * 86400
"""How long a user's list of the tables he sat at is kept after he last took a seat."""
SEATS_KEPT = 10
"""Tables a bare start looks at, the latest first."""


class Records:
    """Scoreboards, ratings and settings; every method turns a lost connection into
    :class:`bot.storage.values.StoreUnavailable`."""

    def __init__(
        self, redis: aredis.Redis, retention: int, clock: Callable[[], float] = time.time
    ) -> None:
        self._redis = redis
        self._retention = retention
        self.clock = clock
        self._scores = ScoreBook(redis, retention)
        self._ratings = RatingBook(redis, retention, self._own_results)
        self._privacy = PrivacyBook(redis)
        self._asks = AskBook(redis)

    @property
    def retention(self) -> int:
        """Seconds a player's stored data outlives his last match."""
        return self._retention

    async def _own_results(
        self, match_id: str, variant: str, rows: Sequence[MatchRow], chat: ChatRef
    ) -> None:
        """Count a match settled from ``chat``'s rating queue in its players' own results."""
        await self._scores.record_user_results(match_id, variant, rows, chat, self.clock())

    @guarded
    async def note_seats(self, chat: ChatRef, users: Sequence[UserRef], now: float) -> None:
        """``users`` took seats at the chat's table: a bare start finds it for them."""
        async with self._redis.pipeline(transaction=False) as pipe:
            for user in users:
                pipe.zadd(keys.user_tables(user), {chat.key: now})
                pipe.expire(keys.user_tables(user), SEATS_TTL)
            await pipe.execute()

    @guarded
    async def seated_at(self, user: UserRef) -> list[ChatRef]:
        """The chats where the user took a seat lately, the latest first."""
        found = await self._redis.zrevrange(keys.user_tables(user), 0, SEATS_KEPT - 1)
        return [ChatRef.from_key(text(key)) for key in found if isinstance(key, bytes | str)]

    @guarded
    async def count_ask(self, chat: ChatRef, user: UserRef) -> tuple[int, int]:
        """Count a lookup ``user`` asked for in ``chat``: his and the chat's counts in
        the current minute (:mod:`bot.storage.asks`)."""
        return await self._asks.count(chat, user)

    @guarded
    async def first_ask(self, chat: ChatRef, user: UserRef, what: str, version: str) -> bool:
        """Whether ``user`` is asking for a version of ``what`` he was not sent last."""
        return await self._asks.first_ask(chat, user, what, version)

    @guarded
    async def forget_ask(self, chat: ChatRef, user: UserRef, what: str) -> None:
        """``user`` was not sent what :meth:`first_ask` noted last (it did not reach him)."""
        await self._asks.forget_ask(chat, user, what)

    @guarded
    async def chat_players(self, chat: ChatRef, variants: Sequence[str]) -> dict[str, str]:
        """Everyone who has finished a match of ``variants`` in the chat: key -> name."""
        return await self._scores.chat_players(chat, variants)

    @guarded
    async def scoreboard(
        self, chat: ChatRef, variant: str, top: int = 10, me: UserRef | None = None
    ) -> Scoreboard:
        """The chat's board for one game, ranked by matches won, then win rate: the
        first ``top`` rows, and ``me``'s row wherever he ranks."""
        return await self._scores.scoreboard(chat, variant, top, me)

    # -- ratings ----------------------------------------------------------------------

    @guarded
    async def global_ratings(self, variant: str, names: Mapping[str, str]) -> dict[str, Rating]:
        """The ratings across every chat of the players ``names`` maps (key -> name)."""
        return await self._ratings.ratings(None, variant, names)

    @guarded
    async def ratings_before_end(
        self, chat: ChatRef, variant: str, names: Mapping[str, str], noted: float
    ) -> tuple[dict[str, Rating], dict[str, Rating]]:
        """The ratings of the players ``names`` maps in the chat and across every chat,
        read in the round trip that notes the chat's rating queue as of ``noted`` (so a process
        killed after the ending write leaves the chat to be swept): what that write needs
        first."""
        return await self._ratings.before_end(chat, variant, names, noted)

    @guarded
    async def record_global_ratings(
        self, match_id: str, variant: str, updated: Mapping[str, Rating]
    ) -> bool:
        """Move the global ratings for a match, once however often it is called."""
        return await self._ratings.record_global(match_id, variant, updated)

    @guarded
    async def settle_global_ratings(
        self,
        chat: ChatRef,
        match_id: str,
        noted: float | None = None,
        queued: Queued | None = None,
    ) -> bool:
        """Count a match queued in the chat's rating queue in its players' own results, move
        the global ratings for it and take it out; ``False`` if nothing was queued or it
        was counted already. ``noted``: when the chat was noted for it, to drop the note
        once the rating queue is empty; ``queued``: the match as queued, when the caller knows
        it (it is not read back)."""
        return await self._ratings.settle(chat, match_id, noted, queued)

    @guarded
    async def sweep_rating_queues(self, before: float) -> int:
        """Settle the global updates chats noted before ``before`` still hold."""
        return await self._ratings.sweep(before)

    @guarded
    async def leaders(
        self, chat: ChatRef | None, variant: str, top: int = 10
    ) -> tuple[list[tuple[str, Rating]], int]:
        """The best-rated players of a game in the chat (``None``: everywhere), and how
        many are rated there: one round trip."""
        return await self._ratings.leaders(chat, variant, top)

    @guarded
    async def player_ratings(self, key: str, variants: Sequence[str]) -> dict[str, Rating]:
        """A player's global rating in each of ``variants`` he has played."""
        return await self._ratings.player(key, variants)

    @guarded
    async def user_stats(self, user: UserRef) -> list[StatRow]:
        """The user's results per game across every chat, by game name."""
        return await self._scores.user_stats(user)

    # -- a player's own data ------------------------------------------------------------

    @guarded
    async def kept_about(self, user: UserRef) -> KeptData:
        """Everything kept of ``user``: results, language, boards and ratings, by chat."""
        return await self._privacy.kept(user, _games())

    @guarded
    async def forget_player(self, user: UserRef, computer: str) -> None:
        """Delete everything kept of ``user`` (see :meth:`kept_about`), everywhere; a
        ``computer`` of that level takes his seat in the chats' last games."""
        await self._privacy.forget(user, _games(), computer)

    @guarded
    async def note_players(self, chat: ChatRef, users: Sequence[UserRef]) -> None:
        """Note ``chat`` as one where ``users`` play (a match of theirs started there)."""
        await self._privacy.note(chat, users, self._retention)

    @guarded
    async def forget_inactive(self, computer: str) -> int:
        """Forget everyone whose last match is older than the retention period (a few
        at a time): his rows in boards that others keep alive go too. How many."""
        return await self._privacy.forget_inactive(
            self.clock() - self._retention, _games(), computer
        )

    @guarded
    async def chats_of(self, user: UserRef) -> list[ChatRef]:
        """The chats whose boards hold ``user``."""
        return await self._privacy.chats_of(user)

    # -- settings ---------------------------------------------------------------------

    @guarded
    async def chat_settings(self, chat: ChatRef) -> dict[str, str]:
        raw = await self._redis.hgetall(keys.settings(chat))
        return {text(name): text(value) for name, value in raw.items()}

    @guarded
    async def set_chat_setting(self, chat: ChatRef, name: str, value: str) -> None:
        await self._redis.hset(keys.settings(chat), name, value)

    @guarded
    async def user_lang(self, user: UserRef) -> str | None:
        raw = await self._redis.get(keys.user_lang(user))
        return None if raw is None else text(raw)

    @guarded
    async def set_user_lang(self, user: UserRef, lang: str) -> None:
        await self._redis.set(keys.user_lang(user), lang, ex=self._retention)


def _games() -> list[str]:
    return [variant.name for variant in all_variants()]

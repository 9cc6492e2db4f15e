"""What the store keeps of one player, read for ``mydata`` and deleted for ``forget``.

A player is kept in his own keys (his results in every game, his language, the set of
chats where he has played a match, noted when it starts, and the tables where he lately
took a seat) and, under his user key, in the boards of those chats (a scoreboard row with
the name he last played under, a rating line) and in each game's global ratings (a line in
one bucket, and in the leaderboard if he is among the best). A finished match waiting in
a chat's rating queue names him too, with his own results, until it is settled, and so
do the matches those chats keep for ``history`` that he played. Everything here reads or
deletes exactly those places, found from his own set of chats."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import redis.asyncio as aredis
from pydantic import ValidationError

from bot.model.contract import ChatRef, UserRef
from bot.model.decision import Game
from bot.model.gamedoc import RUNNING, BadDocument, from_json, to_json
from bot.model.ratings import Rating, decode
from bot.storage import keys
from bot.storage.documents import load_doc, pack
from bot.storage.kept_match import KeptMatch, unseated, without
from bot.storage.values import StatRow, text

if TYPE_CHECKING:
    from bot.storage.records import Records

# KEYS: a chat's last game. ARGV: the game as read, the game to write instead. Keeps its
# expiry; writes nothing if another game ended there meanwhile.
_REPLACE_LAST = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
return 1
"""
# KEYS: a chat's kept matches and their order (see bot.storage.history), one hash slot.
# ARGV: how many matches to write anew, how many fields to delete, then (match id, the
# match as read, the match to write instead) for each, the fields, and the ids of the
# matches to drop whole, each with its other fields (``id>…``). A match that changed or
# went meanwhile is left as it is.
_SCRUB_HISTORY = """
local rewrites, fields = tonumber(ARGV[1]), tonumber(ARGV[2])
local at = 3
for _ = 1, rewrites do
  if redis.call('HGET', KEYS[1], ARGV[at]) == ARGV[at + 1] then
    redis.call('HSET', KEYS[1], ARGV[at], ARGV[at + 2])
  end
  at = at + 3
end
for _ = 1, fields do
  redis.call('HDEL', KEYS[1], ARGV[at])
  at = at + 1
end
if at > #ARGV then return end
local dropped = {}
for n = at, #ARGV do
  dropped[ARGV[n]] = true
  redis.call('ZREM', KEYS[2], ARGV[n])
end
for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
  if dropped[string.match(field, '^([^>]*)')] then redis.call('HDEL', KEYS[1], field) end
end
"""
GRACE: Final = 2 * 86400
"""Seconds a player's set of chats (and the time of his last match) outlive his retention
period: the sweep that forgets him once it is over reads them."""


@dataclass(frozen=True, slots=True)
class BoardEntry:
    """The player on one chat's board of one game: the row and the chat's rating."""

    chat: ChatRef
    variant: str
    name: str
    played: int
    won: int
    rating: Rating | None


@dataclass(frozen=True, slots=True)
class KeptData:
    """Everything the store holds of one player."""

    stats: tuple[StatRow, ...]
    lang: str | None
    boards: tuple[BoardEntry, ...]
    ratings: dict[str, Rating]  # across every chat, by game
    queued: int  # finished matches naming him that wait to move the global ratings
    matches: int = 0  # finished matches of his that the chats keep for ``history``

    @property
    def names(self) -> tuple[str, ...]:
        """Every name he is kept under, once each, in the order first found."""
        found = [b.name for b in self.boards]
        found += [b.rating.name for b in self.boards if b.rating is not None]
        found += [r.name for r in self.ratings.values()]
        return tuple(dict.fromkeys(n for n in found if n))

    @property
    def empty(self) -> bool:
        found = (self.stats, self.lang, self.boards, self.ratings, self.queued, self.matches)
        return not any(found)


class PrivacyBook:
    """Reads and deletes one player's data (see :class:`bot.storage.store.Store`)."""

    def __init__(self, redis: aredis.Redis) -> None:
        self._redis = redis
        self._replace_last = redis.register_script(_REPLACE_LAST)
        self._scrub_history = redis.register_script(_SCRUB_HISTORY)

    async def note(self, chat: ChatRef, users: Sequence[UserRef], retention: int) -> None:
        """Add ``chat`` to each user's chats, which then expire ``retention`` from now (and
        a little later: the sweep of inactive players reads them, see :data:`GRACE`)."""
        async with self._redis.pipeline(transaction=False) as pipe:
            for user in users:
                pipe.sadd(keys.user_chats(user), chat.key)
                pipe.expire(keys.user_chats(user), retention + GRACE)
            await pipe.execute()

    async def forget_inactive(
        self, before: float, variants: Sequence[str], computer: str, limit: int = 20
    ) -> int:
        """Forget up to ``limit`` players whose last match ended before ``before``: their
        own keys have expired by then, but not their rows in boards that others keep
        alive. How many were forgotten."""
        found: list[Any] = await self._redis.zrangebyscore(
            keys.last_played(), "-inf", before, 0, limit
        )
        for raw in found:
            await self.forget(_user_of(text(raw)), variants, computer)
            await self._redis.zrem(keys.last_played(), raw)
        return len(found)

    async def chats_of(self, user: UserRef) -> list[ChatRef]:
        """The chats whose boards hold the player, in a steady order."""
        members = await self._redis.smembers(keys.user_chats(user))
        return [ChatRef.from_key(k) for k in sorted(text(m) for m in members)]

    async def kept(self, user: UserRef, variants: Sequence[str]) -> KeptData:
        """What is kept of ``user`` in the boards and ratings of ``variants``."""
        chats = await self.chats_of(user)
        me = user.key
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.hgetall(keys.user_stats(user))
            pipe.get(keys.user_lang(user))
            for chat in chats:
                for variant in variants:
                    pipe.hget(keys.players(chat, variant), me)
                    pipe.hget(keys.chat_ratings(chat, variant), me)
            for variant in variants:
                pipe.hget(keys.ratings(variant, me), me)
            replies: list[Any] = await pipe.execute()
        raw_stats, lang = replies[0], replies[1]
        stats = tuple(
            sorted((_stat(text(v), row) for v, row in raw_stats.items()), key=lambda r: r.variant)
        )
        at = 2
        boards: list[BoardEntry] = []
        for chat in chats:
            for variant in variants:
                row, line = replies[at], replies[at + 1]
                at += 2
                if row is None and line is None:
                    continue
                found = json.loads(row) if row is not None else {}
                rating = decode(line) if line is not None else None
                name = str(found.get("name") or (rating.name if rating else ""))
                played = int(found.get("played", rating.played if rating else 0))
                won = int(found.get("won", rating.won if rating else 0))
                boards.append(BoardEntry(chat, variant, name, played, won, rating))
        ratings = {
            variant: decode(line)
            for variant, line in zip(variants, replies[at:], strict=True)
            if line is not None
        }
        queued = sum(1 for _chat, _match, entry in await self._queued() if _queues(entry, me))
        lang_text = text(lang) if lang is not None else None
        matches = await self._kept_matches(chats, user)
        return KeptData(stats, lang_text, tuple(boards), ratings, queued, matches)

    async def _kept_matches(self, chats: Sequence[ChatRef], user: UserRef) -> int:
        """How many of the matches ``chats`` keep for ``history`` he played."""
        async with self._redis.pipeline(transaction=False) as pipe:
            for chat in chats:
                pipe.hgetall(keys.history(chat))
            found: list[dict[Any, Any]] = await pipe.execute()
        return sum(
            _names(text(raw), user)
            for kept in found
            for field, raw in kept.items()
            if ">" not in text(field)
        )

    async def forget(self, user: UserRef, variants: Sequence[str], computer: str) -> None:
        """Delete everything kept of ``user``: his own keys, his rows and ratings in every
        chat's boards and in the global ratings, and his part of the matches waiting in
        the chats' rating queues (the others of such a match are still rated). The
        rating queues go first, so a settling match cannot put back what was deleted after.
        In his chats' last games and kept matches a ``computer`` of that level takes his
        seat, and his reviews of those matches go."""
        me = user.key
        for chat, match_id, entry in await self._queued():
            if _queues(entry, me):
                await self._redis.hset(keys.rating_queue(chat), match_id, _without(entry, me))
        chats = await self.chats_of(user)
        async with self._redis.pipeline(transaction=False) as pipe:
            for chat in chats:
                for variant in variants:
                    pipe.hdel(keys.players(chat, variant), me)
                    pipe.zrem(keys.scores(chat, variant), me)
                    pipe.hdel(keys.chat_ratings(chat, variant), me)
                    pipe.zrem(keys.chat_leaders(chat, variant), me)
            for variant in variants:
                pipe.hdel(keys.ratings(variant, me), me)
                pipe.zrem(keys.leaders(variant), me)
                pipe.hdel(keys.leader_rows(variant), me)
            mine = (keys.user_stats(user), keys.user_lang(user), keys.user_chats(user))
            pipe.delete(*mine, keys.user_tables(user))
            pipe.zrem(keys.last_played(), me)
            await pipe.execute()
        for chat in chats:
            await self._unseat_from_last_game(chat, user, computer)
            await self._unseat_from_history(chat, user, computer)

    async def _unseat_from_last_game(self, chat: ChatRef, user: UserRef, computer: str) -> None:
        """The chat's last game (kept a while for export and a rematch) with a computer
        in the player's seat, so that a rematch does not seat him again by name."""
        raw = await self._redis.get(keys.last_game(chat))
        if raw is None:
            return
        try:
            doc = from_json(load_doc(raw))
        except (BadDocument, ValueError):
            return  # nothing this version can read, or change
        changed = unseated(doc, user, computer)
        if changed is None:
            return
        await self._replace_last(keys=[keys.last_game(chat)], args=[raw, pack(to_json(changed))])

    async def _unseat_from_history(self, chat: ChatRef, user: UserRef, computer: str) -> None:
        """The chat's kept matches with a computer in the player's seat (see
        :func:`bot.storage.kept_match.without`), and without his reviews of them. A match
        naming him that this version cannot read goes whole."""
        me = user.key
        rewrites: list[str] = []
        fields: list[str] = []
        dropped: list[str] = []
        kept = keys.history(chat)
        for raw_field, raw in (await self._redis.hgetall(kept)).items():
            field, found = text(raw_field), text(raw)
            match_id, beside, name = field.partition(">")
            if beside:
                if name.partition(":")[2] == me:
                    fields.append(field)
                continue
            try:
                changed = without(KeptMatch.model_validate_json(found), user, computer)
            except (ValidationError, BadDocument):
                if _names(found, user):
                    dropped.append(match_id)
                continue
            if changed is not None:
                rewrites += [match_id, found, changed.model_dump_json()]
        if rewrites or fields or dropped:
            counts = [str(len(rewrites) // 3), str(len(fields))]
            await self._scrub_history(
                keys=[kept, keys.history_order(chat)], args=[*counts, *rewrites, *fields, *dropped]
            )

    async def _queued(self) -> list[tuple[ChatRef, str, dict[str, Any]]]:
        """Every match waiting in a rating queue: its chat, its id, and it as queued."""
        noted: list[Any] = await self._redis.zrange(keys.rating_queues(), 0, -1)
        found = []
        for raw_chat in noted:
            chat = ChatRef.from_key(text(raw_chat))
            for match_id, raw in (await self._redis.hgetall(keys.rating_queue(chat))).items():
                found.append((chat, text(match_id), dict(json.loads(raw))))
        return found


def players_noted(
    store: Records, chat: ChatRef, before: Game | None, after: Game
) -> list[Callable[[], Awaitable[None]]]:
    """The step that notes ``chat`` among its players' chats when ``after`` starts a match
    there (none otherwise)."""
    if after.doc.status != RUNNING or (before is not None and before.doc.status == RUNNING):
        return []
    people = [seat.user for seat in after.doc.seats if seat.user is not None]
    return [lambda: store.note_players(chat, people)]


def _names(kept: str, user: UserRef) -> bool:
    """Whether a kept match (its JSON) has ``user`` among its players; one this version
    cannot read, whether his user key is in it at all."""
    try:
        return any(p.user == user.key for p in KeptMatch.model_validate_json(kept).players)
    except ValidationError:
        return f'"{user.key}"' in kept


def _user_of(player: str) -> UserRef:
    platform, user_id = player.split(":", 1)
    return UserRef(platform, user_id, "")


def _stat(variant: str, raw: bytes | str) -> StatRow:
    row = json.loads(raw)
    return StatRow(variant, int(row["played"]), int(row["won"]), int(row["points"]))


def _queues(entry: dict[str, Any], player: str) -> bool:
    """Whether a queued match names ``player``, in its result or in the own results."""
    return player in entry["n"] or any(_own(row) == player for row in entry.get("u", ()))


def _own(row: list[Any]) -> str:
    """The user key of one person's own results in a queued match."""
    return f"{row[0]}:{row[1]}"


def _without(entry: dict[str, Any], player: str) -> str:
    """A queued match with ``player`` taken out of its names, its result and the own
    results it carries."""
    names = {k: v for k, v in entry["n"].items() if k != player}
    sides = []
    for rank, members in entry["r"]:
        kept = [m for m in members if m[0] != player]
        if kept:
            sides.append([rank, kept])
    found = {**entry, "n": names, "r": sides}
    if "u" in entry:
        found["u"] = [row for row in entry["u"] if _own(row) != player]
    return json.dumps(found, separators=(",", ":"), ensure_ascii=False)

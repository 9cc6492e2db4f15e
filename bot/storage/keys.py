"""Every Redis key the bot uses, built in this one module.

A chat's keys carry the chat's reference as a hash tag (``dom:{tg:-100123}:game``), and a
user's keys carry the user's (``dom:user:{tg:42}:stats``), so that everything one script
touches lives in one Redis Cluster slot. Turn deadlines live in :data:`TIMER_BUCKETS` sorted
sets, each with its own hash tag (so spread across the cluster's slots, and no one of them a
hot key); a chat's deadlines always go to the same bucket, :func:`timer_bucket`.
"""

from __future__ import annotations

import zlib
from typing import Final

from bot.model.contract import ChatRef, UserRef

PREFIX = "dom"

TIMER_BUCKETS: Final = 16
"""How many sorted sets the turn deadlines are spread over."""

_MEMBER_SEPARATOR = "|"


def _tag(reference: str) -> str:
    if "{" in reference or "}" in reference:
        raise ValueError(f"a key reference may not contain braces: {reference!r}")
    return "{" + reference + "}"


def _chat(chat: ChatRef, *rest: str) -> str:
    return ":".join((PREFIX, _tag(chat.key), *rest))


def _user(user: UserRef, *rest: str) -> str:
    return ":".join((PREFIX, "user", _tag(user.key), *rest))


# -- a chat's keys ------------------------------------------------------------------


def game(chat: ChatRef) -> str:
    """The chat's current game: a hash ``{v: version, id, doc: head JSON, snap}``."""
    return _chat(chat, "game")


def moves(chat: ChatRef) -> str:
    """The moves of the chat's current game, one list entry each."""
    return _chat(chat, "moves")


def deals(chat: ChatRef) -> str:
    """The deals of the chat's current game as dealt, one list entry each."""
    return _chat(chat, "deals")


def last_game(chat: ChatRef) -> str:
    """The chat's last cleared game document, kept for export."""
    return _chat(chat, "last")


def set_aside(chat: ChatRef, game_id: str) -> str:
    """A game this version could not read, kept whole for a person to look at."""
    return _chat(chat, "aside", game_id or "-")


def snapshot_aside(chat: ChatRef, game_id: str) -> str:
    """A deal snapshot of the chat's game that could not be read, kept for a person to
    look at."""
    return _chat(chat, "aside", game_id or "-", "snap")


def outbox_aside(chat: ChatRef) -> str:
    """Hash of the chat's queued messages that could not be read, by their names, kept
    for a person to look at."""
    return _chat(chat, "aside", "outbox")


def scores(chat: ChatRef, variant: str) -> str:
    """Sorted set of user keys ranked by matches won in one game, then win rate."""
    return _chat(chat, "scores", variant)


def players(chat: ChatRef, variant: str) -> str:
    """Hash user key -> JSON row ``{name, played, won, points}`` beside :func:`scores`."""
    return _chat(chat, "players", variant)


def chat_ratings(chat: ChatRef, variant: str) -> str:
    """Hash player key -> rating line (see :func:`bot.model.ratings.encode`) in this chat."""
    return _chat(chat, "ratings", variant)


def chat_leaders(chat: ChatRef, variant: str) -> str:
    """Sorted set of player keys by rating ordinal in this chat, beside :func:`chat_ratings`."""
    return _chat(chat, "leaders", variant)


def rating_queue(chat: ChatRef) -> str:
    """Hash match id -> a finished match's result and own results waiting to be counted."""
    return _chat(chat, "rating_queue")


def moved_to(chat: ChatRef) -> str:
    """The key of the chat a chat became (a Telegram group upgraded to a supergroup)."""
    return _chat(chat, "moved_to")


def asks_in_chat(chat: ChatRef) -> str:
    return _chat(chat, "asks")  # how many lookups people asked of it this minute


def asked(chat: ChatRef, user: UserRef, what: str) -> str:
    """The version of ``what`` (the table's picture) last sent to ``user`` on demand."""
    return _chat(chat, "asked", user.key, what)


def settings(chat: ChatRef) -> str:
    """Hash of the chat's settings."""
    return _chat(chat, "settings")


def slot_messages(chat: ChatRef) -> str:
    """Hash slot key -> the message an adapter shows for that slot (and adapter extras)."""
    return _chat(chat, "msgs")


def sent(chat: ChatRef) -> str:
    """Sorted set of the moments an adapter wrote to the chat: its share of the rate limit."""
    return _chat(chat, "sent")


def pending_screens(chat: ChatRef) -> str:
    """Hash slot key -> the version of a game screen of the chat an adapter has queued and
    not yet shown (its hands' slots included), so that a restarted process redraws it."""
    return _chat(chat, "pending")


def outbox(chat: ChatRef) -> str:
    """Hash entry -> a one-off message (a response, a notice, a file) an adapter has queued
    for the chat and not yet sent; the entry names the process that queued it."""
    return _chat(chat, "outbox")


def live(chat: ChatRef) -> str:
    """The channel that tells the chat's open web pages each new version of its game
    (published by the write itself, in the chat's slot)."""
    return _chat(chat, "live")


def last_version(chat: ChatRef) -> str:
    """The version the chat's last game ended at: its final table is that version."""
    return _chat(chat, "last_v")


def history(chat: ChatRef) -> str:
    """Hash match id -> a finished match kept for ``history`` (see :mod:`bot.storage.history`)."""
    return _chat(chat, "history")


def history_order(chat: ChatRef) -> str:
    """Sorted set of the kept matches' ids by when each ended, beside :func:`history`."""
    return _chat(chat, "history_order")


def process_alive(process_id: str) -> str:
    """A bot process's own key, renewed while it runs: a hold or a send turn naming a
    process whose key has expired was left by one that is gone (each its own slot)."""
    return f"{PREFIX}:alive:{_tag(process_id)}"


def chat_pattern(chat: ChatRef) -> str:
    """A SCAN pattern matching every key of the chat."""
    return _escape_glob(_chat(chat)) + ":*"


def _escape_glob(text: str) -> str:
    return "".join("\\" + c if c in "*?[]\\" else c for c in text)


def rename_chat_key(key: str, old: ChatRef, new: ChatRef) -> str:
    """The key that ``key`` (one of ``old``'s keys) becomes for chat ``new``."""
    prefix = _chat(old)
    if not key.startswith(prefix + ":"):
        raise ValueError(f"{key!r} is not a key of chat {old.key!r}")
    return _chat(new) + key[len(prefix) :]


# -- a user's keys ------------------------------------------------------------------


def user_stats(user: UserRef) -> str:
    """Hash variant -> JSON row ``{played, won, points}`` across all chats."""
    return _user(user, "stats")


def user_match(user: UserRef, match_id: str) -> str:
    """Marker that the user's stats have counted this match."""
    return _user(user, "match", match_id)


def user_tables(user: UserRef) -> str:
    """Sorted set of the chat keys where the user took a seat -> when he took it."""
    return _user(user, "tables")


def user_asks(user: UserRef) -> str:
    """How many lookups the user asked for in the current minute, in every chat."""
    return _user(user, "asks")


def user_lang(user: UserRef) -> str:
    """The language the user chose."""
    return _user(user, "lang")


def user_chats(user: UserRef) -> str:
    """Set of the chat keys whose scoreboards and ratings hold the user: where ``mydata``
    looks and ``forget`` deletes."""
    return _user(user, "chats")


# -- global keys --------------------------------------------------------------------


def _ratings(variant: str, *rest: str) -> str:
    # One hash tag per game: a game's global ratings, leaders and match markers share
    # a slot, so one script updates them together.
    return ":".join((PREFIX, _tag("ratings:" + variant), *rest))


RATING_BUCKETS = 1024
"""Global ratings are spread over this many hashes per game: each stays small enough for
Redis's compact encoding, so a rated player costs a few dozen bytes."""


def rating_bucket(player: str) -> int:
    """The bucket of a player key (djb2; the same on every process and version)."""
    found = 5381
    for byte in player.encode():
        found = (found * 33 + byte) % RATING_BUCKETS
    return found


def ratings(variant: str, player: str) -> str:
    """Hash player key -> rating line across every chat, for the players of one bucket."""
    return _ratings(variant, "players", str(rating_bucket(player)))


def leaders(variant: str) -> str:
    """Sorted set of the best-rated player keys across every chat (the top few hundred)."""
    return _ratings(variant, "leaders")


def leader_rows(variant: str) -> str:
    """Hash player key -> rating line for the players in :func:`leaders`."""
    return _ratings(variant, "leader_rows")


def rated_match(variant: str, match_id: str) -> str:
    """Marker that the global ratings have counted this match."""
    return _ratings(variant, "match", match_id)


def rating_queues() -> str:
    """Sorted set of chat keys -> when a match there last queued a global rating update."""
    return f"{PREFIX}:rating_queues"


def last_played() -> str:
    """Sorted set of user keys -> when each last finished a match: whoever has not played
    for the retention period is forgotten (see :mod:`bot.storage.privacy`)."""
    return f"{PREFIX}:last_played"


def games_pattern(platform: str) -> str:
    """A SCAN pattern matching the game key of every chat of ``platform``."""
    return f"{PREFIX}:{{{_escape_glob(platform)}:*}}:game"


def chat_of_game(key: str) -> ChatRef:
    """The chat whose :func:`game` key ``key`` is."""
    return ChatRef.from_key(key[key.index("{") + 1 : key.rindex("}")])


def tables_to_check(platform: str) -> str:
    """Sorted set of a platform's chat keys -> when their table is next compared with the
    store (a live table, or one whose screens are queued)."""
    return f"{PREFIX}:tables:{platform}"


UPDATE_BUCKETS: Final = 16
"""How many hash tags the marks of Telegram updates taken are spread over."""


def telegram_update(update_id: int) -> str:
    """Set while a Telegram update is taken by a worker, so no other handles it again;
    bucketed by id, so the marks spread over the cluster's slots."""
    return f"{PREFIX}:{{tgupd:{update_id % UPDATE_BUCKETS}}}:{update_id}"


PING_BUCKETS: Final = 16
"""How many sorted sets each platform's held-back turn pings are spread over."""


def ping_bucket(chat: ChatRef) -> int:
    """The bucket of the chat's held-back pings: always the same one for a chat."""
    return zlib.crc32(chat.key.encode()) % PING_BUCKETS


def held_pings(platform: str, bucket: int) -> str:
    """Sorted set of a platform's turn pings held back, by the moment each falls due; each
    bucket has its own hash tag, so the buckets spread over the cluster's slots."""
    return f"{PREFIX}:{{{platform}:pings:{bucket}}}"


def held_ping_names(platform: str, bucket: int) -> str:
    """Hash, in its bucket's slot, naming the member held for each ping's slot
    (:func:`held_ping_field`), so one script can replace or drop a slot's ping."""
    return held_pings(platform, bucket) + ":current"


def held_ping_field(chat: ChatRef, slot_key: str) -> str:
    """The field of :func:`held_ping_names` naming the ping held for a chat's slot."""
    return f"{chat.key}|{slot_key}"


# -- turn deadlines ------------------------------------------------------------------


def timer_bucket(chat: ChatRef) -> int:
    """The bucket that holds the chat's deadlines."""
    return zlib.crc32(chat.key.encode()) % TIMER_BUCKETS


def timers(bucket: int) -> tuple[str, str]:
    """A bucket's keys, in one cluster slot: the sorted set of deadlines (member
    ``chatkey|game_id|counter``) and the hash ``chatkey|game_id`` -> that game's member, so
    one script can replace a game's deadline atomically."""
    tag = _tag(f"{PREFIX}:timers:{bucket}")
    return f"{PREFIX}:{tag}:due", f"{PREFIX}:{tag}:current"


def chat_timers(chat: ChatRef) -> tuple[str, str]:
    """The keys of the bucket that holds the chat's deadlines."""
    return timers(timer_bucket(chat))


# -- timer members ------------------------------------------------------------------


def timer_field(chat: ChatRef, game_id: str) -> str:
    """A game's field in its bucket's current-member hash."""
    return _MEMBER_SEPARATOR.join((chat.key, game_id))


def timer_member_prefix(chat: ChatRef, game_id: str) -> str:
    """What every deadline member of the game starts with: ``chatkey|game_id|``."""
    if _MEMBER_SEPARATOR in chat.key or _MEMBER_SEPARATOR in game_id:
        raise ValueError(f"{_MEMBER_SEPARATOR!r} may not appear in {chat.key!r} or {game_id!r}")
    return _MEMBER_SEPARATOR.join((chat.key, game_id, ""))


def timer_member(chat: ChatRef, game_id: str, counter: int) -> str:
    """A deadline's member in its bucket: ``chatkey|game_id|counter``."""
    return timer_member_prefix(chat, game_id) + str(counter)


def parse_timer_member(member: str) -> tuple[ChatRef, str, int] | None:
    """The chat, game id and turn counter of a member; ``None`` if it is malformed."""
    parts = member.split(_MEMBER_SEPARATOR)
    if len(parts) != 3 or not parts[2].lstrip("-").isdigit():
        return None
    chat_key, game_id, counter = parts
    if chat_key.count(":") < 1:
        return None
    return ChatRef.from_key(chat_key), game_id, int(counter)

"""A chat's current game in Redis: read in one script call, written in one.

A game lives in three keys of the chat's hash slot:

- ``game``, a hash: ``v`` (the version every write compares and sets), ``id``, ``doc``
  (the document's head: everything but its deals and moves, see
  :func:`bot.model.gamedoc.head_json`), ``snap`` (the engine state when the current deal was
  dealt, see :mod:`bot.storage.deal_snapshot`) and ``nm`` and ``nd`` (how many moves and deals
  the lists hold);
- ``moves``, a list with one entry per move of the match;
- ``deals``, a list with one entry per deal, as dealt.

A write rewrites the small head and appends what the press added, so its cost does not
grow with the match. A reader that already holds the game up to some point (same game
id, so many moves and deals) gets only what came after it.

A Redis that evicts keys when its memory is full (any ``maxmemory-policy`` but
``noeviction``) can take one of the three keys and leave the others. A read tells such a
game by its counts, or by lists with no head, and answers with what is
:attr:`GameRead.missing` instead of the game; the reader moves what is left aside, as it
does a game it cannot read, and the chat is free. A head without the id and counts every
write sets (a game kept in a layout this version does not read) is answered the same
way, and so is a write on any such game.

The write that ends a game (finished or stopped) also does the match's own updates of the
chat (its scoreboard, and whatever else is added to :class:`Ending`), keeps the whole
document as the chat's last game and removes the current one, all in the same script: a
match is never finished without being counted, nor counted twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from bot.storage.history import KEEP_MATCH
from bot.storage.values import PartsMissing, text

# The chat's game for a caller that holds game ``game_id`` ('' for none) up to so many
# moves and deals (KEYS: game, moves, deals): false when the chat has no game, else
# {version, head, moves from, deals from, moves, deals, snapshot ('' unless read from 0),
# what is missing ('' for nothing; then the head alone, if any, and no moves or deals)}.
_READ_GAME: Final = """
local function read_game(game_id, from_moves, from_deals)
  local head = redis.call('HMGET', KEYS[1], 'v', 'doc', 'id', 'snap', 'nm', 'nd')
  local held_moves, held_deals = redis.call('LLEN', KEYS[2]), redis.call('LLEN', KEYS[3])
  if not head[1] or not head[2] then
    if held_moves == 0 and held_deals == 0 then return false end
    return {0, '', 0, 0, {}, {}, '',
      'its head is gone (' .. held_moves .. ' moves and ' .. held_deals .. ' deals left)'}
  end
  if not head[3] or not head[5] or not head[6] then
    return {head[1], head[2], 0, 0, {}, {}, '',
      'its head is of a layout this version does not read (no id or counts beside it)'}
  end
  local gone = {}
  if tonumber(head[5]) ~= held_moves then
    gone[#gone + 1] = held_moves .. ' of its ' .. head[5] .. ' moves'
  end
  if tonumber(head[6]) ~= held_deals then
    gone[#gone + 1] = held_deals .. ' of its ' .. head[6] .. ' deals'
  end
  if #gone > 0 then
    local said = 'parts are gone: ' .. table.concat(gone, ' and ') .. ' left'
    return {head[1], head[2], 0, 0, {}, {}, '', said}
  end
  if game_id == '' or head[3] ~= game_id or from_moves > held_moves or from_deals > held_deals then
    from_moves, from_deals = 0, 0
  end
  local snap = ''
  if from_moves == 0 and head[4] then snap = head[4] end
  local moves = redis.call('LRANGE', KEYS[2], from_moves, -1)
  local deals = redis.call('LRANGE', KEYS[3], from_deals, -1)
  return {head[1], head[2], from_moves, from_deals, moves, deals, snap, ''}
end
"""

# KEYS: game, moves, deals. ARGV: the game id the caller holds ('' for none), how many of
# its moves and deals it holds.
READ: Final = (
    _READ_GAME
    + """
return read_game(ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]))
"""
)

# KEYS: game, moves, deals, last game, then the keys the ending's writes name.
# ARGV: 1 the write's numbers, separated by spaces: expected version, TTL, moves stored
# before (-1: replace the lists), moves added, deals stored before, deals added, ending
# (1/0), in one argument because redis-py spends more on packing an argument than on
# its bytes; 2 game id, 3 head, 4 snapshot ('' keeps it), 5 last game ('' keeps none),
# 6 the id of the game the version belongs to ('' not compared), 7 the command that
# tells the new version and 8 its channel ('' ''), then the moves, the deals, then each
# ending write as: operation, number of keys, number of values, key indices, values.
# Returns the new version; when the stored game is not the expected one, nothing is
# written and it returns that game as READ does for a caller holding game ARGV[6] up to
# the moves and deals stored before (0 when the chat has no game).
WRITE: Final = (
    _READ_GAME
    + KEEP_MATCH
    + """
local numbers = {}
for number in string.gmatch(ARGV[1], '%S+') do numbers[#numbers + 1] = tonumber(number) end
local expected, ttl, moves_before, moves_added, deals_before, deals_added, ending =
  unpack(numbers)
local version = tonumber(redis.call('HGET', KEYS[1], 'v')) or 0
if version ~= expected
  or (version > 0 and ARGV[6] ~= '' and redis.call('HGET', KEYS[1], 'id') ~= ARGV[6]) then
  return read_game(ARGV[6], math.max(moves_before, 0), deals_before) or 0
end
local at = 9
-- Every open web page of the chat hears of the new version (ARGV[7]: SPUBLISH, PUBLISH
-- on a server older than Redis 7, or '' when nobody listens).
local function told(new_version)
  if ARGV[7] ~= '' then redis.call(ARGV[7], ARGV[8], new_version) end
  return new_version
end
if ending == 1 then
  at = at + moves_added + deals_added
  while at <= #ARGV do
    local op, key_count, value_count = ARGV[at], tonumber(ARGV[at + 1]), tonumber(ARGV[at + 2])
    local names, values = {}, {}
    for i = 1, key_count do names[i] = KEYS[tonumber(ARGV[at + 2 + i])] end
    for i = 1, value_count do values[i] = ARGV[at + 2 + key_count + i] end
    at = at + 3 + key_count + value_count
    if op == 'board' then
      local raw = redis.call('HGET', names[2], values[1])
      local row = raw and cjson.decode(raw) or {played = 0, won = 0, points = 0}
      row.name = values[2]
      row.played = row.played + 1
      row.won = row.won + tonumber(values[3])
      row.points = row.points + tonumber(values[4])
      redis.call('HSET', names[2], values[1], cjson.encode(row))
      redis.call('ZADD', names[1], row.won + row.won / row.played / 2, values[1])
    elseif op == 'history' then
      keep_match(names[1], names[2], unpack(values))
    else
      local args = {}
      for i = 1, key_count do args[#args + 1] = names[i] end
      for i = 1, value_count do args[#args + 1] = values[i] end
      redis.call(op, unpack(args))
    end
  end
  if ARGV[5] ~= '' then redis.call('SET', KEYS[4], ARGV[5], 'EX', ttl) end
  redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
  return told(version + 1)
end
if version == 0 then
  -- Moves or deals whose head is gone: the reader sets them aside before a new game.
  local left = read_game('', 0, 0)
  if left then return left end
end
if version == 0 or moves_before < 0 then
  redis.call('DEL', KEYS[2], KEYS[3])
  redis.call('HDEL', KEYS[1], 'snap')
elseif redis.call('LLEN', KEYS[2]) ~= moves_before
  or redis.call('LLEN', KEYS[3]) ~= deals_before then
  local now = read_game(ARGV[6], 0, 0)
  if now and now[8] ~= '' then return now end
  return redis.error_reply('the stored moves or deals are not the ones this write follows')
end
local function append(key, count)
  local last = at + count - 1
  for first = at, last, 500 do
    redis.call('RPUSH', key, unpack(ARGV, first, math.min(first + 499, last)))
  end
  at = at + count
end
append(KEYS[2], moves_added)
append(KEYS[3], deals_added)
redis.call('HSET', KEYS[1], 'v', version + 1, 'id', ARGV[2], 'doc', ARGV[3],
  'nm', redis.call('LLEN', KEYS[2]), 'nd', redis.call('LLEN', KEYS[3]))
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'snap', ARGV[4]) end
redis.call('EXPIRE', KEYS[1], ttl)
redis.call('EXPIRE', KEYS[2], ttl)
redis.call('EXPIRE', KEYS[3], ttl)
return told(version + 1)
"""
)

# KEYS: game, moves, deals, the set-aside key. ARGV: version, TTL of the set-aside key.
# Moves the game at that version (0: moves and deals whose head is gone), whole, to the
# set-aside key; 0 if it is not at it.
SET_ASIDE: Final = """
local head = redis.call('HMGET', KEYS[1], 'v', 'doc')
if (tonumber(head[1]) or 0) ~= tonumber(ARGV[1]) then return 0 end
if not head[1] and redis.call('EXISTS', KEYS[2], KEYS[3]) == 0 then return 0 end
local kept = cjson.encode({head = head[2] or nil, moves = redis.call('LRANGE', KEYS[2], 0, -1),
  deals = redis.call('LRANGE', KEYS[3], 0, -1)})
redis.call('SET', KEYS[4], kept, 'EX', ARGV[2])
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
return 1
"""

# KEYS: game, the snapshot's set-aside key. ARGV: the snapshot read, TTL of the set-aside
# key. Moves a snapshot that cannot be read aside, if the game still holds that one.
SET_SNAPSHOT_ASIDE: Final = """
if redis.call('HGET', KEYS[1], 'snap') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[2])
redis.call('HDEL', KEYS[1], 'snap')
return 1
"""

#: Redis commands an ending may run on the chat's keys, besides ``board``.
ENDING_COMMANDS: Final = frozenset(
    {"HSET", "HINCRBY", "HINCRBYFLOAT", "ZADD", "ZINCRBY", "SET", "INCRBY", "EXPIRE", "SADD"}
)


@dataclass(frozen=True, slots=True)
class MatchWrite:
    """One update a finished match makes in its chat's slot.

    ``op`` is ``board`` (one player's row on a scoreboard: keys ranking and rows, values
    user key, name, won 0/1, points), ``history`` (the match kept in the chat's history:
    see :data:`bot.storage.history.KEEP_MATCH`) or one of :data:`ENDING_COMMANDS`, run on
    ``keys`` then ``values``.
    """

    op: str
    keys: tuple[str, ...]
    values: tuple[str | int | float, ...] = ()

    def __post_init__(self) -> None:
        if self.op not in ("board", "history") and self.op not in ENDING_COMMANDS:
            raise ValueError(f"an ending may not run {self.op!r}")


@dataclass(frozen=True, slots=True)
class Ending:
    """What the write that ends a game does besides: keep ``last`` as the chat's last game
    (``None``: keep nothing) and make the match's ``writes``."""

    last: str | None
    writes: tuple[MatchWrite, ...] = ()


@dataclass(frozen=True, slots=True)
class GameWrite:
    """A compare-and-set of a chat's game on version ``expected`` of game ``held`` (``None``:
    of whichever game is stored): the new ``head``, the ``moves`` and ``deals`` to append
    after the ``moves_before`` and ``deals_before`` stored ones (``moves_before`` of -1
    replaces both lists), the deal's ``snapshot`` (``None`` keeps the stored one), and the
    ``ending`` when the game ends.

    Comparing the game id as well as the version matters to a caller that writes from
    what it remembers rather than from what it has just read: a chat's versions start
    again with each game, so another game may have reached the same one meanwhile."""

    expected: int
    game_id: str
    head: str
    moves: Sequence[str] = ()
    deals: Sequence[str] = ()
    moves_before: int = -1
    deals_before: int = 0
    snapshot: str | None = None
    ending: Ending | None = None
    held: str | None = None


@dataclass(frozen=True, slots=True)
class Written:
    """What a write did: ``ok`` if it was written; if not, the chat's game as it is now
    (``None``: the chat has no game), read by the same script."""

    ok: bool
    current: GameRead | None = None


@dataclass(frozen=True, slots=True)
class GameRead:
    """A chat's game as read: its version and head, and its moves and deals from
    ``moves_from`` and ``deals_from`` on (0: all of them, and then the ``snapshot``).

    A game that has lost one of its keys, or whose head lacks the id and counts (a layout
    this version does not read), is read as what is ``missing``, its head (if any, else
    version 0 and an empty head) and nothing else; it cannot be played."""

    version: int
    head: str
    moves_from: int
    deals_from: int
    moves: tuple[str, ...]
    deals: tuple[str, ...]
    snapshot: str | None = field(default=None)
    missing: str = ""

    def intact(self) -> GameRead:
        """This read, if the game has all its parts; else :class:`PartsMissing` (a
        ``ValueError``, so every reader of games takes it for a game it cannot read)."""
        if self.missing:
            raise PartsMissing(self.missing)
        return self


def read_args(game_id: str | None, moves: int, deals: int) -> list[str | int]:
    return ["" if game_id is None else game_id, moves, deals]


def parse_read(reply: Any) -> GameRead | None:
    if not reply:
        return None
    version, head, moves_from, deals_from, moves, deals, snap, missing = reply
    return GameRead(
        version=int(version),
        head=text(head),
        moves_from=int(moves_from),
        deals_from=int(deals_from),
        moves=tuple(text(m) for m in moves),
        deals=tuple(text(d) for d in deals),
        snapshot=text(snap) or None,
        missing=text(missing),
    )


def parse_written(reply: Any) -> Written:
    if isinstance(reply, list):
        return Written(False, parse_read(reply))
    return Written(bool(reply))


def write_keys_args(
    base: Sequence[str], write: GameWrite, ttl: int, live: tuple[str, str] = ("", "")
) -> tuple[list[str], list[str | int | float]]:
    """The script's keys and arguments for ``write`` on the keys ``base`` (game, moves,
    deals, last game); ``live``: the command and channel that tell the new version
    (``("", "")``: none)."""
    keys = list(base)
    ending = write.ending
    numbers = (
        write.expected,
        ttl,
        write.moves_before,
        len(write.moves),
        write.deals_before,
        len(write.deals),
        int(ending is not None),
    )
    args: list[str | int | float] = [
        " ".join(map(str, numbers)),
        write.game_id,
        write.head,
        write.snapshot or "",
        (ending.last or "") if ending is not None else "",
        write.held or "",
        *live,
        *write.moves,
        *write.deals,
    ]
    for change in ending.writes if ending is not None else ():
        indices = []
        for key in change.keys:
            if key not in keys:
                keys.append(key)
            indices.append(keys.index(key) + 1)
        args += [change.op, len(change.keys), len(change.values), *indices, *change.values]
    return keys, args

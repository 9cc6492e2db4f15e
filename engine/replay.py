"""Replay files: a scripted match (deals as dealt, moves in notation) and its outcome.

The file format is the one tests, bug reports and game exports share::

    {"format": 2, "variant": "kozel", "players": 3, "options": {}, "seed": 7,
     "deals": [{"hands": [["6-6", ...], ...], "boneyard": ["2-1", ...]}],
     "moves": [[0, "6-6"], [1, "6-3@R"], [2, "draw"]]}

A deal the match reaches beyond the listed ones is dealt from ``seed``. Format 2 (the
one exports write) leaves the seed out of a match that is still being played, since
every later deal could be dealt from it: such a file ends with its listed deals, and a
move beyond them is refused. A file without ``format`` is format 1, where a missing
seed means 0. See docs/replay-files.md.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine import api
from engine.errors import BadFixture, DominoError
from engine.state import Fixture, OptionValue, State
from engine.tiles import Tile

#: The format exports write; files of this or an earlier format are read.
FORMAT = 2


class BadReplay(DominoError):
    """The file itself is not a valid replay (exit status 2)."""

    code = "bad_replay"


@dataclass(frozen=True, slots=True)
class Replay:
    variant: str
    players: int
    options: Mapping[str, OptionValue]
    seed: int | None  # None: the file holds no deal beyond its listed ones
    deals: tuple[Fixture, ...]
    moves: tuple[tuple[int, str], ...]

    def fixture(self, deal_number: int) -> Fixture | None:
        """The listed deal ``deal_number`` (from 1), or ``None`` to deal it from the seed;
        raises :class:`BadReplay` when the file has neither."""
        if deal_number <= len(self.deals):
            return self.deals[deal_number - 1]
        if self.seed is None:
            raise BadReplay(
                f"deal {deal_number} is not in the file, which has no seed to deal it from"
            )
        return None


@dataclass(frozen=True, slots=True)
class Outcome:
    """The state reached, or the first move that failed and why."""

    state: State[Any]
    failed_at: int | None = None
    error: str | None = None


def load_replay(text: str) -> Replay:
    """Decode a replay file's text and check its shape. Every way the text can fail
    to be a replay, nesting too deep for the decoder and numbers too long to convert
    included, raises :class:`BadReplay`."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadReplay(f"not valid JSON: {exc}") from None
    except RecursionError:
        raise BadReplay("not a replay: nested too deeply") from None
    except ValueError as exc:  # an integer longer than Python converts
        raise BadReplay(f"not a replay: {exc}") from None
    return parse_replay(data)


def parse_replay(data: object) -> Replay:
    """Check a decoded JSON document's shape; raise :class:`BadReplay`."""
    if not isinstance(data, dict):
        raise BadReplay("a replay file is a JSON object")
    version = data.get("format", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise BadReplay("'format' must be a whole number from 1")
    if version > FORMAT:
        raise BadReplay(
            f"replay format {version} is newer than this version reads (up to {FORMAT})"
        )
    variant = _field(data, "variant", str)
    players = _field(data, "players", int)
    seed = data.get("seed", 0 if version == 1 else None)
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise BadReplay("'seed' must be a whole number")
    options = data.get("options", {})
    if not isinstance(options, dict) or not all(
        isinstance(v, (str, int)) and not isinstance(v, bool) for v in options.values()
    ):
        raise BadReplay("'options' must map names to strings or whole numbers")
    deals = data.get("deals", [])
    if not isinstance(deals, list):
        raise BadReplay("'deals' must be a list")
    moves = data.get("moves", [])
    if not isinstance(moves, list):
        raise BadReplay("'moves' must be a list of [seat, move] pairs")
    return Replay(
        variant,
        players,
        options,
        seed,
        tuple(_fixture(d, i) for i, d in enumerate(deals)),
        tuple(_move_pair(m, i) for i, m in enumerate(moves)),
    )


def _field(data: dict[str, Any], name: str, kind: type) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise BadReplay(f"'{name}' is missing or not a {kind.__name__}")
    return value


def _fixture(deal: object, index: int) -> Fixture:
    if not isinstance(deal, dict) or not isinstance(deal.get("hands"), list):
        raise BadReplay(f"deal {index} needs 'hands', a list of hands")
    try:
        hands = tuple(tuple(_tiles(h)) for h in deal["hands"])
        boneyard = tuple(_tiles(deal.get("boneyard", [])))
    except DominoError as exc:
        raise BadReplay(f"deal {index}: {exc}") from None
    leader = deal.get("leader")
    if leader is not None and (not isinstance(leader, int) or isinstance(leader, bool)):
        raise BadReplay(f"deal {index}: 'leader' must be a seat number")
    return Fixture(hands, boneyard, leader)


def _tiles(texts: object) -> list[Tile]:
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise BadReplay('tiles are written as a list of strings like "6-4"')
    return [Tile.parse(t) for t in texts]


def _move_pair(pair: object, index: int) -> tuple[int, str]:
    if (
        not isinstance(pair, list)
        or len(pair) != 2
        or not isinstance(pair[0], int)
        or isinstance(pair[0], bool)
        or not isinstance(pair[1], str)
    ):
        raise BadReplay(f'move {index} must be a [seat, "move"] pair')
    return pair[0], pair[1]


def start(replay: Replay) -> State[Any]:
    """The match as the file's first deal sets it up; raises :class:`DominoError`."""
    first = replay.fixture(1)
    seed = replay.seed if replay.seed is not None else 0
    return api.new_match(replay.variant, replay.players, replay.options, seed, first)


def run(replay: Replay) -> Outcome:
    """Play the replay's moves. Invalid setup raises; an illegal move stops the run."""
    state = start(replay)
    for index, (seat, text) in enumerate(replay.moves):
        try:
            if state.deal_over and not state.match_over:
                fixture = replay.fixture(state.deal_number + 1)
                try:
                    state = api.next_deal(state, fixture)
                except BadFixture as exc:
                    raise BadReplay(f"deal {state.deal_number}: {exc}") from None
            state, _ = api.apply(state, text, seat)
        except BadReplay:
            raise
        except DominoError as exc:
            return Outcome(state, index, str(exc))
    return Outcome(state)


def report(outcome: Outcome) -> dict[str, Any]:
    """The JSON object the replay command prints."""
    if outcome.failed_at is not None:
        return {"ok": False, "index": outcome.failed_at, "error": outcome.error}
    state = outcome.state
    report = {
        "ok": True,
        "deal_number": state.deal_number,
        "deal_over": state.deal_over,
        "match_over": state.match_over,
        "turn": state.turn,
        "hands": [[str(t) for t in hand] for hand in state.hands],
        "boneyard": len(state.boneyard),
        "line": [str(p) for p in state.line],
        "deal_scores": list(state.deal_scores) if state.deal_scores is not None else None,
        "match_scores": list(state.match_scores),
        "winner": list(state.winners),
    }
    report.update(api.variant_of(state).public(state).data())
    return report


def fixture_json(fixture: Fixture) -> dict[str, Any]:
    """A deal as the file writes it."""
    deal: dict[str, Any] = {
        "hands": [[str(t) for t in hand] for hand in fixture.hands],
        "boneyard": [str(t) for t in fixture.boneyard],
    }
    if fixture.leader is not None:
        deal["leader"] = fixture.leader
    return deal


def replay_json(
    variant: str,
    players: int,
    options: Mapping[str, OptionValue],
    seed: int | None,
    deals: Sequence[Fixture],
    moves: Sequence[tuple[int, str]],
) -> dict[str, Any]:
    """A replay document for a match played so far (exports write this). ``seed`` is
    ``None`` for a match still being played: it would deal every later deal."""
    document: dict[str, Any] = {
        "format": FORMAT,
        "variant": variant,
        "players": players,
        "options": dict(options),
    }
    if seed is not None:
        document["seed"] = seed
    document["deals"] = [fixture_json(d) for d in deals]
    document["moves"] = [[seat, text] for seat, text in moves]
    return document

"""A game's event stream: what is appended as the match goes, and the replay file
rebuilt from it.

Every write of a running game appends what it did to the game's stream (see
:mod:`bot.match`): at the start the match itself (game, players, resolved options,
seed), then every deal as it was dealt and every move as it was applied, each
with its place in the match. Other entries (penalties, tokens, the end of a deal)
say what the engine reported and are not needed for a replay.

Entries carry their places because the stream is written after the game, by
whichever process wrote it: two processes may append out of order, and a retried
append may repeat itself. :func:`replay_from_stream` puts them back in order and
returns ``None`` unless the stream holds the whole match up to the point asked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from engine import State
from engine.replay import fixture_json

MATCH: Final = "match"
DEAL: Final = "deal"
MOVE: Final = "move"


def match_entry(state: State[Any]) -> dict[str, Any]:
    """What the match is: enough, with its deals and moves, to replay it."""
    return {
        "kind": MATCH,
        "variant": state.variant,
        "players": state.players,
        "options": dict(state.options),
        "seed": state.seed,
    }


def deal_entry(state: State[Any], first_move: int) -> dict[str, Any]:
    """A deal as dealt; ``first_move`` is the place of its first move in the match."""
    return {
        "kind": DEAL,
        "deal": state.deal_number,
        "start": first_move,
        "fixture": fixture_json(state.dealt),
    }


def move_entry(index: int, seat: int, text: str, *, timed_out: bool = False) -> dict[str, Any]:
    """The match's move number ``index`` (from 0), in notation."""
    entry: dict[str, Any] = {"kind": MOVE, "index": index, "seat": seat, "move": text}
    if timed_out:
        entry["timed_out"] = True
    return entry


def replay_from_stream(
    events: Sequence[Mapping[str, Any]], deals: int, moves: int
) -> dict[str, Any] | None:
    """The replay file of the match's first ``deals`` deals, whose moves number
    ``moves`` in all; ``None`` when the stream lacks any of it (trimmed, expired,
    or behind the game) or contradicts itself."""
    header = next((e for e in events if e.get("kind") == MATCH), None)
    dealt = _by_place(events, DEAL, "deal")
    played = _by_place(events, MOVE, "index")
    if header is None or dealt is None or played is None:
        return None
    wanted_deals = [dealt.get(number) for number in range(1, deals + 1)]
    wanted_moves = [played.get(index) for index in range(moves)]
    if any(d is None for d in wanted_deals) or any(m is None for m in wanted_moves):
        return None
    return {
        "variant": header["variant"],
        "players": header["players"],
        "options": dict(header["options"]),
        "seed": header["seed"],
        "deals": [d["fixture"] for d in wanted_deals if d is not None],
        "moves": [[m["seat"], m["move"]] for m in wanted_moves if m is not None],
    }


def _by_place(
    events: Sequence[Mapping[str, Any]], kind: str, place: str
) -> dict[int, Mapping[str, Any]] | None:
    """The entries of one kind by their place; ``None`` if two differ at one place
    (a repeated append is the same entry twice, and harmless)."""
    found: dict[int, Mapping[str, Any]] = {}
    for entry in events:
        if entry.get("kind") != kind or not isinstance(entry.get(place), int):
            continue
        number = entry[place]
        if number in found and found[number] != entry:
            return None
        found[number] = entry
    return found

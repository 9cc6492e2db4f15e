"""What the soak's people pressed, what it counts, and the check of a game's stored
moves against the presses: every press the bot acknowledged is stored once, no stored
move of a person came without a press (but those the turn timer made, and a computer's
for a person whose seat it took over), and no press the bot refused is stored."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.model.gamedoc import GameDoc

# A draw or a pass may be the only move a hand has; the core makes those by itself.
FORCED = ("draw", "pass")


@dataclass
class Press:
    game_id: str
    counter: int
    seat: int
    move: str
    answer: dict[str, Any] | None = None  # None: never answered (the bot died)


@dataclass
class Tally:
    """What the soak counts and what it found wrong."""

    games: int = 0
    moves_checked: int = 0
    presses: int = 0
    unanswered: int = 0
    hands_asked: int = 0  # "My tiles" pressed because a hand was not redrawn in time
    refused: int = 0  # answered with the reason the press did nothing
    timer_moves: int = 0  # people's moves the turn timer made, or a computer in their seat
    problems: list[str] = field(default_factory=list)
    press_to_edit: list[float] = field(default_factory=list)
    press_to_answer: list[float] = field(default_factory=list)  # those answered in time


def applied(answer: dict[str, Any]) -> bool:
    """The popup of a press the bot applied: a silent one. A refusal always says why, in
    a dialog (the table is unavailable) or a toast (the button is out of date)."""
    return not answer.get("show_alert") and not answer.get("text")


def check_moves(doc: GameDoc, presses: list[Press], tally: Tally) -> None:
    """Every acknowledged press stored once, every stored human move pressed, no
    refused press stored."""
    stored: dict[tuple[int, int, str], int] = {}
    timed_out = set(doc.timed_out)
    # A seat whose person timed out too often is played by a computer from its last
    # timed-out move on (nobody here resigns or takes a seat back).
    taken_over = {
        seat: max(i for i in timed_out if doc.moves[i][0] == seat)
        for seat, held in enumerate(doc.seats)
        if held.away is not None and any(doc.moves[i][0] == seat for i in timed_out)
    }
    for index, (seat, text) in enumerate(doc.moves):
        occupant = doc.seats[seat]
        if occupant.user is None:
            continue
        if index in timed_out or index > taken_over.get(seat, len(doc.moves)):
            tally.timer_moves += 1
            continue
        key = (index, seat, text)  # a press carries the moves made so far in the match
        stored[key] = stored.get(key, 0) + 1
        tally.moves_checked += 1
    pressed: dict[tuple[int, int, str], list[Press]] = {}
    for press in presses:
        pressed.setdefault((press.counter, press.seat, press.move), []).append(press)
    for key, count in stored.items():
        if count > 1:
            tally.problems.append(f"game {doc.id}: move {key} stored {count} times")
        if key not in pressed and key[2] not in FORCED:
            tally.problems.append(f"game {doc.id}: move {key} stored, never pressed")
    for key, made in pressed.items():
        acked = [p for p in made if p.answer is not None and applied(p.answer)]
        refused = [p for p in made if p.answer is not None and not applied(p.answer)]
        if acked and key not in stored:
            tally.problems.append(f"game {doc.id}: acknowledged move {key} lost")
        if refused and not acked and key in stored:
            tally.problems.append(f"game {doc.id}: refused move {key} stored anyway")

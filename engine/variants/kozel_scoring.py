"""Kozel's score sheets: what a hand is worth after a deal, the opening at 13,
partners sharing a sheet, and the goats at the target."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from engine.rounds import lowest_seats
from engine.state import Hands, OptionValue
from engine.tiles import Tile

BLANK_DOUBLE: Final = Tile(0, 0)
BLANK_DOUBLE_POINTS: Final = 25
OPENING_POINTS: Final = 13
TEAMS: Final = ((0, 2), (1, 3))


def hand_points(hands: Hands, options: Mapping[str, OptionValue]) -> tuple[int, ...]:
    """Each seat's points in hand as a deal counts them, before the 13 rule."""
    always = options["blank_double"] == "always"
    points = []
    for hand in hands:
        pips = sum(t.pips for t in hand)
        if BLANK_DOUBLE in hand and (always or len(hand) == 1):
            pips += BLANK_DOUBLE_POINTS
        points.append(pips)
    return tuple(points)


def write_scores(
    points: tuple[int, ...], opened: tuple[bool, ...], teams: bool
) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """What each seat's sheet gets for a deal, and which sheets are open after it.

    With teams, partners share a sheet: it gets their sum, shown at both seats.
    """
    points = team_points(points, teams)
    is_open = tuple(was or p >= OPENING_POINTS for was, p in zip(opened, points, strict=True))
    written = tuple(p if o else 0 for p, o in zip(points, is_open, strict=True))
    return written, is_open


def team_points(points: tuple[int, ...], teams: bool) -> tuple[int, ...]:
    """With teams, each seat's points are its team's sum, as the shared sheet counts them."""
    if not teams:
        return points
    sums = [points[a] + points[b] for a, b in TEAMS]
    return tuple(sums[seat % 2] for seat in range(len(points)))


def unwritten_points(
    hands: Hands,
    options: Mapping[str, OptionValue],
    opened: tuple[bool, ...],
    written: tuple[int, ...],
) -> tuple[int, ...]:
    """The points of a finished deal that each sheet did not take because it did not
    open with them (``written`` is what the deal wrote, ``opened`` the sheets open after it)."""
    points = team_points(hand_points(hands, options), options["teams"] == "on")
    return tuple(
        p if not opened[seat] and written[seat] == 0 else 0 for seat, p in enumerate(points)
    )


def goats_and_winners(
    totals: tuple[int, ...], target: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The goats (seats at or over the target) and, once there are any, the winners.

    Everyone below the target has less than any goat, so the lowest total wins
    (ties share); if every seat is a goat, the lowest of them still wins.
    """
    goats = tuple(seat for seat, total in enumerate(totals) if total >= target)
    return goats, lowest_seats(totals) if goats else ()

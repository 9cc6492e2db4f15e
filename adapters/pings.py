"""How long a turn ping is held back, on every platform that holds pings back.

An edit of the table notifies nobody, so the player to move is pinged; but most
players move within moments of their turn coming, and a ping sent then (and deleted
after the move, where the platform deletes it) only costs messages. A ping is
therefore held back, and dropped if the player moves meanwhile: for half the time
left on his turn when it has a deadline, else for the platform's own wait, and never
longer than the platform allows.
"""

from __future__ import annotations

from bot.contract import Deadline, Show


def turn_deadline(show: Show) -> float | None:
    """When the turn a ping is about runs out (the screen's deadline), if it does."""
    for line in show.screen.lines:
        for segment in line:
            if isinstance(segment, Deadline):
                return segment.at
    return None


def hold_for(show: Show, now: float, *, no_timer: float, longest: float | None = None) -> float:
    """Seconds from ``now`` to hold ``show`` (a turn ping) back: half the time left on
    the turn, or ``no_timer`` for a turn without a deadline; at most ``longest``."""
    deadline = turn_deadline(show)
    wait = (deadline - now) / 2 if deadline is not None else no_timer
    if longest is not None:
        wait = min(wait, longest)
    return max(wait, 0.0)

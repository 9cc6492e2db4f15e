"""How fast one page may send frames: a token bucket per socket.

A person at the table taps a tile, an end, a button: a couple of frames a second at his
quickest, and the page sends one frame per move and holds further taps until the
answer comes. A page that sends many more is broken or a script, and each of its frames
costs a read of the game and a press through the core, so the excess is refused before
it reaches the core.

The numbers: a page may send :data:`BURST` (6) frames at once (a hello after a
reconnect, a move and a next deal tapped together, with room to spare) and then
:data:`RATE` (3) a second, above any person's pace and far below a flood's (20 a
second drains the burst in a third of a second). Each frame refused is answered "too
fast", so a page waiting for its answer is freed; a second bucket counts the refusals,
and a page that has :data:`PATIENCE` (40) of them refused faster than one a second is
given up on: at 20 a second that is about two seconds of flood, while a page that
stumbles over the limit once in a while never comes near it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Final

RATE: Final = 3.0  # frames a second a page may keep sending
BURST: Final = 6.0  # frames a page may send at once
PATIENCE: Final = 40.0  # refused frames before the socket is closed
FORGIVE: Final = 1.0  # refused frames forgiven a second


@dataclass
class Bucket:
    """Tokens that come back at ``rate`` a second up to ``size``; a take spends one."""

    rate: float
    size: float
    clock: Callable[[], float] = time.monotonic
    tokens: float = field(init=False)
    at: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens, self.at = self.size, self.clock()

    def take(self) -> bool:
        """Spend a token if there is one; whether there was."""
        now = self.clock()
        self.tokens = min(self.size, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Verdict(Enum):
    """What becomes of a frame: served, refused as too fast, or the socket closed."""

    SERVE = "serve"
    TOO_FAST = "too fast"
    CLOSE = "close"


class Limiter:
    """One socket's limit: :meth:`judge` each frame as it comes."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.frames = Bucket(RATE, BURST, clock)
        self.patience = Bucket(FORGIVE, PATIENCE, clock)

    def judge(self) -> Verdict:
        if self.frames.take():
            return Verdict.SERVE
        return Verdict.TOO_FAST if self.patience.take() else Verdict.CLOSE

"""Whole matches of every game cost at most 2.0 Bot API calls per accepted move,
group and private chats together (see :mod:`tests.adapters.telegram.callcount`)."""

from __future__ import annotations

import pytest

from tests.adapters.telegram.callcount import LIMIT, SETUPS, Setup, play_counted

pytestmark = pytest.mark.slow

# Where two or three people play, every move still costs the table, the mover's hand
# and the next player's hand, whose choices changed with the line's ends: three calls.
# Meeting the limit there needs a hand whose buttons stay the same when the turn passes.
OVER = {("tyaga", "2+0"), ("kozel", "3+0"), ("baghdad", "2+0"), ("three_guns", "2+1")}
# Here a computer's move may or may not meet a screen still queued, as the timer loop
# and the deliverer happen to run: the figure varies from match to match around 2.0.
NEAR = {("three_guns", "2+1")}


def _marked(setup: Setup) -> object:
    seats = (setup.name, setup.seats)
    if seats not in OVER:
        return setup
    reason = "each move edits the table, the mover's hand and the next player's hand"
    return pytest.param(setup, marks=pytest.mark.xfail(reason=reason, strict=seats not in NEAR))


@pytest.mark.parametrize(
    "setup", [_marked(s) for s in SETUPS], ids=[f"{s.name}-{s.seats}" for s in SETUPS]
)
async def test_a_whole_match_costs_at_most_two_calls_a_move(setup: Setup, redis_url: str) -> None:
    measured = await play_counted(setup, 1, redis_url)
    assert measured.per_move <= LIMIT, (
        f"{setup.name} {setup.seats}: {sum(measured.calls.values())} calls for "
        f"{measured.moves} moves ({measured.per_move:.2f} a move): {dict(measured.calls)}"
    )

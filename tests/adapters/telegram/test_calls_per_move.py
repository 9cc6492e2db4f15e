"""Whole matches of every game cost at most 2.0 Bot API calls per accepted move,
group and private chats together (see :mod:`tests.adapters.telegram.callcount`)."""

from __future__ import annotations

import pytest

from tests.adapters.telegram.callcount import LIMIT, SETUPS, Setup, play_counted

pytestmark = pytest.mark.slow


# Two deals of Thief of Baghdad for two people: 136 calls for 67 moves (2.03). Its moves
# cost 1.75 calls each; 19 calls are the match's own (start, the deal change, the end, and
# five "where does it go?" questions this deal asks), too many over 67 moves. Marked
# strict, so the mark has to go the day the match comes within the limit.
_OVER = {("baghdad", "2+0")}


def _params() -> list[object]:
    over = pytest.mark.xfail(strict=True, reason="a two-deal Baghdad match costs 2.03 a move")
    return [
        pytest.param(
            s, id=f"{s.name}-{s.seats}", marks=[over] if (s.name, s.seats) in _OVER else []
        )
        for s in SETUPS
    ]


@pytest.mark.parametrize("setup", _params())
async def test_a_whole_match_costs_at_most_two_calls_a_move(setup: Setup, redis_url: str) -> None:
    measured = await play_counted(setup, 1, redis_url)
    assert measured.per_move <= LIMIT, (
        f"{setup.name} {setup.seats}: {sum(measured.calls.values())} calls for "
        f"{measured.moves} moves ({measured.per_move:.2f} a move): {dict(measured.calls)}"
    )

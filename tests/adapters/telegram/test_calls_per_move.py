"""Whole matches of every game cost at most 2.0 Bot API calls per accepted move,
group and private chats together (see :mod:`tests.adapters.telegram.callcount`)."""

from __future__ import annotations

import pytest

from tests.adapters.telegram.callcount import LIMIT, SETUPS, Setup, play_counted

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("setup", SETUPS, ids=[f"{s.name}-{s.seats}" for s in SETUPS])
async def test_a_whole_match_costs_at_most_two_calls_a_move(setup: Setup, redis_url: str) -> None:
    measured = await play_counted(setup, 1, redis_url)
    assert measured.per_move <= LIMIT, (
        f"{setup.name} {setup.seats}: {sum(measured.calls.values())} calls for "
        f"{measured.moves} moves ({measured.per_move:.2f} a move): {dict(measured.calls)}"
    )

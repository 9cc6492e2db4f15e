"""The arena: a fixed number of worlds makes its games independent of the clock."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from bot.ai.__main__ import main
from bot.ai.arena import Arena


def slow_clock() -> Callable[[], float]:
    """A clock a second later at every reading: no search finds time for a world."""
    seconds = itertools.count()
    return lambda: float(next(seconds))


def test_with_worlds_fixed_the_games_are_those_of_a_quiet_machine() -> None:
    for seed in range(3):
        quiet = Arena("kozel", 3, "strong", "greedy", deals=True, worlds=3).run(9, seed)
        busy = Arena("kozel", 3, "strong", "greedy", deals=True, worlds=3, clock=slow_clock()).run(
            9, seed
        )
        assert [t.wins for t in busy] == [t.wins for t in quiet]


def test_the_command_takes_a_number_of_worlds_of_at_least_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["arena", "kozel", "--players", "3", "--games", "3", "--deals"]
    assert main([*argv, "--worlds", "2"]) == 0
    assert "3 deals" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main([*argv, "--worlds", "0"])
    assert "--worlds must be at least 1" in capsys.readouterr().err

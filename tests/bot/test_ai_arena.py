"""The arena: a fixed number of worlds makes its games independent of the clock."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.ai.__main__ import main
from bot.ai.arena import Arena, paired


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


def test_a_paired_difference_is_taken_game_by_game() -> None:
    mean, low, high = paired([1.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 0.0])
    # Differences 1, 0, 0, 1: their mean, and 1.96 standard errors of it either side.
    assert mean == pytest.approx(0.5)
    assert (low, high) == pytest.approx((0.5 - 0.565800, 0.5 + 0.565800), abs=1e-5)
    # The same shares in another order are other games: no longer the same difference.
    assert paired([1.0, 1.0, 0.0, 1.0], [0.0, 0.0, 1.0, 0.0])[0] == pytest.approx(0.5)
    assert paired([1.0, 1.0, 0.0, 1.0], [0.0, 0.0, 1.0, 0.0])[1] < low
    with pytest.raises(ValueError, match="the same games"):
        paired([1.0, 0.0], [1.0])


def test_a_level_s_shares_add_up_to_its_wins_game_by_game() -> None:
    a, b = Arena("kozel", 3, "greedy", "random", deals=True).run(12, 115)
    assert len(a.shares) == len(b.shares) == 12
    assert sum(a.shares) == a.wins > 0
    assert sum(b.shares) == b.wins > 0
    # The fourth deal (seed 118) is a fish with a tie for fewest: nobody won it.
    assert (a.shares[3], b.shares[3]) == (0, 0)
    assert all(
        x + y == 1 for i, (x, y) in enumerate(zip(a.shares, b.shares, strict=True)) if i != 3
    )


def test_records_of_the_same_games_compare_pair_by_pair(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["arena", "kozel", "--players", "3", "--games", "9", "--deals", "--a", "strong"]
    new, old, other = tmp_path / "new.json", tmp_path / "old.json", tmp_path / "other.json"
    assert main([*argv, "--worlds", "4", "--record", str(new)]) == 0
    assert main([*argv, "--b", "random", "--worlds", "4", "--record", str(old)]) == 0
    assert main([*argv, "--worlds", "4", "--seed", "9", "--record", str(other)]) == 0
    shares = json.loads(new.read_text())["shares"]
    assert f"strong: win rate {sum(shares) / 9:6.1%}" in capsys.readouterr().out
    assert main(["paired", str(new), str(old)]) == 2  # other opponents: other games
    assert "not the same games" in capsys.readouterr().err
    assert main(["paired", str(new), str(other)]) == 2  # other seeds
    assert main(["arena", *argv[1:], "--worlds", "1", "--record", str(old)]) == 0
    capsys.readouterr()
    assert main(["paired", str(new), str(old)]) == 0
    mean, low, high = paired(shares, json.loads(old.read_text())["shares"])
    interval = f"(95% CI {low * 100:+.1f} to {high * 100:+.1f})"
    assert capsys.readouterr().out.endswith(
        f"paired difference {mean * 100:+.1f} points {interval}\n"
    )

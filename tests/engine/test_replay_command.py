"""``python -m engine replay`` and ``selfplay``: the command-line contract."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
REST = [
    "4-3",
    "4-2",
    "4-1",
    "4-0",
    "3-3",
    "3-2",
    "3-1",
    "3-0",
    "2-2",
    "2-1",
    "2-0",
    "1-1",
    "1-0",
    "0-0",
]
HANDS = [
    ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0"],
    ["5-5", "5-4", "5-3", "5-2", "5-1", "5-0", "4-4"],
]


def engine(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def replay(doc: dict[str, Any], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc))
    return engine("replay", str(path))


def game(**changes: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "variant": "tyaga",
        "players": 2,
        "options": {"opening": "double_six"},
        "seed": 3,
        "deals": [{"hands": HANDS, "boneyard": REST}],
        "moves": [[0, "6-6"], [1, "draw"], [1, "draw"]],
    }
    doc.update(changes)
    return doc


def test_a_valid_replay_prints_the_state_and_exits_0(tmp_path: Path) -> None:
    done = replay(game(), tmp_path)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["ok"] is True and out["turn"] == 1 and out["deal_over"] is False
    assert out["line"] == ["6-6"] and out["boneyard"] == 12
    assert out["hands"][1][-2:] == ["4-3", "4-2"]
    assert out["deal_scores"] is None and out["match_scores"] == [0, 0]
    assert out["winner"] == [] and out["deal_number"] == 1 and out["match_over"] is False


def test_an_illegal_move_stops_with_its_index_and_exit_1(tmp_path: Path) -> None:
    done = replay(game(moves=[[0, "6-6"], [1, "5-5@L"]]), tmp_path)
    assert done.returncode == 1
    out = json.loads(done.stdout)
    assert out == {"ok": False, "index": 1, "error": out["error"]}
    assert "5-5 does not fit L (6) or R (6)" in out["error"]


@pytest.mark.parametrize(
    ("moves", "index"),
    [
        ([[1, "6-6"]], 0),  # the wrong seat
        ([[0, "6-6"], [1, "jump"]], 1),  # text that does not parse
        ([[0, "6-6"], [1, "draw"], [0, "draw"]], 2),
    ],
)
def test_wrong_seat_and_bad_text_are_illegal_moves(
    moves: list[list[Any]], index: int, tmp_path: Path
) -> None:
    done = replay(game(moves=moves), tmp_path)
    assert done.returncode == 1
    assert json.loads(done.stdout)["index"] == index


def test_a_move_after_the_match_is_over_is_illegal(tmp_path: Path) -> None:
    hands = [["6-6", "6-5", "5-4"], ["6-3", "3-3", "4-2"]]
    used = {t for h in hands for t in h}
    rest = [t for t in REST + HANDS[0] + HANDS[1] if t not in used]
    doc = game(
        options={"hand_size": 3, "target": 10},
        deals=[{"hands": hands, "boneyard": rest, "leader": 0}],
        moves=[[0, "6-6"], [1, "6-3@L"], [0, "6-5@R"], [1, "3-3@L"], [0, "5-4@R"], [1, "draw"]],
    )
    done = replay(doc, tmp_path)
    assert done.returncode == 1 and json.loads(done.stdout)["index"] == 5


def test_a_deal_over_is_shown_and_the_next_deal_comes_with_the_next_move(tmp_path: Path) -> None:
    hands = [["6-6", "6-5", "5-4"], ["6-3", "3-3", "4-2"]]
    used = {t for h in hands for t in h}
    rest = [t for t in REST + HANDS[0] + HANDS[1] if t not in used]
    second = [["1-1", "2-1", "0-0"], ["4-4", "2-2", "3-2"]]
    used2 = {t for h in second for t in h}
    rest2 = [t for t in REST + HANDS[0] + HANDS[1] if t not in used2]
    moves = [[0, "6-6"], [1, "6-3@L"], [0, "6-5@R"], [1, "3-3@L"], [0, "5-4@R"]]
    doc = game(
        options={"hand_size": 3},
        deals=[
            {"hands": hands, "boneyard": rest, "leader": 0},
            {"hands": second, "boneyard": rest2},
        ],
        moves=moves,
    )
    out = json.loads(replay(doc, tmp_path).stdout)
    assert out["deal_over"] is True and out["turn"] is None and out["deal_number"] == 1
    assert out["deal_scores"] == [6, 0] and out["hands"][1] == ["4-2"]
    doc["moves"] = [*moves, [0, "2-1"]]
    out = json.loads(replay(doc, tmp_path).stdout)
    assert out["deal_number"] == 2 and out["line"] == ["2-1"] and out["turn"] == 1
    assert out["match_scores"] == [6, 0]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"variant": "poker"}, "unknown game 'poker'"),
        ({"options": {"opening": "sideways"}}, "opening=sideways"),
        ({"options": {"hand_size": 9}}, "hand_size=9"),
        ({"options": {"colour": "red"}}, "unknown option 'colour'"),
        ({"players": 9}, "not 9"),
        ({"deals": [{"hands": [HANDS[0], HANDS[0]], "boneyard": REST}]}, "dealt twice"),
        ({"deals": [{"hands": HANDS, "boneyard": REST[:-1]}]}, "missing"),
        ({"deals": [{"hands": [HANDS[0][:6], HANDS[1]], "boneyard": REST}]}, "has 6 tiles"),
        ({"deals": [{"hands": [["7-1"], HANDS[1]], "boneyard": REST}]}, "'7-1'"),
        ({"deals": [{"hands": HANDS, "boneyard": REST, "leader": 1}]}, "leader"),
        ({"moves": "6-6"}, "moves"),
        ({"moves": [["0", "6-6"]]}, "move 0"),
    ],
)
def test_an_invalid_file_exits_2_with_one_line_naming_the_fault(
    changes: dict[str, Any], message: str, tmp_path: Path
) -> None:
    done = replay(game(**changes), tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in done.stderr


def test_a_listed_deal_the_rules_would_reshuffle_exits_2(tmp_path: Path) -> None:
    hands = [HANDS[1], ["4-3", "4-2", "4-1", "4-0", "3-3", "3-2", "3-1"]]
    rest = [t for t in REST + HANDS[0] if t not in hands[1]]
    done = replay(game(deals=[{"hands": hands, "boneyard": rest}], moves=[]), tmp_path)
    assert done.returncode == 2 and "reshuffle" in done.stderr


def test_a_file_that_is_not_json_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    done = engine("replay", str(path))
    assert done.returncode == 2 and "not valid JSON" in done.stderr
    assert engine("replay", str(tmp_path / "absent.json")).returncode == 2


def test_selfplay_prints_its_speed_and_how_deals_ended() -> None:
    done = engine("selfplay", "tyaga", "--games", "3", "--players", "4", "--seed", "1")
    assert done.returncode == 0, done.stderr
    assert "games/s" in done.stdout and "moves/s" in done.stdout
    assert "deals ended:" in done.stdout


def test_selfplay_refuses_a_bad_table_in_one_line() -> None:
    done = engine("selfplay", "three_guns", "--players", "2")
    assert done.returncode == 2 and "not 2" in done.stderr and "Traceback" not in done.stderr

"""Every file either replays or is refused as a bad replay: nothing in a file makes the
reader crash, and both commands say what is wrong in one line with exit status 2."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.views.i18n import translator
from bot.views.replay_story import ReplayStopped, story
from engine import DominoError, api
from engine.replay import FORMAT, BadReplay, fixture_json, load_replay, run

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "engine" / "golden" / "tyaga_block_win.json"
VARIANTS = (("tyaga", 3), ("kozel", 4), ("baghdad", 2), ("three_guns", 3))


def played(variant: str, players: int, seed: int, moves: int) -> dict[str, Any]:
    """A valid replay document: ``moves`` random legal moves from ``seed``'s deal."""
    rng = random.Random(seed)
    state = api.new_match(variant, players, None, seed)
    listed: list[list[Any]] = []
    while len(listed) < moves and not state.match_over:
        if state.deal_over:
            state = api.next_deal(state)
        move = rng.choice(api.legal_moves(state))
        listed.append([state.turn, str(move)])
        state, _ = api.apply(state, move)
    return {"variant": variant, "players": players, "seed": seed, "moves": listed}


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**6), max_value=10**6)
    | st.floats(allow_nan=False)
    | st.text(max_size=8)
    | st.sampled_from(["6-4", "6-6", "0-0", "7-1", "draw", "pass", "6-4@L", "L", ""]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


def _places(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a document."""
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _places(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _places(value, (*path, index))
    return found


@st.composite
def damaged_files(draw: st.DrawFn) -> dict[str, Any]:
    """A valid document with a few values anywhere inside it replaced."""
    if draw(st.booleans()):
        doc = json.loads(GOLDEN.read_text())
    else:
        variant, players = draw(st.sampled_from(VARIANTS))
        doc = played(variant, players, draw(st.integers(0, 50)), draw(st.integers(0, 40)))
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_places(doc)[1:]))
        parent = doc
        for step in path[:-1]:
            parent = parent[step]
        parent[path[-1]] = draw(json_values)
    return doc


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged_files())
def test_a_damaged_file_replays_or_is_refused_as_a_bad_replay(doc: dict[str, Any]) -> None:
    text = json.dumps(doc)
    try:
        replay = load_replay(text)
        run(replay)
    except DominoError:
        pass
    try:
        for _line in story(translator("en"), load_replay(text)):
            pass
    except (DominoError, ReplayStopped):
        pass


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"variant": "tyaga", "players": ' + "9" * 5000 + "}", "not a replay"),
        ("{not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
    ],
)
def test_load_replay_refuses_text_that_is_no_replay(text: str, complaint: str) -> None:
    with pytest.raises(BadReplay, match=complaint):
        load_replay(text)


DEEP = "[" * 100_000 + "]" * 100_000
LONG_NUMBER = '{"variant": "tyaga", "players": 2, "seed": ' + "7" * 5000 + "}"


@pytest.mark.parametrize("command", [["-m", "engine", "replay"], ["-m", "bot", "replay"]])
@pytest.mark.parametrize("text", [DEEP, LONG_NUMBER, '{"variant": "tyaga", "players": 2, "x":'])
def test_both_replay_commands_refuse_a_bad_file_in_one_line_with_status_2(
    command: list[str], text: str, tmp_path: Path
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    done = subprocess.run(
        [sys.executable, *command, str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "DATA_DIR": str(tmp_path / "data")},
    )
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr and str(path) in done.stderr


# -- formats ----------------------------------------------------------------------------


def _first_deal_and_more(variant: str, players: int) -> dict[str, Any]:
    """A match played into its second deal, its first deal listed."""
    doc = played(variant, players, 11, 400)
    state = api.new_match(variant, players, None, 11)
    doc["deals"] = [fixture_json(state.dealt)]
    return doc


def test_a_file_of_format_1_without_a_seed_deals_from_seed_0() -> None:
    doc = played("tyaga", 3, 0, 200)
    del doc["seed"]
    assert run(load_replay(json.dumps(doc))).failed_at is None


def test_a_file_of_format_2_without_a_seed_ends_with_its_listed_deals() -> None:
    """An export of a match still being played carries no seed: a move past its last
    listed deal is refused as a bad file, not played on a deal made up from seed 0."""
    doc = _first_deal_and_more("tyaga", 3)
    assert run(load_replay(json.dumps(doc))).state.deal_number > 1
    doc["format"] = FORMAT
    del doc["seed"]
    with pytest.raises(BadReplay, match="deal 2 is not in the file, which has no seed"):
        run(load_replay(json.dumps(doc)))
    with pytest.raises(BadReplay, match="deal 2 is not in the file"):
        list(story(translator("en"), load_replay(json.dumps(doc))))
    doc["seed"] = 11  # a finished match's file keeps it, and deals on from it
    assert run(load_replay(json.dumps(doc))).state.deal_number > 1


@pytest.mark.parametrize(
    ("version", "complaint"),
    [
        (3, "replay format 3 is newer than this version reads"),
        (0, "'format' must be a whole number from 1"),
        ("2", "'format' must be a whole number from 1"),
        (True, "'format' must be a whole number from 1"),
    ],
)
def test_a_format_this_version_does_not_read_is_refused(version: object, complaint: str) -> None:
    doc = played("kozel", 2, 3, 10) | {"format": version}
    with pytest.raises(BadReplay, match=complaint):
        load_replay(json.dumps(doc))

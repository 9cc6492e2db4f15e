"""A spectator's table cannot show a hidden tile: the table's model has no field for a
hand's tile or the boneyard's, and over thousands of positions of every game the tiles
it names, as a model and in its JSON, are only those on the line and those the rules
put face up (closed caravans, the tile Three Guns sets aside)."""

from __future__ import annotations

import json
import random
from typing import Any

from pydantic import BaseModel

import engine
from bot.model.parts import LineTile, TileRef
from bot.model.table import TableView, table_view
from engine import State, Tile
from tests.bot.model.games import GAMES, TABLES, positions

# Where a tile may stand in the table's schema: (model, field). Nothing else names one.
TILE_FIELDS = {
    ("TableView", "line"),
    ("LineTile", "tile"),
    ("GunsParts", "aside"),
    ("BaghdadParts", "caravans"),
    ("CaravanPart", "camels"),
    ("CaravanPart", "thief"),
    ("CaravanPart", "handcuffs"),
}


def hidden(state: State[Any]) -> set[Tile]:
    """The tiles no seat sees all of: every hand's and the boneyard's, but those the rules
    show every seat."""
    public = {Tile(p.left, p.right) for p in state.line}
    public |= set(engine.public_view(state).details.face_up())
    held = {t for hand in state.hands for t in hand} | set(state.boneyard)
    return held - public


def model_tiles(value: object) -> set[Tile]:
    """Every tile a model names, walking its fields."""
    if isinstance(value, TileRef):
        return {value.tile()}
    if isinstance(value, LineTile):
        return {value.tile.tile(), Tile(value.left, value.right)}
    if isinstance(value, tuple | list):
        return set().union(*(model_tiles(v) for v in value)) if value else set()
    if isinstance(value, BaseModel):
        fields = type(value).model_fields
        return set().union(set(), *(model_tiles(getattr(value, name)) for name in fields))
    return set()


def json_tiles(value: object) -> set[Tile]:
    """Every tile a JSON document names, as a pair of halves (``hi``/``lo`` or
    ``left``/``right``)."""
    found: set[Tile] = set()
    if isinstance(value, dict):
        for pair in (("hi", "lo"), ("left", "right")):
            if all(isinstance(value.get(key), int) for key in pair):
                found.add(Tile(value[pair[0]], value[pair[1]]))
        for item in value.values():
            found |= json_tiles(item)
    elif isinstance(value, list):
        for item in value:
            found |= json_tiles(item)
    return found


def test_no_hidden_tile_appears_in_the_table_or_its_json_over_thousands_of_positions() -> None:
    rng = random.Random(2026)
    checked: dict[str, int] = dict.fromkeys(GAMES, 0)
    named = 0
    while min(checked.values()) < 1000:
        for doc, state in positions(rng, rng.randrange(len(TABLES))):
            table = table_view(doc, engine.public_view(state))
            secret = hidden(state)
            shown = model_tiles(table)
            assert not shown & secret, (table.game, shown & secret)
            written = json_tiles(json.loads(table.model_dump_json()))
            assert not written & secret, (table.game, written & secret)
            named += len(written)
            checked[table.game] += 1
    assert named  # the walk finds the tiles that are shown


def test_the_table_has_no_field_for_a_tile_but_the_line_and_the_public_parts() -> None:
    table = TableView.model_json_schema()
    definitions = {**table.pop("$defs"), "TableView": table}
    holding = {"TileRef", "LineTile", "CaravanPart"}
    found = set()
    for model, definition in definitions.items():
        for field, spec in definition.get("properties", {}).items():
            if any(f'"#/$defs/{name}"' in json.dumps(spec) for name in holding):
                found.add((model, field))
    assert found == TILE_FIELDS

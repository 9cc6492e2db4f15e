"""The schema in docs/ is the one the models give: a change to a model that is not
written to the file fails here, with the command that writes it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.model.schema import main, schema_text

SCHEMA_FILE = Path(__file__).parents[3] / "docs" / "table-model.schema.json"


def test_the_committed_schema_is_the_one_the_models_give() -> None:
    committed = SCHEMA_FILE.read_text(encoding="utf-8")
    assert committed == schema_text(), (
        "docs/table-model.schema.json is out of date: run `make schema` and commit it"
    )


def test_the_schema_describes_the_table_a_hand_and_the_events(tmp_path: Path) -> None:
    written = tmp_path / "schema.json"
    assert main([str(written)]) == 0
    definitions = json.loads(written.read_text(encoding="utf-8"))["$defs"]
    assert {"TableView", "HandView", "Events", "Played", "TookToken"} <= set(definitions)
    assert definitions["TableView"]["additionalProperties"] is False


def test_the_command_without_a_file_says_how_to_use_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "usage: python -m bot.model.schema FILE" in capsys.readouterr().err

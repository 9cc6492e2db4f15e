"""The JSON schema of the table's model, written from the models themselves.

``python -m bot.model.schema docs/table-model.schema.json`` (``make schema``) writes it;
a test fails when the committed file differs from what the models give.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from bot.model.events import Events
from bot.model.hand import HandView
from bot.model.table import TableView


def schema() -> dict[str, Any]:
    """One schema document: the table, a hand and a list of events, sharing their parts."""
    models: list[tuple[type[BaseModel], JsonSchemaMode]] = [
        (TableView, "validation"),
        (HandView, "validation"),
        (Events, "validation"),
    ]
    _, document = models_json_schema(models, title="domino-bot table model")
    document["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return document


def schema_text() -> str:
    return json.dumps(schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m bot.model.schema FILE", file=sys.stderr)
        return 2
    Path(argv[0]).write_text(schema_text(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

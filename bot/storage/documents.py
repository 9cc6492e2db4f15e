"""A game as one JSON document, as :meth:`bot.storage.store.Store.load` gives it: written
compactly, packed (compressed) when a finished game is kept for export, and put back
together from the head, the moves and the deals it is stored as."""

from __future__ import annotations

import base64
import json
import zlib
from typing import Any

from bot.storage.game import GameRead
from bot.storage.values import text


def dump(doc: dict[str, Any]) -> str:
    """A document as compact JSON text."""
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)


_PACKED = "z:"


def pack(doc: dict[str, Any]) -> str:
    """A whole document as compressed text, for a finished game kept for export."""
    return _PACKED + base64.b64encode(zlib.compress(dump(doc).encode(), 9)).decode("ascii")


def load_doc(raw: bytes | str) -> dict[str, Any]:
    """A document from its text, packed or not."""
    body = text(raw)
    if body.startswith(_PACKED):
        body = zlib.decompress(base64.b64decode(body[len(_PACKED) :])).decode()
    doc = json.loads(body)
    if not isinstance(doc, dict):
        raise ValueError("a stored game document is not a JSON object")
    return doc


def whole(read: GameRead) -> dict[str, Any]:
    """A game as read from the start, as one document (its moves and deals inside);
    :class:`bot.storage.values.PartsMissing` for a game that has lost a part."""
    doc = load_doc(read.intact().head)
    if read.deals:
        doc["deals"] = [json.loads(d) for d in read.deals]
    if read.moves:
        doc["moves"] = [
            [int(seat), move] for seat, _, move in (m.partition(":") for m in read.moves)
        ]
    return doc

"""Buttons to pick a game under the reply to a bare ``/newgame``.

The core answers ``/newgame`` without a game by naming every game; in Telegram each
of them also becomes a button, and pressing one is the same as typing ``/newgame``
with that game. The buttons carry the adapter's own payload, which never reaches
the core's codec (its payloads start with a version digit).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from bot import catalog
from bot.contract import Button, Outbound, Show, SlotKind

PICK = "n_"  # payload prefix: pick this game
PER_ROW = 2


def offer_games(outbounds: Sequence[Outbound]) -> list[Outbound]:
    """The core's reply, with a button per game under the screen that names them all."""
    games = catalog.variants()
    return [_with_buttons(o, games) if _names_every_game(o, games) else o for o in outbounds]


def picked_game(data: str) -> str | None:
    """The game a picker button names, or None for any other button."""
    if not data.startswith(PICK):
        return None
    name = data.removeprefix(PICK)
    return name if name in {v.name for v in catalog.variants()} else None


def _names_every_game(item: Outbound, games: Sequence[catalog.VariantInfo]) -> bool:
    if not isinstance(item, Show) or item.slot.kind is not SlotKind.INFO or item.screen.buttons:
        return False
    text = item.screen.plain_text()
    return all(game.name in text for game in games)


def _with_buttons(item: Outbound, games: Sequence[catalog.VariantInfo]) -> Outbound:
    assert isinstance(item, Show)
    buttons = [Button(game.title, payload=PICK + game.name) for game in games]
    rows = tuple(tuple(buttons[i : i + PER_ROW]) for i in range(0, len(buttons), PER_ROW))
    return dataclasses.replace(item, screen=dataclasses.replace(item.screen, buttons=rows))

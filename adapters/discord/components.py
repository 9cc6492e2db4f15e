"""Stable custom ids for buttons and menus, and the dynamic items that read them back.

Every game button carries the core's payload inside its custom id, so a button keeps
working after a restart: discord.py matches the id against a template and rebuilds
the item, with no view kept in memory. Custom ids look like ``dp:<payload>`` (a
press), ``ds:<payload>`` (a start payload: what a deep link carries elsewhere) or
``dx:`` (an inert, disabled label). A select menu (the moves that do not fit as
buttons) has the id ``dm:`` and carries each choice's payload as the option's value.
Discord wants custom ids unique within a message, so a repeat gets a counter:
``dp~2:<payload>``, ``dm~2:``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

import discord

CUSTOM_ID_LIMIT = 100  # Discord's limit on a component's custom id


class ButtonKind(str, Enum):
    PRESS = "p"  # the payload goes back to the core as a press
    START = "s"  # the payload goes back to the core as a private start
    INERT = "x"  # a label that does nothing (a tile that cannot be played)
    MENU = "m"  # a select menu: the chosen option's value is the payload of a press


_TEMPLATE = r"^d(?P<kind>[psxm])(?:~(?P<repeat>[0-9]+))?:(?P<payload>.*)$"
_PATTERN = re.compile(_TEMPLATE, re.DOTALL)


@dataclass(frozen=True, slots=True)
class ParsedId:
    kind: ButtonKind
    payload: str


def make_custom_id(kind: ButtonKind, payload: str, repeat: int = 1) -> str:
    """The custom id for a button; ``repeat`` tells apart equal ids in one message."""
    marker = "" if repeat <= 1 else f"~{repeat}"
    custom_id = f"d{kind.value}{marker}:{payload}"
    if len(custom_id) > CUSTOM_ID_LIMIT:
        raise ValueError(f"button payload is too long for a Discord custom id: {payload!r}")
    return custom_id


def parse_custom_id(custom_id: str) -> ParsedId | None:
    """Read back what :func:`make_custom_id` wrote; ``None`` for ids that are not ours."""
    match = _PATTERN.match(custom_id)
    if match is None:
        return None
    return ParsedId(ButtonKind(match["kind"]), match["payload"])


class PressReceiver(Protocol):
    """What a dynamic button hands its interaction to (the adapter)."""

    async def on_button(self, interaction: discord.Interaction[Any], parsed: ParsedId) -> None: ...


class HasReceiver(Protocol):
    button_receiver: PressReceiver


class GameItem(discord.ui.DynamicItem[discord.ui.Item[Any]], template=_TEMPLATE):
    """A button or select menu whose custom id says what a press means; rebuilt from
    the id on every press."""

    def __init__(self, item: discord.ui.Item[Any], *, row: int | None = None) -> None:
        super().__init__(item, row=row)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameItem:
        return cls(item, row=item.row)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await receive(interaction, self.custom_id)


async def receive(interaction: discord.Interaction[Any], custom_id: str) -> None:
    """Hand a press on one of our ids to the adapter; an inert label or a menu choice
    that cannot be read is acknowledged and nothing else."""
    parsed = parse_custom_id(custom_id)
    client: HasReceiver = interaction.client
    if parsed is not None and parsed.kind is ButtonKind.MENU:
        data: Any = interaction.data or {}
        values = data.get("values") or []
        parsed = ParsedId(ButtonKind.PRESS, str(values[0])) if len(values) == 1 else None
    if parsed is None or parsed.kind is ButtonKind.INERT:
        await interaction.response.defer()
        return
    await client.button_receiver.on_button(interaction, parsed)


def is_on_message(interaction: discord.Interaction[Any], custom_id: str) -> bool:
    """Whether the pressed message, as Discord sends it now, still carries ``custom_id``.
    discord.py builds a :class:`GameItem` only then: a press on a button that a redraw
    took away (a double tap, an earlier deal's hand) reaches no item at all."""
    message = interaction.message
    if message is None:
        return False
    return any(
        getattr(child, "custom_id", None) == custom_id
        for row in message.components
        for child in (getattr(row, "children", None) or [row])
    )

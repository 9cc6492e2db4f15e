"""The terminal table: the core's screens as text, typed moves as button presses."""

from adapters.console.lines import LineSource, StreamLines, line_source
from adapters.console.table import (
    CHAT,
    PLATFORM,
    ConsoleAdapter,
    Core,
    TableRequest,
    keyboard_users,
)

__all__ = [
    "CHAT",
    "PLATFORM",
    "ConsoleAdapter",
    "Core",
    "LineSource",
    "StreamLines",
    "TableRequest",
    "keyboard_users",
    "line_source",
]

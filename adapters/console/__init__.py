"""The terminal table: the core's screens as text, typed moves as button presses."""

from adapters.console.lines import LineSource, StreamLines, line_source
from adapters.console.saved import CHAT, PLATFORM, Saved, free_table, saved_matches, table_chat
from adapters.console.seating import Core, TableRequest, Tables, keyboard_users, look_around
from adapters.console.table import ConsoleAdapter

__all__ = [
    "CHAT",
    "PLATFORM",
    "ConsoleAdapter",
    "Core",
    "LineSource",
    "Saved",
    "StreamLines",
    "TableRequest",
    "Tables",
    "free_table",
    "keyboard_users",
    "line_source",
    "look_around",
    "saved_matches",
    "table_chat",
]

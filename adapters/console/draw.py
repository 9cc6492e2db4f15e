"""Screens as terminal text: a framed table, numbered choices, wrapped lines.

Nothing here knows a game: a screen's lines are printed as the core wrote them
(tiles already read ``[6|4]``), mentions become names, deadlines the time left
and commands their bare words. Buttons become numbered choices the player
answers by typing the number.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Sequence
from typing import Final, TextIO

from bot.model.contract import (
    Button,
    Screen,
    Segment,
    TextLine,
    segment_text,
)

WIDTH: Final = 78
# What a terminal that cannot show a symbol gets instead: the arrows must still
# say which end a move goes to, and the frame must still look like one.
ASCII: Final = str.maketrans(
    {
        "◀": "<",
        "▶": ">",
        "•": "*",
        "·": "-",
        "×": "x",
        "—": "-",
        "–": "-",
        "┌": "+",
        "└": "+",
        "─": "-",
        "│": "|",
        "»": ">>",
        "…": "...",
        # The isolates around a name order it for a terminal that lays out bidi text;
        # one whose encoding lacks them shows the name as it is.
        "\N{FIRST STRONG ISOLATE}": "",
        "\N{POP DIRECTIONAL ISOLATE}": "",
    }
)
_BREAK = re.compile(r"(?<=[\]×])(?=\[)|(?<= )")  # between two tiles, or after a space


def line_segment(segment: Segment, now: float) -> str:
    """A segment at this table: deadlines as time left, commands as bare words."""
    return segment_text(segment, lambda at: time_left(at - now))


def time_left(seconds: float) -> str:
    """``in 45 s``, ``in 2 min 05 s``; ``now`` once it is past."""
    left = int(seconds + 0.999)
    if left <= 0:
        return "now"
    minutes, rest = divmod(left, 60)
    return f"in {minutes} min {rest:02d} s" if minutes else f"in {rest} s"


def line_text(line: TextLine, now: float) -> str:
    return "".join(line_segment(s, now) for s in line)


def wrap(text: str, width: int) -> list[str]:
    """``text`` cut into lines of at most ``width`` characters, between words or
    between two tiles (a long line of tiles breaks cleanly), never inside a tile."""
    if len(text) <= width:
        return [text]
    pieces = [p for p in _BREAK.split(text) if p]
    lines: list[str] = []
    current = ""
    for piece in pieces:
        if current and len(current) + len(piece) > width:
            lines.append(current.rstrip())
            current = piece.lstrip()
        else:
            current += piece
    if current.strip():
        lines.append(current.rstrip())
    return lines


def hanging(text: str, width: int, indent: int = 2) -> list[str]:
    """``text`` wrapped as :func:`wrap` does, its later lines indented, so that an
    entry of a list that runs over reads as one entry."""
    first, *rest = wrap(text, width) or [""]
    if not rest:
        return [first]
    following = wrap(text[len(first) :].strip(), max(1, width - indent))
    return [first, *(" " * indent + line for line in following)]


def screen_lines(screen: Screen, now: float, width: int = WIDTH) -> list[str]:
    lines: list[str] = []
    for line in screen.lines:
        lines += wrap(line_text(line, now), width)
    return lines


def framed(lines: Sequence[str], width: int = WIDTH) -> str:
    """A box around ``lines``, with the first line as its title."""
    if not lines:
        return ""
    inner = width - 4
    title, body = lines[0], lines[1:]
    top = f"┌─ {title} " + "─" * max(0, width - len(title) - 4)
    rows = [f"│ {part}" for line in body for part in wrap(line, inner)]
    return "\n".join([top, *rows, "└" + "─" * (width - 1)])


def table_text(screen: Screen, now: float, width: int = WIDTH) -> str:
    """The table (or lobby) in a frame headed by its first line."""
    return framed(screen_lines(screen, now, width - 4), width)


def choice_rows(buttons: Sequence[Sequence[Button]], first: int = 1) -> list[str]:
    """Buttons as ``1) label`` items, one row of buttons per line."""
    rows = []
    number = first
    for row in buttons:
        items = []
        for button in row:
            items.append(f"{number}) {button.label}")
            number += 1
        if items:
            rows.append("  " + "    ".join(items))
    return rows


def note(text: str) -> str:
    """A message to the player that is not a screen: errors, hints, prompts."""
    return f"» {text}"


def sentence(text: str) -> str:
    """``text`` ending in a full stop (or its own ``!`` or ``?``), to go before another."""
    text = text.rstrip()
    return text if not text or text[-1] in ".!?…" else text + "."


def readable(text: str, out: TextIO) -> str:
    """``text`` with ASCII stand-ins for the symbols ``out``'s encoding cannot show."""
    encoding = getattr(out, "encoding", None) or "utf-8"
    try:
        codecs.lookup(encoding)
        text.encode(encoding)
    except LookupError:
        return text
    except UnicodeEncodeError:
        return text.translate(ASCII)
    return text

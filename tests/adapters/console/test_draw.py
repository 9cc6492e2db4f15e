"""Screens as terminal text."""

from __future__ import annotations

import io
import re

from adapters.console.draw import (
    choice_rows,
    framed,
    hanging,
    readable,
    screen_lines,
    sentence,
    table_text,
    time_left,
    wrap,
)
from bot.model.contract import Button, CommandRef, Deadline, Mention, Screen, UserRef

TILE = re.compile(r"\[\d\|\d\]×?")


def test_a_short_line_is_left_alone() -> None:
    assert wrap("Deal 1", 40) == ["Deal 1"]


def test_a_long_line_of_tiles_breaks_between_tiles_never_inside_one() -> None:
    line = "Line: " + "[6|4]×[4|4]" * 12
    parts = wrap(line, 30)
    assert len(parts) > 1
    assert all(len(p) <= 30 for p in parts)
    assert "".join(parts) == line
    assert all(TILE.sub("", p) in ("", "Line: ") for p in parts)


def test_words_wrap_at_spaces() -> None:
    assert wrap("one two three four five", 9) == ["one two", "three", "four five"]


def test_the_frame_is_titled_by_the_first_line_and_fits_the_width() -> None:
    text = framed(["Tyaga · table x", "Deal 1", "Line: " + "[6|6]" * 30], 40)
    rows = text.splitlines()
    assert rows[0].startswith("┌─ Tyaga · table x ")
    assert rows[1] == "│ Deal 1"
    assert rows[-1].startswith("└")
    assert all(len(r) <= 40 for r in rows)


def test_mentions_are_names_and_deadlines_the_time_left() -> None:
    ann = UserRef("con", "1", "Ann")
    screen = Screen((("Table",), (Mention(ann), " to move, time runs out ", Deadline(145.0))))
    said = table_text(screen, now=100.0).splitlines()[1]
    assert said == "│ \u2068Ann\u2069 to move, time runs out in 45 s"


def test_time_left_counts_minutes_and_never_goes_negative() -> None:
    assert time_left(125.2) == "in 2 min 06 s"
    assert time_left(-3) == "now"


def test_buttons_are_numbered_across_rows() -> None:
    rows = [[Button("◀ [6|4]", "a"), Button("[6|4] ▶", "b")], [Button("Draw", "c")]]
    assert choice_rows(rows) == ["  1) ◀ [6|4]    2) [6|4] ▶", "  3) Draw"]


def test_a_sentence_gets_a_full_stop_only_when_it_lacks_one() -> None:
    assert sentence("That is not a move") == "That is not a move."
    assert sentence("Your turn!") == "Your turn!"


def test_a_command_is_written_as_its_bare_words() -> None:
    screen = Screen((("Open one with ", CommandRef("new", "tyaga"), "."),))
    assert screen_lines(screen, 0.0) == ["Open one with new tyaga."]


def test_a_terminal_that_cannot_show_the_symbols_gets_ascii_stand_ins() -> None:
    text = "┌─ Tyaga · table x\n│ ▶ You\n│ • Computer 1\n  1) ◀ [6|4]    2) [1|5]× ▶"
    ascii_out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    assert readable(text, ascii_out) == (
        "+- Tyaga - table x\n| > You\n| * Computer 1\n  1) < [6|4]    2) [1|5]x >"
    )
    utf8_out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    assert readable(text, utf8_out) == text


def test_a_wrapped_entry_keeps_its_later_lines_indented_and_its_tiles_whole() -> None:
    parts = hanging("Line: " + "[6|4][4|4]" * 8, 30)
    assert len(parts) > 1 and all(len(part) <= 30 for part in parts)
    assert not parts[0].startswith(" ") and all(p.startswith("  [") for p in parts[1:])
    assert "".join(p.strip() for p in parts) == "Line: " + "[6|4][4|4]" * 8
    assert hanging("Anna played [6|4] on the left", 40) == ["Anna played [6|4] on the left"]

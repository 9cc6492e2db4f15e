"""Names a picture's font cannot draw: what it cannot draw is shown as one visible
placeholder, never as the font's empty box, and the invisible marks a text wraps a
name in are not drawn at all. The font's coverage is read from its own character
map."""

from __future__ import annotations

import pytest
from PIL import ImageFont

from bot.picture import table_png
from bot.picture.coverage import PLACEHOLDER, characters, drawable
from bot.picture.fonts import BOLD, REGULAR
from bot.picture.ink import shown
from bot.picture.samples import gallery
from bot.views.i18n import translator

NAMES = (
    "Ann 👍🏽",  # an emoji with a skin tone
    "🦄🦄 Bob",
    "👨\u200d👩\u200d👧 Cy",  # a family: three emoji joined
    "Dee ❤️",  # a heart the font has, with the selector asking for colour
    "\u2068Eve\u2069",  # isolated, as a text shows a name
    "Łucja Żółć Юлія",
)


@pytest.mark.parametrize("font", [REGULAR, BOLD], ids=["regular", "bold"])
def test_every_character_a_picture_writes_is_in_its_fonts_character_map(font: object) -> None:
    known = characters(REGULAR if font == REGULAR else BOLD)
    for name in NAMES:
        written = shown(name, bold=font == BOLD)
        assert written and all(ord(c) in known for c in written), name


def test_the_character_map_is_read_as_the_font_has_it() -> None:
    known = characters(REGULAR)
    assert {ord(c) for c in "AzŁżЖї€→▶•·…"} <= known
    assert ord(PLACEHOLDER) in known and ord(PLACEHOLDER) in characters(BOLD)
    for missing in ("👍", "🦄", "\u2068"):
        assert ord(missing) not in known
    # The font draws a character it has unlike one it lacks, which it draws as its box.
    face = ImageFont.truetype(str(REGULAR), 40)
    box = face.getmask("\U0001f984").getbbox()
    assert face.getmask("\U0001f984").getbbox() == face.getmask("\U0001f44d").getbbox() == box
    assert face.getmask(PLACEHOLDER).getbbox() != box


def test_what_the_font_cannot_draw_is_one_placeholder_and_marks_are_left_out() -> None:
    assert drawable("Ann 👍🏽", REGULAR) == f"Ann {PLACEHOLDER}"
    assert drawable("🦄🦄 Bob", REGULAR) == f"{PLACEHOLDER} Bob"
    assert drawable("👨\u200d👩\u200d👧 Cy", REGULAR) == f"{PLACEHOLDER} Cy"
    assert drawable("Dee ❤️", REGULAR) == "Dee ❤"
    assert drawable("\u2068Eve\u2069", REGULAR) == "Eve"
    assert drawable("Łucja Żółć Юлія", REGULAR) == "Łucja Żółć Юлія"


def test_a_table_picture_draws_a_name_it_cannot_write_as_its_placeholder() -> None:
    _ = translator("en")
    sample = next(s for s in gallery() if len(s.names) == 2)
    drawn = table_png(_, sample.table, ["Ann 🦄", "\u2068Bob\u2069"])
    assert drawn == table_png(_, sample.table, [f"Ann {PLACEHOLDER}", "Bob"])
    assert drawn != table_png(_, sample.table, ["Ann", "Bob"])

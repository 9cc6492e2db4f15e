"""The parts of a picture: the bundled font, written text, the line's layout, cut names."""

from __future__ import annotations

import fnmatch
import itertools
import tomllib
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

import bot.picture
import bot.picture.palette as colours
from bot.picture import fonts
from bot.picture.frame import Sheet
from bot.picture.ink import ELLIPSIS, fit, text_width
from bot.picture.palette import FELT, GOLD, TEXT, TEXT_DIM
from bot.picture.samples import whole_set_line
from bot.picture.snake import Layout, Spot, snake
from engine import Placed

ROOT = Path(__file__).resolve().parents[2]
#: Letters of every language the bot speaks that ASCII lacks.
LETTERS = "АБВГДЕЁЖЗИЙЩЪЫЬЭЮЯабвгґдеєёжзиіїйщъыьэюяЄІЇҐĄĆĘŁŃÓŚŹŻąćęłńóśźżÀÇÈÉÍÏÒÓÚÜàçèéíïòóúü·▶"


def test_the_font_is_read_from_the_package() -> None:
    package = ROOT / "bot" / "picture"
    assert fonts.REGULAR.is_relative_to(package) and fonts.REGULAR.exists()
    assert fonts.BOLD.is_relative_to(package) and fonts.BOLD.exists()
    assert (fonts.FONT_DIR / "LICENSE").exists()


@pytest.mark.parametrize("bold", [False, True])
def test_the_font_has_every_letter_of_every_language(bold: bool) -> None:
    font = fonts.font(20, bold)
    missing = bytes(font.getmask("\ue000"))  # no font has this private-use code
    lacking = [ch for ch in LETTERS if bytes(font.getmask(ch)) == missing]
    assert not lacking


def test_the_wheel_carries_the_fonts_and_their_licence() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["bot"]
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "LICENSE"):
        path = f"picture/fonts/{name}"
        assert any(fnmatch.fnmatch(path, p) for p in patterns), path


def test_the_named_colours_and_the_learnt_palette_are_both_reached_by_their_names() -> None:
    assert bot.picture.palette is colours and colours.GOLD == GOLD
    learnt = bot.picture.learnt_palette()
    assert learnt.mode == "P" and len(learnt.getpalette() or ()) == 256 * 3


def test_a_long_name_is_cut_to_its_width() -> None:
    name = "Оксана Їжак-Шевчук " * 6
    shown = fit(name, 17, 190, bold=True)
    assert shown.endswith(ELLIPSIS) and text_width(shown, 17, bold=True) <= 190
    assert fit("Núria", 17, 190) == "Núria"


def test_written_text_has_the_pixels_drawing_it_afresh_gives() -> None:
    """Text is laid from masks kept between pictures: the same words in another colour,
    size, weight, width or anchor are each drawn as they are, the second time as the
    first."""
    writings = [
        ("Deal 3", 16, False, None, "la", TEXT_DIM),
        ("Deal 3", 16, False, None, "la", GOLD),
        ("Deal 3", 16, False, None, "rm", GOLD),
        ("Deal 3", 22, True, None, "rm", GOLD),
        ("Оксана Їжак-Шевчук " * 3, 17, True, 190, "lm", TEXT),
        ("Оксана Їжак-Шевчук " * 3, 17, True, 120, "lm", TEXT),
        ("Оксана Їжак-Шевчук " * 3, 17, True, None, "lm", TEXT),
        ("35 points", 15, False, 110, "rs", TEXT),
    ]
    for _time in range(2):
        for text, size, bold, width, anchor, colour in writings:
            written = Image.new("RGB", (700, 60), FELT)
            Sheet(written).write((350, 30), text, size, colour, bold, width, anchor)
            drawn = Image.new("RGB", (700, 60), FELT)
            shown = fit(text, size, width, bold) if width is not None else text
            face = fonts.font(size, bold)
            ImageDraw.Draw(drawn).text((350, 30), shown, fill=colour, font=face, anchor=anchor)
            assert written.tobytes() == drawn.tobytes(), (text, size, bold, width, anchor)


def _box(spot: Spot, short: int) -> tuple[int, int, int, int]:
    width, height = (2 * short, short) if spot.horizontal else (short, 2 * short)
    return spot.x, spot.y, spot.x + width, spot.y + height


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _distance(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> int:
    return max(a[0] - b[2], b[0] - a[2], a[1] - b[3], b[1] - a[3], 0)


def _doubles(placed: Placed) -> bool:
    return placed.left == placed.right


def _layout(short: int = 30, width: int = 740) -> Layout:
    return snake(whole_set_line(), short, width, _doubles, gap=2)


def test_a_long_line_turns_at_the_edges_and_stays_inside() -> None:
    layout = _layout()
    assert layout.rows >= 3
    boxes = [_box(s, 30) for s in layout.spots]
    assert all(b[0] >= 0 and b[2] <= 740 and b[1] >= 0 and b[3] <= layout.height for b in boxes)
    for i, a in enumerate(boxes):
        assert not any(_overlap(a, b) for b in boxes[i + 1 :])


def test_each_tile_touches_the_next() -> None:
    layout = _layout()
    boxes = [_box(s, 30) for s in layout.spots]
    for a, b in itertools.pairwise(boxes):
        assert _distance(a, b) <= 2


def test_lying_neighbours_show_the_same_value_where_they_meet() -> None:
    """Rows read L to R going right and R to L coming back, so halves that
    touch always match, as on a real table."""
    layout = _layout()
    for spot in layout.spots:
        assert {spot.first, spot.second} == {spot.placed.left, spot.placed.right}
    pairs = 0
    for a, b in zip(layout.spots, layout.spots[1:], strict=False):
        if a.horizontal and b.horizontal and a.y == b.y:
            left, right = sorted((a, b), key=lambda s: s.x)
            assert left.second == right.first
            pairs += 1
    assert pairs > 10


def test_doubles_stand_across_a_row() -> None:
    line = (Placed(6, 5), Placed(5, 5), Placed(5, 2))
    spots = snake(line, 30, 740, _doubles).spots
    assert [s.horizontal for s in spots] == [True, False, True]


def test_a_short_line_is_centred() -> None:
    spots = snake((Placed(6, 5),), 30, 740, _doubles).spots
    assert spots[0].x == (740 - 60) // 2

"""What the pictures' font can draw, read from the font file's own character map.

A name may hold characters no bundled font has a glyph for (emoji, most of all).
Drawn as they are, each comes out as the font's empty box, which says nothing; and a
name wrapped for the chat's text in invisible bidi isolates would show those as boxes
too. So a picture writes text as :func:`drawable` gives it: the invisible formatting
characters left out, and each run of characters the font cannot draw shown as one
visible placeholder.
"""

from __future__ import annotations

import struct
import unicodedata
from functools import cache
from pathlib import Path
from typing import Final

PLACEHOLDER: Final = "\N{REPLACEMENT CHARACTER}"
"""What a picture shows for a run of characters its font has no glyph for."""

_UNICODE_FULL, _UNICODE_BMP = (3, 10), (3, 1)  # (platform, encoding) of a cmap subtable


@cache
def characters(path: Path) -> frozenset[int]:
    """The code points the TrueType font at ``path`` maps to a glyph."""
    data = path.read_bytes()
    subtables = _subtables(data)
    offset = subtables.get(_UNICODE_FULL, subtables.get(_UNICODE_BMP))
    if offset is None:
        raise ValueError(f"{path.name} has no Unicode character map")
    (form,) = struct.unpack_from(">H", data, offset)
    if form == 12:
        return _format_12(data, offset)
    if form == 4:
        return _format_4(data, offset)
    raise ValueError(f"{path.name}: character map format {form} is not read")


def drawable(text: str, font: Path) -> str:
    """``text`` as a picture drawn with ``font`` writes it: format characters (bidi
    isolates, joiners) and variation selectors left out, and each run of characters
    the font has no glyph for as one :data:`PLACEHOLDER`."""
    known = characters(font)
    shown: list[str] = []
    for char in text:
        if unicodedata.category(char) == "Cf" or _selects_variation(char):
            continue
        if ord(char) in known:
            shown.append(char)
        elif not shown or shown[-1] != PLACEHOLDER:
            shown.append(PLACEHOLDER)
    return "".join(shown)


def _selects_variation(char: str) -> bool:
    code = ord(char)
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF


def _subtables(data: bytes) -> dict[tuple[int, int], int]:
    """Where each cmap subtable starts in the file, by its platform and encoding."""
    (tables,) = struct.unpack_from(">H", data, 4)
    for n in range(tables):
        tag, _, start, _ = struct.unpack_from(">4sIII", data, 12 + 16 * n)
        if tag == b"cmap":
            (count,) = struct.unpack_from(">H", data, start + 2)
            found = {}
            for k in range(count):
                platform, encoding, offset = struct.unpack_from(">HHI", data, start + 4 + 8 * k)
                found[(platform, encoding)] = start + offset
            return found
    raise ValueError("the font has no cmap table")


def _format_12(data: bytes, offset: int) -> frozenset[int]:
    (groups,) = struct.unpack_from(">I", data, offset + 12)
    codes: set[int] = set()
    for n in range(groups):
        first, last, glyph = struct.unpack_from(">III", data, offset + 16 + 12 * n)
        codes.update(code for i, code in enumerate(range(first, last + 1)) if glyph + i)
    return frozenset(codes)


def _format_4(data: bytes, offset: int) -> frozenset[int]:
    (doubled,) = struct.unpack_from(">H", data, offset + 6)
    count = doubled // 2
    ends = offset + 14
    starts = ends + doubled + 2
    deltas = starts + doubled
    ranges = deltas + doubled
    codes: set[int] = set()
    for n in range(count):
        (end,) = struct.unpack_from(">H", data, ends + 2 * n)
        (start,) = struct.unpack_from(">H", data, starts + 2 * n)
        (delta,) = struct.unpack_from(">h", data, deltas + 2 * n)
        (range_offset,) = struct.unpack_from(">H", data, ranges + 2 * n)
        for code in range(start, min(end, 0xFFFE) + 1):
            if range_offset == 0:
                glyph = (code + delta) & 0xFFFF
            else:
                at = ranges + 2 * n + range_offset + 2 * (code - start)
                (glyph,) = struct.unpack_from(">H", data, at)
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                codes.add(code)
    return frozenset(codes)
